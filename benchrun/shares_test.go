package benchrun

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
)

// cpuProfile builds a profile whose samples have the given cpu values at
// the given leaf functions, each called from main.
func cpuProfile(samples map[string]int64) *profile.Profile {
	p := &profile.Profile{SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}}}
	main := &profile.Function{ID: 1, Name: "main.main"}
	mainLoc := &profile.Location{ID: 1, Line: []profile.Line{{Function: main}}}
	p.Function = append(p.Function, main)
	p.Location = append(p.Location, mainLoc)
	for name, v := range samples {
		id := uint64(len(p.Function) + 1)
		f := &profile.Function{ID: id, Name: name}
		loc := &profile.Location{ID: id, Line: []profile.Line{{Function: f}}}
		p.Function = append(p.Function, f)
		p.Location = append(p.Location, loc)
		p.Sample = append(p.Sample, &profile.Sample{Location: []*profile.Location{loc, mainLoc}, Value: []int64{1, v}})
	}
	return p
}

func TestFlatSharesAndChanges(t *testing.T) {
	old := FlatShares(cpuProfile(map[string]int64{"a": 60, "b": 30, "c": 10}), "cpu")
	new := FlatShares(cpuProfile(map[string]int64{"a": 20, "b": 30, "d": 50}), "cpu")
	if old["a"] != 0.6 || old["main.main"] != 0 || new["d"] != 0.5 {
		t.Fatalf("shares: old %v, new %v", old, new)
	}
	changes := CompareShares(old, new, 3)
	want := []ShareChange{{"d", 0, 0.5}, {"a", 0.6, 0.2}, {"c", 0.1, 0}}
	if len(changes) != 3 {
		t.Fatalf("changes %v, want %v", changes, want)
	}
	for i := range want {
		if changes[i].Func != want[i].Func || changes[i].Old != want[i].Old || changes[i].New != want[i].New {
			t.Errorf("change %d = %v, want %v", i, changes[i], want[i])
		}
	}
	var buf bytes.Buffer
	if err := WriteShareChanges(&buf, "CPU", changes); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "  60.0%   20.0%   -40.0%  a\n") {
		t.Errorf("table:\n%s", buf.String())
	}
}
