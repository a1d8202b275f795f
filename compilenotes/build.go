package compilenotes

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/gocmd"
	"github.com/perflab/perflab/internal/namedfile"
	"github.com/perflab/perflab/report"
)

// ErrNoSource reports a package directory that is not there or not in a
// Go module, so there is nothing to build.
var ErrNoSource = errors.New("source not found")

// Options configure Build.
//
// The packages built are those a profile names, so the go command runs
// hardened (internal/gocmd's Input runs): GOFLAGS=-mod=readonly
// -buildvcs=false, GOTOOLCHAIN=local, GOPROXY=off, an environment
// without tokens or credentials, and at most two such builds at once in
// the process.
type Options struct {
	// Go is the go command; "" means "go" on $PATH.
	Go string
	// Env, if not nil, is the environment the go command's is made from
	// (only its build settings are kept); nil means perflab's own.
	Env []string
	// Tests builds the packages with their test files (go test -c), for
	// notes on lines of _test.go files such as benchmarks.
	Tests bool
}

// Build compiles the packages in dirs with the compiler's diagnostics on
// (go build -gcflags='-json=0,TMP -m', in each package's module, with all
// output under a temporary directory: nothing is written to the source
// tree) and returns their notes. Directories of one module are built
// together. An error names the directory and, when the build fails, the
// compiler's first error.
func Build(ctx context.Context, dirs []string, o Options) (*Notes, error) {
	byModule := map[string][]string{}
	for _, d := range dirs {
		d, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		root, err := moduleRoot(d)
		if err != nil {
			return nil, err
		}
		byModule[root] = append(byModule[root], d)
	}
	roots := make([]string, 0, len(byModule))
	for r := range byModule {
		roots = append(roots, r)
	}
	sort.Strings(roots)
	ns := newNotes()
	for _, root := range roots {
		if err := buildModule(ctx, root, byModule[root], o, ns); err != nil {
			return nil, err
		}
	}
	return ns, nil
}

// moduleRoot returns the directory holding the go.mod above dir.
func moduleRoot(dir string) (string, error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s: %w", dir, ErrNoSource)
	}
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !fi.IsDir() {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("%s: no go.mod in it or above it: %w", dir, ErrNoSource)
		}
	}
}

