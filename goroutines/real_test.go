package goroutines_test

import (
	"bufio"
	"bytes"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/goroutines"
)

// The tests in this file read real output of the local toolchain.

func TestRealPanic(t *testing.T) {
	for _, tb := range []string{"single", "all", "system", "crash"} {
		t.Run(tb, func(t *testing.T) {
			out := runProg(t, []string{"GOTRACEBACK=" + tb}, "panic")
			d := read(t, "panic", out)
			if d.Panic != "panic: Want stack trace" || d.PanicGoroutine != 1 {
				t.Fatalf("panic %q in goroutine %d", d.Panic, d.PanicGoroutine)
			}
			g := d.Groups[0]
			if g.Panic == "" || g.State != "running" {
				t.Fatalf("first group is not the panicking one: %+v", g)
			}
			u := g.UserFrame()
			if u < 0 || g.Frames[u].Func != "main.example" || !strings.HasSuffix(g.Frames[u].File, "main.go") || g.Frames[u].Line == 0 {
				t.Fatalf("user frame %d of %+v", u, g.Frames)
			}
			if tb == "single" && d.Total != 1 {
				t.Errorf("GOTRACEBACK=single: %d goroutines, want 1", d.Total)
			}
			if tb == "system" || tb == "crash" {
				// Runtime goroutines and frames show at these levels.
				findGroup(t, d, "runtime.forcegchelper")
				if !hasFrame(g, "runtime.main") {
					t.Errorf("GOTRACEBACK=%s: no runtime.main frame in %+v", tb, g.Frames)
				}
			}
		})
	}
}

func hasFrame(g *goroutines.Group, fn string) bool {
	for _, f := range g.Frames {
		if f.Func == fn {
			return true
		}
	}
	return false
}

// TestRealArgs decodes the article's example from the binary's DWARF data
// and from the source.
func TestRealArgs(t *testing.T) {
	bin, src := prog(t)
	d := read(t, "panic", runProg(t, nil, "panic"))
	g := d.Groups[0]
	f := g.Example.Frames[g.UserFrame()]
	for name, params := range map[string]func() ([]goroutines.Param, error){
		"dwarf":  func() ([]goroutines.Param, error) { return goroutines.ParamsFromBinary(bin, f.Func) },
		"source": func() ([]goroutines.Param, error) { return goroutines.ParamsFromSource(src, f.Func) },
	} {
		ps, err := params()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		args := goroutines.DecodeArgs(f.Args, ps)
		var got []string
		for _, a := range args {
			got = append(got, a.Name+" "+a.Type+" = "+a.Text)
		}
		text := strings.Join(got, "\n")
		for _, want := range []string{"slice []string = ptr=0x", "len=2 (0x2) cap=4 (0x4)", "str string = ptr=0x", "len=5 (0x5)", "i int = 10 (0xa)"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q not in\n%s\n(args %q)", name, want, text, f.Args)
			}
		}
	}
}

func TestRealFatalErrors(t *testing.T) {
	d := read(t, "deadlock", runProg(t, nil, "deadlock"))
	if d.Panic != "fatal error: all goroutines are asleep - deadlock!" || d.Groups[0].State != "chan receive" {
		t.Errorf("deadlock: panic %q, first group %+v", d.Panic, d.Groups[0])
	}
	d = read(t, "mapwrites", runProg(t, nil, "mapwrites"))
	if !strings.HasPrefix(d.Panic, "fatal error: concurrent map writes") {
		t.Errorf("map writes: panic %q", d.Panic)
	}
	if u := d.Groups[0].UserFrame(); u < 0 || d.Groups[0].Frames[u].Func != "main.main.func1" {
		t.Errorf("map writes: first group %+v", d.Groups[0])
	}
}

