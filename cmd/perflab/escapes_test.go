package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
)

// escapesJSON is the -json output of perflab escapes.
type escapesJSON struct {
	SampleType string `json:"sample_type"`
	Sites      []struct {
		Func     string   `json:"func"`
		File     string   `json:"file"`
		Line     int      `json:"line"`
		Via      string   `json:"via"`
		Bytes    int64    `json:"bytes"`
		Objects  int64    `json:"objects"`
		Reasons  []string `json:"reasons"`
		Category string   `json:"category"`
		Hint     string   `json:"hint"`
	} `json:"sites"`
}

// TestEscapesLeftpad runs the left-pad example's v1 benchmark with a
// memory profile and checks that escapes names the allocations the
// article removes, each on its line with the compiler's reason: the
// padding concatenated in a loop, the StatsD client's Sprintf,
// NewReplacer, FormatFloat and []byte conversion, and the log's Printf.
func TestEscapesLeftpad(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	prof := filepath.Join(tmp, "mem.pprof")
	cmd := exec.Command("go", "test", "-run=NONE", "-bench=Handler/v1", "-benchtime=3000x", "-memprofilerate=1",
		"-memprofile="+prof, "-o", filepath.Join(tmp, "leftpad.test"), "./examples/leftpad")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, out)
	}
	var got escapesJSON
	if err := json.Unmarshal(runInProcess(t, "escapes", "-json", prof), &got); err != nil {
		t.Fatal(err)
	}
	if got.SampleType != "alloc_space" || len(got.Sites) == 0 {
		t.Fatalf("sample type %q, %d sites", got.SampleType, len(got.Sites))
	}
	dir := filepath.Join(root, "examples", "leftpad")
	line := func(file, text string) int { return lineOf(t, filepath.Join(dir, file), text) }
	for _, want := range []struct {
		file     string
		line     int
		via      string // "" for a direct allocation; "*" for any
		category string
		reason   string // "" for any, "-" for none
		hint     string // a part of the site's hint; "" for any
	}{
		{"leftpad.go", line("leftpad.go", "s = string(char) + s"), "", "conversion", "string(char) + s escapes to heap", ""},
		// What fmt.Sprintf allocates inside is its own: the line's notes
		// are about the argument boxed on the line, the site below.
		{"statsd.go", line("statsd.go", `fmt.Sprintf("%s.", s.Namespace)`), "fmt.Sprintf", "callee", "-", "fmt.Sprintf allocates the string it returns: use fmt.Appendf"},
		{"statsd.go", line("statsd.go", `fmt.Sprintf("%s.", s.Namespace)`), "", "interface", "s.Namespace escapes to heap", ""},
		{"statsd.go", line("statsd.go", "strings.NewReplacer("), "strings.NewReplacer", "address", "&strings.Replacer{...} escapes to heap", ""},
		{"statsd.go", line("statsd.go", "strconv.FormatFloat(delta"), "*", "*", "inlining call to strconv.FormatFloat", ""},
		{"statsd.go", line("statsd.go", "[]byte(buf)"), "", "conversion", "([]byte)(buf) escapes to heap", ""},
		{"service.go", line("service.go", `s.logV1.Printf("url=`), "", "interface", "clientIP(r) escapes to heap", ""},
		{"query.go", line("query.go", `get("str")`), "net/http.(*Request).FormValue", "callee", "", "net/http.(*Request).FormValue allocates"},
	} {
		found := false
		for _, s := range got.Sites {
			if s.File != filepath.Join(dir, want.file) || s.Line != want.line || (want.via != "*" && s.Via != want.via) {
				continue
			}
			reasonOK := want.reason == "" || want.reason == "-" && len(s.Reasons) == 0 || slices.Contains(s.Reasons, want.reason)
			if (want.category == "*" || s.Category == want.category) && reasonOK && strings.Contains(s.Hint, want.hint) && s.Bytes > 0 && s.Objects > 0 {
				found = true
			}
		}
		if !found {
			t.Errorf("no site %s:%d via %q in category %q with reason %q and hint %q; sites there:\n%s", want.file, want.line, want.via, want.category, want.reason, want.hint, sitesAt(got, want.line))
		}
	}
	if s := got.Sites[0]; !strings.HasSuffix(s.Func, ".leftpadV1") {
		t.Errorf("heaviest site is %s at %s:%d, want leftpadV1's concatenation", s.Func, s.File, s.Line)
	}
	text := string(runInProcess(t, "escapes", prof))
	for _, want := range []string{"Type: alloc_space", "string/[]byte conversion or concatenation:", "  hint: ", "leftpad.leftpadV1 examples/leftpad/leftpad.go:"} {
		if !strings.Contains(text, want) && !strings.Contains(text, strings.Replace(want, "examples/leftpad/", filepath.Join(dir, "")+"/", 1)) {
			t.Errorf("text output lacks %q:\n%s", want, text)
		}
	}
}

// lineOf returns the number of the first line of file holding text.
func lineOf(t *testing.T, file, text string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), text) {
			return n
		}
	}
	t.Fatalf("%s: no line holds %q", file, text)
	return 0
}

func sitesAt(got escapesJSON, line int) string {
	var b strings.Builder
	for _, s := range got.Sites {
		if s.Line == line {
			b.WriteString("  " + s.Func + " " + filepath.Base(s.File) + " via " + s.Via + " " + s.Category + " " + strings.Join(s.Reasons, " | ") + " hint: " + s.Hint + "\n")
		}
	}
	return b.String()
}

// TestEscapesNotHeap: a profile without allocation sample types is one
// line naming the profile and the cause, exit status 1.
func TestEscapesNotHeap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.pprof")
	reporttest.WriteProfile(t, reporttest.OneSample("main.go"), path)
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), strings.NewReader(""), &stdout, &stderr, []string{"escapes", path})
	code := exitCode(&stderr, err)
	msg := stderr.String()
	if code != 1 || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, path) || !strings.Contains(msg, "not a heap or allocs profile") || stdout.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and one line naming %s", code, stdout.String(), msg, path)
	}
}
