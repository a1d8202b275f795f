package compilenotes_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/internal/reporttest"
)

// knownSrc allocates in one known way per function; each allocating line
// carries a "// site: CATEGORY" comment, which the test finds the lines by.
const knownSrc = `package main

import (
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
)

type point struct{ x, y int }

var (
	keep    *point
	sinkAny any
	bufs    [][]byte
	sinkB   byte
	fns     []func() int
	ints    []int
	strs    []string
	counts  = map[int]int{}
)

//go:noinline
func newPoint(i int) *point {
	p := point{i, i} // site: address
	return &p
}

//go:noinline
func boxed(i int) {
	sinkAny = point{i, i + 1} // site: interface
}

//go:noinline
func sized(n int) {
	bufs[0] = make([]byte, n) // site: unknown-size
}

//go:noinline
func large(i int) {
	b := make([]byte, 1<<20) // site: too-large
	b[i%len(b)] = byte(i)
	sinkB = b[(i*7)%len(b)]
}

//go:noinline
func closure(i int) {
	q := point{i, i} // site: closure
	fns[0] = func() int { q.x++; return q.x + q.y }
}

//go:noinline
func grow(k int) {
	var s []int
	for i := range k {
		s = append(s, i) // site: append
	}
	ints = s
}

//go:noinline
func convert(b []byte) {
	strs[0] = string(b) // site: conversion
}

//go:noinline
func callee(i int) {
	strs[1] = strconv.Itoa(i + 1000) // site: callee
}

type block [512]byte

var blocks [2]block

//go:noinline
func index(s []int, i int) int {
	return s[i] // note: bounds
}

//go:noinline
func copyBlock() {
	blocks[1] = blocks[0] // note: copy
}

//go:noinline
func other(i int) {
	counts[i] = i // site: other
}

var labels map[string]string

//go:noinline
func mapAndRepeat(i int) {
	labels = map[string]string{"k": strings.Repeat("x", 100+i%10)} // hints: a map literal and a callee
}

func main() {
	runtime.MemProfileRate = 1
	bufs, fns, strs = make([][]byte, 1), make([]func() int, 1), make([]string, 2)
	for i := range 200 {
		keep = newPoint(i)
		boxed(i)
		sized(i + 100)
		closure(i)
		grow(i + 10)
		convert([]byte("abcdefghijklmnopqrstuvwxyz0123456789" + strconv.Itoa(i)))
		callee(i)
		other(i)
		mapAndRepeat(i)
		if i%50 == 0 {
			large(i)
			copyBlock()
			_ = index(ints, i%10)
		}
	}
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		panic(err)
	}
	f.Close()
}
`

// wantMessage is the compiler message each site's line must carry.
var wantMessage = map[string]string{
	"address":      "moved to heap: p",
	"interface":    "point{...} escapes to heap",
	"unknown-size": "make([]byte, n) escapes to heap",
	"too-large":    "make([]byte, 1048576) escapes to heap",
	"closure":      "moved to heap: q",
	"append":       "append(s, i) escapes to heap",
	"conversion":   "string(b) escapes to heap",
}

// writeKnown writes knownSrc as a module in a new directory and returns
// it with the line of each "// site:" comment.
func writeKnown(t *testing.T) (dir string, lines map[string]int) {
	t.Helper()
	dir = t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/known\n\ngo 1.26\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(knownSrc), 0o666); err != nil {
		t.Fatal(err)
	}
	return dir, markedLines("// site: ")
}

// markedLines returns the line of knownSrc of each comment marker+NAME, by NAME.
func markedLines(marker string) map[string]int {
	lines := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(knownSrc))
	for n := 1; sc.Scan(); n++ {
		if _, name, ok := strings.Cut(sc.Text(), marker); ok {
			lines[name] = n
		}
	}
	return lines
}

func TestBuildKnownEscapes(t *testing.T) {
	dir, lines := writeKnown(t)
	ns, err := compilenotes.Build(context.Background(), []string{dir}, compilenotes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "main.go")
	for cat, msg := range wantMessage {
		notes := ns.At(file, lines[cat])
		var got []string
		found := false
		for _, n := range notes {
			got = append(got, n.Message)
			if n.Message == msg {
				found = true
				if c := compilenotes.Classify(n); c != cat {
					t.Errorf("line %d: Classify(%q) = %q, want %q", lines[cat], msg, c, cat)
				}
				if n.Kind != compilenotes.MovedToHeap && len(n.Flow) == 0 {
					t.Errorf("line %d: %q has no flow", lines[cat], msg)
				}
			}
		}
		if !found {
			t.Errorf("line %d (%s): notes %q, want %q", lines[cat], cat, got, msg)
		}
	}
	// The source tree is not written: no binary, no stray files.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("build wrote into the source directory: %v", entries)
	}
	// Inlining and cannot-inline notes, with the function's name.
	if !hasMessage(ns.At(file, lines["callee"]), "inlining call to strconv.Itoa") {
		t.Errorf("no inlining note at line %d: %v", lines["callee"], ns.At(file, lines["callee"]))
	}
	if !hasMessage(ns.At(file, lines["address"]-1), "cannot inline newPoint: marked go:noinline") {
		t.Errorf("no cannot-inline note at line %d: %v", lines["address"]-1, ns.At(file, lines["address"]-1))
	}
	marks := markedLines("// note: ")
	if n := marks["bounds"]; !hasMessage(ns.At(file, n), "bounds check kept") {
		t.Errorf("no bounds check note at line %d: %v", n, ns.At(file, n))
	}
	if n := marks["copy"]; !hasMessage(ns.At(file, n), "large copy: 512 bytes") {
		t.Errorf("no large copy note at line %d: %v", n, ns.At(file, n))
	}
}

