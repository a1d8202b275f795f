package gocmd_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/gocmd"
)

var userEnv = []string{
	"PATH=/usr/bin", "HOME=/home/u", "GOCACHE=/cache", "GOFLAGS=-mod=mod -toolexec=/evil",
	"GOPROXY=https://u:pw@proxy.example", "GOTOOLCHAIN=auto", "GOAUTH=git /evil", "GOCACHEPROG=/evil",
	"PERFLAB_TOKEN=t0ken", "AWS_SECRET_ACCESS_KEY=k", "GITHUB_TOKEN=g", "GIT_SSH_COMMAND=/evil", "GODEBUG=gctrace=1",
}

func TestEnviron(t *testing.T) {
	dir := t.TempDir()
	user := gocmd.Cmd{Env: userEnv, Dir: dir}
	if got := user.Environ(); !slices.Equal(got, userEnv) {
		t.Errorf("User run's environment %q, want it unchanged", got)
	}
	in := gocmd.Cmd{Env: userEnv, Dir: dir, Origin: gocmd.Input}
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "GOCACHE=/cache",
		"GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=readonly -buildvcs=false"}
	if got := in.Environ(); !slices.Equal(got, want) {
		t.Errorf("Input run's environment\n%q, want\n%q", got, want)
	}
}

// TestEnvironVendor: a module that vendors its dependencies is built
// from vendor/, which needs no download either.
func TestEnvironVendor(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "pkg", "sub")
	for _, d := range []string{sub, filepath.Join(root, "vendor")} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"go.mod", "vendor/modules.txt"} {
		if err := os.WriteFile(filepath.Join(root, f), nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	env := gocmd.Cmd{Env: userEnv, Dir: sub, Origin: gocmd.Input}.Environ()
	if got := env[len(env)-1]; got != "GOFLAGS=-mod=vendor -buildvcs=false" {
		t.Errorf("in a vendoring module: %s", got)
	}
}

func TestError(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "m.go"), []byte("package m\n\nvar x = undefinedThing\n"), 0o666)
	_, err := gocmd.Cmd{Dir: dir, Origin: gocmd.Input}.Output(context.Background(), "build", ".")
	var ge *gocmd.Error
	if !errors.As(err, &ge) || !strings.HasPrefix(err.Error(), "go build in "+dir+": ") ||
		!strings.Contains(err.Error(), "undefined: undefinedThing") || strings.Contains(err.Error(), "\n") {
		t.Errorf("broken package: %v, want one line: go build in DIR: the compiler's first error", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := (gocmd.Cmd{Origin: gocmd.Input}).Run(ctx, "version"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v, want context.Canceled", err)
	}
	if err := (gocmd.Cmd{Go: filepath.Join(dir, "nogo")}).Run(context.Background(), "version"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing go command: %v, want fs.ErrNotExist", err)
	}
}

func TestFirstLine(t *testing.T) {
	for in, want := range map[string]string{
		"": "",
		"# example.com/m\n./m.go:3:9: undefined: x\n./m.go:4:1: y\n": "./m.go:3:9: undefined: x",
		"  go: go.mod requires go >= 1.99.0  \n":                     "go: go.mod requires go >= 1.99.0",
	} {
		if got := gocmd.FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
}
