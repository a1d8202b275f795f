package program

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/perflab/perflab/internal/gocmd"
)

// A goPlan is a "go test" or "go run" command line that is built first,
// without the program's environment (GODEBUG, the tracer), so that only the
// resulting binary runs under observation: the go command, the compiler
// and the linker are Go programs too, and their own GC and scheduler
// traces would mix with the program's.
type goPlan struct {
	goTool string   // the go command as given
	verb   string   // "test" or "run"
	build  []string // build flags, given to go list and to go test -c or go build
	pkgs   []string // the package, or the .go files of go run
	args   []string // the binary's arguments: test flags as -test.NAME, or go run's arguments
	timed  bool     // the test flags set -test.timeout
	outdir bool     // the test flags set -test.outputdir
}

// Flags of the go command that take a value, and boolean ones, that go to
// the build (see "go help build"). Flags of go test that take a value and
// go to the test binary, and boolean ones (see "go help testflag").
var (
	goBuildValueFlags = setOf("p", "asmflags", "buildmode", "compiler", "gccgoflags", "gcflags",
		"installsuffix", "ldflags", "mod", "modfile", "overlay", "pgo", "pkgdir", "tags", "toolexec",
		"covermode", "coverpkg")
	goBuildBoolFlags = setOf("a", "n", "race", "msan", "asan", "cover", "work", "x", "linkshared",
		"modcacherw", "trimpath", "buildvcs")
	testValueFlags = setOf("bench", "benchtime", "blockprofile", "blockprofilerate", "count",
		"coverprofile", "cpu", "cpuprofile", "fuzz", "fuzzminimizetime", "fuzztime", "list",
		"memprofile", "memprofilerate", "mutexprofile", "mutexprofilefraction", "outputdir",
		"parallel", "run", "shuffle", "skip", "timeout", "trace")
	testBoolFlags = setOf("benchmem", "failfast", "fullpath", "short", "v")
)

func setOf(names ...string) map[string]bool {
	m := map[string]bool{}
	for _, n := range names {
		m[n] = true
	}
	return m
}

// parseGoPlan returns the plan for argv when it is "go test" or "go run",
// and nil for any other program.
func parseGoPlan(argv []string) (*goPlan, error) {
	base := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	if base != "go" || len(argv) < 2 || (argv[1] != "test" && argv[1] != "run") {
		return nil, nil
	}
	p := &goPlan{goTool: argv[0], verb: argv[1]}
	args := argv[2:]
	for len(args) > 0 {
		a := args[0]
		args = args[1:]
		if !strings.HasPrefix(a, "-") || a == "-" {
			if p.verb == "run" {
				return p, p.runPositional(a, args)
			}
			if len(p.pkgs) > 0 {
				return nil, usagef("-- go test: give one package, not %s and %s", p.pkgs[0], a)
			}
			p.pkgs = []string{a}
			continue
		}
		if a == "-args" && p.verb == "test" {
			p.args = append(p.args, args...)
			break
		}
		var err error
		if args, err = p.flag(a, args); err != nil {
			return nil, err
		}
	}
	if len(p.pkgs) == 0 {
		if p.verb == "run" {
			return nil, usagef("-- go run: no package or .go files to run")
		}
		p.pkgs = []string{"."}
	}
	return p, nil
}

// runPositional takes go run's first positional argument, a and rest:
// the .go files or the package, then the program's arguments.
func (p *goPlan) runPositional(a string, rest []string) error {
	p.pkgs = []string{a}
	if strings.HasSuffix(a, ".go") {
		for len(rest) > 0 && strings.HasSuffix(rest[0], ".go") {
			p.pkgs, rest = append(p.pkgs, rest[0]), rest[1:]
		}
	}
	p.args = rest
	return nil
}

