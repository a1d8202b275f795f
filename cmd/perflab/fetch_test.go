package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/pprof"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	runtimepprof "runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/collect"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/internal/testprog"
)

// fetchServer starts a real server on 127.0.0.1 serving net/http/pprof and
// /fixed, a real goroutine profile that never changes, so that the saved
// file can be compared byte for byte. It records the last query.
func fetchServer(t *testing.T) (srv *httptest.Server, fixed []byte, lastQuery func() string) {
	t.Helper()
	var buf bytes.Buffer
	if err := runtimepprof.Lookup("goroutine").WriteTo(&buf, 0); err != nil {
		t.Fatal(err)
	}
	fixed = buf.Bytes()
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/fixed", func(w http.ResponseWriter, r *http.Request) { w.Write(fixed) })
	mux.HandleFunc("/html", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("<html>hi</html>")) })
	srv, lastQuery = testprog.RecordingServer(t, mux)
	return srv, fixed, lastQuery
}

func TestFetchCommand(t *testing.T) {
	bin := perflab(t)
	srv, fixed, lastQuery := fetchServer(t)
	dir := t.TempDir()
	host := strings.TrimPrefix(srv.URL, "http://")

	// The saved file is exactly what the server sent.
	out := filepath.Join(dir, "fixed.pb.gz")
	if _, stderr, code := runPerflab(t, bin, "fetch", "-o", out, srv.URL+"/fixed"); code != 0 {
		t.Fatalf("fetch exited %d: %s", code, stderr)
	}
	if got, _ := os.ReadFile(out); !bytes.Equal(got, fixed) {
		t.Errorf("saved %d bytes differing from the %d served", len(got), len(fixed))
	}

	// "-" reads standard input; "-o -" writes standard output.
	cmd := exec.Command(bin, "fetch", "-o", "-", "-")
	cmd.Stdin = bytes.NewReader(fixed)
	if got, err := cmd.Output(); err != nil || !bytes.Equal(got, fixed) {
		t.Errorf("perflab fetch -o - - copied %d of %d bytes: %v", len(got), len(fixed), err)
	}

	// Real profiles: a heap profile, and a CPU profile from a bare host:port.
	for _, tt := range []struct {
		args      []string
		query     string
		firstType string
	}{
		{[]string{srv.URL + "/debug/pprof/heap"}, "/debug/pprof/heap", "alloc_objects"},
		{[]string{"-seconds", "1", host}, "/debug/pprof/profile?seconds=1", "samples"},
	} {
		out := filepath.Join(dir, "p.pb.gz")
		args := append([]string{"fetch", "-o", out}, tt.args...)
		_, stderr, code := runPerflab(t, bin, args...)
		if code != 0 || !strings.Contains(stderr, "Saved the profile (") {
			t.Fatalf("perflab %v: exit %d, stderr %q", args, code, stderr)
		}
		if q := lastQuery(); q != tt.query {
			t.Errorf("perflab %v requested %s; want %s", args, q, tt.query)
		}
		data, _ := os.ReadFile(out)
		p, err := profile.ParseData(data)
		if err != nil || p.SampleType[0].Type != tt.firstType {
			t.Errorf("perflab %v saved %d bytes: %v, want a %s profile", args, len(data), err, tt.firstType)
		}
	}
}

