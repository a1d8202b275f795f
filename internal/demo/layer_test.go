package demo

import (
	"os/exec"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/perflab/perflab/examples/havlak"
)

// TestNoPublicPackageImportsExamples: the example programs are case
// studies, not API; only the command and internal packages such as this
// one may build on them (issue 22, step 9). One go list, about a second.
func TestNoPublicPackageImportsExamples(t *testing.T) {
	const mod = "github.com/perflab/perflab/"
	out, err := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, mod+"...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		pkg, deps, _ := strings.Cut(line, " ")
		rel := strings.TrimPrefix(pkg, mod)
		if strings.HasPrefix(rel, "examples/") || strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "cmd/") {
			continue
		}
		for _, d := range strings.Fields(deps) {
			if strings.HasPrefix(d, mod+"examples/") {
				t.Errorf("public package %s imports %s", pkg, d)
				break
			}
		}
	}
}

// TestHavlakPrefixNamesTheWorkload: the prefix the verdict matches comes
// from the workload package, so it names its functions wherever it lives.
func TestHavlakPrefixNamesTheWorkload(t *testing.T) {
	name := runtime.FuncForPC(reflect.ValueOf(havlak.NewCFG).Pointer()).Name()
	if !strings.HasPrefix(name, havlakPrefix) || strings.Contains(strings.TrimPrefix(name, havlakPrefix), "/") {
		t.Errorf("havlak.NewCFG is %q; havlakPrefix %q does not start it", name, havlakPrefix)
	}
}
