package settings

import (
	"flag"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/perflab/perflab/report"
)

// pprofURLParams reads the urlparam table of the pprof that ships with Go
// (cmd/vendor/.../internal/driver/config.go): setting name → URL parameter.
func pprofURLParams(t *testing.T) map[string]string {
	src := filepath.Join(runtime.GOROOT(), "src/cmd/vendor/github.com/google/pprof/internal/driver/config.go")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Skipf("pprof's source is not in GOROOT: %v", err)
	}
	_, block, ok := strings.Cut(string(b), "urlparam := map[string]string{")
	block, _, _ = strings.Cut(block, "}")
	params := map[string]string{}
	for _, m := range regexp.MustCompile(`"(\w+)":\s*"(\w+)"`).FindAllStringSubmatch(block, -1) {
		params[m[1]] = m[2]
	}
	if !ok || len(params) < 20 {
		t.Fatalf("no urlparam table in %s", src)
	}
	return params
}

// TestURLParamsArePprofs checks every setting's URL parameter against the
// pprof that ships with Go.
func TestURLParamsArePprofs(t *testing.T) {
	params := pprofURLParams(t)
	// perflab's web UI also keeps these, which pprof's does not keep in
	// URLs, under their own names (no pprof parameter has those names).
	extensions := map[string]bool{"tagroot": true, "tagleaf": true}
	used := map[string]bool{}
	for _, p := range params {
		used[p] = true
	}
	for _, s := range All() {
		if extensions[s.Name] {
			if params[s.Name] != "" || s.URLParam != s.Name || used[s.URLParam] {
				t.Errorf("%s: URL parameter %q; pprof's is %q", s.Name, s.URLParam, params[s.Name])
			}
			continue
		}
		if s.URLParam != params[s.Name] {
			t.Errorf("%s: URL parameter %q, pprof's is %q", s.Name, s.URLParam, params[s.Name])
		}
	}
}

// TestURLRoundTrip writes options into a URL and reads them back.
func TestURLRoundTrip(t *testing.T) {
	o := report.DefaultOptions()
	for name, v := range map[string]string{"focus": "main", "lines": "true", "cum": "true", "nodecount": "7",
		"trim": "false", "relative_percentages": "t", "sample_index": "alloc_space", "nodefraction": "0.25"} {
		if err := Set(&o, name, v); err != nil {
			t.Fatalf("Set(%s, %s): %v", name, v, err)
		}
	}
	q := url.Values{"other": {"kept"}, "h": {"stale"}}
	EncodeURL(&o, q)
	want := "f=main&g=lines&n=7&nf=0.25&other=kept&rel=t&si=alloc_space&sort=cum&trim=f"
	if got := q.Encode(); got != want {
		t.Errorf("EncodeURL: %s\nwant       %s", got, want)
	}
	back := report.DefaultOptions()
	if err := ApplyURL(&back, q); err != nil {
		t.Fatal(err)
	}
	for _, s := range All() {
		if s.Get(&back) != s.Get(&o) {
			t.Errorf("%s: %q after the round trip, want %q", s.Name, s.Get(&back), s.Get(&o))
		}
	}
	if err := ApplyURL(&back, url.Values{"g": {"bogus"}}); err == nil || !strings.Contains(err.Error(), "granularity") {
		t.Errorf("ApplyURL(g=bogus): %v; want an error naming granularity", err)
	}
}

// TestSetLikePprof checks the shell's assignments, with pprof's messages.
func TestSetLikePprof(t *testing.T) {
	o := report.DefaultOptions()
	for _, c := range []struct{ name, value, err string }{
		{"lines", "", `unknown config field "lines"`},
		{"lines", "false", `unknown config field "lines"`},
		{"granularity", "x", `invalid "granularity" value "x"`},
		{"nodecount", "x", `strconv.Atoi: parsing "x": invalid syntax`},
		{"mean", "maybe", `illegal value "maybe" for bool variable`},
		{"nosuch", "1", `unknown config field "nosuch"`},
	} {
		if err := Set(&o, c.name, c.value); err == nil || err.Error() != c.err {
			t.Errorf("Set(%q, %q): %v, want %s", c.name, c.value, err, c.err)
		}
	}
	if o != report.DefaultOptions() {
		t.Errorf("failed assignments changed the options: %+v", o)
	}
}

// TestRegisterFlags parses pprof's flags into options.
func TestRegisterFlags(t *testing.T) {
	parse := func(args ...string) (report.Options, string, error) {
		fs := flag.NewFlagSet("top", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o := report.DefaultOptions()
		resolve := RegisterFlags(fs, &o)
		if err := fs.Parse(args); err != nil {
			return o, "", err
		}
		var warn strings.Builder
		err := resolve(&warn)
		return o, warn.String(), err
	}
	o, warn, err := parse("-cum", "-lines", "-nodecount=3", "-trim=false", "-mean_delay", "-inuse_space", "-focus=x")
	if err != nil || !o.Cum || o.Granularity != "lines" || o.NodeCount != 3 || !o.NoTrim || !o.Mean ||
		o.SampleIndex != "delay" || o.Focus != "x" || warn != "Multiple value selections, ignoring -inuse_space\n" {
		t.Errorf("got %+v, %v, warnings %q", o, err, warn)
	}
	if _, _, err := parse("-files", "-lines"); err == nil || err.Error() != "conflicting options set: [files lines]" {
		t.Errorf("-files -lines: %v", err)
	}
	if _, _, err := parse("-nodecount=many"); err == nil || !strings.Contains(err.Error(), "nodecount") {
		t.Errorf("-nodecount=many: %v", err)
	}
}

// FuzzURL reads arbitrary query strings as a web UI's URL: whatever it
// accepts must survive a round trip through EncodeURL unchanged.
func FuzzURL(f *testing.F) {
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		o := report.DefaultOptions()
		if ApplyURL(&o, q) != nil {
			return
		}
		enc := url.Values{}
		EncodeURL(&o, enc)
		back := report.DefaultOptions()
		if err := ApplyURL(&back, enc); err != nil {
			t.Fatalf("%q: EncodeURL wrote %q, which ApplyURL refuses: %v", query, enc.Encode(), err)
		}
		for _, s := range All() {
			if s.URLParam != "" && s.Get(&back) != s.Get(&o) {
				t.Errorf("%q: %s is %q after the round trip, want %q", query, s.Name, s.Get(&back), s.Get(&o))
			}
		}
	})
}
