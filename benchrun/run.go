package benchrun

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/perflab/perflab/internal/gocmd"
	"github.com/perflab/perflab/internal/program"
)

// A Config says which benchmarks Run runs, how often and where.
type Config struct {
	// Dir is a directory of the working tree (the new side); "" means the
	// current directory. Packages are resolved relative to it.
	Dir string
	// Packages are "go test" package patterns; none means ".".
	Packages []string
	// Bench is the -bench regular expression.
	Bench string
	// Count is how many times each side runs each benchmark.
	Count int
	// Benchtime, if not empty, is passed as -benchtime.
	Benchtime string
	// Base is the git revision of the old side; "" runs the new side only.
	Base string
	// Profiles lists the profiles to record per side: "cpu", "mem".
	Profiles []string
	// OutDir receives the result files and profiles.
	OutDir string
	// Progress, if not nil, is called before each run.
	Progress func(run, total int, side, pkg string)
}

// A Side is one of the two compared trees and what Run recorded for it.
type Side struct {
	// Name is the base revision, or "new" for the working tree.
	Name string
	// Dir is the directory of the tree that corresponds to Config.Dir.
	Dir string
	// Results is the file holding the side's benchmark output.
	Results string
	// Profiles maps a profile kind ("cpu", "mem") to the files recorded.
	Profiles map[string][]string
}

// Result lists the files Run wrote: Old is nil without a base revision.
type Result struct {
	Old, New *Side
}

// Run compiles the test binaries of each package on both sides, then runs
// them Count times each with -test.count=1, alternating old and new so that
// drift in the machine's speed affects both sides alike. With a Base, the
// old side is checked out into a temporary git worktree, removed at the end.
// Errors name the side and the package: a revision that does not exist, a
// package that does not compile, a benchmark that fails.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if cfg.Count < 1 {
		return nil, errors.New("count must be at least 1")
	}
	if len(cfg.Packages) == 0 {
		cfg.Packages = []string{"."}
	}
	dir, err := filepath.Abs(cmp.Or(cfg.Dir, "."))
	if err != nil {
		return nil, err
	}
	res := &Result{New: &Side{Name: "new", Dir: dir}}
	sides := []*Side{res.New}
	if cfg.Base != "" {
		old, cleanup, err := checkout(ctx, dir, cfg.Base, cfg.OutDir)
		if err != nil {
			return nil, err
		}
		defer cleanup()
		res.Old = old
		sides = []*Side{old, res.New}
	}
	var bins [][]testBinary
	for _, s := range sides {
		b, err := build(ctx, s, cfg)
		if err != nil {
			return nil, err
		}
		bins = append(bins, b)
		s.Results = filepath.Join(cfg.OutDir, fileName(s.Name)+".txt")
		if err := os.WriteFile(s.Results, nil, 0o666); err != nil {
			return nil, err
		}
		s.Profiles = make(map[string][]string)
	}
	if len(bins[0]) == 0 {
		return nil, fmt.Errorf("%s: no test files in %s", dir, strings.Join(cfg.Packages, " "))
	}
	total := cfg.Count * len(sides) * len(bins[0])
	done := 0
	for i := range cfg.Count {
		for p := range bins[0] {
			for si, s := range sides {
				if p >= len(bins[si]) {
					continue
				}
				if cfg.Progress != nil {
					cfg.Progress(done, total, s.Name, bins[si][p].pkg)
				}
				if err := runOnce(ctx, s, bins[si][p], i, cfg); err != nil {
					return nil, err
				}
				done++
			}
		}
	}
	return res, nil
}

// fileName turns a revision into a file name: "HEAD~1" -> "HEAD_1".
func fileName(rev string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, rev)
}

// checkout adds a detached git worktree of rev and returns the side whose
// Dir is the directory in it that corresponds to dir.
func checkout(ctx context.Context, dir, rev, outDir string) (*Side, func(), error) {
	top, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, nil, fmt.Errorf("-base %s: %s is not in a git repository", rev, dir)
	}
	if _, err := git(ctx, dir, "rev-parse", "--verify", "--quiet", rev+"^{commit}"); err != nil {
		return nil, nil, fmt.Errorf("-base %s: no such revision in %s", rev, top)
	}
	rel, err := filepath.Rel(top, evalSymlinks(dir))
	if err != nil {
		return nil, nil, err
	}
	tree, err := os.MkdirTemp("", "perflab-base-")
	if err != nil {
		return nil, nil, err
	}
	if _, err := git(ctx, top, "worktree", "add", "--detach", tree, rev); err != nil {
		os.RemoveAll(tree)
		return nil, nil, fmt.Errorf("-base %s: git worktree add: %w", rev, err)
	}
	cleanup := func() {
		git(context.Background(), top, "worktree", "remove", "--force", tree)
		os.RemoveAll(tree)
	}
	return &Side{Name: rev, Dir: filepath.Join(tree, rel)}, cleanup, nil
}

