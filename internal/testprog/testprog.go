// Package testprog builds real Go programs during tests, so that tests
// profile, trace and load real processes rather than mocks.
package testprog

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Build compiles a main package made of the given files (name to contents)
// and returns the path of the binary. The program may import only the
// standard library. Go's build cache makes repeated builds cheap.
func Build(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module testprog\n\ngo 1.26\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return build(t, dir, ".")
}

// BuildSource compiles a one-file main package.
func BuildSource(t testing.TB, src string) string {
	t.Helper()
	return Build(t, map[string]string{"main.go": src})
}

// BuildPackage compiles a main package of this module, such as
// "github.com/perflab/perflab/cmd/perflab", and returns the binary's path.
func BuildPackage(t testing.TB, importPath string) string {
	t.Helper()
	return build(t, "", importPath)
}

func build(t testing.TB, dir, pkg string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prog")
	gobin, err := goCommand()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(gobin, "build", "-o", bin, pkg)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}