func TestFetchCommandErrors(t *testing.T) {
	bin := perflab(t)
	srv, _, _ := fetchServer(t)
	out := filepath.Join(t.TempDir(), "out.pb.gz")
	plain := filepath.Join(t.TempDir(), "plain")
	if err := os.WriteFile(plain, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"fetch", srv.URL}, 2, "perflab fetch: -o FILE is required"},
		{[]string{"fetch", "-o", out}, 2, "want exactly one SOURCE, got 0"},
		{[]string{"fetch", "-o", out, "a", "b"}, 2, "want exactly one SOURCE, got 2"},
		{[]string{"fetch", "-seconds", "x", "-o", out, srv.URL}, 2, `invalid value "x" for flag -seconds`},
		{[]string{"fetch", "-seconds", "-3", "-o", out, srv.URL}, 2, "-seconds -3: out of range (0 to 31536000, a year)"},
		{[]string{"fetch", "-max_bytes", "lots", "-o", out, srv.URL}, 2, `invalid size "lots"`},
		{[]string{"fetch", "-o", out, srv.URL + "/debug/pprof/nosuch"}, 1,
			"perflab: " + srv.URL + "/debug/pprof/nosuch: server returned 404 Not Found: Unknown profile\n"},
		{[]string{"fetch", "-o", out, srv.URL + "/html"}, 1, "perflab: " + srv.URL + "/html: the response is not a profile or a trace (content-type text/html; not a profile: unrecognized text format starting \"<html>hi</html>\"); use -raw to save it as is\n"},
		{[]string{"fetch", "-max_bytes", "1KiB", "-o", out, srv.URL + "/debug/pprof/heap"}, 1, "more than 1 KiB (the limit"},
		{[]string{"fetch", "-o", filepath.Join(plain, "out.pb.gz"), srv.URL + "/debug/pprof/heap"}, 1,
			"perflab: cannot write to " + plain + ": not a directory\n"},
		{[]string{"fetch", "-o", filepath.Join(plain+"-missing", "out.pb.gz"), srv.URL + "/debug/pprof/heap"}, 1,
			"perflab: directory " + plain + "-missing does not exist\n"},
		{[]string{"fetch", "-seconds", "7000000000", "-o", out, srv.URL}, 2, "-seconds 7000000000: out of range (0 to 31536000, a year)"},
		{[]string{"fetch", "-timeout", "-1s", "-o", out, srv.URL}, 2, "-timeout -1s: out of range"},
		{[]string{"fetch", "-timeout", "9000h", "-o", out, srv.URL}, 2, "-timeout 9000h0m0s: out of range (0 to 8760h0m0s, a year)"},
		{[]string{"top", "-seconds", "7000000000", srv.URL}, 2, "-seconds 7000000000: out of range"},
		{[]string{"top", "-timeout", "-5s", srv.URL}, 2, "-timeout -5s: out of range"},
		{[]string{"fetch", "-H", "Authorization Bearer s3cret", "-o", out, srv.URL}, 2, "-H: want \"Name: value\""},
	}
	for _, tt := range tests {
		stdout, stderr, code := runPerflab(t, bin, tt.args...)
		if code != tt.code || !strings.Contains(stderr, tt.stderr) || stdout != "" {
			t.Errorf("perflab %q: exit %d, stdout %q, stderr %q; want exit %d, stderr containing %q",
				tt.args, code, stdout, stderr, tt.code, tt.stderr)
		}
		if tt.code == 1 && strings.Count(stderr, "\n") != 1 {
			t.Errorf("perflab %q: error is not one line: %q", tt.args, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("perflab %q left %s behind", tt.args, out)
		}
	}
	stdout, _, code := runPerflab(t, bin, "help", "fetch")
	if code != 0 || !strings.Contains(stdout, "Examples:\n  perflab fetch -o cpu.pb.gz localhost:6060") {
		t.Errorf("perflab help fetch: exit %d, %q", code, stdout)
	}
}

