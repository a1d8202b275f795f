package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/profiles"
	rpt "github.com/perflab/perflab/report"
)

// TestDemo runs the real perflab demo and checks its verdict against the
// profile it saved: the functions it names must be the ones report's own
// top (-focus on map operations, -show the workload) ranks first, and its
// percentages must match the profile.
//
// It runs without -o, in a directory of its own, and then runs every
// command the demo printed for the user to try next: each must succeed on
// the profiles the demo kept in ./perflab-demo.
func TestDemo(t *testing.T) {
	bin, work := perflab(t), t.TempDir()
	dir := filepath.Join(work, "perflab-demo")
	stdout, stderr, code := runPerflabIn(t, work, bin, "demo", "-reps=1")
	if code != 0 {
		t.Fatalf("perflab demo: exit %d\n%s", code, stderr)
	}
	testNextCommands(t, bin, work, stdout)
	testSectionCommands(t, bin, work, stdout)
	for _, want := range []string{
		"# of loops: 76000 (including 1 artificial root node)",
		"1 search + 1 repetitions (the benchmark does 50; perflab demo -reps=50 runs it in full)",
		"ROUTINE ======================== ", "naive/tuned", "peak memory", "allocations",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
	if stderr != "" {
		t.Errorf("stderr not empty when not a terminal: %q", stderr)
	}
	verdict := section(stdout, "== 6. Verdict", "== 7.")
	p, err := profiles.Load(context.Background(), []string{filepath.Join(dir, "naive.cpu.pprof")}, profiles.Options{})
	if err != nil {
		t.Fatal(err)
	}

	// Map operations, attributed to the nearest workload function.
	mapOps := `^(runtime\.(map|makemap)|internal/runtime/maps\.)`
	top := topJSON(t, p.Copy(), mapOps, `examples/havlak\.`)
	first := strings.TrimPrefix(top.Nodes[0].Name, "github.com/perflab/perflab/examples/")
	if !strings.Contains(verdict, fmt.Sprintf("%s (%.0f%%)", first, top.Nodes[0].FlatPct)) {
		t.Errorf("verdict does not name %s (%.0f%%), the workload function with the most map work:\n%s", first, top.Nodes[0].FlatPct, verdict)
	}
	all := topJSON(t, p.Copy(), mapOps, "")
	m := regexp.MustCompile(`(\d+)% of CPU time in map operations`).FindStringSubmatch(verdict)
	if m == nil {
		t.Fatalf("verdict has no share of map operations:\n%s", verdict)
	}
	said, _ := strconv.Atoi(m[1])
	if got := 100 * float64(all.ShownTotal) / float64(all.Total); math.Abs(got-float64(said)) > 1 {
		t.Errorf("verdict says %d%% in map operations; the profile has %.1f%%", said, got)
	}

	// The hottest function: the most CPU time with only workload frames shown.
	hot := topJSON(t, p.Copy(), "", `examples/havlak\.`).Nodes[0].Name
	if !strings.Contains(stdout, "ROUTINE ======================== "+hot+" in ") {
		t.Errorf("the listing is not of %s, the hottest workload function:\n%s", hot, stdout)
	}
}

// testNextCommands runs, in dir, every perflab command of the demo's last
// section, as a shell would split it.
func testNextCommands(t *testing.T, bin, dir, out string) {
	_, next, ok := strings.Cut(out, "== 8. Now read the profiles yourself (kept in perflab-demo)")
	if !ok {
		t.Fatalf("the demo does not end with the commands to try next:\n%s", out)
	}
	var ran []string
	for _, line := range strings.Split(next, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "perflab ") {
			continue
		}
		args := shellWords(t, strings.TrimPrefix(line, "perflab "))
		stdout, stderr, code := runPerflabIn(t, dir, bin, args...)
		if code != 0 || stdout == "" {
			t.Errorf("%s: exit %d, %d bytes of output\n%s", line, code, len(stdout), stderr)
		}
		ran = append(ran, line)
	}
	if len(ran) < 3 || !strings.Contains(strings.Join(ran, "\n"), "perflab list 'havlak.") {
		t.Errorf("the demo printed %d commands to try, no perflab list of a havlak function:\n%s", len(ran), next)
	}
}

