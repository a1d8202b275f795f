package web_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/web"
)

// leakyProgram starts os.Args[1] goroutines blocked in main.block, then
// panics: with GOTRACEBACK=all its standard error is a dump of them all.
const leakyProgram = `package main

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func block(c chan int) { <-c }

func main() {
	n, _ := strconv.Atoi(os.Args[1])
	c := make(chan int)
	for range n {
		go block(c)
	}
	// Until they all wait: a dump taken before would show some runnable.
	buf := make([]byte, 1<<20)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if strings.Count(string(buf[:runtime.Stack(buf, true)]), "[chan receive") >= n {
			break
		}
	}
	panic("boom " + os.Args[1])
}
`

// dumps runs leakyProgram with each count and returns its dumps.
func dumps(t *testing.T, counts ...int) [][]byte {
	t.Helper()
	prog := testprog.BuildSource(t, leakyProgram)
	var out [][]byte
	for _, n := range counts {
		cmd := exec.Command(prog, strconv.Itoa(n))
		cmd.Env = append(os.Environ(), "GOTRACEBACK=all")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err == nil {
			t.Fatal("the program did not panic")
		}
		out = append(out, stderr.Bytes())
	}
	return out
}

func dumpServer(t *testing.T, dump, base []byte) *httptest.Server {
	t.Helper()
	d := goroutines.NewDump()
	if err := goroutines.Read("dump", bytes.NewReader(dump), d, goroutines.Options{}); err != nil {
		t.Fatal(err)
	}
	if base != nil {
		b := goroutines.NewDump()
		if err := goroutines.Read("base", bytes.NewReader(base), b, goroutines.Options{}); err != nil {
			t.Fatal(err)
		}
		d.Compare(b)
	}
	d.Sort()
	gs, err := web.NewGoroutines(d, web.GoroutineOptions{Title: "dump " + hostileName})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gs)
	t.Cleanup(srv.Close)
	return srv
}

func TestGoroutinesPage(t *testing.T) {
	ds := dumps(t, 3, 40)
	srv := dumpServer(t, ds[1], ds[0])
	code, body := get(t, srv, "/ui/goroutines")
	if code != http.StatusOK {
		t.Fatalf("%d\n%s", code, body)
	}
	panicAt, blockAt := strings.Index(body, "boom 40"), strings.Index(body, "main.block")
	if panicAt < 0 || blockAt < 0 || panicAt > blockAt {
		t.Errorf("want the panic (at %d) before the group of main.block (at %d)\n%s", panicAt, blockAt, body)
	}
	for _, want := range []string{"37 goroutines in main.block, blocked on chan receive", "grew", "<span class=\"count\">40</span>", "main.main"} {
		if !strings.Contains(body, want) {
			t.Errorf("page lacks %q\n%s", want, body)
		}
	}
	// Each group shows its growth since the base, as docs/web.md says.
	growth := regexp.MustCompile(`<span class="count">(\d+)</span> <span class="growth[^"]*" title="(\d+) in the base dump">([+-]\d+) since base</span>`)
	groups := strings.Count(body, `<span class="count">`)
	got := growth.FindAllStringSubmatch(body, -1)
	if len(got) != groups || groups < 2 {
		t.Errorf("%d of %d groups show their growth since the base:\n%s", len(got), groups, body)
	}
	for _, m := range got {
		n, _ := strconv.Atoi(m[1])
		b, _ := strconv.Atoi(m[2])
		if g, _ := strconv.Atoi(m[3]); g != n-b || n == 40 && b != 3 {
			t.Errorf("group of %d, %d in the base, shows %s since base", n, b, m[3])
		}
	}
	if strings.Contains(body, "window.pwned=1</script>") {
		t.Error("hostile title not escaped")
	}
	code, js := get(t, srv, "/ui/api/goroutines")
	if code != http.StatusOK || !strings.Contains(js, `"base_count": 3`) && !strings.Contains(js, `"base_count":3`) {
		t.Errorf("JSON: %d %s", code, js)
	}
}

// TestGoroutinesHostileNames serves a real dump whose function names
// were rewritten into HTML and script: the page shows them as text.
func TestGoroutinesHostileNames(t *testing.T) {
	dump := dumps(t, 2)[0]
	dump = bytes.ReplaceAll(dump, []byte("main.block"), []byte("main.<script>window.pwned=1</script>"))
	srv := dumpServer(t, dump, nil)
	_, body := get(t, srv, "/ui/goroutines")
	if strings.Contains(body, "<script>window.pwned") {
		t.Fatalf("hostile function name not escaped:\n%s", body)
	}
	if !strings.Contains(body, "main.&lt;script&gt;window.pwned=1&lt;/script&gt;") {
		t.Errorf("escaped function name missing:\n%s", body)
	}
}

func TestGoroutinesHostCheck(t *testing.T) {
	srv := dumpServer(t, dumps(t, 1)[0], nil)
	req, _ := http.NewRequest("GET", srv.URL+"/ui/goroutines", nil)
	req.Host = "attacker.example:80"
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("foreign Host: %d, want 403", resp.StatusCode)
	}
	if code, _ := get(t, srv, "/ui/nothing"); code != http.StatusNotFound {
		t.Errorf("unknown path: %d, want 404", code)
	}
}
