package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
	rpt "github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
)

// A conformanceCase is one report compared with go tool pprof.
type conformanceCase struct {
	cmd   string   // perflab command: top, tree, peek, list, traces, tags, raw
	rx    string   // peek and list: the regexp
	flags []string // shared by both tools
	files []string // profiles, by reporttest name
	// unordered compares the rows as a set, without the running sum%
	// column: pprof orders same-named nodes randomly (see docs/compat.md).
	unordered bool
	binary    bool // name the workload's binary first, for symbolization
}

// pprofArgs returns the same report as go tool pprof's arguments.
func (c conformanceCase) pprofArgs(p *reporttest.Profiles) []string {
	flag := "-" + c.cmd
	if c.rx != "" {
		flag += "=" + c.rx
	}
	args := append([]string{flag}, c.flags...)
	if c.binary {
		args = append(args, p.Binary)
	}
	for _, f := range c.files {
		args = append(args, p.Path(f))
	}
	return args
}

func (c conformanceCase) perflabArgs(p *reporttest.Profiles) []string {
	args := append([]string{c.cmd}, c.flags...)
	if c.rx != "" {
		args = append(args, c.rx)
	}
	if c.binary {
		args = append(args, p.Binary)
	}
	for _, f := range c.files {
		args = append(args, p.Path(f))
	}
	return args
}

func (c conformanceCase) name() string {
	s := c.cmd
	if c.rx != "" {
		s += "=" + c.rx
	}
	if c.binary {
		s += " BINARY"
	}
	return strings.Join(append(append([]string{s}, c.flags...), c.files...), " ")
}

// conformanceMatrix lists every report and flag combination the suite
// checks: each report on every profile kind and format, then the flags.
func conformanceMatrix() []conformanceCase {
	var cs []conformanceCase
	add := func(cmd, rx string, files []string, flags ...string) {
		cs = append(cs, conformanceCase{cmd: cmd, rx: rx, flags: flags, files: files})
	}
	cpu := []string{"cpu.pb.gz"}
	all := []string{"cpu.pb.gz"}
	for _, k := range reporttest.Kinds {
		all = append(all, k+".pb.gz", k+".txt")
	}
	for _, f := range all {
		for _, cmd := range []string{"top", "tree", "traces", "tags", "raw"} {
			add(cmd, "", []string{f})
		}
		add("top", "", []string{f}, "-cum", "-nodecount=8")
	}
	for _, fl := range [][]string{
		{"-cum"}, {"-nodecount=5"}, {"-nodefraction=0.05"}, {"-edgefraction=0.05"},
		{"-lines"}, {"-filefunctions"}, {"-addresses"}, {"-functions"}, {"-noinlines"},
		{"-lines", "-noinlines"}, {"-unit=ms"}, {"-unit=auto"}, {"-unit=s"}, {"-divide_by=3"},
		{"-focus=dfs"}, {"-ignore=runtime"}, {"-hide=runtime"}, {"-show=main"},
		{"-show_from=main"}, {"-focus=build", "-relative_percentages"}, {"-compact_labels"},
		{"-tagfocus=worker=w0"}, {"-tagignore=kind=cpu"}, {"-tagfocus=w1"},
		{"-nodecount=3", "-cum", "-lines"},
	} {
		add("top", "", cpu, fl...)
		add("tree", "", cpu, fl...)
	}
	for _, rx := range []string{"main.dfs", "mallocgc", `main\.`, "runtime.mapassign"} {
		add("peek", rx, cpu)
		add("list", rx, cpu)
	}
	add("peek", "main", cpu, "-lines")
	add("list", "main.build", cpu, "-noinlines")
	add("list", "main", []string{"allocs.pb.gz"}, "-sample_index=alloc_space")
	add("traces", "", cpu, "-tagfocus=worker=w1")
	add("tags", "", cpu, "-tagignore=w0")
	add("tags", "", []string{"heap.pb.gz"}, "-tagfocus=1kb:")
	add("top", "", []string{"heap.pb.gz"}, "-tagfocus=bytes=:512")
	for _, c := range labelCases() {
		add(c.cmd, c.rx, c.files, c.flags...)
	}
	for _, si := range []string{"-inuse_space", "-inuse_objects", "-alloc_space", "-alloc_objects", "-sample_index=0", "-sample_index=alloc_space"} {
		add("top", "", []string{"heap.pb.gz"}, si)
		add("tree", "", []string{"allocs.txt"}, si)
	}
	for _, si := range []string{"-total_delay", "-contentions", "-mean_delay"} {
		add("top", "", []string{"block.pb.gz"}, si)
		add("tree", "", []string{"mutex.pb.gz"}, si)
		add("traces", "", []string{"block.txt"}, si)
	}
	add("top", "", []string{"cpu.pb.gz", "cpu2.pb.gz"})
	add("top", "", cpu, "-base="+"cpu2.pb.gz")
	add("top", "", cpu, "-diff_base="+"cpu2.pb.gz")
	add("top", "", cpu, "-diff_base="+"cpu2.pb.gz", "-normalize")
	cs = append(cs, conformanceCase{cmd: "top", flags: []string{"-files"}, files: cpu, unordered: true})
	for _, k := range []string{"heap", "block", "mutex"} {
		cs = append(cs, conformanceCase{cmd: "top", flags: []string{"-lines"}, files: []string{k + ".txt"}, binary: true})
	}
	return cs
}

