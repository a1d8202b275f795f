package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/reporttest"
)

// runArgs runs perflab's command line in process and returns its stdout,
// stderr and error.
func runArgs(stdin string, args ...string) (string, string, error) {
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), strings.NewReader(stdin), &stdout, &stderr, args)
	return stdout.String(), stderr.String(), err
}

// TestPprofCommandLine runs go tool pprof's own command lines through
// perflab: each prints what pprof prints with the same arguments.
func TestPprofCommandLine(t *testing.T) {
	p := reporttest.Generate(t)
	cpu, heap := p.Path("cpu.pb.gz"), p.Path("heap.pb.gz")
	for _, args := range [][]string{
		{"-top", cpu},
		{"--text", "-cum", "-nodecount=5", cpu},
		{"-list=main.dfs", cpu},
		{"-list", "main.dfs", p.Binary, cpu},
		{"-peek=main.build", "-sample_index=alloc_space", heap},
		{"-traces", p.Path("goroutine.pb.gz")},
		{"-tree", "-nodecount=4", cpu},
		{"-tags", cpu},
		{"-raw", heap},
		{"-dot", "-nodecount=6", cpu},
		{"-top=true", "-focus=main", cpu},
		{"-disasm=main.dfs", p.Binary, cpu},
	} {
		want, wantErr, err := reporttest.RunPprof(t, p.Dir, nil, args...)
		if err != nil {
			t.Fatalf("pprof %q: %v\n%s", args, err, wantErr)
		}
		got, stderr, err := runArgs("", args...)
		if err != nil || got != string(want) {
			t.Errorf("perflab %q: %v, %s\n%s", args, err, stderr, reporttest.FirstDiff([]byte(got), want))
		}
	}
	t.Run("Shell", func(t *testing.T) {
		const script = "top5\nlist main.dfs\nquit\n"
		want, wantErr, err := reporttest.RunPprof(t, p.Dir, []byte(script), cpu)
		if err != nil {
			t.Fatal(err)
		}
		got, gotErr, err := runArgs(script, cpu)
		if err != nil || got != string(want) || gotErr != string(wantErr) {
			t.Errorf("perflab %s: %v\nstdout: %s\nstderr: %s", cpu, err, reporttest.FirstDiff([]byte(got), want), reporttest.FirstDiff([]byte(gotErr), wantErr))
		}
	})
	t.Run("Output", func(t *testing.T) {
		dir := t.TempDir()
		mine, theirs := filepath.Join(dir, "mine.txt"), filepath.Join(dir, "theirs.txt")
		_, wantErr, err := reporttest.RunPprof(t, p.Dir, nil, "-top", "-output", theirs, cpu)
		if err != nil {
			t.Fatal(err)
		}
		stdout, stderr, err := runArgs("", "-top", "-output", mine, cpu)
		got, _ := os.ReadFile(mine)
		want, _ := os.ReadFile(theirs)
		if err != nil || stdout != "" || !bytes.Equal(got, want) || len(want) == 0 ||
			stderr != strings.ReplaceAll(string(wantErr), theirs, mine) {
			t.Errorf("perflab -top -output: %v, stdout %q, stderr %q (pprof's %q)\n%s", err, stdout, stderr, wantErr, reporttest.FirstDiff(got, want))
		}
	})
	t.Run("Proto", func(t *testing.T) {
		dir := t.TempDir()
		mine, theirs := filepath.Join(dir, "mine.pb.gz"), filepath.Join(dir, "theirs.pb.gz")
		if _, stderr, err := reporttest.RunPprof(t, p.Dir, nil, "-proto", "-focus=main", "-output", theirs, heap); err != nil {
			t.Fatalf("pprof: %v\n%s", err, stderr)
		}
		if _, stderr, err := runArgs("", "-proto", "-focus=main", "-output", mine, heap); err != nil {
			t.Fatalf("perflab: %v\n%s", err, stderr)
		}
		for _, report := range [][]string{{"-top", "-sample_index=alloc_space"}, {"-traces"}} {
			want, _, err1 := reporttest.RunPprof(t, "", nil, append(report, theirs)...)
			got, _, err2 := reporttest.RunPprof(t, "", nil, append(report, mine)...)
			if err1 != nil || err2 != nil || !bytes.Equal(got, want) {
				t.Errorf("pprof %q of perflab's -proto differs from that of pprof's (%v, %v): %s", report, err1, err2, reporttest.FirstDiff(got, want))
			}
		}
	})
	t.Run("Graphs", func(t *testing.T) {
		svg, _, err := runArgs("", "graph", "-svg", cpu)
		if err != nil {
			t.Fatal(err)
		}
		if got, _, err := runArgs("", "-svg", cpu); err != nil || got != svg {
			t.Errorf("perflab -svg: %v; want graph -svg's output", err)
		}
		// -web writes the SVG to a file and opens it: a browser that notes
		// what it was given stands in for the desktop's.
		bin, opened := t.TempDir(), filepath.Join(t.TempDir(), "opened")
		os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\necho \"$1\" > "+opened+"\n"), 0o755)
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		_, stderr, err := runArgs("", "-web", cpu)
		file, _ := strings.CutPrefix(strings.TrimSpace(stderr), "Graph in ")
		drawn, _ := os.ReadFile(file)
		if err != nil || string(drawn) != svg {
			t.Fatalf("perflab -web: %v, stderr %q; want the SVG in the file named", err, stderr)
		}
		os.Remove(file)
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			if b, _ := os.ReadFile(opened); strings.TrimSpace(string(b)) == file {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the browser was not given %s", file)
			}
		}
	})
	t.Run("HTTP", func(t *testing.T) {
		testPprofHTTP(t, cpu)
	})
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-png", cpu}, "perflab: -png: perflab draws graphs as SVG, without Graphviz: use -svg or -web\n"},
		{[]string{"-top", "-tree", cpu}, "perflab: -top and -tree: give one output format, as pprof\n"},
		{[]string{"-list", cpu}, "perflab list: missing REGEX before the profile " + cpu},
		{[]string{"-http=:8081", "-output", "x", cpu}, "-output applies to reports, not to web"},
	} {
		_, stderr, err := runArgs("", tt.args...)
		var buf bytes.Buffer
		if code := exitCode(&buf, err); code != 2 || !strings.Contains(buf.String(), tt.want) || stderr != "" {
			t.Errorf("perflab %q: exit %d, %q; want 2 and %q", tt.args, code, buf.String(), tt.want)
		}
	}
}

