package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/internal/term"
	rpt "github.com/perflab/perflab/report"
)

// addCompilerNotes sets o.LineNotes to the compiler's notes for the
// functions list shows: the packages holding them are built with the
// compiler's diagnostics. If that fails, one line on stderr says why and
// the listing stays plain.
func addCompilerNotes(ctx context.Context, p *profile.Profile, o *rpt.Options, stderr io.Writer) {
	rx, err := regexp.Compile(o.Symbol)
	if err != nil {
		return // list reports the bad regexp
	}
	local := compilenotes.LocalFiles(ctx, compilenotes.Options{})
	seen := map[string]bool{}
	var dirs []string
	for _, fn := range p.Function {
		if !rx.MatchString(fn.Name) || !local(fn.Filename) {
			continue
		}
		if d := filepath.Dir(fn.Filename); !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 {
		fmt.Fprintf(stderr, "perflab list: no compiler notes: no source of the matching functions found outside GOROOT and the module cache\n")
		return
	}
	sort.Strings(dirs)
	ns, err := compilenotes.Build(ctx, dirs, compilenotes.Options{})
	if err != nil {
		fmt.Fprintf(stderr, "perflab list: no compiler notes: %s\n", term.OneLine(err.Error()))
		return
	}
	o.LineNotes = ns
}