// testSectionCommands runs, in dir, each "$ perflab ..." command line the
// demo printed above a report: the report must be that command's output,
// byte for byte; where the section says it is the same report as a go
// tool pprof command line, that command's output too.
func testSectionCommands(t *testing.T, bin, dir, out string) {
	lines := strings.SplitAfter(out, "\n")
	ran := 0
	for i, line := range lines {
		cmd, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "$ perflab ")
		if !ok {
			continue
		}
		var body strings.Builder // up to the next section
		for _, l := range lines[i+1:] {
			if strings.HasPrefix(l, "== ") {
				break
			}
			body.WriteString(l)
		}
		want := strings.TrimSuffix(body.String(), "\n") // the section's leading blank line
		args := shellWords(t, cmd)
		got, stderr, code := runPerflabIn(t, dir, bin, args...)
		if code != 0 || got != want {
			t.Errorf("perflab %s: exit %d (%s), and its output differs from the demo's:\n%s\n-- demo --\n%s", cmd, code, stderr, got, want)
		}
		ran++
		title := lines[max(0, i-2)]
		if _, pprofCmd, ok := strings.Cut(title, "(the same report as go tool pprof "); ok {
			pprofArgs := append([]string{"tool", "pprof"}, shellWords(t, strings.TrimSuffix(strings.TrimSpace(pprofCmd), ")"))...)
			c := exec.Command("go", pprofArgs...)
			c.Dir = dir
			pp, err := c.Output()
			if err != nil || string(pp) != want {
				t.Errorf("go %s: %v, and its output differs from the demo's:\n%s\n-- demo --\n%s", strings.Join(pprofArgs, " "), err, pp, want)
			}
		}
	}
	if ran < 4 {
		t.Errorf("the demo printed %d command lines above its reports, want top, list, top and escapes:\n%s", ran, out)
	}
}

// shellWords splits s as a POSIX shell does words with single quotes.
func shellWords(t *testing.T, s string) []string {
	var words []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				words, in = append(words, w.String()), false
				w.Reset()
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quoted {
		t.Fatalf("unbalanced quote in %q", s)
	}
	if in {
		words = append(words, w.String())
	}
	return words
}

// topJSON is report's top as JSON, untrimmed, with -focus and -show.
func topJSON(t *testing.T, p *profile.Profile, focus, show string) *rpt.JSONReport {
	t.Helper()
	o := rpt.DefaultOptions()
	o.Focus, o.Show, o.NoTrim = focus, show, true
	var buf bytes.Buffer
	if err := rpt.GenerateJSON(&buf, p, rpt.Top, o); err != nil {
		t.Fatal(err)
	}
	var r rpt.JSONReport
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Nodes) == 0 {
		t.Fatalf("top -focus=%q -show=%q: no nodes", focus, show)
	}
	return &r
}

// section returns the text of out between the lines starting from and to.
func section(out, from, to string) string {
	_, rest, _ := strings.Cut(out, from)
	rest, _, _ = strings.Cut(rest, to)
	return strings.Join(strings.Fields(rest), " ")
}

func TestDemoUsage(t *testing.T) {
	bin := perflab(t)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o644)
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"demo", "extra"}, 2, "demo takes no arguments"},
		{[]string{"demo", "-reps=-1"}, 2, "-reps=-1"},
		{[]string{"demo", "-nosuchflag"}, 2, "nosuchflag"},
		{[]string{"demo", "-o", filepath.Join(file, "sub")}, 1, "perflab: mkdir "},
	}
	for _, tt := range tests {
		_, stderr, code := runPerflab(t, bin, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) || strings.Count(strings.TrimSpace(stderr), "\n") > 1 {
			t.Errorf("perflab %q: exit %d, stderr %q; want exit %d and %q", tt.args, code, stderr, tt.code, tt.stderr)
		}
	}
}
