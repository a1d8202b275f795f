package bench

import (
	"fmt"
	"io"
	"math"
	"strings"

	"golang.org/x/perf/benchfmt"
)

// An Arg is one input named on the command line: a file, or "-" for
// standard input, optionally labelled as "label=file".
type Arg struct {
	// Path is the file to read; "-" means standard input.
	Path string
	// Label is the value of the .file key for the results read from Path.
	Label string
}

// ParseArgs turns command-line inputs into Args the way benchstat does:
// "label=path" sets the label, and a path given several times without a
// label is told apart as "path#0", "path#1", and so on.
func ParseArgs(args []string) []Arg {
	out := make([]Arg, 0, len(args))
	count := make(map[string]int)
	labelled := make([]bool, len(args))
	for i, a := range args {
		if label, path, ok := strings.Cut(a, "="); ok {
			out = append(out, Arg{Path: path, Label: label})
			labelled[i] = true
			continue
		}
		out = append(out, Arg{Path: a, Label: a})
		count[a]++
	}
	seen := make(map[string]int)
	for i := range out {
		if labelled[i] || count[out[i].Path] == 1 {
			continue
		}
		p := out[i].Path
		out[i].Label = fmt.Sprintf("%s#%d", p, seen[p])
		seen[p]++
	}
	return out
}

// Read reads the results in r, which holds the input a, into the Builder.
// Results the Config's filter rejects are dropped. Malformed lines do not stop the
// reading: each is passed to warn as a *benchfmt.SyntaxError naming the file
// and line, as benchstat prints them, and skipped. Read returns an error
// when r itself fails, for example on a line longer than 64 KiB, and a
// *KeysError (ErrTooManyKeys) when the inputs hold more configuration keys
// than their size allows (see KeysError), before the cost of so many
// keys, which grows with keys × results, is paid.
func (b *Builder) Read(a Arg, r io.Reader, warn func(error)) error {
	b.reader.Reset(counter{r, &b.budget}, a.Path, ".file", a.Label)
	for b.reader.Scan() {
		switch rec := b.reader.Result().(type) {
		case *benchfmt.SyntaxError:
			warn(rec)
		case *benchfmt.Result:
			if err := b.budget.charge(rec); err != nil {
				return err
			}
			b.lines++
			if !dropNaN(rec, warn) {
				continue
			}
			b.noteUnits(rec)
			if ok, err := b.filter.Apply(rec); !ok {
				if err != nil {
					warn(err)
				}
				continue
			}
			b.Add(rec)
		}
	}
	return b.reader.Err()
}

// Results reports how many benchmark results Read has seen, before
// filtering.
func (b *Builder) Results() int { return b.lines }

// InputUnits returns the units of the results Read has seen, before
// filtering, in order of first appearance, as benchfmt tidies them
// ("ns/op" becomes "sec/op").
func (b *Builder) InputUnits() []string { return b.units }

func (b *Builder) noteUnits(r *benchfmt.Result) {
	for _, v := range r.Values {
		if !b.seenUnit[v.Unit] {
			b.seenUnit[v.Unit] = true
			b.units = append(b.units, v.Unit)
		}
	}
}

// dropNaN removes NaN values from r, warning about each, and reports
// whether any value is left. The statistics cannot order NaNs (benchstat
// hangs on them), so they are treated as malformed.
func dropNaN(r *benchfmt.Result, warn func(error)) bool {
	kept := r.Values[:0]
	for _, v := range r.Values {
		if math.IsNaN(v.Value) {
			file, line := r.Pos()
			warn(&benchfmt.SyntaxError{FileName: file, Line: line, Msg: "NaN measurement of " + v.OrigUnit + " ignored"})
			continue
		}
		kept = append(kept, v)
	}
	r.Values = kept
	return len(kept) > 0
}