// TestConformance compares perflab with go tool pprof on the profiles of
// one run of a real workload: the report matrix, the shell and JSON.
func TestConformance(t *testing.T) {
	reporttest.Pprof(t)
	p := reporttest.Generate(t)
	t.Run("reports", func(t *testing.T) { testReports(t, p) })
	t.Run("shell", func(t *testing.T) { testShell(t, p) })
	t.Run("json", func(t *testing.T) { testJSON(t, p) })
	t.Run("pprof-testdata", testPprofTestdata)
}

// pprofTestdata are profiles from other programs and languages (C++, Java,
// Go) that pprof's module ships for its own tests: addresses without
// symbols, legacy formats, contention and growth profiles.
var pprofTestdata = []string{
	"cppbench.contention", "cppbench.cpu", "cppbench.growth", "cppbench.heap", "cppbench.thread",
	"go.crc32.cpu", "go.godoc.thread", "gobench.cpu", "gobench.heap", "java.contention", "java.cpu", "java.heap",
}

// testPprofTestdata compares reports on pprofTestdata, found in the module
// cache (the module is one of ours), with pprof's.
func testPprofTestdata(t *testing.T) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/google/pprof").Output()
	dir := filepath.Join(strings.TrimSpace(string(out)), "profile", "testdata")
	if _, serr := os.Stat(dir); err != nil || serr != nil {
		t.Skipf("pprof's testdata not found: %v %v", err, serr)
	}
	p := &reporttest.Profiles{Dir: dir}
	for _, f := range pprofTestdata {
		for _, c := range []conformanceCase{
			{cmd: "top"}, {cmd: "tree"}, {cmd: "traces"}, {cmd: "tags"}, {cmd: "raw"},
			{cmd: "top", flags: []string{"-lines", "-cum"}}, {cmd: "top", flags: []string{"-addresses"}},
			{cmd: "top", flags: []string{"-noinlines", "-nodecount=10"}}, {cmd: "peek", rx: "."},
		} {
			c.files = []string{f}
			t.Run(c.name(), func(t *testing.T) {
				t.Parallel()
				compareWithPprof(t, p, c)
			})
		}
	}
}

// testReports runs every case of the matrix through perflab and through
// go tool pprof on the same profiles and wants identical stdout.
func testReports(t *testing.T, p *reporttest.Profiles) {
	for _, c := range conformanceMatrix() {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			// Relative -base paths resolve in the profiles' directory.
			// Cases may share their flags' array: change a copy.
			c.flags = slices.Clone(c.flags)
			for i, f := range c.flags {
				c.flags[i] = strings.Replace(f, "base=", "base="+p.Dir+"/", 1)
			}
			compareWithPprof(t, p, c)
		})
	}
}

// compareWithPprof runs case c through perflab and pprof and wants the
// same output, or the same error.
func compareWithPprof(t *testing.T, p *reporttest.Profiles, c conformanceCase) {
	want, stderr, err := reporttest.RunPprof(t, p.Dir, nil, c.pprofArgs(p)...)
	if err != nil {
		// Sampling may miss a function: then both must fail alike.
		wantErr := strings.TrimSpace(string(stderr))
		var out, errw bytes.Buffer
		if perr := run(context.Background(), strings.NewReader(""), &out, &errw, c.perflabArgs(p)); perr == nil || !strings.HasSuffix(wantErr, perr.Error()) || out.Len() > 0 {
			t.Fatalf("pprof failed with %q; perflab: error %v, %d bytes of output", wantErr, perr, out.Len())
		}
		return
	}
	got := runInProcess(t, c.perflabArgs(p)...)
	if c.unordered {
		got, want = unorderedRows(got), unorderedRows(want)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("perflab %s differs from pprof: %s", strings.Join(c.perflabArgs(p), " "), reporttest.FirstDiff(got, want))
	}
}

