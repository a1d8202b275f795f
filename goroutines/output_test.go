package goroutines_test

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
)

// TestHTML checks the fragment the web viewer mounts: escaped, standard
// library frames dimmed, the panicking frame marked, leaks listed.
func TestHTML(t *testing.T) {
	dump := "panic: <script>alert(1)</script>\n\ngoroutine 1 [running]:\npanic({0x1, 0x2})\n\t/usr/local/go/src/runtime/panic.go:787 +0x1\nmain.f()\n\t/src/a.go:3 +0x1\n\n" +
		"goroutine 2 [chan receive, 7 minutes] {k: \"<b>\"}:\nruntime.gopark(0x0?)\n\t/usr/local/go/src/runtime/proc.go:435 +0x1\nmain.g()\n\t/src/a.go:9 +0x1\ncreated by main.main in goroutine 1\n\t/src/a.go:2 +0x1\n"
	d := read(t, "html", []byte(dump))
	var b bytes.Buffer
	if err := d.WriteHTML(&b, goroutines.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	html := b.String()
	for _, want := range []string{
		"panic: &lt;script&gt;alert(1)&lt;/script&gt;",
		`<li class="std">panic<span class="loc">/usr/local/go/src/runtime/panic.go:787</span></li>`,
		`<li class=" marked">main.f<span class="loc">/src/a.go:3</span></li>`,
		`<li class="std">runtime.gopark`,
		`{k: &#34;&lt;b&gt;&#34;}`,
		`<li class="leak">1 goroutine in main.g, blocked on chan receive ≥ 7 minutes, created by main.main at a.go:2: waiting long, possible leak</li>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("%q not in\n%s", want, html)
		}
	}
	if strings.Contains(html, "<script>") || strings.Contains(html, `"<b>"`) {
		t.Errorf("unescaped input in\n%s", html)
	}
}

// TestRuntimeCap reads a debug=2 dump cut at 64 MB, where net/http/pprof
// stops: the note says goroutines are missing.
func TestRuntimeCap(t *testing.T) {
	block := []byte("goroutine 1000000 [chan receive]:\nmain.worker(0xc000012345)\n\t/src/app/main.go:20 +0x2a\ncreated by main.main in goroutine 1\n\t/src/app/main.go:8 +0x44\n\n")
	var data []byte
	for id := 1000000; len(data) < 64<<20; id++ { // ids as a dump has them: each once
		data = append(data, bytes.Replace(block, []byte("1000000"), []byte(strconv.Itoa(id)), 1)...)
	}
	data = data[:64<<20]
	d := goroutines.NewDump()
	if err := goroutines.Read("big", bytes.NewReader(data), d, goroutines.Options{}); err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(d.Notes, "\n")
	if !strings.Contains(notes, "the dump is exactly 64 MB, the runtime's cap for debug=2: goroutines past it are missing") {
		t.Errorf("notes: %s", notes)
	}
	if d.Total != (64<<20)/len(block)+1 && d.Total != (64<<20)/len(block) {
		t.Errorf("%d goroutines", d.Total)
	}
}

// TestGrouping checks what makes a group: argument values and ids do not
// split one, a state, a line or a creator does.
func TestGrouping(t *testing.T) {
	g := func(id, state, arg, line, creator string) string {
		return "goroutine " + id + " [" + state + "]:\nmain.w(" + arg + ")\n\t/a.go:" + line + " +0x1\ncreated by " + creator + " in goroutine 1\n\t/a.go:1 +0x1\n\n"
	}
	dump := g("2", "select", "0x1", "5", "main.main") + g("3", "select", "0x2?", "5", "main.main") +
		g("4", "select, 3 minutes", "0x3", "5", "main.main") + g("5", "chan send", "0x1", "5", "main.main") +
		g("6", "select", "0x1", "6", "main.main") + g("7", "select", "0x1", "5", "main.other")
	d := read(t, "grouping", []byte(dump))
	var counts []int
	for _, gr := range d.Groups {
		counts = append(counts, gr.Count)
	}
	if len(counts) != 4 || counts[0] != 3 || d.Groups[0].WaitMin != 0 || d.Groups[0].WaitMax != 3 {
		t.Errorf("groups %v, first %+v", counts, d.Groups[0])
	}
	if ids := d.Groups[0].IDs; len(ids) != 3 || ids[0] != 2 || ids[2] != 4 {
		t.Errorf("ids %v", ids)
	}
}

// TestLeaks compares two dumps, as -base does: the example.
func TestLeaks(t *testing.T) {
	dump := func(n, minutes int, grower string) []byte {
		var b bytes.Buffer
		b.WriteString("goroutine 1 [running]:\nmain.main()\n\t/src/app/main.go:50 +0x1\n\n")
		for i := range n {
			fmt.Fprintf(&b, "goroutine %d [chan receive, %d minutes]:\nmain.leakyWorker(0x%x)\n\t/src/app/main.go:30 +0x1d\ncreated by main.main in goroutine 1\n\t/src/app/main.go:48 +0x6a\n\n", i+2, minutes+i%8, i)
		}
		fmt.Fprintf(&b, "goroutine 9999 [%s]:\nmain.serve()\n\t/src/app/serve.go:10 +0x1\n", grower)
		return b.Bytes()
	}
	base := read(t, "old", dump(5, 0, "IO wait"))
	d := read(t, "new", dump(205, 5, "IO wait"))
	d.Compare(base)
	leaks := d.Leaks(1)
	if len(leaks) != 1 || leaks[0].Text != "+200 goroutines in main.leakyWorker, blocked on chan receive ≥ 5 minutes, created by main.main at main.go:48: likely leak" || leaks[0].Grew != 200 {
		t.Errorf("leaks %+v", leaks)
	}
	// Below the -wait threshold, the growth is reported, not as a leak.
	if leaks := d.Leaks(20); len(leaks) != 1 || !strings.HasSuffix(leaks[0].Text, "up to 12 minutes, created by main.main at main.go:48: grew") {
		t.Errorf("leaks at 20 minutes %+v", leaks)
	}
}

// TestRealGenericArgs decodes the arguments of a generic function, which
// tracebacks print as "main.F[...]" and DWARF names with its shape.
func TestRealGenericArgs(t *testing.T) {
	bin, _ := prog(t)
	d := read(t, "generic", runProg(t, nil, "generic"))
	g := d.Groups[0]
	f := g.Example.Frames[g.UserFrame()]
	if f.Func != "main.generic[...]" {
		t.Fatalf("user frame %+v", f)
	}
	ps, err := goroutines.ParamsFromBinary(bin, f.Func)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range goroutines.DecodeArgs(f.Args, ps) {
		got = append(got, a.Name+"="+a.Text)
	}
	if s := strings.Join(got, " "); !strings.Contains(s, "n=7 (0x7)") {
		t.Errorf("decoded %q from %q with %+v", s, f.Args, ps)
	}
}

// TestMarkLeaked applies goroutineleak profiles: a debug=1 one marks its
// records, a debug=2 one (every goroutine) only those marked "(leaked)".
func TestMarkLeaked(t *testing.T) {
	dump := "goroutine 1 [running]:\nmain.main()\n\t/a.go:9 +0x1\n\n" +
		"goroutine 2 [chan receive]:\nmain.w()\n\t/a.go:30 +0x1\n\ngoroutine 3 [chan receive]:\nmain.w()\n\t/a.go:30 +0x1\n"
	for name, leak := range map[string]string{
		"debug=1": "goroutineleak profile: total 1\n1 @ 0x1\n#\t0x1\tmain.w+0x1\t/a.go:30\n",
		"debug=2": "goroutine 1 [running]:\nmain.main()\n\t/a.go:9 +0x1\n\ngoroutine 2 [chan receive (leaked)]:\nmain.w()\n\t/a.go:30 +0x1\n",
	} {
		d := read(t, "dump", []byte(dump))
		l := goroutines.NewDump()
		if err := goroutines.Read("leak", strings.NewReader(leak), l, goroutines.Options{Leaked: true}); err != nil {
			t.Fatal(err)
		}
		d.MarkLeaked(l)
		w := findGroup(t, d, "main.w")
		m := findGroup(t, d, "main.main")
		if w.Leaked != 1 || w.Count != 2 || m.Leaked != 0 || d.Total != 3 {
			t.Errorf("%s: main.w %d of %d leaked, main.main %d, total %d", name, w.Leaked, w.Count, m.Leaked, d.Total)
		}
	}
}
