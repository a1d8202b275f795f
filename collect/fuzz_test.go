package collect_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/collect"
)

// FuzzParseKinds checks ParseKinds never panics, accepts only known kinds,
// and that its result, written back as a list, parses to itself.
func FuzzParseKinds(f *testing.F) {
	for _, s := range []string{"", "cpu", "cpu,heap", " cpu , heap ,", "all", "mem", "cpu,cpu", "bogus", "CPU,Wall", ",,", "trace,all"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		kinds, err := collect.ParseKinds(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error is not one line: %q", err)
			}
			return
		}
		var names []string
		for _, k := range kinds {
			if !slices.Contains(collect.Kinds, k) {
				t.Fatalf("ParseKinds(%q) returned unknown kind %q", s, k)
			}
			names = append(names, string(k))
		}
		again, err := collect.ParseKinds(strings.Join(names, ","))
		if err != nil || !slices.Equal(again, kinds) {
			t.Fatalf("round trip of %q: %q, %v; want %q", s, again, err, kinds)
		}
	})
}

// FuzzParseSeconds checks ParseSeconds never panics and that what it
// accepts lies in (0, max].
func FuzzParseSeconds(f *testing.F) {
	for _, s := range []string{"", "1", "0.5", "30", "60", "61", "0", "-1", "abc", "NaN", "Inf", "1e-12", "1e308", "0x10", "1_0", " 1"} {
		f.Add(s)
	}
	const def, max = 30 * time.Second, 60 * time.Second
	f.Fuzz(func(t *testing.T, s string) {
		d, err := collect.ParseSeconds(s, def, max)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || len(err.Error()) > 200 {
				t.Fatalf("error is not one short line: %q", err)
			}
			return
		}
		if d <= 0 || d > max {
			t.Fatalf("ParseSeconds(%q) = %v, outside (0, %v]", s, d, max)
		}
	})
}

// TestParseSeconds checks what an empty seconds means (the default, capped
// at the maximum) and the parsing of a few values FuzzParseSeconds can only
// bound.
func TestParseSeconds(t *testing.T) {
	for _, tc := range []struct {
		s        string
		def, max time.Duration
		want     time.Duration
		err      string
	}{
		{"", 30 * time.Second, 5 * time.Second, 5 * time.Second, ""},
		{"", time.Second, time.Minute, time.Second, ""},
		{"0.5", time.Second, time.Minute, 500 * time.Millisecond, ""},
		{"60", time.Second, time.Minute, time.Minute, ""},
		{"1e-10", time.Second, time.Minute, 0, "shorter than a nanosecond"},
	} {
		got, err := collect.ParseSeconds(tc.s, tc.def, tc.max)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ParseSeconds(%q, %v, %v) = %v, %v; want %v, %q", tc.s, tc.def, tc.max, got, err, tc.want, tc.err)
		}
	}
}

// FuzzHandlerRequest sends arbitrary paths, queries and bodies to the
// handler (with durations capped at a millisecond so the fuzzer stays
// fast): it must never panic, and every error is one line of text.
func FuzzHandlerRequest(f *testing.F) {
	for _, s := range [][2]string{
		{"/debug/pprof/heap?debug=1", ""},
		{"/debug/pprof/goroutine?debug=2&gc=1", ""},
		{"/debug/pprof/symbol", "0x401000+0x402000"},
		{"/debug/pprof/symbol?0x1+junk+", ""},
		{"/debug/pprof/profile?seconds=0.001", ""},
		{"/debug/pprof/trace?seconds=x", ""},
		{"/debug/pprof/allocs?seconds=0.0005", ""},
		{"/debug/pprof/../vars", ""},
		{"/debug/pprof/%00", ""},
		{"/debug/metrics", ""},
	} {
		f.Add(s[0], s[1])
	}
	h := collect.Handler(collect.ServerOptions{MaxDuration: time.Millisecond})
	f.Fuzz(func(t *testing.T, target, body string) {
		if !strings.HasPrefix(target, "/") || strings.ContainsAny(target, " \r\n\t#") {
			return
		}
		req, err := http.NewRequest("POST", "http://127.0.0.1"+target, strings.NewReader(body))
		if err != nil {
			return
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 400 {
			msg := w.Body.String()
			if !strings.HasSuffix(msg, "\n") || strings.Count(msg, "\n") != 1 {
				t.Fatalf("%s: error body %q is not one line", target, msg)
			}
		}
	})
}
