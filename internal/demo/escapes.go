package demo

import (
	"context"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/examples/havlak"
)

// havlakModule is the go.mod the embedded workload is built with.
var havlakModule = "module " + havlakPath + "\n\ngo 1.26\n"

// whyAllocated is perflab escapes on the naive run's allocation profile:
// the workload's embedded source is written to a temporary directory and
// built there with the compiler's notes, so it works on a machine without
// the source tree (it needs the go command; without it, the analysis has
// a BuildError and no reasons). Sites' files are the workload's base names.
func whyAllocated(ctx context.Context, allocs *profile.Profile) (*compilenotes.Analysis, error) {
	dir, err := os.MkdirTemp("", "perflab-demo-escapes-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	if err := os.CopyFS(dir, havlak.Source); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(havlakModule), 0o644); err != nil {
		return nil, err
	}
	p := allocs.Copy()
	for _, f := range p.Function {
		if strings.HasPrefix(f.Name, havlakPrefix) && embedded(path.Base(f.Filename)) {
			f.Filename = filepath.Join(dir, path.Base(f.Filename))
		}
	}
	inDir := dir + string(filepath.Separator)
	a, err := compilenotes.Analyze(ctx, p, compilenotes.AnalyzeOptions{
		SampleIndex: "alloc_space",
		Local:       func(file string) bool { return strings.HasPrefix(file, inDir) },
	})
	if err != nil {
		return nil, err
	}
	for _, st := range a.Sites {
		if strings.HasPrefix(st.File, inDir) {
			st.File = filepath.Base(st.File)
		}
	}
	a.BuildError = strings.ReplaceAll(a.BuildError, inDir, "")
	return a, nil
}

// writeEscapes prints the biggest sites with the compiler's reasons.
func writeEscapes(w io.Writer, a *compilenotes.Analysis) error {
	fmt.Fprintf(w, "\nWhy they allocate: perflab escapes (the compiler's reasons for each line)\n\n")
	return a.WriteText(w, compilenotes.TextOptions{Fraction: 0.01, Max: 6})
}

// escapesVerdict names the workload's biggest allocation sites that the
// compiler explains, with its reason and the category's hint, or "".
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
			hint = c.Hint
		}
		parts = append(parts, fmt.Sprintf("%s:%d `%s` (%s, %s of the bytes)",
			st.File, st.Line, st.Reasons[0], c.Title, pct(st.Value, a.Total)))
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