func evalSymlinks(p string) string {
	if q, err := filepath.EvalSymlinks(p); err == nil {
		return q
	}
	return p
}

// git runs git in dir and returns its trimmed output; errors carry git's
// first line of complaint.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, stderr, err := runIn(ctx, dir, "git", args...)
	if err != nil {
		if line := firstLine(stderr); line != "" {
			return "", errors.New(line)
		}
		return "", err
	}
	return strings.TrimSpace(out), nil
}

// runIn runs name with args in dir and returns what it wrote to stdout
// and to stderr.
func runIn(ctx context.Context, dir, name string, args ...string) (stdout, stderr string, err error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err = cmd.Run()
	return out.String(), errb.String(), err
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// A testBinary is a compiled test binary and the package it tests.
type testBinary struct {
	pkg, dir, path string
}

// build lists the side's packages and compiles a test binary for each that
// has test files.
func build(ctx context.Context, s *Side, cfg Config) ([]testBinary, error) {
	args := append([]string{"list", "-e", "-f", "{{.ImportPath}}\t{{.Dir}}\t{{len .TestGoFiles}}\t{{len .XTestGoFiles}}\t{{if .Error}}{{.Error}}{{end}}"}, cfg.Packages...)
	out, err := goCmd(ctx, s.Dir, args...)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", s.Name, strings.Join(cfg.Packages, " "), err)
	}
	var bins []testBinary
	for i, line := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 5 {
			continue
		}
		if f[4] != "" {
			return nil, fmt.Errorf("%s: %s", s.Name, firstLine(f[4]))
		}
		if f[2] == "0" && f[3] == "0" {
			continue
		}
		bin := filepath.Join(cfg.OutDir, fmt.Sprintf("%s-%d.test", fileName(s.Name), i))
		if _, err := goCmd(ctx, s.Dir, "test", "-c", "-o", bin, f[0]); err != nil {
			return nil, fmt.Errorf("%s: %s does not compile: %w", s.Name, f[0], err)
		}
		bins = append(bins, testBinary{pkg: f[0], dir: f[1], path: bin})
	}
	return bins, nil
}

// goCmd runs the go command in dir with the user's environment (the
// user asked for these builds) and returns its standard output; its error
// is a *gocmd.Error holding the first line of the go command's complaint.
func goCmd(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gocmd.Cmd{Dir: dir}.Output(ctx, args...)
	return string(out), err
}

// runOnce runs bin's benchmarks once and appends the output to the side's
// result file.
func runOnce(ctx context.Context, s *Side, bin testBinary, i int, cfg Config) error {
	args := []string{"-test.run=^$", "-test.bench=" + cfg.Bench, "-test.benchmem", "-test.count=1"}
	if cfg.Benchtime != "" {
		args = append(args, "-test.benchtime="+cfg.Benchtime)
	}
	for _, kind := range cfg.Profiles {
		p := filepath.Join(cfg.OutDir, fmt.Sprintf("%s-%s-%d.%s.prof", fileName(s.Name), filepath.Base(bin.path), i, kind))
		args = append(args, "-test."+kind+"profile="+p)
		s.Profiles[kind] = append(s.Profiles[kind], p)
	}
	var out bytes.Buffer
	proc, err := program.Start(ctx, program.Config{Argv: append([]string{bin.path}, args...), Dir: bin.dir, Stdout: &out, Stderr: &out})
	if err != nil {
		return fmt.Errorf("%s: benchmarks of %s: %w", s.Name, bin.pkg, err)
	}
	if status, _, err := proc.Wait(); err != nil || status != 0 || ctx.Err() != nil {
		return fmt.Errorf("%s: benchmarks of %s failed (%w): %s", s.Name, bin.pkg, cmp.Or(err, ctx.Err(), fmt.Errorf("exit status %d", status)), lastLines(out.String(), 5))
	}
	f, err := os.OpenFile(s.Results, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(out.Bytes())
	if err2 := f.Close(); err == nil {
		err = err2
	}
	return err
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " ; ")
}