// TestRealElided reads a panic 300 calls deep: the runtime elides frames.
func TestRealElided(t *testing.T) {
	out := runProg(t, nil, "recurse")
	if !bytes.Contains(out, []byte("frames elided...")) {
		t.Fatalf("the runtime elided nothing:\n%s", out)
	}
	d := read(t, "recurse", out)
	g := d.Groups[0]
	if g.Elided == 0 || len(g.Frames) < 100 || g.Frames[len(g.Frames)-1].Func != "main.main" {
		t.Errorf("elided %d, %d frames, last %+v", g.Elided, len(g.Frames), g.Frames[len(g.Frames)-1])
	}
	// The marker stands where the runtime printed it, between the
	// innermost frames and the outermost ones, not under the stack.
	before := bytes.Count(out[:bytes.Index(out, []byte("frames elided..."))], []byte("\n\t/"))
	if g.ElidedAt != before || g.ElidedAt == 0 || g.ElidedAt >= len(g.Frames) {
		t.Errorf("elided before frame %d of %d, the input has %d frames before its marker", g.ElidedAt, len(g.Frames), before)
	}
	var b strings.Builder
	d.WriteText(&b, goroutines.TextOptions{})
	text := b.String()
	marker := fmt.Sprintf("...%d frames elided...", g.Elided)
	i, j := strings.Index(text, marker), strings.LastIndex(text, "main.recurse ")
	if i < 0 || j < i || strings.Count(text[:i], "main.recurse ") != before {
		t.Errorf("the text does not show %q after the first %d frames:\n%s", marker, before, text)
	}
	var h bytes.Buffer
	d.WriteHTML(&h, goroutines.HTMLOptions{})
	if k := strings.Index(h.String(), marker); k < 0 || strings.Count(h.String()[:k], "main.recurse<") != before {
		t.Errorf("the HTML does not show %q after the first %d frames", marker, before)
	}
}

// TestRealLabels reads the labels Go 1.26 prints with
// GODEBUG=tracebacklabels=1.
func TestRealLabels(t *testing.T) {
	out := runProg(t, []string{"GOTRACEBACK=all", "GODEBUG=tracebacklabels=1"}, "labels")
	d := read(t, "labels", out)
	g := findGroup(t, d, "main.leakyWorker")
	if len(g.Labels) != 1 || g.Labels[0] != (goroutines.Label{Key: "pattern", Value: "GET /"}) {
		t.Errorf("labels %+v, want pattern: GET /\n%s", g.Labels, out)
	}
}

// TestRealSIGQUIT sends SIGQUIT to a program with 50 parked workers.
func TestRealSIGQUIT(t *testing.T) {
	d := read(t, "sigquit", sigquitDump(t, 50))
	if !strings.HasPrefix(d.Panic, "SIGQUIT") && d.Panic != "" {
		t.Errorf("panic %q", d.Panic)
	}
	g := findGroup(t, d, "main.leakyWorker")
	if g.Count != 50 || g.State != "chan receive" || g.CreatedBy == nil || g.CreatedBy.Func != "main.park" {
		t.Errorf("workers: %+v", g)
	}
	if g := d.Groups[0]; g != findGroup(t, d, "main.leakyWorker") {
		t.Errorf("the largest group is not first: %+v", g)
	}
	m := findGroup(t, d, "main.park.func1")
	if m.Count != 3 || m.State != "sync.Mutex.Lock" {
		t.Errorf("mutex waiters: %d in %q", m.Count, m.State)
	}
}

// sigquitDump runs the test program with n parked workers, sends it
// SIGQUIT and returns what it printed on its standard error.
func sigquitDump(t *testing.T, n int) []byte {
	t.Helper()
	bin, _ := prog(t)
	cmd := exec.Command(bin, "park", strconv.Itoa(n))
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "ready\n" {
		cmd.Process.Kill()
		t.Fatalf("program said %q", line)
	}
	time.Sleep(50 * time.Millisecond) // let the workers park
	cmd.Process.Signal(syscall.SIGQUIT)
	cmd.Wait()
	return stderr.Bytes()
}

// TestRealStack reads runtime.Stack(all) text, as debug=2 serves it.
func TestRealStack(t *testing.T) {
	d := read(t, "stack", runProg(t, nil, "stack"))
	g := findGroup(t, d, "main.leakyWorker")
	if g.Count != 5 || len(g.IDs) != 5 {
		t.Errorf("workers: %d (ids %v)", g.Count, g.IDs)
	}
	if d.Panic != "" {
		t.Errorf("panic %q in a runtime.Stack dump", d.Panic)
	}
}
