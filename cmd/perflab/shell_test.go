package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
)

// shellScripts are interactive sessions replayed through a pipe into both
// perflab shell and go tool pprof's shell, by profile and flags.
var shellScripts = map[string]string{
	"-nodefraction=0.2 -focus=main -cum cpu.pb.gz": "top\ntree\nfocus=\ntop3\nq\n",
	"cpu.pb.gz": `top5 -cum
top
tree 5
peek main.dfs
list main.build
tags
nodefraction=0.1
top3
lines
granularity=lines
top 4 main
:
focus=build
top -runtime
top ( >never-written.txt
cum=true
top4
sort=flat
hide
hide=runtime
top
sample_index=0
top3
samples
tree 2
foo
nodecount
nodecount=x
quit
`,
	"heap.pb.gz": `top3
alloc_space
top3 -cum
sample_index=inuse_objects
tree 3
tags
traces
exit
`,
}

// testShell replays shellScripts through both shells and wants the same
// stdout and stderr.
func testShell(t *testing.T, p *reporttest.Profiles) {
	for cmdline, script := range shellScripts {
		t.Run(cmdline, func(t *testing.T) {
			t.Parallel()
			args := strings.Fields(cmdline)
			args[len(args)-1] = p.Path(args[len(args)-1])
			wantOut, wantErr, err := reporttest.RunPprof(t, p.Dir, []byte(script), args...)
			if err != nil {
				t.Fatalf("pprof: %v\n%s", err, wantErr)
			}
			var gotOut, gotErr bytes.Buffer
			if err := runShell(context.Background(), shellCmd, &gotOut, &gotErr, strings.NewReader(script), args); err != nil {
				t.Fatalf("perflab shell: %v", err)
			}
			if !bytes.Equal(gotOut.Bytes(), wantOut) {
				t.Errorf("stdout differs from pprof's: %s", reporttest.FirstDiff(gotOut.Bytes(), wantOut))
			}
			if !bytes.Equal(gotErr.Bytes(), wantErr) {
				t.Errorf("stderr differs from pprof's: %s", reporttest.FirstDiff(gotErr.Bytes(), wantErr))
			}
		})
	}
}

// TestShellHelpAndOptions checks the parts of the shell whose text is
// perflab's own: the command list and the options listing.
func TestShellHelpAndOptions(t *testing.T) {
	p := reporttest.Generate(t)
	var out, errw bytes.Buffer
	script := "help\nhelp peek\no\nnodefraction=0.25\no\ncallgrind\n"
	if err := runShell(context.Background(), shellCmd, &out, &errw, strings.NewReader(script), []string{p.Path("cpu.pb.gz")}); err != nil {
		t.Fatal(err)
	}
	got := errw.String()
	for _, want := range []string{
		"Commands:", "    peek ", "    top ", "Display callers and callees of functions matching func_regex.",
		"  nodefraction              = 0.005", "  nodefraction              = 0.25",
		"callgrind: not supported by perflab's shell",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("shell stderr lacks %q:\n%s", want, got)
		}
	}
	if n := strings.Count(out.String(), "(pprof) "); n != 7 {
		t.Errorf("got %d prompts, want 7 (one per line and one at the end)", n)
	}
}
