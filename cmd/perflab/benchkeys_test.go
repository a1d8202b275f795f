package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchgen"
)

// writeGenerated writes gen's input of size bytes to a file in dir.
func writeGenerated(t *testing.T, dir, name string, gen func(io.Writer, int) (int, error), size int) string {
	t.Helper()
	var buf bytes.Buffer
	if _, err := gen(&buf, size); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, buf.Bytes(), 0o666); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestBenchCompareManyKeys checks that an input with a new configuration
// key before each result is refused with one line and exit status 1 once
// its keys pass the budget for its size (340 kB took 2.2 GB and 12 s),
// and that inputs within the budget, or with many name keys, still match
// benchstat byte for byte.
func TestBenchCompareManyKeys(t *testing.T) {
	dir := t.TempDir()
	big := writeGenerated(t, dir, "big.txt", benchgen.ManyKeys, 340_000)
	stdout, stderr, code := perflabRun("bench", "compare", big)
	if code != 1 || stdout != "" || strings.Count(stderr, "\n") != 1 ||
		!strings.HasPrefix(stderr, "perflab: "+big+":") || !strings.Contains(stderr, "too many configuration keys for the input's size") {
		t.Errorf("bench compare of 340 kB of keys: exit %d, stdout %d bytes, stderr:\n%s", code, len(stdout), stderr)
	}

	oracle := benchstatPath(t)
	inputs := [][]string{
		{writeGenerated(t, dir, "keys.txt", benchgen.ManyKeys, 30_000)},
		{writeGenerated(t, dir, "names.txt", benchgen.ManyNames, 300_000)},
	}
	inputs = append(inputs, []string{"-format", "csv", inputs[0][0]}, []string{inputs[0][0], inputs[0][0]})
	for _, args := range inputs {
		want, err := exec.Command(oracle, args...).Output()
		if err != nil {
			t.Fatalf("benchstat %q: %v", args, err)
		}
		got, stderr, code := perflabRun(append([]string{"bench", "compare"}, args...)...)
		if code != 0 || got != string(want) {
			t.Errorf("bench compare %q: exit %d, stderr %q; stdout differs from benchstat's (%d and %d bytes)", args, code, stderr, len(got), len(want))
		}
	}
}
