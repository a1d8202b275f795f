package report_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/report"
)

// TestReportsLeaveProfileUnchanged checks that reports with every kind of
// filter leave the profile as they found it (a server answers every
// refinement from the one loaded profile), and that a report of the same
// profile is the same however many filtered reports ran before it.
func TestReportsLeaveProfileUnchanged(t *testing.T) {
	p, err := profgen.Generate(profgen.Small)
	if err != nil {
		t.Fatal(err)
	}
	var before bytes.Buffer
	if err := p.Write(&before); err != nil {
		t.Fatal(err)
	}
	hot := p.Sample[0].Location[0].Line[0].Function.Name
	first := map[report.Kind]string{}
	for _, k := range []report.Kind{report.Top, report.Tree, report.Traces, report.Dot, report.Raw} {
		var out bytes.Buffer
		if err := report.Generate(&out, p, k, report.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		first[k] = out.String()
	}
	filters := []func(*report.Options){
		func(o *report.Options) { o.Focus = hot },
		func(o *report.Options) { o.Ignore = hot },
		func(o *report.Options) { o.Hide = "runtime" },
		func(o *report.Options) { o.Show = "main|" + hot },
		func(o *report.Options) { o.ShowFrom = hot },
		func(o *report.Options) { o.TagFocus = "handler=/api" },
		func(o *report.Options) { o.TagIgnore = "handler=/api"; o.RelativePercentages = true },
	}
	for i, f := range filters {
		o := report.DefaultOptions()
		f(&o)
		for k := range first {
			if err := report.Generate(io.Discard, p, k, o); err != nil {
				t.Fatalf("filter %d, %s: %v", i, k, err)
			}
		}
		if _, err := report.CallGraph(p, o); err != nil {
			t.Fatal(err)
		}
	}
	var after bytes.Buffer
	if err := p.Write(&after); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before.Bytes(), after.Bytes()) {
		t.Error("filtered reports changed the profile")
	}
	for k, want := range first {
		var out bytes.Buffer
		if err := report.Generate(&out, p, k, report.DefaultOptions()); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("%s after filtered reports differs from before", k)
		}
	}
}
