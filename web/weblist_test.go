package web_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/web"
)

// recursiveProg spends its time in a recursive fib, which has two
// recursive call sites on one line, and in mix, whose loop calls the
// inlined add. It writes a CPU profile of itself to os.Args[1].
const recursiveProg = `package main

import (
	"fmt"
	"os"
	"runtime/pprof"
	"time"
)

//go:noinline
func fib(n int) int {
	if n < 2 {
		return n
	}
	return fib(n-1) + fib(n-2)
}

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
	// At least 1.2 s, and enough work for about 0.8 s of CPU samples
	// however little CPU the machine gives it.
	for i, start := 0, time.Now(); i < 4000 || time.Since(start) < 1200*time.Millisecond; i++ {
		x += fib(24) + mix(50000)
	}
	pprof.StopCPUProfile()
	f.Close()
	fmt.Println(x)
}
`

// recursiveProfile builds recursiveProg, runs it and returns its CPU
// profile and source file.
func recursiveProfile(t *testing.T) (*profile.Profile, string) {
	t.Helper()
	bin := testprog.BuildSource(t, recursiveProg)
	out := filepath.Join(t.TempDir(), "cpu.pprof")
	if b, err := exec.Command(bin, out).CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", bin, err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := profile.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	var src string
	for _, fn := range p.Function {
		if fn.Name == "main.fib" {
			src = fn.Filename
		}
	}
	if src == "" || len(p.Sample) < 20 {
		t.Fatalf("profile has %d samples, main.fib in %q", len(p.Sample), src)
	}
	return p, src
}

// view is /ui/api/source's JSON.
type view struct {
	Total   string
	AsmNote string `json:"asm_note"`
	Funcs   []struct {
		Name, File string
		Flat, Cum  int64
		Error      string
		Lines      []struct {
			Line      int
			Text      string
			Flat, Cum int64
			FT        string `json:"flat_text"`
			CT        string `json:"cum_text"`
			Inlined   []struct {
				Func      string
				Flat, Cum int64
			}
			Insts []struct {
				Addr      uint64
				Text      string
				Flat, Cum int64
				FT        string `json:"flat_text"`
				CT        string `json:"cum_text"`
				Calls     []string
			}
		}
	}
}

