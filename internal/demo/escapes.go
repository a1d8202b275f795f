package demo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/report"
)

// escapes is perflab escapes on the naive run's allocation profile, as
// the command runs it with -nodefraction=0.01 -nodecount=6 on the saved
// file: the workload's functions name the copy of its source the demo
// wrote, which is built with the compiler's notes (it needs the go
// command; without it, the analysis has a BuildError and no reasons).
func (d *demoRun) escapes(ctx context.Context) error {
	d.command("escapes", "-nodefraction=0.01", "-nodecount=6", d.file(naiveAllocsFile))
	p := d.allocs.Copy()
	if err := report.Filter(p, report.DefaultOptions()); err != nil {
		return err
	}
	compilenotes.ResolveTrimmed(ctx, p, "", compilenotes.Options{})
	a, err := compilenotes.Analyze(ctx, p, compilenotes.AnalyzeOptions{})
	if err != nil {
		return err
	}
	d.res.Escapes = a
	cwd, _ := os.Getwd()
	return a.WriteText(d.w, compilenotes.TextOptions{Fraction: 0.01, Max: 6, Dir: cwd})
}

// escapesVerdict names the workload's biggest allocation sites that the
// compiler explains, with its reason and the category, and the first
// one's hint, or "".
func escapesVerdict(a *compilenotes.Analysis) string {
	if a == nil {
		return ""
	}
	if a.BuildError != "" {
		return "(No compiler reasons: " + a.BuildError + ".)"
	}
	var parts []string
	var hint string
	for _, st := range a.Sites {
		if len(parts) == 3 {
			break
		}
		if !strings.HasPrefix(st.Func, havlakPrefix) || len(st.Reasons) == 0 {
			continue
		}
		c, _ := compilenotes.LookupCategory(st.Category)
		if len(parts) == 0 {
			hint = st.Hint
		}
		parts = append(parts, fmt.Sprintf("%s:%d `%s` (%s, %s of the bytes)",
			filepath.Base(st.File), st.Line, st.Reasons[0], c.Title, pct(st.Value, a.Total)))
	}
	if len(parts) == 0 {
		return ""
	}
	return "The compiler says why (perflab escapes): " + strings.Join(parts, "; ") + ". For the first: " + hint + "."
}

func pct(v, total int64) string {
	if total == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(v)/float64(total))
}
