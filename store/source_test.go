package store

import (
	"strings"
	"testing"
	"time"
)

func TestParseSource(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	cpu, _ := LookupKind("cpu")
	def := Selection{Type: cpu.Type, Start: now.Add(-time.Hour), End: now}
	for _, tc := range []struct {
		in, sel    string
		start, end time.Time
	}{
		{`{service_name="api"}`, `{service_name="api"}`, def.Start, def.End},
		{`process_cpu{}`, `{__name__="process_cpu"}`, def.Start, def.End},
		{`{service_name="api"}@-14d..-7d`, `{service_name="api"}`, now.AddDate(0, 0, -14), now.AddDate(0, 0, -7)},
		{`{version="1.42"}@-2h..`, `{version="1.42"}`, now.Add(-2 * time.Hour), def.End},
		{`{a="}@x"}@..2026-11-26T11:30:00Z`, `{a="}@x"}`, def.Start, now.Add(-30 * time.Minute)},
		{` {a=~"x.*"}@1795000000..now `, `{a=~"x.*"}`, time.Unix(1795000000, 0), now},
	} {
		sel, err := ParseSource(tc.in, def, now)
		if err != nil {
			t.Errorf("ParseSource(%q): %v", tc.in, err)
			continue
		}
		if sel.Selector.String() != tc.sel || !sel.Start.Equal(tc.start) || !sel.End.Equal(tc.end) || sel.Type != cpu.Type {
			t.Errorf("ParseSource(%q) = %s %v..%v %s; want %s %v..%v %s", tc.in, sel.Selector, sel.Start, sel.End, sel.Type, tc.sel, tc.start, tc.end, cpu.Type)
		}
		if !IsSource(tc.in) {
			t.Errorf("IsSource(%q) = false", tc.in)
		}
	}
	for _, tc := range []struct{ in, err string }{
		{`{a="x"}-1h`, "want @FROM..UNTIL after"},
		{`{a="x"}@-1h`, "want @FROM..UNTIL, such as"},
		{`{a="x"}@yesterday..`, "from: time"},
		{`{a="x"}@..-1x`, "until: time"},
		{`{a="x"}@-1h..-2h`, "ends at or before its start"},
		{`{a=x}`, "want a quoted value"},
	} {
		if _, err := ParseSource(tc.in, def, now); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("ParseSource(%q) = %v, want an error with %q", tc.in, err, tc.err)
		}
	}
	for _, file := range []string{"cpu.pprof", "-", "http://host:6060/debug/pprof/profile", "localhost:6060", "dir/{a}", "cpu-1{x}.pb.gz", "9x{}"} {
		if IsSource(file) {
			t.Errorf("IsSource(%q) = true for a file or URL", file)
		}
	}
}

// FuzzParseSource checks that ParseSource never panics, and that what it
// accepts keeps its selector's meaning when written back.
func FuzzParseSource(f *testing.F) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSource(s, Selection{}, now)
		if err != nil {
			return
		}
		again, err := ParseSelector(sel.Selector.String())
		if err != nil || again.String() != sel.Selector.String() {
			t.Errorf("ParseSource(%q)'s selector %s reads back as %s, %v", s, sel.Selector, again, err)
		}
		if !sel.End.IsZero() && !sel.Start.Before(sel.End) {
			t.Errorf("ParseSource(%q): range %v..%v", s, sel.Start, sel.End)
		}
	})
}
