package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestLabelSettingsLeaveSharedParts checks that -tagroot, -tagleaf and
// -taghide never edit what copies of a profile share (the web UI's
// shallow copies share label maps, functions and locations): a report
// on a copy whose samples share p's label maps leaves p as it was.
func TestLabelSettingsLeaveSharedParts(t *testing.T) {
	p := seedProfile()
	before := p.String()
	q := p.Copy()
	for i, s := range q.Sample {
		s.Label, s.NumLabel = p.Sample[i].Label, p.Sample[i].NumLabel
	}
	o := DefaultOptions()
	o.TagRoot, o.TagLeaf, o.TagHide = "worker", "bytes", "."
	var out bytes.Buffer
	if err := Generate(&out, q, Traces, o); err != nil {
		t.Fatal(err)
	}
	if p.String() != before {
		t.Errorf("the report edited the shared labels:\n%s\nwant\n%s", p.String(), before)
	}
	// -tagroot alone leaves the profile it is given as it was.
	o = DefaultOptions()
	o.TagRoot = "worker"
	if err := Generate(&out, p, Tree, o); err != nil {
		t.Fatal(err)
	}
	if p.String() != before {
		t.Errorf("-tagroot edited the profile")
	}
}

// TestLabelSettingWarnings checks pprof's warnings for keys and regexps
// that match nothing, and the error of a broken regexp.
func TestLabelSettingWarnings(t *testing.T) {
	var w bytes.Buffer
	o := DefaultOptions()
	o.TagRoot, o.TagLeaf, o.TagShow, o.TagHide, o.Warnings = "nokey", "nokey", "nokey", "nokey", &w
	if err := Generate(new(bytes.Buffer), seedProfile(), Top, o); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"TagRoot expression matched no samples", "TagLeaf expression matched no samples",
		"TagShow expression matched no samples", "TagHide expression matched no samples"} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("warnings %q lack %q", w.String(), want)
		}
	}
	o = DefaultOptions()
	o.TagHide = "("
	err := Generate(new(bytes.Buffer), seedProfile(), Top, o)
	if err == nil || !strings.HasPrefix(err.Error(), "parsing taghide regexp: ") {
		t.Errorf("taghide=( : error %v", err)
	}
}