// runInProcess runs perflab in-process and returns its stdout.
func runInProcess(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), strings.NewReader(""), &stdout, &stderr, args); err != nil {
		t.Fatalf("perflab %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.Bytes()
}

// unorderedRows drops the sum% column of top's rows and sorts the lines.
func unorderedRows(b []byte) []byte {
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if f := strings.Fields(l); len(f) >= 5 && strings.HasSuffix(f[2], "%") {
			lines[i] = strings.Join(slices.Delete(f, 2, 3), " ")
		}
	}
	slices.Sort(lines)
	return []byte(strings.Join(lines, "\n"))
}

// testJSON checks that -json carries what pprof prints: top's rows and
// peek's callers and callees, parsed from pprof's own text output.
func testJSON(t *testing.T, p *reporttest.Profiles) {
	cpu := p.Path("cpu.pb.gz")
	for _, flags := range [][]string{{}, {"-cum", "-nodecount=7"}, {"-lines", "-focus=dfs"}} {
		want, _, err := reporttest.RunPprof(t, p.Dir, nil, append(append([]string{"-top"}, flags...), cpu)...)
		if err != nil {
			t.Fatal(err)
		}
		var r rpt.JSONReport
		if err := json.Unmarshal(runInProcess(t, append(append([]string{"top", "-json"}, flags...), cpu)...), &r); err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSuffix(string(want), "\n"), "\n")
		header := len(lines) - len(r.Nodes) - 1
		if header < 0 || !slices.Equal(r.Labels, lines[:header]) {
			t.Fatalf("top -json %v: labels %q, pprof's header %q", flags, r.Labels, lines[:max(header, 0)])
		}
		for i, n := range r.Nodes {
			f := strings.Fields(lines[header+1+i])
			row := []string{n.FlatText, n.CumText, n.Name}
			if got := []string{f[0], f[3], strings.Join(f[5:], " ")}; n.Inline == "" && !slices.Equal(row, got) {
				t.Errorf("top -json %v row %d: %q, pprof prints %q", flags, i, row, got)
			}
		}
	}
	want, _, err := reporttest.RunPprof(t, p.Dir, nil, "-peek=main.dfs", cpu)
	if err != nil {
		t.Fatal(err)
	}
	var r rpt.JSONReport
	if err := json.Unmarshal(runInProcess(t, "peek", "-json", "main.dfs", cpu), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Nodes) == 0 {
		t.Fatal("peek -json main.dfs: no nodes")
	}
	for _, n := range r.Nodes {
		var block []string
		for _, e := range n.Callers {
			block = append(block, e.WeightText+" "+e.Name)
		}
		block = append(block, n.FlatText+" "+n.CumText+" | "+n.Name)
		for _, e := range n.Callees {
			block = append(block, e.WeightText+" "+e.Name)
		}
		if !strings.Contains(peekBlocks(want), strings.Join(block, "\n")) {
			t.Errorf("peek -json node %s: %q not in pprof's output:\n%s", n.Name, block, want)
		}
	}
}

// peekBlocks reduces pprof's peek output to "weight name" edge lines and
// "flat cum | name" node lines.
func peekBlocks(out []byte) string {
	var b strings.Builder
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(strings.TrimSuffix(l, " (inline)"))
		switch {
		case len(f) == 4 && f[2] == "|":
			fmt.Fprintf(&b, "%s %s\n", f[0], f[3])
		case len(f) == 7 && f[5] == "|":
			fmt.Fprintf(&b, "%s %s | %s\n", f[0], f[3], f[6])
		}
	}
	return b.String()
}

