package report

import (
	"os/exec"
	"strings"
	"testing"
)

// TestGeneratesWithoutFlagsOrURLs keeps report a generator: how settings
// become flags, shell options and URL parameters is package settings'
// (issue 22, step 4), as pprof keeps internal/driver apart from
// internal/report. One go list, a fraction of a second.
func TestGeneratesWithoutFlagsOrURLs(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", `{{join .Imports " "}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "flag", "net/url", "github.com/perflab/perflab/settings":
			t.Errorf("report imports %s: the settings-to-flags and URL layer belongs to package settings", pkg)
		}
	}
}