func getView(t *testing.T, base string, get func(string) (int, string), q url.Values) view {
	t.Helper()
	code, body := get(base + "?" + q.Encode())
	if code != 200 {
		t.Fatalf("%s?%s: %d %s", base, q.Encode(), code, body)
	}
	var v view
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestSourceViewRealProgram checks the source view on a real program's
// CPU profile: the binary is found and every sampled instruction of mix
// is under its line with perflab disasm's values; the inlined add shows
// on mix's loop line; the recursive fib counts each sample once per line
// and per function (top's cum for the function, never above 100%), where
// list's pprof-compatible header adds up its lines.
func TestSourceViewRealProgram(t *testing.T) {
	p, src := recursiveProfile(t)
	srv := serve(t, p.Copy(), web.Options{Report: report.DefaultOptions()})
	fetch := func(path string) (int, string) { return get(t, srv, path) }
	o := report.DefaultOptions()

	t.Run("assembly", func(t *testing.T) {
		v := getView(t, "/ui/api/source", fetch, url.Values{"f": {`^main\.mix$`}})
		if v.AsmNote != "" || len(v.Funcs) != 1 {
			t.Fatalf("asm note %q, %d funcs", v.AsmNote, len(v.Funcs))
		}
		var text bytes.Buffer
		do := o
		do.Symbol = `main\.mix\b`
		if err := report.GenerateDisasm(&text, p.Copy(), do, report.DisasmOptions{}); err != nil {
			t.Fatal(err)
		}
		want := disasmValues(t, text.String())
		got := map[uint64][2]string{}
		inlinedAdd := false
		for _, l := range v.Funcs[0].Lines {
			for _, in := range l.Insts {
				got[in.Addr] = [2]string{in.FT, in.CT}
				for _, c := range in.Calls {
					inlinedAdd = inlinedAdd || strings.HasPrefix(c, "main.add ")
				}
			}
			for _, c := range l.Inlined {
				if c.Func == "main.add" && !strings.Contains(l.Text, "add(s, i)") {
					t.Errorf("main.add inlined on line %d %q", l.Line, l.Text)
				}
			}
		}
		if len(want) == 0 {
			t.Fatal("perflab disasm shows no sampled instruction of main.mix")
		}
		for addr, w := range want {
			if got[addr] != w {
				t.Errorf("instruction %x: source view %q, perflab disasm %q", addr, got[addr], w)
			}
		}
		if !inlinedAdd {
			t.Error("no instruction of main.mix shows the inlined call to main.add")
		}
	})

	t.Run("recursion", func(t *testing.T) {
		v := getView(t, "/ui/api/source", fetch, url.Values{"f": {`^main\.fib$`}})
		if len(v.Funcs) != 1 {
			t.Fatalf("%d funcs", len(v.Funcs))
		}
		var all int64
		for _, s := range p.Sample {
			all += s.Value[len(s.Value)-1]
		}
		f := v.Funcs[0]
		topCum := topCum(t, p, "main.fib")
		if f.Cum != topCum {
			t.Errorf("main.fib cum %d, top says %d", f.Cum, topCum)
		}
		var lineSum int64
		for _, l := range f.Lines {
			lineSum += l.Cum
			if l.Cum > all || l.Cum < 0 {
				t.Errorf("line %d: cum %d of total %d", l.Line, l.Cum, all)
			}
		}
		if f.Cum > all {
			t.Errorf("main.fib: cum %d above the total %d", f.Cum, all)
		}
		if lineSum <= f.Cum {
			t.Errorf("lines' cum add up to %d, not above the function's %d: the profile shows no recursion", lineSum, f.Cum)
		}
		lo := o
		lo.Symbol = `^main\.fib$`
		var list bytes.Buffer
		if err := report.Generate(&list, p.Copy(), report.List, lo); err != nil {
			t.Fatal(err)
		}
		for _, l := range f.Lines {
			if !strings.Contains(list.String(), listLine(l.FT, l.CT, l.Line)) {
				t.Errorf("line %d (%s %s) not as perflab list shows it:\n%s", l.Line, l.FT, l.CT, list.String())
			}
		}
	})

	t.Run("wrong binary", func(t *testing.T) {
		other := testprog.BuildSource(t, "package main\n\nfunc main() { println(1) }\n")
		srv := serve(t, p.Copy(), web.Options{Report: report.DefaultOptions(), Binary: other})
		v := getView(t, "/ui/api/source", func(path string) (int, string) { return get(t, srv, path) }, url.Values{"f": {`^main\.fib$`}})
		if !strings.HasPrefix(v.AsmNote, "no assembly: ") || !strings.Contains(v.AsmNote, other) || strings.Contains(v.AsmNote, "\n") {
			t.Errorf("asm note %q, want one line naming %s", v.AsmNote, other)
		}
		if len(v.Funcs) != 1 || len(v.Funcs[0].Lines) == 0 || v.Funcs[0].Cum == 0 {
			t.Errorf("no listing without the assembly: %+v", v.Funcs)
		}
	})

	t.Run("no other files", func(t *testing.T) {
		dir := t.TempDir()
		secret := filepath.Join(dir, "secret.go")
		if err := os.WriteFile(secret, []byte("package secret // SECRET-MARKER\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{
			"f=main.fib&file=" + url.QueryEscape(secret),
			"f=main.fib&source_path=" + url.QueryEscape(dir) + "&trim_path=" + url.QueryEscape(filepath.Dir(src)),
			"f=main.fib&path=" + url.QueryEscape(secret) + "&filename=" + url.QueryEscape(secret),
		} {
			for _, path := range []string{"/ui/source?", "/ui/api/source?"} {
				code, body := get(t, srv, path+q)
				if code != 200 || strings.Contains(body, "SECRET-MARKER") || !strings.Contains(body, "fib(n-1)") {
					t.Errorf("%s%s: %d, read another file or not the source", path, q, code)
				}
			}
		}
	})
}

// disasmValues reads perflab disasm's text: the flat and cum of every
// sampled instruction, by address.
func disasmValues(t *testing.T, text string) map[uint64][2]string {
	rx := regexp.MustCompile(`^\s*(\S+)\s+(\S+)\s+([0-9a-f]+): `)
	out := map[uint64][2]string{}
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		m := rx.FindStringSubmatch(sc.Text())
		if m == nil || (m[1] == "." && m[2] == ".") {
			continue
		}
		var a uint64
		for _, c := range m[3] {
			a = a*16 + uint64(strings.IndexRune("0123456789abcdef", c))
		}
		out[a] = [2]string{m[1], m[2]}
	}
	return out
}

// topCum is the cum of function name in perflab top.
func topCum(t *testing.T, p *profile.Profile, name string) int64 {
	var buf bytes.Buffer
	if err := report.GenerateJSON(&buf, p.Copy(), report.Top, report.DefaultOptions()); err != nil {
		t.Fatal(err)
	}
	var r report.JSONReport
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	for _, n := range r.Nodes {
		if n.Name == name {
			return n.Cum
		}
	}
	t.Fatalf("%s not in top", name)
	return 0
}

// listLine is the start of a line as list prints it.
func listLine(flat, cum string, line int) string {
	return fmt.Sprintf("%10s %10s %6d:", flat, cum, line)
}

// TestSourceViewNotes builds the real program's package with the
// compiler's diagnostics through /ui/api/notes: mix's loop line says
// that add was inlined there. A profile whose source is not on this
// machine gets its reason in one line, not an error status.
func TestSourceViewNotes(t *testing.T) {
	p, _ := recursiveProfile(t)
	srv := serve(t, p, web.Options{Report: report.DefaultOptions()})
	code, body := get(t, srv, "/ui/api/notes?f="+url.QueryEscape(`^main\.mix$`))
	var ans struct {
		Error string
		Notes []struct {
			Func, Line int
			Text       []string
		}
	}
	if err := json.Unmarshal([]byte(body), &ans); code != 200 || err != nil || ans.Error != "" {
		t.Fatalf("notes: %d %v %s", code, err, body)
	}
	v := getView(t, "/ui/api/source", func(path string) (int, string) { return get(t, srv, path) }, url.Values{"f": {`^main\.mix$`}})
	found := false
	for _, n := range ans.Notes {
		for _, l := range v.Funcs[n.Func].Lines {
			if l.Line == n.Line && strings.Contains(l.Text, "add(s, i)") && strings.Contains(strings.Join(n.Text, "\n"), "inlining call to add") {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no \"inlining call to add\" note on mix's loop line: %s", body)
	}

	missing := cpuProfile() // its main.go is not on this machine
	srv2 := serve(t, missing, web.Options{Report: report.DefaultOptions()})
	code, body = get(t, srv2, "/ui/api/notes?f=main.work")
	if err := json.Unmarshal([]byte(body), &ans); code != 200 || err != nil || !strings.HasPrefix(ans.Error, "no compiler notes: ") || strings.Contains(ans.Error, "\n") {
		t.Errorf("notes without source: %d %s", code, body)
	}
	if code, body := get(t, srv2, "/ui/api/notes?f=("); code != 400 {
		t.Errorf("notes with a broken regexp: %d %s", code, body)
	}
}

// TestSourceViewEscapes lists a source file whose text, function names
// and inlined callee are HTML and script: the page shows them as text.
func TestSourceViewEscapes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "evil.go")
	src := "package evil\n\nfunc f() {\n\t// </pre><script>alert('src')</script>\n\tg()\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &profile.Function{ID: 1, Name: `evil.<img src=x onerror=alert(1)>`, Filename: file, StartLine: 3}
	g := &profile.Function{ID: 2, Name: `evil.<script>alert("callee")</script>`, Filename: file}
	l := &profile.Location{ID: 1, Line: []profile.Line{{Function: g, Line: 4}, {Function: f, Line: 5}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}},
		Function:   []*profile.Function{f, g}, Location: []*profile.Location{l},
		Sample: []*profile.Sample{{Location: []*profile.Location{l}, Value: []int64{3}}},
	}
	srv := serve(t, p, web.Options{Report: report.DefaultOptions()})
	code, body := get(t, srv, "/ui/source?f=evil")
	if code != 200 {
		t.Fatalf("%d %s", code, body)
	}
	for _, bad := range []string{"<script>alert", "<img src=x", "</pre><script>"} {
		if strings.Contains(body, bad) {
			t.Errorf("unescaped %q in the source view", bad)
		}
	}
	for _, want := range []string{"&lt;/pre&gt;&lt;script&gt;alert(&#39;src&#39;)", `inlined: <span class="fn" data-name="evil.&lt;script&gt;`, "no assembly: "} {
		if !strings.Contains(body, want) {
			t.Errorf("the source view lacks %q:\n%s", want, body)
		}
	}
}

// TestSourceViewNotesLoopbackOnly: a server that -http opens to other
// hosts still builds compiler notes only for clients on this machine,
// decided by the peer address: a remote client that sends "Host:
// localhost" is refused too.
func TestSourceViewNotesLoopbackOnly(t *testing.T) {
	p, _ := recursiveProfile(t)
	srv, err := web.New(p, web.Options{Report: report.DefaultOptions(), AnyHost: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, host := range []string{"example.com", "localhost", "127.0.0.1:8080"} {
		r := httptest.NewRequest("GET", "http://"+host+"/ui/api/notes?f=main", nil)
		r.RemoteAddr = "203.0.113.5:40000"
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != http.StatusForbidden {
			t.Errorf("notes for Host %s from a remote peer: status %d, want 403: %s", host, w.Code, w.Body)
		}
	}
	r := httptest.NewRequest("GET", "http://example.com/ui/top", nil)
	r.RemoteAddr = "203.0.113.5:40000"
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Errorf("top for Host example.com on an AnyHost server: status %d, want 200", w.Code)
	}
}