// TestReportErrors checks bad command lines (exit 2) and bad inputs
// (exit 1, one line naming the input): never a panic, never partial output.
func TestReportErrors(t *testing.T) {
	dir := t.TempDir()
	notProfile := filepath.Join(dir, "notes.txt")
	empty := filepath.Join(dir, "empty.pb.gz")
	truncated := filepath.Join(dir, "truncated.pb.gz")
	os.WriteFile(notProfile, []byte("hello, not a profile\n"), 0o644)
	os.WriteFile(empty, nil, 0o644)
	os.WriteFile(truncated, []byte{0x1f, 0x8b, 8, 0, 0, 0}, 0o644)
	good := filepath.Join(dir, "good.pb.gz")
	reporttest.WriteProfile(t, reporttest.OneSample("main.go"), good)
	for _, c := range []struct {
		args     []string
		code     int
		contains string
	}{
		{[]string{"top"}, 2, "no profile given"},
		{[]string{"peek"}, 2, "missing REGEX"},
		{[]string{"top", "-nosuchflag", notProfile}, 2, "nosuchflag"},
		{[]string{"top", "-lines", "-files", notProfile}, 2, "conflicting options"},
		{[]string{"traces", "-json", notProfile}, 2, "json"},
		{[]string{"top", "-base=a", "-diff_base=b", notProfile}, 2, "cannot both be specified"},
		{[]string{"top", "-normalize", notProfile}, 2, "must have base profile"},
		{[]string{"top", notProfile}, 1, notProfile},
		{[]string{"top", empty}, 1, empty},
		{[]string{"tree", truncated}, 1, truncated},
		{[]string{"top", filepath.Join(dir, "missing.pb.gz")}, 1, "missing.pb.gz"},
		{[]string{"peek", "(", good}, 1, "parsing argument regexp"},
		{[]string{"list", "nosuchfunc", good}, 1, "no matches found for regexp: nosuchfunc"},
		{[]string{"top", "-focus=(", good}, 1, "parsing focus regexp"},
		{[]string{"top", "-sample_index=alloc_space", good}, 1, "alloc_space"},
		{[]string{"top", "-divide_by=0", good}, 1, "zero divisor"},
		{[]string{"top", "-granularity=x", good}, 2, "granularity"},
		{[]string{"top", "-max_bytes=16", good}, 1, "raise it with -max_bytes"},
		{[]string{"top", "-max_bytes=lots", good}, 2, "max_bytes"},
		{[]string{"top", "-timeout=soon", good}, 2, "timeout"},
	} {
		var stdout, stderr bytes.Buffer
		code := exitCode(&stderr, run(context.Background(), strings.NewReader(""), &stdout, &stderr, c.args))
		msg := stderr.String()
		if code != c.code || !strings.Contains(msg, c.contains) || stdout.Len() > 0 {
			t.Errorf("perflab %v: exit %d, stderr %q, %d bytes of stdout; want exit %d mentioning %q",
				c.args, code, msg, stdout.Len(), c.code, c.contains)
		}
		if c.code == 1 && strings.Count(msg, "\n") != 1 {
			t.Errorf("perflab %v: error is not one line: %q", c.args, msg)
		}
	}
}

// TestReportHelpListsEverySetting checks that the report commands' flags
// and help come from settings.All: every setting, choice and shortcut is
// in each command's help and is accepted as a flag.
func TestReportHelpListsEverySetting(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.pb.gz")
	for _, cmd := range []string{"top", "tree", "peek", "list", "traces", "tags", "raw", "disasm"} {
		var help bytes.Buffer
		if err := run(context.Background(), strings.NewReader(""), &help, &help, []string{"help", cmd}); err != nil {
			t.Fatal(err)
		}
		for _, s := range settings.All() {
			flags := []string{"-" + s.Name}
			if s.Choices != nil {
				flags = nil
			}
			for _, c := range s.Choices {
				flags = append(flags, "-"+c.Name)
			}
			for _, sc := range s.Shortcuts {
				flags = append(flags, "-"+sc.Flag)
			}
			for _, f := range flags {
				if !regexp.MustCompile(`(?m)^  .*` + f + `\b`).MatchString(help.String()) {
					t.Errorf("perflab help %s does not list %s", cmd, f)
				}
				arg := f
				if !s.IsBool() && s.Choices == nil && f == "-"+s.Name {
					arg += "=" + cmp.Or(s.Default(), "x")
				}
				args := []string{cmd, arg, missing}
				if cmd == "peek" || cmd == "list" || cmd == "disasm" {
					args = []string{cmd, arg, "main", missing}
				}
				var stdout, stderr bytes.Buffer
				if code := exitCode(&stderr, run(context.Background(), strings.NewReader(""), &stdout, &stderr, args)); code != 1 {
					t.Errorf("perflab %v: exit %d (%s); want the flag accepted and the missing file reported", args, code, stderr.String())
				}
			}
		}
	}
}
