package browsertest

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/testprog"
)

// weblistProg spends its time in mix, whose loop calls the inlined add,
// and writes a CPU profile of itself to os.Args[1].
const weblistProg = `package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

func add(a, b int) int { return a*31 + b }

//go:noinline
func mix(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s = add(s, i)
	}
	return s
}

func main() {
	f, err := os.Create(os.Args[1])
	if err != nil {
		panic(err)
	}
	pprof.StartCPUProfile(f)
	x := 0
	for start := time.Now(); time.Since(start) < time.Second; {
		x += mix(100000)
	}
	pprof.StopCPUProfile()
	f.Close()
	fmt.Println(x)
}
`

// weblistServer runs "perflab weblist -no_browser ARGS" and returns the
// URL of the source view it opens; the server stops when t ends.
func weblistServer(t *testing.T, perflab string, args ...string) string {
	t.Helper()
	return serverURL(t, perflab, regexp.MustCompile(`^Source view: (http://\S+)`), append([]string{"weblist", "-no_browser"}, args...)...)
}

// TestWeblistAssemblyAndNotes profiles a real program, opens perflab
// weblist's source view of mix, expands its hottest line into its
// instructions (with their values and the inlined call to add), and turns
// the compiler's notes on: "inlining call to add" appears under the loop's
// line, then hides when turned off.
func TestWeblistAssemblyAndNotes(t *testing.T) {
	b := browser.ForTest(t)
	perflab := testprog.BuildPackage(t, "github.com/perflab/perflab/cmd/perflab")
	prog := testprog.BuildSource(t, weblistProg)
	cpu := filepath.Join(t.TempDir(), "cpu.pprof")
	if out, err := exec.Command(prog, cpu).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", prog, err, out)
	}
	u := weblistServer(t, perflab, `main\.mix$`, prog, cpu)
	p := openView(t, b, u)

	if note := evalT[string](t, p, `(document.getElementById("asm-note") || {}).textContent || ""`); note != "" {
		t.Fatalf("no assembly: %s", note)
	}
	// Expand the hottest line with instructions.
	got := evalT[[]string](t, p, `(() => {
		const rows = [...document.querySelectorAll("tr.line.expandable")];
		const val = (tr) => { const s = tr.cells[1].textContent; return s === "." ? 0 : parseFloat(s); };
		rows.sort((a, b) => val(b) - val(a));
		rows[0].click();
		const asm = rows[0].nextElementSibling;
		return [String(asm.hidden), String(asm.querySelectorAll("tr.inst").length),
			[...asm.querySelectorAll("tr.inst")].filter((r) => r.cells[0].textContent !== ".").length + "",
			rows[0].querySelector("pre").textContent];
	})()`)
	if got[0] != "false" || got[1] == "0" || got[2] == "0" {
		t.Errorf("expanding line %q: hidden %s, %s instructions, %s with samples", got[3], got[0], got[1], got[2])
	}
	calls := evalT[int](t, p, `[...document.querySelectorAll("tr.asm .via")].filter((d) => d.textContent.includes("main.add")).length`)
	if calls == 0 {
		t.Errorf("no instruction shows the inlined call to main.add")
	}
	browser.ScreenshotForTest(t, p, "weblist-assembly")
	open := evalT[[]int](t, p, `(() => { const b = document.getElementById("expand-all"); b.click();
		const shown = [...document.querySelectorAll("tr.asm")].filter((r) => !r.hidden).length; b.click();
		return [document.querySelectorAll("tr.asm").length, shown, [...document.querySelectorAll("tr.asm")].filter((r) => !r.hidden).length]; })()`)
	if open[0] == 0 || open[1] != open[0] || open[2] != 0 {
		t.Errorf("expand all then collapse all: %d lines with instructions, %d shown, then %d", open[0], open[1], open[2])
	}

	// The compiler notes: built on demand, shown under their lines.
	evalT[bool](t, p, `(() => { document.getElementById("notes-toggle").click(); return true; })()`)
	var status string
	for deadline := time.Now().Add(90 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		status = evalT[string](t, p, `document.getElementById("notes-status").textContent`)
		if !strings.HasPrefix(status, "building") {
			break
		}
	}
	if !regexp.MustCompile(`^\d+ compiler notes$`).MatchString(status) {
		t.Fatalf("notes status %q", status)
	}
	under := evalT[string](t, p, `(() => {
		for (const tr of document.querySelectorAll("tr.notes")) {
			let line = tr.previousElementSibling;
			while (line && !line.classList.contains("line")) line = line.previousElementSibling;
			if (tr.textContent.includes("inlining call to add") && !tr.hidden) return line.querySelector("pre").textContent;
		}
		return "";
	})()`)
	if !strings.Contains(under, "add(s, i)") {
		t.Errorf("\"inlining call to add\" shown under %q, want the loop's line", under)
	}
	browser.ScreenshotForTest(t, p, "weblist-notes")
	evalT[bool](t, p, `(() => { document.getElementById("notes-toggle").click(); return true; })()`)
	if shown := evalT[int](t, p, `[...document.querySelectorAll("tr.notes")].filter((tr) => !tr.hidden).length`); shown != 0 {
		t.Errorf("%d notes still shown after turning them off", shown)
	}
	noErrors(t, p, "source view")
}
