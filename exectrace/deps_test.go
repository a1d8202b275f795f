package exectrace

import (
	"os/exec"
	"strings"
	"testing"
)

// TestReadsWithoutPresenting keeps exectrace a reader: pages, scripts and
// their templates belong to package timeline and the views (issue 22,
// step 4), as Go keeps internal/trace/traceviewer apart from
// internal/trace. One go list, a fraction of a second.
func TestReadsWithoutPresenting(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "embed", "html/template", "net/http", "github.com/perflab/perflab/internal/htmlpage":
			t.Errorf("exectrace imports %s: presentation belongs to package timeline", pkg)
		}
	}
}