func hasMessage(notes []compilenotes.Note, msg string) bool {
	for _, n := range notes {
		if n.Message == msg {
			return true
		}
	}
	return false
}

func TestAnalyzeKnownProgram(t *testing.T) {
	dir, lines := writeKnown(t)
	p, a := analyzeKnown(t, dir)
	file := filepath.Join(dir, "main.go")
	for cat, line := range lines {
		st := findSite(a, file, line)
		if st == nil {
			t.Errorf("%s: no site at line %d", cat, line)
			continue
		}
		if st.Category != cat {
			t.Errorf("%s: site at line %d has category %q (reasons %q, via %q)", cat, line, st.Category, st.Reasons, st.Via)
		}
		if msg := wantMessage[cat]; msg != "" && !slices.Contains(st.Reasons, msg) {
			t.Errorf("%s: reasons %q, want %q", cat, st.Reasons, msg)
		}
		if st.Bytes <= 0 || st.Objects <= 0 {
			t.Errorf("%s: bytes %d, objects %d", cat, st.Bytes, st.Objects)
		}
	}
	if st := findSite(a, file, lines["callee"]); st != nil && st.Via != "strconv.Itoa" {
		t.Errorf("callee site via %q, want strconv.Itoa", st.Via)
	}
	// Heaviest first, and the sites add up to the profile's total.
	var sum int64
	for i, st := range a.Sites {
		sum += st.Value
		if i > 0 && st.Value > a.Sites[i-1].Value {
			t.Errorf("site %d (%d) heavier than site %d (%d)", i, st.Value, i-1, a.Sites[i-1].Value)
		}
	}
	if want := total(p, "alloc_space"); sum != want || a.Total != want {
		t.Errorf("sites sum to %d, total %d; the profile's alloc_space is %d", sum, a.Total, want)
	}
}

// TestAnalyzeHintsApply: a line that both makes a map and calls
// strings.Repeat has two sites; the map's is classified as a map (not as
// an address to return by value), the callee's gets a hint naming
// strings.Repeat and none of the line's notes, which are about the map.
func TestAnalyzeHintsApply(t *testing.T) {
	dir, _ := writeKnown(t)
	line := markedLines("// hints: ")["a map literal and a callee"]
	_, a := analyzeKnown(t, dir)
	file := filepath.Join(dir, "main.go")
	var lit, repeat *compilenotes.Site
	for _, st := range a.Sites {
		if st.File == file && st.Line == line {
			switch st.Via {
			case "":
				lit = st
			case "strings.Repeat":
				repeat = st
			}
		}
	}
	if lit == nil || repeat == nil {
		t.Fatalf("line %d: sites %+v and %+v", line, lit, repeat)
	}
	mapCat, _ := compilenotes.LookupCategory("map")
	if lit.Category != "map" || lit.Hint != mapCat.Hint || !slices.ContainsFunc(lit.Reasons, func(r string) bool { return strings.HasPrefix(r, "map[string]string{...}") }) {
		t.Errorf("the map literal: category %q, hint %q, reasons %q", lit.Category, lit.Hint, lit.Reasons)
	}
	if repeat.Category != "callee" || !strings.HasPrefix(repeat.Hint, "strings.Repeat allocates") || strings.Contains(repeat.Hint, "strconv") ||
		slices.ContainsFunc(repeat.Reasons, func(r string) bool { return strings.Contains(r, "map[") }) {
		t.Errorf("strings.Repeat: category %q, hint %q, reasons %q", repeat.Category, repeat.Hint, repeat.Reasons)
	}
	if st := findSite(a, file, markedLines("// site: ")["callee"]); st == nil || !strings.Contains(st.Hint, "strconv's Append") {
		t.Errorf("strconv.Itoa's site: %+v", st)
	}
	var text strings.Builder
	a.WriteText(&text, compilenotes.TextOptions{})
	if !strings.Contains(text.String(), "        hint: "+repeat.Hint+"\n") {
		t.Errorf("the text lacks the callee's hint:\n%s", text.String())
	}
}

// analyzeKnown builds and runs knownSrc in dir and returns its profile
// and the analysis of it.
func analyzeKnown(t *testing.T, dir string) (*profile.Profile, *compilenotes.Analysis) {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "known")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir = dir
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	prof := filepath.Join(t.TempDir(), "allocs.pprof")
	if out, err := exec.Command(bin, prof).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, out)
	}
	p := reporttest.ReadProfile(t, prof)
	a, err := compilenotes.Analyze(context.Background(), p, compilenotes.AnalyzeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a.BuildError != "" {
		t.Fatal(a.BuildError)
	}
	return p, a
}

