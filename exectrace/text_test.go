package exectrace_test

import (
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/perflab/perflab/exectrace"
)

// figure matches the figures of the text summary: counts, means, shares
// and durations.
var figure = regexp.MustCompile(`[0-9]+(\.[0-9]+)?(ns|µs|ms|s|%)?`)

// TestVerdictFiguresAreTheTables: every figure a verdict quotes is one the
// summary's table above it prints, in the same words; "one goroutine at a
// time" is said only when about one P is busy; the text says what the
// runnable time counts. On traces of a serial program, a worker pool and a
// GC-bound program (about 2 s).
func TestVerdictFiguresAreTheTables(t *testing.T) {
	bin := tracedProgram(t)
	for _, mode := range []string{"serial", "pool", "gc"} {
		t.Run(mode, func(t *testing.T) {
			data, err := os.ReadFile(recordTrace(t, bin, mode))
			if err != nil {
				t.Fatal(err)
			}
			s, _ := summarize(t, data)
			// On a loaded machine the serial program's handoffs can run
			// two goroutines at once: the system may run the thread that
			// takes the next goroutine before the one that handed it over
			// blocks. Such a trace is recorded again (at most twice).
			for try := 1; mode == "serial" && math.Abs(s.ProgramBusyAvg-1) > exectrace.NearOneP && try < 3; try++ {
				t.Logf("serial program, try %d: %.2f Ps running its goroutines; recording again", try, s.ProgramBusyAvg)
				if data, err = os.ReadFile(recordTrace(t, bin, mode)); err != nil {
					t.Fatal(err)
				}
				s, _ = summarize(t, data)
			}
			var b strings.Builder
			if err := s.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			table, verdicts, ok := strings.Cut(text, "\nverdicts:\n")
			if !ok || len(s.Verdicts) == 0 {
				t.Fatalf("no verdicts:\n%s", text)
			}
			printed := map[string]bool{}
			for _, f := range figure.FindAllString(table, -1) {
				printed[f] = true
			}
			for _, v := range strings.Split(strings.TrimSpace(verdicts), "\n") {
				for _, f := range figure.FindAllString(v, -1) {
					if !printed[f] {
						t.Errorf("verdict %q quotes %s, which the table does not print:\n%s", v, f, table)
					}
				}
				if strings.Contains(v, "one goroutine at a time") && math.Abs(s.ProgramBusyAvg-1) > exectrace.NearOneP {
					t.Errorf("verdict %q with %.2f Ps running the program's goroutines on average", v, s.ProgramBusyAvg)
				}
			}
			if one := strings.Contains(verdicts, "one goroutine at a time"); mode == "serial" && !one {
				t.Errorf("serial program, %.2f Ps running its goroutines: verdicts %q", s.ProgramBusyAvg, verdicts)
			}
			if !strings.Contains(table, "each goroutine's time counts") || !strings.Contains(table, "-pprof=sched") {
				t.Errorf("the text does not say what the runnable time counts:\n%s", table)
			}
		})
	}
}
