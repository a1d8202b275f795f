package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/bench"
	"github.com/perflab/perflab/internal/testprog"
)

// benchstatPath returns the benchstat oracle, or skips the test when it is
// not installed (scripts/test installs it).
func benchstatPath(t *testing.T) string {
	t.Helper()
	return testprog.Oracle(t, "benchstat")
}

// perflabRun runs perflab in-process and returns stdout, stderr and the exit
// status main would return.
func perflabRun(args ...string) (string, string, int) {
	return perflabRunStdin(strings.NewReader(""), args...)
}

// perflabRunStdin is perflabRun with stdin as perflab's standard input.
func perflabRunStdin(stdin io.Reader, args ...string) (string, string, int) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), stdin, &stdout, &stderr, args)
	code := exitCode(&stderr, err)
	return stdout.String(), stderr.String(), code
}

// runTool runs a program in dir with extra environment variables.
func runTool(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS="), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// makeBenchData runs the real benchmarks of bench/testdata/benchshapes in
// many shapes and writes the result files into a temporary directory:
//
//	base.txt    6 runs of every benchmark: sub-benchmarks, MB/s, B/op,
//	            allocs/op, custom units (widgets/op, ns/item)
//	slow.txt    the same with BENCH_SLOW=1: Sum slower, Alloc bigger
//	one.txt     a single run (n too small for significance)
//	cpus.txt    -cpu 1,2: names with and without the -2 suffix
//	partial.txt Sum only: the other benchmarks are in one file only
//	multi.txt   two packages and extra file-level keys: several configs
//	meta.txt    base.txt with "Unit widgets/op assume=exact"
//	bad.txt     slow.txt with malformed benchmark lines
//	empty.txt   no benchmark results
func makeBenchData(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../../bench/testdata/benchshapes")
	if err != nil {
		t.Fatal(err)
	}
	mod := t.TempDir()
	if err := os.CopyFS(mod, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	runTool(t, mod, nil, "go", "test", "-c", "-o", "shapes.test", ".")
	runTool(t, mod, nil, "go", "test", "-c", "-o", "other.test", "./other")
	bench := func(bin string, env []string, args ...string) string {
		args = append([]string{"-test.run=^$", "-test.benchtime=300x"}, args...)
		return runTool(t, mod, env, filepath.Join(mod, bin), args...)
	}
	slow := []string{"BENCH_SLOW=1"}
	base := bench("shapes.test", nil, "-test.bench=.", "-test.benchmem", "-test.count=6")
	slowOut := bench("shapes.test", slow, "-test.bench=.", "-test.benchmem", "-test.count=6")
	files := map[string]string{
		"base.txt":    base,
		"slow.txt":    slowOut,
		"one.txt":     bench("shapes.test", nil, "-test.bench=.", "-test.benchmem", "-test.count=1"),
		"cpus.txt":    bench("shapes.test", nil, "-test.bench=Sum", "-test.cpu=1,2", "-test.count=5"),
		"partial.txt": bench("shapes.test", slow, "-test.bench=Sum", "-test.count=6"),
		"multi.txt": "commit: 1234abcd\nnote: first\n" + base +
			"note: second\n" + bench("other.test", nil, "-test.bench=.", "-test.count=6") +
			bench("shapes.test", slow, "-test.bench=Alloc", "-test.benchmem", "-test.count=6"),
		"meta.txt":  "Unit widgets/op assume=exact\n" + base,
		"bad.txt":   injectBadLines(slowOut),
		"empty.txt": "goos: linux\nPASS\nok  \texample.com/shapes\t0.1s\n",
	}
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// injectBadLines puts malformed benchmark lines among real ones.
func injectBadLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	bad := []string{
		"BenchmarkBroken-2   \t  x12 \t 5 ns/op\n",
		"BenchmarkBroken-2   \t  100\n",
		"BenchmarkBroken-2   \t  100 \t 12\n",
		"BenchmarkBroken-2   \t  100 \t twelve ns/op\n",
	}
	out := slices.Clone(lines[:5])
	out = append(out, bad...)
	return strings.Join(append(out, lines[5:]...), "")
}

// benchstatCases are argument lists given to both benchstat and perflab.
var benchstatCases = [][]string{
	{"base.txt", "slow.txt"},
	{"-format", "csv", "base.txt", "slow.txt"},
	{"base.txt", "slow.txt", "one.txt"},
	{"one.txt", "one.txt"},
	{"one.txt"},
	{"base.txt"},
	{"base.txt", "partial.txt"},
	{"partial.txt", "base.txt"},
	{"cpus.txt"},
	{"cpus.txt", "partial.txt"},
	{"multi.txt", "slow.txt"},
	{"-format", "csv", "multi.txt", "slow.txt"},
	{"meta.txt", "slow.txt"},
	{"bad.txt", "base.txt"},
	{"-format", "csv", "bad.txt", "one.txt"},
	{"old=base.txt", "new=slow.txt"},
	{"-alpha", "0.001", "-confidence", "0.5", "base.txt", "slow.txt"},
	{"-col", "/n", "-row", ".name", "base.txt"},
	{"-col", "/n", "slow.txt"},
	{"-row", ".name", "base.txt", "slow.txt"},
	{"-filter", ".name:Sum", "base.txt", "slow.txt"},
	{"-filter", "-.unit:B/s", "base.txt", "slow.txt"},
	{"-table", "", "-col", ".file", "multi.txt", "base.txt"},
	{"-table", ".config", "-ignore", "note,commit", "multi.txt", "slow.txt"},
	{"-col", ".file,/n", "-row", ".name", "base.txt", "slow.txt"},
	{"-format", "csv", "-col", "/n@(4096 64)", "-row", ".name", "base.txt"},
	{"empty.txt", "base.txt"},
}

// TestBenchCompare runs the real benchmarks once and checks bench compare
// on their results.
func TestBenchCompare(t *testing.T) {
	dir := makeBenchData(t)
	t.Chdir(dir)
	t.Run("MatchesBenchstat", testMatchesBenchstat)
	t.Run("JSONAgreesWithBenchstat", testJSONAgreesWithBenchstat)
	t.Run("OldFormat", testOldFormat)
	t.Run("FailOn", testFailOn)
	t.Run("BadInput", testBadInput)
	t.Run("Stdin", testStdin)
}

func testMatchesBenchstat(t *testing.T) {
	oracle := benchstatPath(t)
	for _, args := range benchstatCases {
		cmd := exec.Command(oracle, args...)
		var want, wantErr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &want, &wantErr
		if err := cmd.Run(); err != nil {
			t.Fatalf("benchstat %q: %v\n%s", args, err, wantErr.String())
		}
		if want.Len() == 0 {
			t.Fatalf("benchstat %q printed nothing; the case tests nothing", args)
		}
		got, gotErr, _ := perflabRun(append([]string{"bench", "compare"}, args...)...)
		if got != want.String() {
			t.Errorf("perflab bench compare %q differs from benchstat:\n--- benchstat\n%s--- perflab\n%s", args, want.String(), got)
		}
		// benchstat's messages (syntax errors with file:line, csv
		// warnings) must all be in perflab's.
		for _, line := range strings.Split(strings.TrimSpace(wantErr.String()), "\n") {
			if !strings.Contains(gotErr, line) {
				t.Errorf("perflab bench compare %q: stderr lacks benchstat's %q:\n%s", args, line, gotErr)
			}
		}
	}
}

// benchstatCSV runs benchstat -format csv and returns its records.
func benchstatCSV(t *testing.T, args ...string) [][]string {
	t.Helper()
	out, err := exec.Command(benchstatPath(t), append([]string{"-format", "csv"}, args...)...).Output()
	if err != nil {
		t.Fatal(err)
	}
	r := csv.NewReader(bytes.NewReader(out))
	r.FieldsPerRecord = -1
	recs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return recs
}

// csvRow is one benchmark row of benchstat's csv output for two files.
type csvRow struct {
	unit, name, oldCenter, newCenter, delta string
}

// csvRows extracts the benchmark rows of a two-column csv comparison.
func csvRows(recs [][]string) []csvRow {
	var rows []csvRow
	unit := ""
	for _, r := range recs {
		switch {
		case len(r) == 7 && r[0] == "" && r[2] == "CI":
			unit = r[1]
		case len(r) == 7 && r[0] != "" && r[0] != "geomean" && unit != "":
			rows = append(rows, csvRow{unit, r[0], r[1], r[3], r[5]})
		}
	}
	return rows
}

func testJSONAgreesWithBenchstat(t *testing.T) {
	want := csvRows(benchstatCSV(t, "base.txt", "slow.txt"))
	stdout, stderr, code := perflabRun("bench", "compare", "-format", "json", "base.txt", "slow.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var doc bench.JSON
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("bad JSON: %v\n%s", err, stdout)
	}
	var got []csvRow
	for _, tab := range doc.Tables {
		if tab.Config["pkg"] != "example.com/shapes" || !slices.Equal(tab.Columns, []string{"base.txt", "slow.txt"}) {
			t.Errorf("table %s: config %v, columns %v", tab.Unit, tab.Config, tab.Columns)
		}
		for _, r := range tab.Rows {
			old, new := r.Cells[0], r.Cells[1]
			if old == nil || new == nil || new.Significant == nil || new.P == nil {
				t.Fatalf("%s %s: missing cells: %+v", tab.Unit, r.Name, r)
			}
			if *new.Significant != (new.DeltaText != "~") || new.N != 6 || new.BaseN != 6 {
				t.Errorf("%s %s: significant %v, delta %q, n %d+%d", tab.Unit, r.Name, *new.Significant, new.DeltaText, new.BaseN, new.N)
			}
			if old.Center == nil || new.Center == nil || old.Lo == nil || *old.Lo > *old.Center || old.Hi == nil || *old.Hi < *old.Center {
				t.Fatalf("%s %s: interval %v..%v around %v", tab.Unit, r.Name, old.Lo, old.Hi, old.Center)
			}
			got = append(got, csvRow{tab.Unit, r.Name, fmtG(*old.Center), fmtG(*new.Center), new.DeltaText})
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("JSON rows differ from benchstat's csv:\n got %v\nwant %v", got, want)
	}
}

func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func testOldFormat(t *testing.T) {
	rows := csvRows(benchstatCSV(t, "base.txt", "slow.txt"))
	stdout, stderr, code := perflabRun("bench", "compare", "-format", "old", "base.txt", "slow.txt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	// Each benchcmp row is "BenchmarkNAME old new delta" with the medians
	// benchstat computed, in benchcmp's units and precision.
	headers := map[string]string{"sec/op": "ns/op", "allocs/op": "allocs", "B/op": "bytes", "B/s": "MB/s"}
	lines := strings.Split(stdout, "\n")
	checked := 0
	for _, r := range rows {
		hdr, ok := headers[r.unit]
		if !ok {
			continue
		}
		old, _ := strconv.ParseFloat(r.oldCenter, 64)
		new, _ := strconv.ParseFloat(r.newCenter, 64)
		o, n, delta := strconv.FormatFloat(old, 'f', -1, 64), strconv.FormatFloat(new, 'f', -1, 64), fmt.Sprintf("%+.2f%%", 100*new/old-100)
		switch r.unit {
		case "sec/op":
			o, n = strconv.FormatFloat(old*1e9, 'f', nsPrec(old*1e9), 64), strconv.FormatFloat(new*1e9, 'f', nsPrec(new*1e9), 64)
		case "B/s":
			o, n, delta = fmt.Sprintf("%.2f", old/1e6), fmt.Sprintf("%.2f", new/1e6), fmt.Sprintf("%.2fx", new/old)
		}
		if old == 0 && new == 0 {
			delta = "+0.00%"
		}
		block := regexp.MustCompile(`(?m)^benchmark +old ` + regexp.QuoteMeta(hdr) + ` +new ` + regexp.QuoteMeta(hdr) + ` +(delta|speedup)\n(Benchmark.*\n)+`).FindString(stdout)
		want := strings.Join([]string{"Benchmark" + r.name, o, n, delta}, " ")
		if !slices.ContainsFunc(strings.Split(block, "\n"), func(l string) bool { return strings.Join(strings.Fields(l), " ") == want }) {
			t.Errorf("no row %q under the %s header:\n%s", want, hdr, stdout)
		}
		checked++
	}
	if checked < 8 || len(lines) < 20 {
		t.Errorf("checked only %d rows:\n%s", checked, stdout)
	}
}

func nsPrec(ns float64) int {
	switch {
	case ns < 10:
		return 2
	case ns < 100:
		return 1
	}
	return 0
}

// significantRows returns the names of rows of unit whose change benchstat
// calls significant and whose delta d satisfies keep(d).
func significantRows(rows []csvRow, unit string, keep func(float64) bool) []string {
	var out []string
	for _, r := range rows {
		if r.unit != unit || r.delta == "~" {
			continue
		}
		d, err := strconv.ParseFloat(strings.TrimSuffix(r.delta, "%"), 64)
		if err == nil && keep(d) {
			out = append(out, r.name)
		}
	}
	return out
}

func testFailOn(t *testing.T) {
	rows := csvRows(benchstatCSV(t, "base.txt", "slow.txt"))
	slower := significantRows(rows, "sec/op", func(d float64) bool { return d > 5 })
	moreAllocs := significantRows(rows, "allocs/op", func(d float64) bool { return d > 0 })
	if len(slower) == 0 || len(moreAllocs) == 0 {
		t.Fatalf("the data shows no significant slowdown or allocation growth: %v", rows)
	}
	// Read backwards, the slowed benchmarks got faster. A benchmark that
	// BENCH_SLOW does not touch can still differ by noise between the two
	// real runs (a 2 ns loop on a busy machine), so what crosses is taken
	// from benchstat too, and may be nothing.
	backRows := csvRows(benchstatCSV(t, "slow.txt", "base.txt"))
	slowerBack := significantRows(backRows, "sec/op", func(d float64) bool { return d > 5 })
	backCode := 0
	if len(slowerBack) > 0 {
		backCode = 1
	}
	var slowedNames []string
	for _, name := range slower {
		slowedNames = append(slowedNames, name+": ")
	}
	tests := []struct {
		expr      string
		old, new  string
		code      int
		mustName  []string
		mustNotBe []string
	}{
		{"sec/op>+5%", "base.txt", "slow.txt", 1, slower, nil},
		{"ns/op>+5%", "base.txt", "slow.txt", 1, slower, nil},
		{"allocs/op>0", "base.txt", "slow.txt", 1, moreAllocs, []string{"Sum/n=64-2:"}},
		{"sec/op>+5%,allocs/op>0", "base.txt", "slow.txt", 1, append(slower, moreAllocs...), nil},
		{"sec/op>+100000000%", "base.txt", "slow.txt", 0, nil, nil},
		{"sec/op>+5%", "slow.txt", "base.txt", backCode, slowerBack, slowedNames},
		{"sec/op>+5%", "one.txt", "slow.txt", 0, nil, nil}, // n=1: never significant
	}
	for _, tt := range tests {
		stdout, stderr, code := perflabRun("bench", "compare", "-fail-on", tt.expr, tt.old, tt.new)
		if code != tt.code || stdout == "" {
			t.Errorf("-fail-on %q %s %s: exit %d, want %d; stderr:\n%s", tt.expr, tt.old, tt.new, code, tt.code, stderr)
		}
		for _, name := range tt.mustName {
			if !strings.Contains(stderr, name+": ") {
				t.Errorf("-fail-on %q: stderr does not name %s:\n%s", tt.expr, name, stderr)
			}
		}
		for _, s := range tt.mustNotBe {
			if strings.Contains(stderr, s) {
				t.Errorf("-fail-on %q: stderr names %s:\n%s", tt.expr, s, stderr)
			}
		}
		if tt.code == 0 && strings.Contains(stderr, "crosses") {
			t.Errorf("-fail-on %q passed but stderr reports a crossing:\n%s", tt.expr, stderr)
		}
	}
}

func testBadInput(t *testing.T) {
	tests := []struct {
		args      []string
		code      int
		stderrHas []string
	}{
		{[]string{"nosuch.txt"}, 1, []string{"perflab: open nosuch.txt: no such file or directory"}},
		{[]string{"empty.txt"}, 1, []string{"perflab: empty.txt: no benchmark results"}},
		{[]string{"base.txt", "empty.txt"}, 1, []string{"empty.txt: no benchmark results"}},
		{[]string{"bad.txt", "base.txt"}, 0, []string{"bad.txt:6: parsing iteration count", "bad.txt:7: missing measurements", "bad.txt:8: missing units", "bad.txt:9: parsing measurement"}},
		{[]string{"base.txt", "partial.txt"}, 0, []string{"warning: Alloc-2: sec/op, B/op, allocs/op measured in base.txt but not in partial.txt", "warning: Sum/n=64-2: B/op, allocs/op measured in base.txt but not in partial.txt"}},
		{[]string{"-col", "/n", "base.txt"}, 0, []string{"warning: Sum-2: sec/op, B/s, B/op, allocs/op measured in 64, 4096 but not in (benchmarks without /n)\n", "warning: Alloc-2: sec/op, B/op, allocs/op measured in (benchmarks without /n) but not in 64, 4096\n"}},
		{nil, 2, []string{"compare needs at least one input file"}},
		{[]string{"-format", "xml", "base.txt"}, 2, []string{"-format must be text, csv, old or json"}},
		{[]string{"-alpha", "2", "base.txt"}, 2, []string{"-alpha must be in range [0, 1]"}},
		{[]string{"-confidence", "-1", "base.txt"}, 2, []string{"-confidence must be in range [0, 1]"}},
		{[]string{"-filter", "(", "base.txt"}, 2, []string{"parsing -filter"}},
		{[]string{"-row", ".unit", "base.txt"}, 2, []string{"parsing -row"}},
		{[]string{"-fail-on", "sec/op", "base.txt"}, 2, []string{"parsing -fail-on"}},
		{[]string{"-fail-on", "sec/op>fast", "base.txt"}, 2, []string{`bad number "fast"`}},
		{[]string{"-fail-on", "allocs>0", "base.txt", "slow.txt"}, 2, []string{`perflab bench: -fail-on: unit "allocs" is not in the input; units present: sec/op, `, ", B/op, ", ", allocs/op"}},
		{[]string{"-fail-on", "sec/op>5%,ns/item>+5%,widgets/op>1", "one.txt"}, 0, nil},
		{[]string{"-fail-on", "MB/s<-10%,MB/op>0,sec/item>1", "base.txt"}, 0, nil},
		{[]string{"-filter", ".unit:sec/op", "-fail-on", "ns/op>+5%,allocs/op>0", "base.txt", "slow.txt"}, 2, []string{`-fail-on: unit "allocs/op" is not in the results -filter keeps; units present: sec/op` + "\n"}},
		{[]string{"-fail-on", "allocs>0", "empty.txt"}, 1, []string{"empty.txt: no benchmark results"}},
		{[]string{"-nosuchflag", "base.txt"}, 2, []string{"flag provided but not defined: -nosuchflag"}},
		{[]string{"-format", "old", "base.txt", "slow.txt", "one.txt"}, 1, []string{"-format old compares exactly two columns"}},
	}
	for _, tt := range tests {
		_, stderr, code := perflabRun(append([]string{"bench", "compare"}, tt.args...)...)
		if code != tt.code {
			t.Errorf("bench compare %q: exit %d, want %d; stderr:\n%s", tt.args, code, tt.code, stderr)
		}
		for _, s := range tt.stderrHas {
			if !strings.Contains(stderr, s) {
				t.Errorf("bench compare %q: stderr lacks %q:\n%s", tt.args, s, stderr)
			}
		}
	}
}

func testStdin(t *testing.T) {
	oracle := benchstatPath(t)
	slow, err := os.ReadFile("slow.txt")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(oracle, "base.txt", "-")
	cmd.Stdin = bytes.NewReader(slow)
	want, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	got, stderr, code := perflabRunStdin(bytes.NewReader(slow), "bench", "compare", "base.txt", "-")
	if code != 0 || got != string(want) {
		t.Errorf("exit %d, stderr %q; stdout differs from benchstat's:\n--- benchstat\n%s--- perflab\n%s", code, stderr, want, got)
	}
}