func total(p *profile.Profile, typ string) int64 {
	i, _ := p.SampleIndexByName(typ)
	var t int64
	for _, s := range p.Sample {
		t += s.Value[i]
	}
	return t
}

func findSite(a *compilenotes.Analysis, file string, line int) *compilenotes.Site {
	for _, st := range a.Sites {
		if st.File == file && st.Line == line {
			return st
		}
	}
	return nil
}

func TestBuildErrors(t *testing.T) {
	ctx := context.Background()
	if _, err := compilenotes.Build(ctx, []string{filepath.Join(t.TempDir(), "missing")}, compilenotes.Options{}); !errors.Is(err, compilenotes.ErrNoSource) {
		t.Errorf("missing directory: %v, want ErrNoSource", err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/broken\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { undefinedThing() }\n"), 0o666)
	_, err := compilenotes.Build(ctx, []string{dir}, compilenotes.Options{})
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedThing") || strings.Contains(err.Error(), "\n") {
		t.Errorf("broken package: %v, want one line naming the compiler's error", err)
	}
	// The same in a library package: the error is the compiler's, not go build's about -o.
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package lib\n\nfunc F() { undefinedThing() }\n"), 0o666)
	_, err = compilenotes.Build(ctx, []string{dir}, compilenotes.Options{})
	if err == nil || !strings.Contains(err.Error(), "undefined: undefinedThing") {
		t.Errorf("broken library: %v, want the compiler's error", err)
	}
}

func TestAnalyzeNotHeap(t *testing.T) {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}}
	_, err := compilenotes.Analyze(context.Background(), p, compilenotes.AnalyzeOptions{})
	if err == nil || !strings.Contains(err.Error(), "not a heap or allocs profile") {
		t.Errorf("cpu profile: %v", err)
	}
}

// TestAnalyzeBenchmarkLines: a benchmark's own allocations, on lines of a
// _test.go file, get their reasons (the test binary is built).
func TestAnalyzeBenchmarkLines(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module example.com/bench\n\ngo 1.26\n",
		"p.go":   "package p\n\n// T is a value.\ntype T struct{ a, b, c int }\n",
		"p_test.go": `package p

import "testing"

var sink *T

func BenchmarkNew(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		sink = &T{i, i, i} // site
	}
}
`,
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	tmp := t.TempDir()
	prof := filepath.Join(tmp, "mem.pprof")
	cmd := exec.Command("go", "test", "-run=NONE", "-bench=.", "-benchtime=2000x", "-memprofilerate=1", "-memprofile="+prof, "-o", filepath.Join(tmp, "p.test"))
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	a, err := compilenotes.Analyze(context.Background(), reporttest.ReadProfile(t, prof), compilenotes.AnalyzeOptions{})
	if err != nil || a.BuildError != "" {
		t.Fatalf("%v %s", err, a.BuildError)
	}
	st := findSite(a, filepath.Join(dir, "p_test.go"), 9)
	if st == nil || st.Category != "address" || !slices.Contains(st.Reasons, "&T{...} escapes to heap") {
		t.Errorf("benchmark line: %+v", st)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(files) {
		t.Errorf("the build wrote into the source directory: %v", entries)
	}
}

// TestResolveTrimmed: a -trimpath profile's module-relative file names
// are found in the module of the directory go list runs in.
func TestResolveTrimmed(t *testing.T) {
	dir, _ := writeKnown(t)
	fn := &profile.Function{ID: 1, Name: "main.newPoint", Filename: "example.com/known/main.go"}
	std := &profile.Function{ID: 2, Name: "fmt.Sprintf", Filename: "fmt/print.go"}
	p := &profile.Profile{Function: []*profile.Function{fn, std}}
	if n := compilenotes.ResolveTrimmed(context.Background(), p, dir, compilenotes.Options{}); n != 1 {
		t.Errorf("resolved %d names, want 1", n)
	}
	if want := filepath.Join(dir, "main.go"); fn.Filename != want || std.Filename != "fmt/print.go" {
		t.Errorf("file names %q, %q; want %q and fmt/print.go unchanged", fn.Filename, std.Filename, want)
	}
}

// TestParseJSONErrorsKeepTheirChain: a malformed line is ErrFormat and
// still the JSON decoder's error, for errors.As.
func TestParseJSONErrorsKeepTheirChain(t *testing.T) {
	for _, in := range []string{"{bad\n", `{"version":0,"file":"a.go"}` + "\n{bad\n"} {
		_, _, err := compilenotes.ParseJSON(strings.NewReader(in))
		var se *json.SyntaxError
		if !errors.Is(err, compilenotes.ErrFormat) || !errors.As(err, &se) {
			t.Errorf("ParseJSON(%q) = %v; want ErrFormat wrapping a *json.SyntaxError", in, err)
		}
	}
}