// testPprofHTTP serves the viewer as pprof -http does and reads its top
// view.
func testPprofHTTP(t *testing.T, prof string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, strings.NewReader(""), io.Discard, w, []string{"-http=127.0.0.1:0", "-no_browser", prof})
		w.Close()
	}()
	defer func() { cancel(); <-done }()
	serving := regexp.MustCompile(`^Serving web UI on (http://\S+)`)
	sc := bufio.NewScanner(r)
	var base string
	for base == "" && sc.Scan() {
		if m := serving.FindStringSubmatch(sc.Text()); m != nil {
			base = m[1]
		}
	}
	go io.Copy(io.Discard, r)
	if base == "" {
		t.Fatal("perflab -http said nowhere it serves")
	}
	if body := get(t, base+"/ui/top"); !bytes.Contains(body, []byte("main.dfs")) {
		t.Errorf("GET /ui/top: %d bytes; want main.dfs in the table", len(body))
	}
}

// TestFlagsAfterArguments gives flags after a report's REGEX and sources,
// where pprof's users put them, and checks what a missing REGEX says.
func TestFlagsAfterArguments(t *testing.T) {
	p := reporttest.Generate(t)
	cpu, heap := p.Path("cpu.pb.gz"), p.Path("heap.pb.gz")
	for _, tt := range []struct{ perflab, pprof []string }{
		{[]string{"list", "main.build", "-sample_index=alloc_space", heap}, []string{"-list=main.build", "-sample_index=alloc_space", heap}},
		{[]string{"peek", "main.dfs", cpu, "-lines"}, []string{"-peek=main.dfs", "-lines", cpu}},
		{[]string{"top", cpu, "-cum", "-nodecount", "5"}, []string{"-top", "-cum", "-nodecount=5", cpu}},
	} {
		want, stderr, err := reporttest.RunPprof(t, p.Dir, nil, tt.pprof...)
		if err != nil {
			t.Fatalf("pprof %q: %v\n%s", tt.pprof, err, stderr)
		}
		got, gotErr, err := runArgs("", tt.perflab...)
		if err != nil || got != string(want) {
			t.Errorf("perflab %q: %v %s\n%s", tt.perflab, err, gotErr, reporttest.FirstDiff([]byte(got), want))
		}
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"list", cpu}, "perflab list: missing REGEX before the profile " + cpu + ": the functions to show come first\n"},
		{[]string{"peek", cpu, "-lines"}, "perflab peek: missing REGEX before the profile " + cpu},
		{[]string{"disasm", "-inlines", cpu}, "perflab disasm: missing REGEX before the profile " + cpu},
		{[]string{"weblist", cpu}, "perflab weblist: missing REGEX before the profile " + cpu},
		{[]string{"list", "main.dfs"}, "perflab list: no profile given after REGEX \"main.dfs\"\n"},
		{[]string{"list", "main.dfs", cpu, "-nosuchflag"}, "perflab list: flag provided but not defined: -nosuchflag\n"},
	} {
		_, _, err := runArgs("", tt.args...)
		var buf bytes.Buffer
		if code := exitCode(&buf, err); code != 2 || !strings.Contains(buf.String(), tt.want) {
			t.Errorf("perflab %q: exit %d, %q; want 2 and %q", tt.args, code, buf.String(), tt.want)
		}
	}
}
