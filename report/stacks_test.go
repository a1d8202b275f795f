package report

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/profiles"
)

// pprofStacks filters a copy of p with pprof's own code (applyFilters)
// and returns each remaining sample's stack of frame names, root first,
// with its value: what NewStacks must return.
func pprofStacks(t *testing.T, p *profile.Profile, o Options) ([]string, error) {
	t.Helper()
	r, err := prepare(p.Copy(), Top, o)
	if err != nil {
		return nil, err
	}
	ix := newFrameIndex(r.p, newGranularity(&r.o, false, true))
	var out []string
	for _, s := range r.p.Sample {
		var names []string
		for k := len(s.Location) - 1; k >= 0; k-- {
			loc := ix.locs.get(s.Location[k])
			for j := ix.locStart[loc+1] - 1; j >= ix.locStart[loc]; j-- {
				names = append(names, ix.names[ix.locNodes[j]])
			}
		}
		w, _ := r.val.get(s.Value)
		out = append(out, fmt.Sprintf("%d %s", w, strings.Join(names, ";")))
	}
	return out, nil
}

// newStacks returns NewStacks's samples in pprofStacks's form.
func newStacks(p *profile.Profile, o Options) ([]string, error) {
	st, err := NewStacks(p, o)
	if err != nil {
		return nil, err
	}
	var out []string
	var buf []int32
	for i := range st.Len() {
		buf = st.Stack(i, buf[:0])
		names := make([]string, len(buf))
		for k, f := range buf {
			names[k] = st.Frames[f].Name
		}
		w, _, _ := st.Value(i)
		out = append(out, fmt.Sprintf("%d %s", w, strings.Join(names, ";")))
	}
	return out, nil
}

// checkStacks compares NewStacks with pprof's filters on p under o, and
// checks that NewStacks left p as it was.
func checkStacks(t *testing.T, p *profile.Profile, o Options) {
	t.Helper()
	want, werr := pprofStacks(t, p, o)
	before := p.String()
	got, gerr := newStacks(p, o)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("options %+v: pprof's filters err %v, NewStacks err %v", o, werr, gerr)
	}
	if p.String() != before {
		t.Fatalf("options %+v: NewStacks changed the profile", o)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("options %+v:\nNewStacks:\n%s\npprof's filters:\n%s", o, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestStacksMatchPprofFilters(t *testing.T) {
	for _, set := range []func(o *Options){
		func(o *Options) {},
		func(o *Options) { o.Focus = "work" },
		func(o *Options) { o.Ignore = "helper" },
		func(o *Options) { o.Hide = "helper" },
		func(o *Options) { o.Hide = "main" },
		func(o *Options) { o.Show = "work" },
		func(o *Options) { o.ShowFrom = "work" },
		func(o *Options) { o.ShowFrom = "prog" }, // the mapping's file
		func(o *Options) { o.TagFocus = "worker=a" },
		func(o *Options) { o.TagIgnore = "bytes=2kb" },
		func(o *Options) { o.Focus, o.Hide, o.Granularity = "main", "work", "lines" },
		func(o *Options) { o.NoInlines, o.ShowFrom = true, "helper" },
		func(o *Options) { o.Focus = "(" },
	} {
		o := DefaultOptions()
		set(&o)
		checkStacks(t, seedProfile(), o)
	}
}

// FuzzStacks compares NewStacks with pprof's filters on arbitrary
// profiles and filter expressions.
func FuzzStacks(f *testing.F) {
	var buf bytes.Buffer
	if err := seedProfile().Write(&buf); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes(), "main", "helper", "work", "", "work")
	f.Add(buf.Bytes(), "", "", "", "main", "prog")
	f.Fuzz(func(t *testing.T, data []byte, focus, ignore, hide, show, showFrom string) {
		p, err := profiles.ParseData("fuzz", data, profiles.Options{MaxBytes: 1 << 20})
		if err != nil || p.CheckValid() != nil || len(p.Sample) > 5000 {
			return
		}
		o := DefaultOptions()
		o.Focus, o.Ignore, o.Hide, o.Show, o.ShowFrom = focus, ignore, hide, show, showFrom
		checkStacks(t, p, o)
	})
}
