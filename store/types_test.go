package store

import (
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"
)

func TestParseProfileType(t *testing.T) {
	for _, tc := range []struct{ in, id string }{
		{"cpu", "process_cpu:cpu:nanoseconds:cpu:nanoseconds"},
		{"allocs", "memory:alloc_space:bytes:space:bytes"},
		{"heap", "memory:inuse_space:bytes:space:bytes"},
		{"goroutine", "goroutines:goroutine:count:goroutine:count"},
		{"process_cpu:samples:count:cpu:nanoseconds", "process_cpu:samples:count:cpu:nanoseconds"},
	} {
		pt, err := ParseProfileType(tc.in)
		if err != nil || pt.ID() != tc.id {
			t.Errorf("ParseProfileType(%q) = %s, %v; want %s", tc.in, pt, err, tc.id)
		}
	}
	for _, bad := range []string{"", "cpus", "a:b:c:d", "a::c:d:e"} {
		if _, err := ParseProfileType(bad); err == nil {
			t.Errorf("ParseProfileType(%q) succeeded", bad)
		}
	}
}

func TestTypesOf(t *testing.T) {
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
	}
	var ids []string
	for _, pt := range TypesOf("process_cpu", p) {
		ids = append(ids, pt.ID())
	}
	if got, want := strings.Join(ids, " "), "process_cpu:samples:count:cpu:nanoseconds process_cpu:cpu:nanoseconds:cpu:nanoseconds"; got != want {
		t.Errorf("TypesOf = %s, want %s", got, want)
	}
	cpu, _ := LookupKind("cpu")
	if !cpu.Type.Matches(p.SampleType[1]) || cpu.Type.Matches(p.SampleType[0]) {
		t.Errorf("cpu's type matches the wrong sample type")
	}
}

func TestParseTime(t *testing.T) {
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"now", now},
		{"-2h", now.Add(-2 * time.Hour)},
		{"now-30m", now.Add(-30 * time.Minute)},
		{"-7d", now.AddDate(0, 0, -7)},
		{"-1w2d3h", now.Add(-(9*24 + 3) * time.Hour)},
		{"1795000000", time.Unix(1795000000, 0)},
		{"2026-11-26T03:10:00Z", time.Date(2026, 11, 26, 3, 10, 0, 0, time.UTC)},
	} {
		got, err := ParseTime(tc.in, now)
		if err != nil || !got.Equal(tc.want) {
			t.Errorf("ParseTime(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
	for _, bad := range []string{"", "yesterday", "-", "-2x", "now+1h", "-1.5d", "99999999999999", "2026-11-26"} {
		if _, err := ParseTime(bad, now); err == nil {
			t.Errorf("ParseTime(%q) succeeded", bad)
		}
	}
}
