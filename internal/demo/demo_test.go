package demo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/compilenotes"
	"github.com/perflab/perflab/examples/havlak"
)

// TestRun runs the whole demo with no repetitions and checks what it
// reports against what it measured.
func TestRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "prof")
	var out bytes.Buffer
	res, err := Run(context.Background(), &out, Options{Reps: 0, ProfileDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if res.Naive.Loops != havlak.Loops || res.Tuned.Loops != havlak.Loops {
		t.Errorf("loops: naive %d, tuned %d, want %d", res.Naive.Loops, res.Tuned.Loops, havlak.Loops)
	}
	for _, want := range []string{
		"1 search + 0 repetitions (the benchmark does 50",
		"== 2. Where the CPU time goes", "flat  flat%   sum%        cum   cum%",
		"ROUTINE ======================== " + res.Hottest + " in ",
		"Type: alloc_space", "== 6. Verdict", "naive/tuned",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
	// The listing shows the function's real source, from the embedded copy.
	base := res.Hottest[strings.LastIndexAny(res.Hottest, ".)")+1:]
	if !regexp.MustCompile(`(?m)^ +\S+ +\S+ +\d+:func .*\b` + base + `\(`).MatchString(text) {
		t.Errorf("listing of %s lacks its source:\n%s", res.Hottest, text)
	}
	flat := strings.Join(strings.Fields(res.Verdict), " ")
	if !strings.Contains(flat, shortName(res.Hottest)) {
		t.Errorf("verdict does not name the hottest function %s:\n%s", res.Hottest, res.Verdict)
	}
	if top := res.Shares[0]; !strings.Contains(flat, top.phrase(true)) {
		t.Errorf("verdict lacks the biggest share %q:\n%s", top.phrase(true), res.Verdict)
	}
	if s := res.Sites[0]; !strings.Contains(flat, s.File) || sourceLine(s.File, s.Line) == "" {
		t.Errorf("verdict does not quote the biggest allocation site %+v:\n%s", s, res.Verdict)
	}
	checkEscapes(t, res, text, flat)
	if res.Tuned.Allocs >= res.Naive.Allocs || res.Tuned.AllocBytes >= res.Naive.AllocBytes {
		t.Errorf("tuned allocated %d objects (%d B), naive %d (%d B)", res.Tuned.Allocs, res.Tuned.AllocBytes, res.Naive.Allocs, res.Naive.AllocBytes)
	}
	if len(res.Next) < 3 || !strings.Contains(text, "  "+res.Next[1]+"\n") || !strings.Contains(res.Next[1], "'"+shortName(res.Hottest)+"'") {
		t.Errorf("commands to try next %q do not list the hottest function %s, or are not printed", res.Next, res.Hottest)
	}
	for _, name := range []string{"naive.cpu.pprof", "naive.allocs.pprof", "tuned.cpu.pprof"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := profile.ParseData(data); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestRunBadOptions(t *testing.T) {
	if _, err := Run(context.Background(), &bytes.Buffer{}, Options{Reps: -1}); err == nil {
		t.Error("negative repetitions: no error")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	if _, err := Run(context.Background(), &bytes.Buffer{}, Options{ProfileDir: filepath.Join(file, "sub")}); err == nil {
		t.Error("profile directory under a file: no error")
	}
}

func TestFuncRegexpAndQuoting(t *testing.T) {
	for _, tt := range []struct{ fn, want string }{
		{havlakPrefix + "DFS", "havlak.DFS"},
		{havlakPrefix + "(*LoopFinder).FindLoops", `havlak\.\(\*LoopFinder\)\.FindLoops`},
	} {
		if got := funcRegexp(tt.fn); got != tt.want {
			t.Errorf("funcRegexp(%q) = %q, want %q", tt.fn, got, tt.want)
		}
	}
	for _, tt := range []struct{ s, want string }{
		{"perflab-demo/naive.cpu.pprof", "perflab-demo/naive.cpu.pprof"},
		{"my profiles/naive.cpu.pprof", "'my profiles/naive.cpu.pprof'"},
		{"it's", `'it'\''s'`},
	} {
		if got := shellQuote(tt.s); got != tt.want {
			t.Errorf("shellQuote(%q) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// checkEscapes checks the escapes part of the allocation section: the
// sites with the compiler's reasons are printed, and the verdict quotes
// the biggest workload site that has one, with its category.
func checkEscapes(t *testing.T, res *Result, text, flatVerdict string) {
	t.Helper()
	a := res.Escapes
	if a == nil || a.BuildError != "" {
		t.Fatalf("no compiler notes for the workload: %+v", a)
	}
	if !strings.Contains(text, "== 5. Why they allocate: the compiler's reasons for each line\n\n$ perflab escapes ") {
		t.Errorf("output lacks the escapes listing:\n%s", text)
	}
	for _, st := range a.Sites {
		if !strings.HasPrefix(st.Func, havlakPrefix) || len(st.Reasons) == 0 {
			continue
		}
		c, _ := compilenotes.LookupCategory(st.Category)
		for _, want := range []string{fmt.Sprintf("%s:%d `%s` (%s,", filepath.Base(st.File), st.Line, st.Reasons[0], c.Title), st.Hint} {
			if !strings.Contains(flatVerdict, want) {
				t.Errorf("verdict lacks %q:\n%s", want, res.Verdict)
			}
		}
		if sourceLine(st.File, st.Line) == "" {
			t.Errorf("site %s:%d is not a line of the embedded source", st.File, st.Line)
		}
		return
	}
	t.Errorf("no workload site with a compiler reason: %+v", a.Sites)
}

func TestEscapesVerdictWithoutNotes(t *testing.T) {
	v := escapesVerdict(&compilenotes.Analysis{BuildError: `exec: "go": executable file not found in $PATH`})
	if !strings.Contains(v, "No compiler reasons: exec") {
		t.Errorf("verdict without notes: %q", v)
	}
}
