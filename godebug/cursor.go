package godebug

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// A cursor walks a trace line left to right. The first failure sticks:
// later calls do nothing and return zero values, so a parser can run its
// whole sequence and check err once at the end.
type cursor struct {
	s   string
	err error
}

func (c *cursor) failf(format string, args ...any) {
	if c.err == nil {
		c.err = fmt.Errorf(format, args...)
	}
}

// lit consumes the literal p or fails.
func (c *cursor) lit(p string) {
	if c.err != nil {
		return
	}
	if !strings.HasPrefix(c.s, p) {
		c.failf("want %q at %q", p, clip(c.s))
		return
	}
	c.s = c.s[len(p):]
}

// opt consumes the literal p if it is there and reports whether it was.
func (c *cursor) opt(p string) bool {
	if c.err != nil || !strings.HasPrefix(c.s, p) {
		return false
	}
	c.s = c.s[len(p):]
	return true
}

// span consumes the leading run of bytes in set.
func (c *cursor) span(set string, what string) string {
	if c.err != nil {
		return ""
	}
	i := 0
	for i < len(c.s) && strings.IndexByte(set, c.s[i]) >= 0 {
		i++
	}
	if i == 0 {
		c.failf("want %s at %q", what, clip(c.s))
		return ""
	}
	tok := c.s[:i]
	c.s = c.s[i:]
	return tok
}

const digits = "0123456789"

// int consumes a decimal integer, optionally negative.
func (c *cursor) int() int64 {
	neg := c.opt("-")
	tok := c.span(digits, "an integer")
	if c.err != nil {
		return 0
	}
	n, err := strconv.ParseInt(tok, 10, 64)
	if err != nil {
		c.failf("integer %q out of range", tok)
	}
	if neg {
		n = -n
	}
	return n
}

// nat consumes a non-negative decimal integer.
func (c *cursor) nat() int64 {
	if strings.HasPrefix(c.s, "-") {
		c.failf("negative number at %q", clip(c.s))
		return 0
	}
	return c.int()
}

// float consumes a number as the runtime prints floats: 0.25,
// 1.0700539755034253, +2.500000e-001, NaN, +Inf.
func (c *cursor) float() float64 {
	tok := c.span(digits+"+-.eENaIfn", "a number")
	if c.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil {
		c.failf("bad number %q", tok)
	}
	return f
}

// ms consumes a non-negative decimal number of milliseconds.
func (c *cursor) ms() time.Duration { return c.decimal(time.Millisecond, "milliseconds") }

// seconds consumes a non-negative decimal number of seconds.
func (c *cursor) seconds() time.Duration { return c.decimal(time.Second, "seconds") }

// decimal consumes a non-negative decimal number of units, named what in
// errors.
func (c *cursor) decimal(unit time.Duration, what string) time.Duration {
	tok := c.span(digits+".", what)
	if c.err != nil {
		return 0
	}
	f, err := strconv.ParseFloat(tok, 64)
	if err != nil || f > float64(math.MaxInt64)/float64(unit) {
		c.failf("bad %s %q", what, tok)
		return 0
	}
	return time.Duration(math.Round(f * float64(unit)))
}

// mb consumes a whole number of megabytes and returns bytes.
func (c *cursor) mb() int64 {
	return mbBytes(c, c.int())
}

// mbBytes turns n, a whole number of megabytes, into bytes, failing c
// when n is out of range.
func mbBytes(c *cursor, n int64) int64 {
	if n < 0 || n > math.MaxInt64>>20 {
		c.failf("size %d MB out of range", n)
		return 0
	}
	return n << 20
}

// end fails unless only spaces are left.
func (c *cursor) end() {
	if c.err == nil && strings.TrimSpace(c.s) != "" {
		c.failf("unexpected %q at end", clip(c.s))
	}
}

func clip(s string) string {
	if len(s) > 24 {
		return s[:24] + "..."
	}
	return s
}
