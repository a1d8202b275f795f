package shell

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/settings"
)

// testProfile is a small CPU profile: main.main calls main.parse and
// runtime.mallocgc.
func testProfile() *profile.Profile {
	m := &profile.Mapping{ID: 1, Start: 0x1000, Limit: 0x9000, File: "/bin/prog", HasFunctions: true}
	var fns []*profile.Function
	var locs []*profile.Location
	for i, name := range []string{"main.main", "main.parse", "runtime.mallocgc"} {
		fn := &profile.Function{ID: uint64(i + 1), Name: name, SystemName: name, Filename: name + ".go"}
		fns = append(fns, fn)
		locs = append(locs, &profile.Location{ID: uint64(i + 1), Address: 0x1100 + uint64(i)*0x100, Mapping: m,
			Line: []profile.Line{{Function: fn, Line: 10}}})
	}
	return &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10_000_000,
		Mapping: []*profile.Mapping{m}, Function: fns, Location: locs,
		Sample: []*profile.Sample{
			{Location: []*profile.Location{locs[1], locs[0]}, Value: []int64{3, 30_000_000}},
			{Location: []*profile.Location{locs[2], locs[1], locs[0]}, Value: []int64{1, 10_000_000}},
		},
	}
}

// TestGreetLeavesProfile checks that the greeting describes the profile
// without changing it: the shell reads it in place, uncopied.
func TestGreetLeavesProfile(t *testing.T) {
	p := testProfile()
	before := p.String()
	var stderr bytes.Buffer
	if err := New(p, report.DefaultOptions(), io.Discard, &stderr).Run(strings.NewReader("")); err != nil {
		t.Fatal(err)
	}
	if p.String() != before {
		t.Error("the greeting changed the profile")
	}
	for _, want := range []string{"File: prog\n", "Type: cpu\n", "Entering interactive mode"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("greeting lacks %q:\n%s", want, stderr.String())
		}
	}
}

// TestRedirectWritesOnlyCompleteReports checks "> file": a report that
// fails leaves an existing file as it was; one that succeeds replaces it.
func TestRedirectWritesOnlyCompleteReports(t *testing.T) {
	out := filepath.Join(t.TempDir(), "top.txt")
	if err := os.WriteFile(out, []byte("an earlier report\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	sh := New(testProfile(), report.DefaultOptions(), &stdout, &stderr)
	sh.Exec("top ( >" + out)
	if b, _ := os.ReadFile(out); string(b) != "an earlier report\n" {
		t.Errorf("after a failing report the file holds %q; want it unchanged", b)
	}
	if !strings.Contains(stderr.String(), "parsing focus regexp") || strings.Contains(stderr.String(), "Generating report") {
		t.Errorf("stderr %q; want the regexp error and no \"Generating report\"", stderr.String())
	}
	sh.Exec("top > " + out)
	b, _ := os.ReadFile(out)
	sh.Exec("top")
	if !bytes.Equal(b, stdout.Bytes()) || stdout.Len() == 0 {
		t.Errorf("the file holds %q; want top's report %q", b, stdout.String())
	}
	if entries, _ := os.ReadDir(filepath.Dir(out)); len(entries) != 1 {
		t.Errorf("the directory holds %d files; want only the report", len(entries))
	}
}

// TestComplete checks Tab completion: commands and options by prefix, and
// function names by substring after a report command, as pprof's shell.
func TestComplete(t *testing.T) {
	sh := New(testProfile(), report.DefaultOptions(), io.Discard, io.Discard)
	for _, c := range []struct{ line, want string }{
		{"to", "top"},
		{"nodef", "nodefraction"},
		{"t", "t"}, // top, traces, tags, tree, text, trim...
		{"fi", "fi"},
		{"filef", "filefunctions"},
		{"help pe", "help peek"},
		{"list pars", "list main.parse"},
		{"top10 -malloc", "top10 -runtime.mallocgc"},
		{"peek main", "peek main"}, // two functions match
		{"tags mall", "tags mall"},
		{"foo mall", "foo mall"},
	} {
		if got := sh.complete(c.line); got != c.want {
			t.Errorf("complete(%q) = %q, want %q", c.line, got, c.want)
		}
	}
	if line, pos, ok := sh.autoComplete("to -cum", 2, '\t'); !ok || line != "top -cum" || pos != 3 {
		t.Errorf("Tab after \"to\" in \"to -cum\": %q, cursor %d, %v", line, pos, ok)
	}
	if _, _, ok := sh.autoComplete("to", 2, 'p'); ok {
		t.Error("a key other than Tab completed")
	}
}

// TestHelpListsEverySetting checks that the shell's help is derived from
// settings.All: every setting and choice has its line and its own help.
func TestHelpListsEverySetting(t *testing.T) {
	var stderr bytes.Buffer
	sh := New(testProfile(), report.DefaultOptions(), io.Discard, &stderr)
	sh.Exec("help")
	help := stderr.String()
	for _, s := range settings.All() {
		names := append([]string{s.Name}, s.ChoiceNames()...)
		for _, name := range names {
			if !strings.Contains(help, "    "+name+" ") && !strings.Contains(help, "      "+name+" ") {
				t.Errorf("help lacks %s", name)
			}
			stderr.Reset()
			sh.Exec("help " + name)
			if got := stderr.String(); strings.HasPrefix(got, "Unknown") || len(got) < 10 {
				t.Errorf("help %s: %q", name, got)
			}
		}
		if !strings.Contains(help, s.Description()) {
			t.Errorf("help lacks the description of %s, %q", s.Name, s.Description())
		}
	}
}
