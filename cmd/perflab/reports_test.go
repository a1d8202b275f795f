package main

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/report/reporttest"
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
}

// pprofArgs returns the same report as go tool pprof's arguments.
func (c conformanceCase) pprofArgs(p *reporttest.Profiles) []string {
	flag := "-" + c.cmd
	if c.rx != "" {
		flag += "=" + c.rx
	}
	args := append([]string{flag}, c.flags...)
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
	return cs
}

// TestReportsMatchPprof runs every case of the matrix through perflab and
// through go tool pprof on the same profiles and wants identical stdout.
func TestReportsMatchPprof(t *testing.T) {
	reporttest.Pprof(t)
	p := reporttest.Generate(t)
	for _, c := range conformanceMatrix() {
		t.Run(c.name(), func(t *testing.T) {
			t.Parallel()
			// Relative -base paths resolve in the profiles' directory.
			for i, f := range c.flags {
				c.flags[i] = strings.Replace(f, "base=", "base="+p.Dir+"/", 1)
			}
			want, stderr, err := reporttest.RunPprof(t, p.Dir, nil, c.pprofArgs(p)...)
			if err != nil {
				t.Fatalf("pprof %v: %v\n%s", c.pprofArgs(p), err, stderr)
			}
			got := runInProcess(t, c.perflabArgs(p)...)
			if c.unordered {
				got, want = unorderedRows(got), unorderedRows(want)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("perflab %s differs from pprof: %s", strings.Join(c.perflabArgs(p), " "), reporttest.FirstDiff(got, want))
			}
		})
	}
}

// runInProcess runs perflab in-process and returns its stdout.
func runInProcess(t *testing.T, args ...string) []byte {
	t.Helper()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), &stdout, &stderr, args); err != nil {
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
