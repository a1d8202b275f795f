//go:build unix

package compilenotes_test

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/internal/gocmd"
)

// The packages compilenotes builds are those a profile names: the tests
// below check what the go command gets and what it may not do (issue 24.1).

// stubGo writes a shell script standing in for the go command: each run
// appends "start" and "end" lines to dir/log, writes its arguments and
// its environment to dir/run.PID, answers go list and go env as the real
// one would for a main package, and sleeps for pause (e.g. "0.1").
func stubGo(t *testing.T, dir, pause string) string {
	t.Helper()
	script := fmt.Sprintf(`#!/bin/sh
echo start >>'%[1]s/log'
{ printf '%%s\n' "$@"; echo --env--; env; } >'%[1]s/run.'$$
case "$1" in
list) echo main ;;
env) echo /nonexistent/goroot; echo /nonexistent/modcache ;;
esac
sleep %[2]s
echo end >>'%[1]s/log'
`, dir, pause)
	path := filepath.Join(dir, "go")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// stubRuns returns the arguments and environment of every run of a stub.
func stubRuns(t *testing.T, dir string) (runs [][2][]string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "run.*"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		args, env, _ := strings.Cut(string(data), "--env--\n")
		runs = append(runs, [2][]string{strings.Fields(args), strings.Split(strings.TrimSpace(env), "\n")})
	}
	return runs
}

// writeModule writes a one-file main module into a new directory.
func writeModule(t *testing.T, gomod string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range map[string]string{
		"go.mod":  gomod,
		"main.go": "package main\n\nvar sink *int\n\nfunc main() { x := 1; sink = &x }\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestBuildEnvironment: the go command gets neither perflab's secrets nor
// the user's GOFLAGS, GOPROXY and GOTOOLCHAIN, but the settings that keep
// it from rewriting go.mod, running git, downloading anything.
func TestBuildEnvironment(t *testing.T) {
	secrets := map[string]string{
		"PERFLAB_TOKEN": "perflab-s3cret", "AWS_SECRET_ACCESS_KEY": "aws-s3cret",
		"GITHUB_TOKEN": "gh-s3cret", "DB_PASSWORD": "db-s3cret", "GIT_CONFIG_GLOBAL": "/tmp/evil",
	}
	for k, v := range secrets {
		t.Setenv(k, v)
	}
	t.Setenv("GOFLAGS", "-mod=mod")
	t.Setenv("GOPROXY", "https://proxy.invalid")
	t.Setenv("GOTOOLCHAIN", "auto")
	stub := t.TempDir()
	o := compilenotes.Options{Go: stubGo(t, stub, "0")}
	dir := writeModule(t, "module example.com/m\n\ngo 1.21\n")
	if _, err := compilenotes.Build(context.Background(), []string{dir}, o); err != nil {
		t.Fatal(err)
	}
	p := &profile.Profile{Function: []*profile.Function{{ID: 1, Name: "m.F", Filename: "example.com/m/x.go"}}}
	compilenotes.ResolveTrimmed(context.Background(), p, dir, o)
	compilenotes.LocalFiles(context.Background(), o)("/x.go")

	runs := stubRuns(t, stub)
	verbs := map[string]bool{}
	for _, r := range runs {
		args, env := r[0], r[1]
		verbs[args[0]] = true
		vars := map[string]string{}
		for _, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			vars[k] = v
		}
		for k := range secrets {
			if _, ok := vars[k]; ok {
				t.Errorf("go %s got %s", args[0], k)
			}
		}
		want := map[string]string{"GOFLAGS": "-mod=readonly -buildvcs=false", "GOTOOLCHAIN": "local", "GOPROXY": "off", "PATH": os.Getenv("PATH")}
		for k, v := range want {
			if vars[k] != v {
				t.Errorf("go %s: %s=%q, want %q", args[0], k, vars[k], v)
			}
		}
	}
	for _, v := range []string{"list", "build", "env"} {
		if !verbs[v] {
			t.Errorf("no go %s among the runs %v", v, runs)
		}
	}
}

// TestBuildConcurrencyCap: 20 builds at once (20 viewer requests for
// different functions) run at most gocmd.MaxInputRuns go commands at a
// time.
func TestBuildConcurrencyCap(t *testing.T) {
	stub := t.TempDir()
	o := compilenotes.Options{Go: stubGo(t, stub, "0.1")}
	var wg sync.WaitGroup
	var failed atomic.Int32
	for range 20 {
		dir := writeModule(t, "module example.com/m\n\ngo 1.21\n")
		wg.Go(func() {
			if _, err := compilenotes.Build(context.Background(), []string{dir}, o); err != nil {
				t.Error(err)
				failed.Add(1)
			}
		})
	}
	wg.Wait()
	f, err := os.Open(filepath.Join(stub, "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	running, most, starts := 0, 0, 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		if sc.Text() == "start" {
			running++
			starts++
		} else {
			running--
		}
		most = max(most, running)
	}
	if starts != 40 || most > gocmd.MaxInputRuns {
		t.Errorf("%d go commands, at most %d at once; want 40 (go list and go build for each), at most %d", starts, most, gocmd.MaxInputRuns)
	}
}

// TestBuildRunsNoGitHooks: a module in a git repository whose
// core.fsmonitor names a script: building the notes must not run git, or
// git would run the script.
func TestBuildRunsNoGitHooks(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	t.Setenv("GOFLAGS", "-buildvcs=auto") // the go command's default
	dir := writeModule(t, "module example.com/m\n\ngo 1.21\n")
	marker := filepath.Join(t.TempDir(), "hook-ran")
	hook := filepath.Join(t.TempDir(), "fsmonitor.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho ran >>'"+marker+"'\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"config", "core.fsmonitor", hook}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", args[0], err, out)
		}
	}
	ns, err := compilenotes.Build(context.Background(), []string{dir}, compilenotes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ns.Lines(filepath.Join(dir, "main.go"), 5)) == 0 {
		t.Errorf("no notes for main.go:5")
	}
	if data, err := os.ReadFile(marker); err == nil {
		t.Errorf("building the notes ran the repository's fsmonitor hook: %q", data)
	}
}

