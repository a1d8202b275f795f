package godebug

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependsOnNoPerflabPackage keeps the domain package free of charts
// and terminal code: those belong to the command (issue 9's layering).
// The one table of units, a leaf, is allowed.
func TestDependsOnNoPerflabPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		if strings.HasPrefix(pkg, "github.com/perflab/perflab/") && pkg != "github.com/perflab/perflab/godebug" && pkg != "github.com/perflab/perflab/internal/units" {
			t.Errorf("godebug depends on %s", pkg)
		}
	}
}
