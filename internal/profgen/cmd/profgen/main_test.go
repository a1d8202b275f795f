package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
)

var smallFlags = []string{"-samples", "200", "-locations", "300", "-functions", "100", "-depth", "20"}

func TestRunWritesProfile(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "p.pb.gz")
	var stdout, stderr bytes.Buffer
	if err := run(append([]string{"-o", out, "-src", filepath.Join(dir, "src")}, smallFlags...), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	p := reporttest.ReadProfile(t, out)
	if len(p.Sample) != 200 || len(p.Location) != 300 || len(p.Function) != 100 {
		t.Errorf("got %d samples, %d locations, %d functions; want 200, 300, 100", len(p.Sample), len(p.Location), len(p.Function))
	}
	if _, err := os.Stat(p.Function[1].Filename); err != nil || !strings.HasPrefix(p.Function[1].Filename, dir) {
		t.Errorf("source of %s: %q, %v", p.Function[1].Name, p.Function[1].Filename, err)
	}
}

func TestRunCachePrintsPath(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if err := run(append([]string{"-cache", t.TempDir()}, smallFlags...), &stdout, &stderr); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	if _, err := os.Stat(strings.TrimSpace(stdout.String())); err != nil {
		t.Errorf("printed path %q: %v", stdout.String(), err)
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{{}, {"-o", "x", "extra"}, {"-samples", "many"}} {
		var stdout, stderr bytes.Buffer
		if err := run(args, &stdout, &stderr); !errors.Is(err, errUsage) || !strings.Contains(stderr.String(), "-cache") {
			t.Errorf("run(%q) = %v, stderr %q; want errUsage and the usage", args, err, stderr.String())
		}
	}
}
