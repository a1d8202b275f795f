package store

import (
	"strings"
	"testing"
)

func TestParseSelector(t *testing.T) {
	api := NewLabels("__name__", "process_cpu", "service_name", "api", "version", "1.42.0", "region", "eu")
	db := NewLabels("__name__", "process_cpu", "service_name", "db", "version", "1.43.1")
	for _, tc := range []struct {
		sel     string
		canon   string
		api, db bool
	}{
		{``, `{}`, true, true},
		{`{}`, `{}`, true, true},
		{` { } `, `{}`, true, true},
		{`{service_name="api"}`, `{service_name="api"}`, true, false},
		{`{service_name!="api"}`, `{service_name!="api"}`, false, true},
		{`{version=~"1\\.4.*"}`, `{version=~"1\\.4.*"}`, true, true},
		{`{version=~"1\\.43.*"}`, `{version=~"1\\.43.*"}`, false, true},
		{`{version=~"1.4"}`, `{version=~"1.4"}`, false, false}, // anchored
		{`{version!~"1\\.42.*"}`, `{version!~"1\\.42.*"}`, false, true},
		{`{region=""}`, `{region=""}`, false, true}, // a missing label is ""
		{`{region!=""}`, `{region!=""}`, true, false},
		{`{service_name='api', region=~'e.'}`, `{service_name="api", region=~"e."}`, true, false},
		{"{service_name=`api`,}", `{service_name="api"}`, true, false},
		{`process_cpu{service_name="db"}`, `{__name__="process_cpu", service_name="db"}`, false, true},
		{`memory`, `{__name__="memory"}`, false, false},
		{`{x="a\"b\n"}`, `{x="a\"b\n"}`, false, false},
		{`{x='it\'s "q"'}`, `{x="it's \"q\""}`, false, false},
		{`{service.name="api"}`, `{service.name="api"}`, false, false},
	} {
		s, err := ParseSelector(tc.sel)
		if err != nil {
			t.Errorf("ParseSelector(%q): %v", tc.sel, err)
			continue
		}
		if got := s.String(); got != tc.canon {
			t.Errorf("ParseSelector(%q) = %s, want %s", tc.sel, got, tc.canon)
		}
		if got := s.Matches(api); got != tc.api {
			t.Errorf("%s matches %s = %v, want %v", tc.sel, api, got, tc.api)
		}
		if got := s.Matches(db); got != tc.db {
			t.Errorf("%s matches %s = %v, want %v", tc.sel, db, got, tc.db)
		}
		// The canonical form reads back as the same selector.
		again, err := ParseSelector(s.String())
		if err != nil || again.String() != s.String() {
			t.Errorf("ParseSelector(%q) = %v, %v; want %s", s.String(), again, err, s)
		}
	}
}

func TestParseSelectorErrors(t *testing.T) {
	for _, tc := range []struct{ sel, err string }{
		{`{`, "want a label name"},
		{`{a}`, "want =, !=, =~ or !~ after a"},
		{`{a=b}`, "want a quoted value"},
		{`{a="b}`, "unterminated quoted value"},
		{`{a="b" c="d"}`, "want , or }"},
		{`{a="b"} x`, "unexpected text after }"},
		{`{1a="b"}`, "want a label name"},
		{`{a=~"("}`, "missing closing )"},
		{`{a="\q"}`, "bad escape"},
		{`x y`, "want {"},
		{`{a=~"` + strings.Repeat("a", maxRegexpLength+1) + `"}`, "over the limit"},
	} {
		_, err := ParseSelector(tc.sel)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseSelector(%.40q) = %v, want an error with %q", tc.sel, err, tc.err)
		}
	}
}

// FuzzParseSelector checks that any input gives a selector or an error,
// and that a selector's canonical form reads back as itself.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{``, `{}`, `{service_name="api", version=~"1\\.4.*"}`, `cpu{a!~'x|y'}`, "{a=`b`}", `{a="\u00e9\x00"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelector(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Fatalf("error of two lines: %v", err)
			}
			return
		}
		again, err := ParseSelector(sel.String())
		if err != nil {
			t.Fatalf("canonical form %s of %q does not read back: %v", sel, s, err)
		}
		if again.String() != sel.String() {
			t.Fatalf("canonical form %s reads back as %s", sel, again)
		}
	})
}