// buildModule builds dirs, all in the module at root, and adds their notes to ns.
func buildModule(ctx context.Context, root string, dirs []string, o Options, ns *Notes) error {
	tmp, err := os.MkdirTemp("", "perflab-compilenotes-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	pkgs := make([]string, len(dirs))
	for i, d := range dirs {
		rel, err := filepath.Rel(root, d)
		if err != nil {
			return err
		}
		pkgs[i] = "./" + filepath.ToSlash(rel)
	}
	names, err := goOutput(ctx, o, root, append([]string{"list", "-f", "{{.Name}}"}, pkgs...)...)
	if err != nil {
		return err
	}
	jsonDir, binDir := filepath.Join(tmp, "json"), filepath.Join(tmp, "bin")+string(filepath.Separator)
	gcflags := "-gcflags=-json=0," + quoteFlag(jsonDir) + " -m"
	// Binaries go to binDir: go build would write a lone main package's
	// into the source tree. With no main package, -o DIR is an error.
	out := []string{"build"}
	switch {
	case o.Tests:
		out = []string{"test", "-c", "-o", binDir}
	case slices.Contains(strings.Fields(string(names)), "main"):
		out = append(out, "-o", binDir)
	}
	args := append(slices.Clip(out), gcflags)
	text, err := runNotes(ctx, o, root, append(args, pkgs...))
	if err != nil {
		// The notes drown the errors: build again without them to show the first.
		_, plain := goOutput(ctx, o, root, append(out, pkgs...)...)
		if plain == nil {
			plain = err
		}
		return plain
	}
	for _, n := range text {
		ns.add(n)
	}
	return addJSON(jsonDir, ns)
}

// runNotes runs the go command with -m and parses its standard error as
// it comes, keeping only the notes ParseText keeps: memory stays bounded
// by the notes, not by the thousands of lines -m prints.
func runNotes(ctx context.Context, o Options, dir string, args []string) ([]Note, error) {
	pr, pw := io.Pipe()
	var notes []Note
	done := make(chan struct{})
	go func() {
		defer close(done)
		notes, _ = ParseText(pr, dir)
		io.Copy(io.Discard, pr) // after an over-long line, drain the rest
	}()
	err := o.goCmd(dir, pw).Run(ctx, args...)
	pw.Close()
	<-done
	return notes, err
}

// quoteFlag quotes a path for cmd/go's flag splitting if it needs it.
func quoteFlag(s string) string {
	if strings.ContainsAny(s, " \t'\"") {
		return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"`
	}
	return s
}

// goCmd returns the go command of o, run in dir as a build of code a
// profile names, writing its standard error to stderr (nil: kept for its
// error, a *gocmd.Error naming the directory and the first complaint).
func (o Options) goCmd(dir string, stderr io.Writer) gocmd.Cmd {
	return gocmd.Cmd{Go: o.Go, Dir: dir, Env: o.Env, Origin: gocmd.Input, Stderr: stderr}
}

// goOutput runs the go command of o in dir and returns its standard output.
func goOutput(ctx context.Context, o Options, dir string, args ...string) ([]byte, error) {
	return o.goCmd(dir, nil).Output(ctx, args...)
}

// addJSON parses every diagnostics file under dir into ns, naming the
// functions that cannot be inlined.
func addJSON(dir string, ns *Notes) error {
	files, err := filepath.Glob(filepath.Join(dir, "*", "*.json"))
	if err != nil {
		return err
	}
	names := newNamer()
	for _, path := range files {
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		_, notes, err := ParseJSON(f)
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, n := range notes {
			if reason, ok := strings.CutPrefix(n.Message, "cannot inline: "); ok {
				n.Message = "cannot inline " + names.at(n.File, n.Line, n.Col) + ": " + reason
			}
			ns.add(n)
		}
	}
	ns.preferMovedToHeap()
	return nil
}

// A namer reads the identifiers at source positions, caching files.
type namer struct{ files map[string][]string }

func newNamer() *namer { return &namer{files: map[string][]string{}} }

// at returns the identifier at file:line:col, or "function" if unreadable.
func (nm *namer) at(file string, line, col int) string {
	lines, ok := nm.files[file]
	if !ok {
		// Read as every file input names is read (package namedfile).
		if data, err := namedfile.ReadFile(file, report.MaxSourceBytes, "a source file"); err == nil {
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, MaxLineBytes)
			for sc.Scan() {
				lines = append(lines, sc.Text())
			}
		}
		nm.files[file] = lines
	}
	if line < 1 || line > len(lines) || col < 1 || col > len(lines[line-1]) {
		return "function"
	}
	s := lines[line-1][col-1:]
	if strings.HasPrefix(s, "(") { // a method: the name follows the receiver
		if i := strings.Index(s, ") "); i >= 0 {
			s = strings.TrimLeft(s[i+1:], " \t")
		}
	}
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0x80)
	})
	if end < 0 {
		end = len(s)
	}
	if end == 0 {
		return "function"
	}
	return s[:end]
}

// preferMovedToHeap drops the JSON's "x escapes to heap" where the -m text
// says "moved to heap: x" at the same position, moving its flow there.
func (ns *Notes) preferMovedToHeap() {
	for _, lines := range ns.byFile {
		for ln, notes := range lines {
			drop := make([]bool, len(notes))
			for j, n := range notes {
				if i := findMoved(notes, n); n.Kind == Escape && i >= 0 {
					notes[i].Flow, drop[j] = n.Flow, true
				}
			}
			var kept []Note
			for j, n := range notes {
				if !drop[j] {
					kept = append(kept, n)
				}
			}
			lines[ln] = kept
		}
	}
}

// findMoved returns the index of the "moved to heap" note matching e.
func findMoved(notes []Note, e Note) int {
	name, ok := strings.CutSuffix(e.Message, " escapes to heap")
	if !ok {
		return -1
	}
	for i, n := range notes {
		if n.Kind == MovedToHeap && n.Col == e.Col && n.Message == "moved to heap: "+name {
			return i
		}
	}
	return -1
}
