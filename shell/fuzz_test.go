package shell

import (
	"io"
	"strings"
	"testing"

	"github.com/perflab/perflab/report"
)

// FuzzShell feeds arbitrary command lines to the shell, and completes
// them: nothing may panic.
func FuzzShell(f *testing.F) {
	for _, s := range []string{"top5 -cum", "peek main", "nodefraction=0.1", "sample_index=cpu",
		"cum=true", "list work >", "tags -worker", ":", "granularity=files", "o", "help top", "trim=false",
		"help lines", "mean_cpu", "lines", "top -mall"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		if strings.Contains(line, ">") {
			return // would create files
		}
		sh := New(testProfile(), report.DefaultOptions(), io.Discard, io.Discard)
		sh.complete(line)
		sh.autoComplete(line, len(line), '\t')
		sh.Exec(line)
		sh.Exec("top")
	})
}
