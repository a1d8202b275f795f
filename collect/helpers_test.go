package collect_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/profiles"
	"golang.org/x/exp/trace"
)

const progPkg = "github.com/perflab/perflab/collect/internal/cmd/collectprog"

// buildProg compiles collectprog, the test program that imports collect.
func buildProg(t *testing.T) string {
	t.Helper()
	return testprog.BuildPackage(t, progPkg)
}

// run runs the test program with args and extra environment variables,
// returning its stdout, stderr and exit error.
func run(t *testing.T, bin string, env []string, args ...string) (string, string, error) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(cleanEnv(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// cleanEnv is the test's environment without PERFLAB_PROFILE settings.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PERFLAB_PROFILE") {
			env = append(env, kv)
		}
	}
	return env
}

// load reads a profile file with perflab's own loader.
func load(t *testing.T, name string) *profile.Profile {
	t.Helper()
	p, err := profiles.Load(context.Background(), []string{name}, profiles.Options{})
	if err != nil {
		t.Fatalf("loading %s: %v", filepath.Base(name), err)
	}
	return p
}

// parse decodes a served profile with perflab's own loader.
func parse(t *testing.T, name string, data []byte) *profile.Profile {
	t.Helper()
	p, err := profiles.Parse(name, bytes.NewReader(data), profiles.Options{})
	if err != nil {
		t.Fatalf("parsing %s (%d bytes, starting %q): %v", name, len(data), clipBytes(data), err)
	}
	return p
}

func clipBytes(b []byte) []byte {
	if len(b) > 60 {
		return b[:60]
	}
	return b
}

// cum returns the total of sample value i over the samples whose stack
// includes a function named fn.
func cum(p *profile.Profile, fn string, i int) int64 {
	var total int64
	for _, s := range p.Sample {
		if hasFunc(s, fn) {
			total += s.Value[i]
		}
	}
	return total
}

func hasFunc(s *profile.Sample, fn string) bool {
	for _, loc := range s.Location {
		for _, ln := range loc.Line {
			if ln.Function != nil && ln.Function.Name == fn {
				return true
			}
		}
	}
	return false
}

// sampleTypes lists a profile's sample types as "type/unit".
func sampleTypes(p *profile.Profile) string {
	var ts []string
	for _, st := range p.SampleType {
		ts = append(ts, st.Type+"/"+st.Unit)
	}
	return strings.Join(ts, ",")
}

// index returns the position of sample type typ, failing if absent.
func index(t *testing.T, p *profile.Profile, typ string) int {
	t.Helper()
	for i, st := range p.SampleType {
		if st.Type == typ {
			return i
		}
	}
	t.Fatalf("profile has sample types %s, no %s", sampleTypes(p), typ)
	return -1
}

// readTrace decodes a Go execution trace to its end with
// golang.org/x/exp/trace, failing the test if it is not a whole, valid
// trace, and returns how many events it holds.
func readTrace(t *testing.T, name string, data []byte) int {
	t.Helper()
	if _, err := trace.NewReader(bytes.NewReader(data)); err != nil {
		t.Fatalf("%s (%d bytes, starting %q): %v", name, len(data), clipBytes(data), err)
	}
	return readTraceFrom(t, name, bytes.NewReader(data))
}

// readTraceFrom decodes a trace from a stream, as readTrace does.
func readTraceFrom(t *testing.T, name string, in io.Reader) int {
	t.Helper()
	r, err := trace.NewReader(in)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	n := 0
	for {
		_, err := r.ReadEvent()
		if err == io.EOF {
			return n
		}
		if err != nil {
			t.Fatalf("%s: after %d events: %v", name, n, err)
		}
		n++
	}
}

func osArgs() []string { return os.Args }
