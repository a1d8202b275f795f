package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/fleet"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/servertest"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/store"
	"github.com/perflab/perflab/store/storetest"
)

// fleetServer serves a perflab server over a Reference store holding ps
// on a loopback port until the test ends, and returns its URL.
func fleetServer(t *testing.T, ps ...store.Profile) (string, *storetest.Reference) {
	t.Helper()
	ref := storetest.NewReference(store.Limits{})
	if err := ref.Write(context.Background(), ps...); err != nil {
		t.Fatal(err)
	}
	return servertest.Serve(t, fleet.Options{Store: ref}), ref
}

// runErr runs perflab in-process and returns its stdout and error.
func runErr(args ...string) ([]byte, string, error) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), strings.NewReader(""), &stdout, &stderr, args)
	return stdout.Bytes(), stderr.String(), err
}

// rfc3339 formats t for -from and -until.
func rfc3339(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// fixtureFiles writes the fixture's CPU profiles of service api, gzipped,
// into dir and returns their names.
func fixtureFiles(t *testing.T, dir string) []string {
	t.Helper()
	var names []string
	for i, p := range storetest.Fixture() {
		if p.Labels.Get("service_name") != "api" || p.Labels.Get("__name__") != "process_cpu" {
			continue
		}
		name := filepath.Join(dir, fmt.Sprintf("api-%03d.pb.gz", i))
		reporttest.WriteProfile(t, p.Profile, name)
		names = append(names, name)
	}
	return names
}

// TestQueryMatchesPprofMerge checks perflab query against a server: its
// bytes are the store's merge, written; and go tool pprof reports the
// same top, by function and by line, of it and of its own -proto merge
// of the same profiles.
func TestQueryMatchesPprofMerge(t *testing.T) {
	url, ref := fleetServer(t, storetest.Fixture()...)
	dir := t.TempDir()
	out := filepath.Join(dir, "query.pb.gz")
	from, until := rfc3339(storetest.Epoch), rfc3339(storetest.Epoch.Add(3*time.Hour))
	if _, stderr, err := runErr("query", "-store", url, "-from", from, "-until", until, "-o", out, `{service_name="api"}`); err != nil {
		t.Fatalf("perflab query: %v\n%s", err, stderr)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	cpu, _ := store.LookupKind("cpu")
	sel, _ := store.ParseSelector(`{service_name="api"}`)
	want, err := ref.Merge(context.Background(), store.Selection{Type: cpu.Type, Selector: sel, Start: storetest.Epoch, End: storetest.Epoch.Add(3 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	var wantBytes bytes.Buffer
	if err := want.Write(&wantBytes); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantBytes.Bytes()) {
		t.Errorf("perflab query wrote %d bytes, not the store's merge (%d bytes)", len(got), len(wantBytes.Bytes()))
	}

	files := fixtureFiles(t, dir)
	merged, stderr, err := reporttest.RunPprof(t, dir, nil, append([]string{"-proto"}, files...)...)
	if err != nil {
		t.Fatalf("pprof -proto: %v\n%s", err, stderr)
	}
	mergedFile := filepath.Join(dir, "pprof-merged.pb.gz")
	if err := os.WriteFile(mergedFile, merged, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, by := range [][]string{{"-top"}, {"-top", "-lines"}} {
		args := append(by, "-nodecount=1000")
		g, _, err1 := reporttest.RunPprof(t, dir, nil, append(args, out)...)
		w, _, err2 := reporttest.RunPprof(t, dir, nil, append(args, mergedFile)...)
		if err1 != nil || err2 != nil {
			t.Fatalf("pprof %v: %v, %v", args, err1, err2)
		}
		if g, w := dropFileLine(g), dropFileLine(w); !bytes.Equal(g, w) {
			t.Errorf("pprof %v of perflab query's profile differs from pprof's merge: %s", args, reporttest.FirstDiff(g, w))
		}
	}
}

// dropFileLine drops the File: line of a pprof report, which names the
// profile's main binary as each merge found it first.
func dropFileLine(b []byte) []byte {
	lines := strings.Split(string(b), "\n")
	out := lines[:0]
	for _, l := range lines {
		if !strings.HasPrefix(l, "File: ") {
			out = append(out, l)
		}
	}
	return []byte(strings.Join(out, "\n"))
}

// TestReportsOfSelections checks that a report given selections as its
// SOURCE and -diff_base prints what it prints of the files perflab query
// writes of the same selections.
func TestReportsOfSelections(t *testing.T) {
	url, _ := fleetServer(t, storetest.Fixture()...)
	dir := t.TempDir()
	t0, t1, t2 := storetest.Epoch, storetest.Epoch.Add(time.Hour), storetest.Epoch.Add(2*time.Hour)
	base, cur := `{service_name="api"}@`+rfc3339(t0)+".."+rfc3339(t1), `{service_name="api"}@`+rfc3339(t1)+".."+rfc3339(t2)
	baseFile, curFile := filepath.Join(dir, "base.pb.gz"), filepath.Join(dir, "cur.pb.gz")
	for src, file := range map[string]string{base: baseFile, cur: curFile} {
		if _, stderr, err := runErr("query", "-store", url, "-o", file, src); err != nil {
			t.Fatalf("perflab query %s: %v\n%s", src, err, stderr)
		}
	}
	t.Setenv(storeEnv, url)
	for _, tc := range []struct{ selection, files []string }{
		{[]string{"top", "-nodecount=30", cur}, []string{"top", "-nodecount=30", curFile}},
		{[]string{"top", "-lines", "-from", rfc3339(t1), "-until", rfc3339(t2), `{service_name="api"}`}, []string{"top", "-lines", curFile}},
		{[]string{"top", "-diff_base", base, cur}, []string{"top", "-diff_base", baseFile, curFile}},
		{[]string{"peek", "-base", base, "json", cur}, []string{"peek", "-base", baseFile, "json", curFile}},
	} {
		got, stderr, err := runErr(tc.selection...)
		if err != nil {
			t.Fatalf("perflab %q: %v\n%s", tc.selection, err, stderr)
		}
		want := runInProcess(t, tc.files...)
		if !bytes.Equal(got, want) {
			t.Errorf("perflab %q differs from perflab %q: %s", tc.selection, tc.files, reporttest.FirstDiff(got, want))
		}
		if len(want) < 200 {
			t.Errorf("perflab %q printed only %q", tc.files, want)
		}
	}
}

// TestSelectionErrors checks the errors of selections: no store, a bad
// selector, a selection of nothing, a bad -from.
func TestSelectionErrors(t *testing.T) {
	url, _ := fleetServer(t, storetest.Fixture()...)
	t.Setenv(storeEnv, "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"top", `{service_name="api"}`}, "a selection needs a store: -store or $PERFLAB_STORE"},
		{[]string{"top", "-store", url, `{service_name="api"`}, "want , or }"},
		{[]string{"top", "-store", url, `{service_name="none"}`}, "not found"},
		{[]string{"query", "-store", url, "-from", "yesterday", "-o", "x", `{}`}, "-from: time"},
		{[]string{"query", "-store", url, "-type", "cpus", "-o", "x", `{}`}, "-type: profile type"},
		{[]string{"query", "-store", "http://127.0.0.1:1", "-o", "x", `{}`}, "127.0.0.1:1"},
	} {
		_, _, err := runErr(tc.args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("perflab %q: %v, want an error with %q", tc.args, err, tc.want)
		}
	}
}

// pgoProgram is a program with a hot call site and no imports, so that
// go build -pgo recompiles only the runtime and it with the profile.
const pgoProgram = `package main

var sink int

func add(a, b int) int {
	s := 0
	for i := 0; i < 20; i++ {
		s += a*i + b
	}
	return s
}

func hot(n int) int {
	t := 0
	for i := 0; i < n; i++ {
		t += add(i, t)
	}
	return t
}

func main() {
	for i := 0; i < 100; i++ {
		sink += hot(100000)
	}
	println(sink)
}
`

// pgoProfile returns a CPU profile of pgoProgram as the runtime writes
// one, at time at: most of the time in add, inlined into hot at its call
// site, called from main. Its lines are pgoProgram's, found in the
// source. It is a fixed profile rather than one of a run, so that the
// build cache keeps what go build -pgo compiles with it: a new profile
// recompiles the runtime (15 s here).
func pgoCPUProfile(t *testing.T, at time.Time) *profile.Profile {
	line := func(text string) int64 {
		i := strings.Index(pgoProgram, text)
		if i < 0 {
			t.Fatalf("%q not in pgoProgram", text)
		}
		return int64(strings.Count(pgoProgram[:i], "\n") + 1)
	}
	m := &profile.Mapping{ID: 1, Start: 0x400000, Limit: 0x500000, File: "/tmp/pgoprog", HasFunctions: true, HasFilenames: true, HasLineNumbers: true}
	fn := func(id uint64, name string) *profile.Function {
		return &profile.Function{ID: id, Name: name, SystemName: name, Filename: "/src/pgoprog/main.go", StartLine: line("func " + strings.TrimPrefix(name, "main.") + "(")}
	}
	mainFn, hotFn, addFn := fn(1, "main.main"), fn(2, "main.hot"), fn(3, "main.add")
	inAdd := &profile.Location{ID: 1, Mapping: m, Address: 0x401000, Line: []profile.Line{{Function: addFn, Line: line("s += a*i + b")}, {Function: hotFn, Line: line("t += add(i, t)")}}}
	inHot := &profile.Location{ID: 2, Mapping: m, Address: 0x401100, Line: []profile.Line{{Function: hotFn, Line: line("for i := 0; i < n; i++")}}}
	inMain := &profile.Location{ID: 3, Mapping: m, Address: 0x401200, Line: []profile.Line{{Function: mainFn, Line: line("sink += hot(100000)")}}}
	const ms = 10_000_000
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: ms,
		TimeNanos: at.UnixNano(), DurationNanos: int64(10 * time.Second),
		Mapping: []*profile.Mapping{m}, Function: []*profile.Function{mainFn, hotFn, addFn},
		Location: []*profile.Location{inAdd, inHot, inMain},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{inAdd, inMain}, Value: []int64{950, 950 * ms}, Label: map[string][]string{"handler": {"a"}}},
			{Location: []*profile.Location{inAdd, inMain}, Value: []int64{10, 10 * ms}, Label: map[string][]string{"handler": {"b"}}},
			{Location: []*profile.Location{inHot, inMain}, Value: []int64{40, 40 * ms}},
		},
	}
}

// TestPGO stores a CPU profile of a real program, writes perflab pgo's
// profile of it, and builds the program with go build -pgo: the build
// takes it, and the compiler's PGO debug output names the hot function.
func TestPGO(t *testing.T) {
	gobin := testprog.Oracle(t, "go")
	src := t.TempDir()
	for name, body := range map[string]string{"main.go": pgoProgram, "go.mod": "module pgoprog\n\ngo 1.26\n"} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	cpu := pgoCPUProfile(t, at)
	url, _ := fleetServer(t, store.Profile{Labels: store.NewLabels("__name__", "process_cpu", "service_name", "hot"), Time: at, Profile: cpu})

	pgoFile := filepath.Join(t.TempDir(), "default.pgo")
	if _, stderr, err := runErr("pgo", "-store", url, "-from", rfc3339(at.Add(-time.Hour)), "-until", rfc3339(at.Add(time.Hour)), "-o", pgoFile, `{service_name="hot"}`); err != nil {
		t.Fatalf("perflab pgo: %v\n%s", err, stderr)
	}
	pgo := reporttest.ReadProfile(t, pgoFile)
	if len(pgo.SampleType) != 1 || pgo.SampleType[0].Type != "cpu" || len(pgo.Sample) != 2 || inlined(pgo) != 1 || startLines(pgo) != 3 {
		t.Errorf("pgo profile: sample types %v, %d samples, %d locations with inlined frames, %d start lines; want cpu alone, 2 (the labels dropped), 1, 3",
			pgo.SampleType, len(pgo.Sample), inlined(pgo), startLines(pgo))
	}
	cmd := exec.Command(gobin, "build", "-pgo="+pgoFile, "-gcflags=-d=pgodebug=1", "-o", filepath.Join(t.TempDir(), "prog"), ".")
	cmd.Dir = src
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go build -pgo refused perflab pgo's profile: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "hot-callsite-thres-from-CDF") || !strings.Contains(string(out), "func=main.hot") {
		t.Errorf("go build -pgo: PGO did not act on main.hot:\n%s", out)
	}
}

// inlined counts the locations of p with inlined frames.
func inlined(p *profile.Profile) (n int) {
	for _, l := range p.Location {
		if len(l.Line) > 1 {
			n++
		}
	}
	return n
}

// startLines counts the functions of p with a start line.
func startLines(p *profile.Profile) (n int) {
	for _, f := range p.Function {
		if f.StartLine != 0 {
			n++
		}
	}
	return n
}
