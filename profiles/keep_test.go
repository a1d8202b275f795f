package profiles_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/profiles"
)

// Keep names a kept profile as go tool pprof does, numbering copies.
func ExampleKeep() {
	dir, err := os.MkdirTemp("", "kept")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		Mapping:    []*profile.Mapping{{ID: 1, File: "/usr/local/bin/server"}},
	}
	for range 2 {
		path, err := profiles.Keep(dir, p)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(filepath.Base(path))
	}
	// Output:
	// pprof.server.samples.cpu.001.pb.gz
	// pprof.server.samples.cpu.002.pb.gz
}

// TestKeepHostileNames keeps a profile whose binary and sample type names
// would, taken as they are, name a file outside the directory.
func TestKeepHostileNames(t *testing.T) {
	dir := t.TempDir()
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "../../../escaped", Unit: "count"}, {Type: "a\x1b[2Jb/c", Unit: "count"}},
		Mapping:    []*profile.Mapping{{ID: 1, File: "/bin/.."}},
	}
	path, err := profiles.Keep(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, "pprof......_.._.._escaped.a__2Jb_c.001.pb.gz"); path != want {
		t.Errorf("kept as %q, want %q", path, want)
	}
	if _, err := profile.Parse(mustOpen(t, path)); err != nil {
		t.Errorf("the kept profile does not parse: %v", err)
	}
}

// TestKeepDir follows pprof's order: $PPROF_TMPDIR, then $HOME/pprof.
func TestKeepDir(t *testing.T) {
	env := filepath.Join(t.TempDir(), "new", "dir")
	t.Setenv(profiles.KeepDirEnv, env)
	if dir, err := profiles.KeepDir(); err != nil || dir != env {
		t.Errorf("KeepDir() = %q, %v; want %q, created", dir, err, env)
	}
	home := t.TempDir()
	t.Setenv(profiles.KeepDirEnv, "")
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	if dir, err := profiles.KeepDir(); err != nil || dir != filepath.Join(home, "pprof") {
		t.Errorf("KeepDir() = %q, %v; want %q", dir, err, filepath.Join(home, "pprof"))
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