// TestFetchTrace fetches a live execution trace from collect's handler,
// which the old fetch refused as "not a valid profile.proto".
func TestFetchTrace(t *testing.T) {
	bin := perflab(t)
	srv := httptest.NewServer(collect.Handler(collect.ServerOptions{}))
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "trace.out")
	_, stderr, code := runPerflab(t, bin, "fetch", "-seconds", "1", "-o", out, srv.URL+"/debug/pprof/trace")
	if code != 0 || !strings.HasPrefix(stderr, "Saved the trace (") {
		t.Fatalf("fetch of a trace: exit %d, %q", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil || !bytes.HasPrefix(data, []byte("go 1.")) || !strings.Contains(stderr, fmt.Sprintf(" events, %d bytes) to %s", len(data), out)) {
		t.Errorf("saved %d bytes (%v); stderr %q", len(data), err, stderr)
	}

	// A goroutine dump in text is saved as it came, and said to be one,
	// with as many goroutines as it has headers.
	src := srv.URL + "/debug/pprof/goroutine?debug=2"
	_, stderr, code = runPerflab(t, bin, "fetch", "-o", out, src)
	data, _ = os.ReadFile(out)
	n := len(regexp.MustCompile(`(?m)^goroutine [0-9]+ .*\[.*\]:$`).FindAll(data, -1))
	if want := fmt.Sprintf("Saved the goroutine dump of %d goroutines (%d bytes) as is to %s\n", n, len(data), out); code != 0 || n == 0 || stderr != want {
		t.Errorf("fetch of a goroutine dump: exit %d, %q; want %q", code, stderr, want)
	}
	// Anything else needs -raw.
	_, stderr, code = runPerflab(t, bin, "fetch", "-raw", "-o", out, src)
	if data, _ := os.ReadFile(out); code != 0 || !bytes.HasPrefix(data, []byte("goroutine ")) || stderr != fmt.Sprintf("Saved %d bytes as is to %s\n", len(data), out) {
		t.Errorf("fetch -raw of a goroutine dump: exit %d, %q, saved %.20q", code, stderr, data)
	}
}

// TestFetchToken fetches from collect's server protected by a token, with
// the token given each way; no message may show it.
func TestFetchToken(t *testing.T) {
	bin := perflab(t)
	const token = "t0ken-for-the-test"
	srv := httptest.NewServer(collect.Handler(collect.ServerOptions{Token: token}))
	defer srv.Close()
	heap := srv.URL + "/debug/pprof/heap"
	out := filepath.Join(t.TempDir(), "heap.pb.gz")
	tests := []struct {
		env  string
		args []string
		code int
		want string
	}{
		{"", []string{"fetch", "-o", out, heap}, 1, "server returned 401 Unauthorized: missing bearer token"},
		{"", []string{"fetch", "-token", token, "-o", out, heap}, 0, "Saved the profile ("},
		{"PERFLAB_TOKEN=" + token, []string{"fetch", "-o", out, heap}, 0, "Saved the profile ("},
		{"", []string{"fetch", "-H", "Authorization: Bearer " + token, "-o", out, heap}, 0, "Saved the profile ("},
		{"", []string{"fetch", "-token", token + "x", "-o", out, heap}, 1, "401 Unauthorized: invalid bearer token"},
		{"", []string{"fetch", "-H", "Authorization Bearer " + token, "-o", out, heap}, 2, "-H: want \"Name: value\""},
		{"", []string{"top", "-nodecount=1", heap}, 1, "missing bearer token"},
		{"", []string{"top", "-nodecount=1", "-token", token, heap}, 0, ""},
		{"PERFLAB_TOKEN=" + token, []string{"top", "-nodecount=1", heap}, 0, ""},
		{"", []string{"top", "-nodecount=1", "-H", "Authorization: Bearer " + token, heap}, 0, ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		cmd := exec.Command(bin, tt.args...)
		cmd.Env = append(os.Environ(), "PERFLAB_TOKEN=")
		if tt.env != "" {
			cmd.Env = append(cmd.Env, tt.env)
		}
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		cmd.Run()
		code := cmd.ProcessState.ExitCode()
		if code != tt.code || !strings.Contains(stderr.String(), tt.want) {
			t.Errorf("%s perflab %q: exit %d, stderr %q; want exit %d and %q", tt.env, tt.args, code, stderr.String(), tt.code, tt.want)
		}
		if tt.args[0] == "top" && tt.code == 0 && !strings.Contains(stdout.String(), "flat%") {
			t.Errorf("perflab %q printed %q", tt.args, stdout.String())
		}
		if strings.Contains(stderr.String(), token) {
			t.Errorf("perflab %q showed the token: %q", tt.args, stderr.String())
		}
	}
}

// TestFetchCountsSamples fetches a CPU profile of a CPU-bound program:
// the message gives the samples the profile's own values add up to (not
// its records, far fewer), and its type and total as go tool pprof's
// header does.
func TestFetchCountsSamples(t *testing.T) {
	bin := perflab(t)
	url := startSpinServer(t)
	out := filepath.Join(t.TempDir(), "cpu.pb.gz")
	_, stderr, code := runPerflab(t, bin, "fetch", "-seconds", "2", "-o", out, url)
	if code != 0 {
		t.Fatalf("fetch exited %d: %s", code, stderr)
	}
	p := reporttest.ReadProfile(t, out)
	samples := int64(0)
	for _, s := range p.Sample {
		samples += s.Value[0]
	}
	if p.SampleType[0].Type != "samples" || samples <= int64(2*len(p.Sample)) {
		t.Fatalf("want a CPU profile with many samples per record: %d samples in %d records", samples, len(p.Sample))
	}
	header, _, err := reporttest.RunPprof(t, "", nil, "-top", out)
	if err != nil {
		t.Fatal(err)
	}
	total := regexp.MustCompile(`Total samples = (\S+)`).FindSubmatch(header)
	if total == nil {
		t.Fatalf("pprof's header has no total: %s", header)
	}
	data, _ := os.ReadFile(out)
	want := fmt.Sprintf("Saved the profile (Type: cpu, Total samples = %s: %d samples of %v; %d bytes) to %s\n",
		total[1], samples, time.Duration(p.Period), len(data), out)
	if stderr != want {
		t.Errorf("fetch says\n%q\nwant\n%q", stderr, want)
	}
}

// TestURLSourcesKept loads profiles from a real server, as go tool pprof
// does: each report of a URL source keeps the profile under
// $PPROF_TMPDIR (else ~/pprof) with the name pprof gives it, says where,
// and the kept file gives the same report.
func TestURLSourcesKept(t *testing.T) {
	bin := perflab(t)
	heap := startSpinServer(t) + "/debug/pprof/heap"
	_, pprofErr, err := reporttest.RunPprof(t, "", nil, "-top", heap)
	if err != nil {
		t.Fatalf("pprof: %v\n%s", err, pprofErr)
	}
	saved := regexp.MustCompile(`(?m)^Saved profile in (.*)$`)
	m := saved.FindSubmatch(pprofErr)
	if m == nil {
		t.Fatalf("pprof kept nothing: %s", pprofErr)
	}
	name := filepath.Base(string(m[1])) // pprof.BINARY.TYPES.001.pb.gz
	run := func(env []string, args ...string) (stdout, stderr string) {
		t.Helper()
		var o, e bytes.Buffer
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), env...)
		cmd.Stdout, cmd.Stderr = &o, &e
		if err := cmd.Run(); err != nil {
			t.Fatalf("perflab %q: %v\n%s", args, err, e.String())
		}
		return o.String(), e.String()
	}
	dir := t.TempDir()
	for i, want := range []string{name, strings.Replace(name, ".001.", ".002.", 1)} {
		stdout, stderr := run([]string{"PPROF_TMPDIR=" + dir}, "top", heap)
		if wantErr := "Saved profile in " + filepath.Join(dir, want) + "\n"; stderr != wantErr {
			t.Fatalf("fetch %d: stderr %q; want %q", i+1, stderr, wantErr)
		}
		if kept, _ := run(nil, "top", filepath.Join(dir, want)); kept != stdout {
			t.Errorf("the kept profile's report differs from the fetched one's: %s", reporttest.FirstDiff([]byte(kept), []byte(stdout)))
		}
	}
	home := t.TempDir()
	if _, stderr := run([]string{"PPROF_TMPDIR=", "HOME=" + home}, "top", heap); stderr != "Saved profile in "+filepath.Join(home, "pprof", name)+"\n" {
		t.Errorf("without $PPROF_TMPDIR: stderr %q; want the profile kept in $HOME/pprof", stderr)
	}
	local := filepath.Join(dir, name)
	if _, stderr := run([]string{"PPROF_TMPDIR=" + dir}, "top", local); stderr != "" {
		t.Errorf("a local source is kept again: %q", stderr)
	}
}
