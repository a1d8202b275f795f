package bench

import (
	"errors"
	"fmt"
	"io"

	"golang.org/x/perf/benchfmt"
)

// The key budget bounds what golang.org/x/perf/benchproc spends on
// configuration keys. benchproc gives every configuration key a field of
// the projection and, for each result, clears and fills a row of all the
// fields seen so far, then keeps a copy of that row for each new table
// key. An input that adds a key before each result ("key1234: v") thus
// costs time and memory in keys × results, the square of its size:
// 340 KB of it took benchstat 4.6 s and 660 MB. Read charges each result
// the keys seen so far plus the keys it carries, and refuses the input
// once the charge passes keyBudgetFloor plus keyBudgetPerByte for each
// byte read, which bounds benchproc's share of time and memory to a
// multiple of the input's size. Go test output carries a handful of keys
// per result of 80 bytes or so, about 0.1 per byte, far below the limit.
const (
	keyBudgetFloor   = 1 << 20
	keyBudgetPerByte = 2
)

// ErrTooManyKeys is the cause a *KeysError unwraps to.
var ErrTooManyKeys = errors.New("too many configuration keys for the input's size")

// A KeysError reports an input whose configuration keys would cost
// benchproc more time and memory than the key budget allows for the
// input's size.
type KeysError struct {
	// File and Line locate the result that crossed the budget.
	File string
	Line int
	// Keys is the number of distinct configuration keys seen, Results
	// the number of results and Bytes the bytes of input read.
	Keys, Results int
	Bytes         int64
	// Cost is the key slots charged, Limit the budget for Bytes.
	Cost, Limit int64
}

func (e *KeysError) Error() string {
	return fmt.Sprintf("%s:%d: %v: %d distinct keys over %d results in the first %d bytes would cost x/perf's benchproc time and memory in keys × results (%d); the limit is %d + %d per byte read",
		e.File, e.Line, ErrTooManyKeys, e.Keys, e.Results, e.Bytes, e.Cost, keyBudgetFloor, keyBudgetPerByte)
}

func (e *KeysError) Unwrap() error { return ErrTooManyKeys }

// keyBudget keeps the accounts of the key budget over every input.
type keyBudget struct {
	bytes   int64           // input bytes read
	cost    int64           // key slots charged
	results int             // results charged
	keys    map[string]bool // distinct configuration keys
}

// charge charges r and returns a *KeysError when the budget is spent.
// The charge comes before the keys are counted, so that the work done on
// a refused result is within the budget too.
func (kb *keyBudget) charge(r *benchfmt.Result) error {
	kb.results++
	kb.cost += int64(len(kb.keys) + len(r.Config))
	if limit := keyBudgetFloor + keyBudgetPerByte*kb.bytes; kb.cost > limit {
		file, line := r.Pos()
		return &KeysError{File: file, Line: line, Keys: len(kb.keys), Results: kb.results, Bytes: kb.bytes, Cost: kb.cost, Limit: limit}
	}
	if kb.keys == nil {
		kb.keys = make(map[string]bool)
	}
	for _, c := range r.Config {
		kb.keys[c.Key] = true
	}
	return nil
}

// counter counts the bytes read through it into the budget.
type counter struct {
	r  io.Reader
	kb *keyBudget
}

func (c counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.kb.bytes += int64(n)
	return n, err
}