// proxyRecorder is a module proxy on loopback that records what it is
// asked and has nothing; the go command is pointed at it, so that an
// attempt to download shows without leaving the machine.
func proxyRecorder(t *testing.T) *[]string {
	t.Helper()
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("GOPROXY", srv.URL)
	t.Setenv("GOSUMDB", "off")
	return &asked
}

// TestBuildToolchainLine: a go.mod asking for a toolchain newer than the
// local one gets a clear error, not a download (with GOTOOLCHAIN=auto in
// the user's environment).
func TestBuildToolchainLine(t *testing.T) {
	asked := proxyRecorder(t)
	t.Setenv("GOTOOLCHAIN", "auto")
	dir := writeModule(t, "module example.com/m\n\ngo 1.99.0\n\ntoolchain go1.99.0\n")
	_, err := compilenotes.Build(context.Background(), []string{dir}, compilenotes.Options{})
	if err == nil || !strings.Contains(err.Error(), "go >= 1.99.0") || !strings.Contains(err.Error(), "GOTOOLCHAIN=local") {
		t.Errorf("build of a go 1.99.0 module: %v, want the go command's error saying it needs go 1.99.0 (GOTOOLCHAIN=local)", err)
	}
	if len(*asked) > 0 {
		t.Errorf("the go command asked the module proxy for %q", *asked)
	}
}

// TestResolveTrimmedNoDownload: import paths a profile names are looked
// up locally only, whatever the user's GOFLAGS say.
func TestResolveTrimmedNoDownload(t *testing.T) {
	asked := proxyRecorder(t)
	t.Setenv("GOFLAGS", "-mod=mod")
	dir := writeModule(t, "module example.com/m\n\ngo 1.21\n")
	p := &profile.Profile{Function: []*profile.Function{{ID: 1, Name: "evil.F", Filename: "evil.example/pkg/x.go"}}}
	if n := compilenotes.ResolveTrimmed(context.Background(), p, dir, compilenotes.Options{}); n != 0 {
		t.Errorf("resolved %d names, want 0", n)
	}
	if len(*asked) > 0 {
		t.Errorf("the go command asked the module proxy for %q", *asked)
	}
}

// TestLocalFilesRefusesProc: a source file under /proc (here the current
// directory's main.go seen through /proc/self/cwd) is not the user's code
// to build (issue 24.3).
func TestLocalFilesRefusesProc(t *testing.T) {
	dir := writeModule(t, "module example.com/m\n\ngo 1.21\n")
	t.Chdir(dir)
	if _, err := os.Stat("/proc/self/cwd/main.go"); err != nil {
		t.Skip("no /proc/self/cwd")
	}
	local := compilenotes.LocalFiles(context.Background(), compilenotes.Options{})
	if local("/proc/self/cwd/main.go") || !local(filepath.Join(dir, "main.go")) {
		t.Errorf("LocalFiles: /proc/self/cwd/main.go %v, %s %v; want false, true",
			local("/proc/self/cwd/main.go"), filepath.Join(dir, "main.go"), local(filepath.Join(dir, "main.go")))
	}
}
