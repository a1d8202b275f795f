package gocmd

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// KeptEnv lists the variables of perflab's environment an Input run of
// the go command keeps; it loses all others (PERFLAB_TOKEN, AWS_*,
// GITHUB_TOKEN, GIT_*, GOFLAGS, GOPROXY, GOAUTH, GOCACHEPROG, ...).
var KeptEnv = []string{
	// where programs, the user's files and temporary files are
	"PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "TMP", "TEMP",
	"XDG_CACHE_HOME", "XDG_CONFIG_HOME", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES",
	// Windows' equivalents
	"SYSTEMROOT", "SYSTEMDRIVE", "WINDIR", "COMSPEC", "PATHEXT",
	"USERPROFILE", "LOCALAPPDATA", "APPDATA", "PROGRAMDATA",
	// the go command's installation, caches and build target
	"GOROOT", "GOPATH", "GOCACHE", "GOMODCACHE", "GOENV", "GOWORK", "GOBIN",
	"GOOS", "GOARCH", "GO386", "GOAMD64", "GOARM", "GOARM64", "GOMIPS", "GOMIPS64",
	"GOPPC64", "GORISCV64", "GOWASM", "GOEXPERIMENT",
	// cgo's compilers
	"CGO_ENABLED", "CC", "CXX", "CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_LDFLAGS", "PKG_CONFIG",
}

// inputSettings are the variables an Input run always gets, after the
// kept ones; GOFLAGS is added by Environ.
var inputSettings = []string{"GOTOOLCHAIN=local", "GOPROXY=off"}

// Environ returns the environment the go command gets: Env (or
// perflab's own) as it is for a User run; for an Input run only the
// variables in KeptEnv, then GOFLAGS, GOTOOLCHAIN and GOPROXY set as the
// package documentation says.
func (c Cmd) Environ() []string {
	env := c.Env
	if env == nil {
		env = os.Environ()
	}
	if c.Origin != Input {
		return env
	}
	var out []string
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if ok && name != "" && kept(name) {
			out = append(out, kv)
		}
	}
	out = append(out, inputSettings...)
	return append(out, "GOFLAGS="+modFlag(c.Dir)+" -buildvcs=false")
}

// kept reports whether name is in KeptEnv; Windows' names ignore case.
func kept(name string) bool {
	if runtime.GOOS == "windows" {
		return slices.ContainsFunc(KeptEnv, func(k string) bool { return strings.EqualFold(k, name) })
	}
	return slices.Contains(KeptEnv, name)
}

// modFlag returns -mod=vendor if the module holding dir vendors its
// dependencies, else -mod=readonly: either way go.mod is never rewritten
// and nothing is downloaded.
func modFlag(dir string) string {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "-mod=readonly"
	}
	for {
		if fi, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil && fi.Mode().IsRegular() {
			if fi, err := os.Stat(filepath.Join(dir, "vendor", "modules.txt")); err == nil && fi.Mode().IsRegular() {
				return "-mod=vendor"
			}
			return "-mod=readonly"
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "-mod=readonly"
		}
		dir = parent
	}
}