// flag sorts the flag a, which may take its value from rest, into the
// build or the test binary's arguments, and returns what is left of rest.
func (p *goPlan) flag(a string, rest []string) ([]string, error) {
	name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
	takeValue := func() []string {
		if hasValue || len(rest) == 0 {
			return []string{a}
		}
		v := []string{a, rest[0]}
		rest = rest[1:]
		return v
	}
	switch {
	case name == "c" || name == "o" || name == "exec" || name == "json" || name == "i" || name == "C":
		return nil, usagef("-- go %s: perflab builds the program itself and cannot honour -%s", p.verb, name)
	case name == "vet" && p.verb == "test":
		takeValue() // go test -c does not vet
	case goBuildValueFlags[name]:
		p.build = append(p.build, takeValue()...)
	case goBuildBoolFlags[name] || (name == "v" && p.verb == "run"):
		p.build = append(p.build, a)
	case p.verb == "run":
		return nil, usagef("-- go run: unknown build flag %s", a)
	case testValueFlags[name], testBoolFlags[name]:
		v := []string{a}
		if testValueFlags[name] {
			v = takeValue()
		}
		p.timed = p.timed || name == "timeout"
		p.outdir = p.outdir || name == "outputdir"
		if name == "coverprofile" {
			p.build = append(p.build, "-cover")
		}
		v[0] = "-test." + strings.TrimLeft(v[0], "-")
		p.args = append(p.args, v...)
	default: // as go test does, unknown flags go to the test binary
		p.timed = p.timed || name == "test.timeout"
		p.outdir = p.outdir || name == "test.outputdir"
		p.args = append(p.args, a)
	}
	return rest, nil
}

// exe names an executable file for this system.
func exe(name string) string {
	if runtime.GOOS == "windows" {
		return name + ".exe"
	}
	return name
}

// prepare builds the binary into dir through the one go command wrapper
// (internal/gocmd), writing the go command's output to w, and returns the
// command line to run and the directory to run it in: the package's own
// for go test, as go test does.
func (p *goPlan) prepare(ctx context.Context, dir string, w io.Writer) (argv []string, runDir string, err error) {
	what := strings.Join(p.pkgs, " ")
	if p.verb == "run" {
		bin := filepath.Join(dir, exe("prog"))
		if err := p.goCmd(ctx, w, append(append([]string{"build", "-o", bin}, p.build...), p.pkgs...)); err != nil {
			return nil, "", fmt.Errorf("go build %s: %w", what, errors.Unwrap(err)) // its output went to w
		}
		return append([]string{bin}, p.args...), "", nil
	}
	pkg, err := p.listOne(ctx)
	if err != nil {
		return nil, "", err
	}
	bin := filepath.Join(dir, exe(path.Base(pkg.ImportPath)+".test"))
	if err := p.goCmd(ctx, w, append(append([]string{"test", "-c", "-o", bin}, p.build...), p.pkgs...)); err != nil {
		return nil, "", fmt.Errorf("go test -c %s: %w", what, errors.Unwrap(err))
	}
	if _, err := os.Stat(bin); errors.Is(err, fs.ErrNotExist) {
		return nil, "", fmt.Errorf("go test %s: no test files", what)
	}
	args := []string{bin, "-test.paniconexit0"}
	if !p.timed {
		args = append(args, "-test.timeout=10m0s") // go test's default
	}
	if !p.outdir { // profiles land where go test would put them
		if wd, err := os.Getwd(); err == nil {
			args = append(args, "-test.outputdir="+wd)
		}
	}
	return append(args, p.args...), pkg.Dir, nil
}

// listOne returns the one package go test names.
func (p *goPlan) listOne(ctx context.Context) (*goPackage, error) {
	args := append(append([]string{"list", "-json=ImportPath,Dir"}, p.build...), p.pkgs...)
	out, err := gocmd.Cmd{Go: p.goTool}.Output(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("-- go test %s: %w", strings.Join(p.pkgs, " "), err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	var pkgs []goPackage
	for dec.More() {
		var pkg goPackage
		if err := dec.Decode(&pkg); err != nil {
			return nil, fmt.Errorf("go list %s: %w", strings.Join(p.pkgs, " "), err)
		}
		pkgs = append(pkgs, pkg)
	}
	if len(pkgs) != 1 {
		return nil, usagef("-- go test %s: %d packages; perflab traces one test binary at a time", strings.Join(p.pkgs, " "), len(pkgs))
	}
	return &pkgs[0], nil
}

// A goPackage is what go list says of a package.
type goPackage struct {
	ImportPath string
	Dir        string
}

// goCmd runs the go command the user gave, with the user's environment
// (no GODEBUG tracing: only the binary runs under it), its output to w.
func (p *goPlan) goCmd(ctx context.Context, w io.Writer, args []string) error {
	return gocmd.Cmd{Go: p.goTool, Stdout: w, Stderr: w}.Run(ctx, args...)
}
