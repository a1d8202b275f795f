package flame_test

import (
	"bytes"
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/report"
)

// TestRealProfiles runs the reporttest workload once and checks trees of
// the real profiles it writes.
func TestRealProfiles(t *testing.T) {
	pr := reporttest.Generate(t)
	t.Run("MatchesTop", func(t *testing.T) { testTreeMatchesTop(t, pr) })
	t.Run("Diff", func(t *testing.T) { testDiffMatchesTop(t, pr) })
	t.Run("SearchSandwichZoom", func(t *testing.T) { testSearchAndSandwich(t, pr) })
	// The same on the parallel paths (Build, Functions, search), which
	// only profiles of 50,000 samples or more take by default.
	defer flame.SetParallelMin(10)()
	t.Run("MatchesTopParallel", func(t *testing.T) { testTreeMatchesTop(t, pr) })
	t.Run("DiffParallel", func(t *testing.T) { testDiffMatchesTop(t, pr) })
	t.Run("SearchSandwichZoomParallel", func(t *testing.T) { testSearchAndSandwich(t, pr) })
}

func load(t *testing.T, opts profiles.Options, srcs ...string) *profile.Profile {
	t.Helper()
	p, err := profiles.Load(context.Background(), srcs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// topRows returns top's JSON rows for p under o, with nothing trimmed.
func topRows(t *testing.T, p *profile.Profile, o report.Options) *report.JSONReport {
	t.Helper()
	o.NoTrim = true
	var buf bytes.Buffer
	if err := report.GenerateJSON(&buf, p.Copy(), report.Top, o); err != nil {
		t.Fatal(err)
	}
	var r report.JSONReport
	if err := json.Unmarshal(buf.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// checkAgainstTop compares the tree's per-frame totals with top's flat
// and cum for the same options, and the root with the sum of flat.
func checkAgainstTop(t *testing.T, p *profile.Profile, o report.Options) {
	t.Helper()
	before := p.String()
	tree, err := flame.Build(p, o)
	if err != nil {
		t.Fatal(err)
	}
	if p.String() != before {
		t.Fatal("Build changed the profile")
	}
	top := topRows(t, p, o)
	if tree.Total != top.Total {
		t.Errorf("total %d, top's %d", tree.Total, top.Total)
	}
	funcs := map[string]flame.FuncStat{}
	for _, f := range tree.Functions() {
		funcs[f.Name] = f
	}
	// Top may print several nodes of one name (at files granularity, one
	// per function of the file); the tree has one frame of that name,
	// whose self is their flat summed and whose total lies between the
	// largest cum and the sum of them.
	type row struct{ flat, cum, maxCum, n int64 }
	rows := map[string]*row{}
	var flat int64
	for _, n := range top.Nodes {
		flat += n.Flat
		r := rows[n.Name]
		if r == nil {
			r = &row{maxCum: n.Cum}
			rows[n.Name] = r
		}
		r.flat, r.cum, r.maxCum, r.n = r.flat+n.Flat, r.cum+n.Cum, max(r.maxCum, n.Cum), r.n+1
	}
	for name, r := range rows {
		f, ok := funcs[name]
		if !ok {
			if r.flat != 0 || r.cum != 0 {
				t.Errorf("%s: in top (flat %d cum %d), not in the tree", name, r.flat, r.cum)
			}
			continue
		}
		delete(funcs, name)
		if got := f.Self - f.BaseSelf; got != r.flat {
			t.Errorf("%s: self %d (base %d), top's flat %d", name, f.Self, f.BaseSelf, r.flat)
		}
		got := f.Total - f.BaseTotal
		if (r.n == 1 && got != r.cum) || got < r.maxCum || got > r.cum {
			t.Errorf("%s: total %d (base %d), top's cum %d (%d rows)", name, f.Total, f.BaseTotal, r.cum, r.n)
		}
	}
	for name, f := range funcs {
		if f.Total != f.BaseTotal {
			t.Errorf("%s: in the tree (total %d), not in top", name, f.Total)
		}
	}
	checkRoot(t, tree, flat+unplaced(t, p, o), o.Mean)
}

// unplaced sums the values of the samples that o's filters keep in p but
// leave without a frame (a CPU sample the runtime could not unwind, or one
// whose frames are all hidden): the tree's root holds them, as pprof's
// total does, while top has no row for them.
func unplaced(t *testing.T, p *profile.Profile, o report.Options) int64 {
	t.Helper()
	p = p.Copy()
	if err := report.Filter(p, o); err != nil {
		t.Fatal(err)
	}
	si, err := p.SampleIndexByName(o.SampleIndex)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	for _, s := range p.Sample {
		if len(s.Location) == 0 {
			sum += s.Value[si]
		}
	}
	return sum
}

// checkRoot checks the whole tree's view: its root holds every sample,
// whose values sum to total: top's flat column and the samples without a
// frame (unless they are means).
func checkRoot(t *testing.T, tree *flame.Tree, total int64, mean bool) {
	t.Helper()
	v, err := tree.View(flame.Query{})
	if err != nil {
		t.Fatal(err)
	}
	if got := v.RootValue - v.RootBase; got != total && !mean {
		t.Errorf("root value %d - base %d, top's flat and the samples without a frame sum to %d", v.RootValue, v.RootBase, total)
	}
	if len(v.Frames) == 0 || v.Frames[0].Cum != v.RootValue {
		t.Errorf("view's root frame %+v, want the root value %d", v.Frames[:min(1, len(v.Frames))], v.RootValue)
	}
	checkView(t, v)
}

// checkView checks a view's geometry: children inside their parent, in
// order, one row below.
func checkView(t *testing.T, v *flame.View) {
	t.Helper()
	end := make([]int64, len(v.Frames)) // right edge of the last child seen
	for i, f := range v.Frames {
		end[i] = f.Offset
		if i == 0 {
			continue
		}
		p := v.Frames[f.Parent]
		if f.Parent >= i || (f.Depth != p.Depth+1 && f.Depth != p.Depth-1) {
			t.Fatalf("frame %d %q: parent %d at depth %d, own depth %d", i, f.Name, f.Parent, p.Depth, f.Depth)
		}
		if f.Depth > 0 && (f.Offset < end[f.Parent] || f.Offset+f.Width > p.Offset+p.Width) {
			t.Fatalf("frame %d %q [%d, +%d] outside its parent %q [%d, +%d] or overlapping a sibling",
				i, f.Name, f.Offset, f.Width, p.Name, p.Offset, p.Width)
		}
		if f.Depth > 0 {
			end[f.Parent] = f.Offset + f.Width
		}
		if f.Width < v.MinValue {
			t.Fatalf("frame %q width %d below the view's minimum %d", f.Name, f.Width, v.MinValue)
		}
	}
}

// TestTreeMatchesTop builds trees of real profiles under several report
// options and compares every frame's values with perflab top's (which
// matches go tool pprof -top).
func testTreeMatchesTop(t *testing.T, pr *reporttest.Profiles) {
	cpu := load(t, profiles.Options{}, pr.Path("cpu.pb.gz"))
	heap := load(t, profiles.Options{}, pr.Path("heap.pb.gz"))
	block := load(t, profiles.Options{}, pr.Path("block.pb.gz"))
	for _, tt := range []struct {
		name string
		p    *profile.Profile
		set  func(o *report.Options)
	}{
		{"default", cpu, func(o *report.Options) {}},
		{"focus", cpu, func(o *report.Options) { o.Focus = "cpuWork" }},
		{"ignore", cpu, func(o *report.Options) { o.Ignore = "runtime" }},
		{"hide", cpu, func(o *report.Options) { o.Hide = "main.build" }},
		{"show", cpu, func(o *report.Options) { o.Show = "main" }},
		{"show_from", cpu, func(o *report.Options) { o.ShowFrom = "main.phase" }},
		{"tagfocus", cpu, func(o *report.Options) { o.TagFocus = "worker=w0" }},
		{"tagignore", cpu, func(o *report.Options) { o.TagIgnore = "kind=cpu" }},
		{"lines", cpu, func(o *report.Options) { o.Granularity = "lines" }},
		{"files", cpu, func(o *report.Options) { o.Granularity = "files" }},
		{"filefunctions", cpu, func(o *report.Options) { o.Granularity = "filefunctions" }},
		{"addresses", cpu, func(o *report.Options) { o.Granularity = "addresses" }},
		{"noinlines", cpu, func(o *report.Options) { o.NoInlines = true }},
		{"samples", cpu, func(o *report.Options) { o.SampleIndex = "samples" }},
		{"relative", cpu, func(o *report.Options) { o.Focus = "allocWork"; o.RelativePercentages = true }},
		{"heap alloc_space", heap, func(o *report.Options) { o.SampleIndex = "alloc_space" }},
		{"heap inuse focus", heap, func(o *report.Options) { o.SampleIndex = "inuse_space"; o.Focus = "main" }},
		{"block mean", block, func(o *report.Options) { o.Mean = true }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := report.DefaultOptions()
			tt.set(&o)
			checkAgainstTop(t, tt.p, o)
		})
	}
}

// TestDiffMatchesTop checks a -diff_base tree of two real CPU profiles:
// new minus base equals top's figures for every frame, the base's values
// are those of the base profile alone, and BuildDiff agrees with Build
// on the -diff_base profile.
func testDiffMatchesTop(t *testing.T, pr *reporttest.Profiles) {
	diff := load(t, profiles.Options{Base: []string{pr.Path("cpu2.pb.gz")}, DiffBase: true}, pr.Path("cpu.pb.gz"))
	o := report.DefaultOptions()
	checkAgainstTop(t, diff, o)
	tree, err := flame.Build(diff, o)
	if err != nil {
		t.Fatal(err)
	}
	if !tree.Diff {
		t.Fatal("a -diff_base tree is not a diff")
	}
	newP, baseP := load(t, profiles.Options{}, pr.Path("cpu.pb.gz")), load(t, profiles.Options{}, pr.Path("cpu2.pb.gz"))
	baseTop := map[string]int64{}
	for _, n := range topRows(t, baseP, o).Nodes {
		baseTop[n.Name] = n.Cum
	}
	newTop := map[string]int64{}
	for _, n := range topRows(t, newP, o).Nodes {
		newTop[n.Name] = n.Cum
	}
	for _, f := range tree.Functions() {
		if f.BaseTotal != baseTop[f.Name] || f.Total != newTop[f.Name] {
			t.Errorf("%s: new %d base %d, top of the profiles alone %d and %d", f.Name, f.Total, f.BaseTotal, newTop[f.Name], baseTop[f.Name])
		}
	}
	bd, err := flame.BuildDiff(newP, baseP, o)
	if err != nil {
		t.Fatal(err)
	}
	v1, _ := tree.View(flame.Query{})
	v2, _ := bd.View(flame.Query{})
	if v1.RootValue != v2.RootValue || v1.RootBase != v2.RootBase || len(v1.Frames) != len(v2.Frames) {
		t.Errorf("BuildDiff root %d/%d with %d frames, -diff_base's %d/%d with %d",
			v2.RootValue, v2.RootBase, len(v2.Frames), v1.RootValue, v1.RootBase, len(v1.Frames))
	}
	rev, err := tree.View(flame.Query{Reverse: true, Normalize: true})
	if err != nil {
		t.Fatal(err)
	}
	if !rev.Reverse || rev.Frames[0].Width != rev.RootBase {
		t.Errorf("reverse view: reverse=%v, root width %d, want the base's %d", rev.Reverse, rev.Frames[0].Width, rev.RootBase)
	}
	if want := float64(rev.RootValue) / float64(rev.RootBase); rev.BaseScale != want {
		t.Errorf("normalized base scale %v, want %v", rev.BaseScale, want)
	}
	checkView(t, rev)
}

// TestSearchAndSandwich checks that the samples through the frames a
// search matches, and the sandwich view's centre, equal top's cum of the
// function; that zooming keeps the zoom root's value.
func testSearchAndSandwich(t *testing.T, pr *reporttest.Profiles) {
	p := load(t, profiles.Options{}, pr.Path("cpu.pb.gz"))
	o := report.DefaultOptions()
	tree, err := flame.Build(p, o)
	if err != nil {
		t.Fatal(err)
	}
	cum := map[string]int64{}
	for _, n := range topRows(t, p, o).Nodes {
		cum[n.Name] = n.Cum
	}
	for _, name := range []string{"main.cpuWork", "main.build", "runtime.mallocgc"} {
		if cum[name] == 0 {
			t.Fatalf("%s has no samples in the workload's profile", name)
		}
		v, err := tree.View(flame.Query{Search: "^" + regexp.QuoteMeta(name) + "$"})
		if err != nil {
			t.Fatal(err)
		}
		if v.SearchValue != cum[name] {
			t.Errorf("search %s matched %d, top's cum %d", name, v.SearchValue, cum[name])
		}
		var marked bool
		for _, f := range v.Frames {
			if f.Matched != (f.Name == name) {
				t.Errorf("search %s: frame %s matched=%v", name, f.Name, f.Matched)
			}
			marked = marked || f.Matched
		}
		if !marked {
			t.Errorf("search %s marked no frame", name)
		}
		s, err := tree.View(flame.Query{Sandwich: name})
		if err != nil {
			t.Fatal(err)
		}
		if s.Frames[0].Name != name || s.Frames[0].Cum != cum[name] {
			t.Errorf("sandwich %s: centre %s %d, top's cum %d", name, s.Frames[0].Name, s.Frames[0].Cum, cum[name])
		}
		var callers int64
		for _, f := range s.Frames {
			if f.Depth == -1 {
				callers += f.Width
			}
		}
		if callers > cum[name] || (callers == 0 && name != "main.cpuWork") {
			t.Errorf("sandwich %s: callers sum to %d, centre %d", name, callers, cum[name])
		}
	}
	checkZoom(t, tree)
	if _, err := tree.View(flame.Query{Search: "("}); err == nil {
		t.Error("a broken search regexp was accepted")
	}
	if _, err := tree.View(flame.Query{Sandwich: "no such frame"}); err == nil {
		t.Error("a sandwich of a missing frame was accepted")
	}
}

// checkZoom zooms three levels down the widest frames: each zoom root
// keeps its value; a path of the tree's frames past what any sample has
// stops at its longest prefix, and a path naming a frame the tree does not
// have is an error (a bad URL parameter).
func checkZoom(t *testing.T, tree *flame.Tree) {
	t.Helper()
	v, _ := tree.View(flame.Query{})
	var path []string
	for i := 1; i < len(v.Frames) && len(path) < 3; i++ {
		if v.Frames[i].Depth == len(path)+1 {
			path = append(path, v.Frames[i].Name)
			z, err := tree.View(flame.Query{Path: path})
			if err != nil {
				t.Fatal(err)
			}
			if z.Frames[0].Cum != v.Frames[i].Cum || z.Frames[0].Name != v.Frames[i].Name || len(z.Path) != len(path) {
				t.Errorf("zoom to %q: root %s %d, path %q; the frame had %d", path, z.Frames[0].Name, z.Frames[0].Cum, z.Path, v.Frames[i].Cum)
			}
			checkView(t, z)
		}
	}
	z, err := tree.View(flame.Query{Path: append(slices.Clone(path), path[0], path[0], path[0])})
	if err != nil || len(z.Path) < len(path) || !slices.Equal(z.Path[:len(path)], path) {
		t.Errorf("zoom past the tree: path %q (err %v), want a prefix starting %q", z.Path, err, path)
	}
	if _, err := tree.View(flame.Query{Path: append(path, "no such frame")}); err == nil || !strings.Contains(err.Error(), `no frame named "no such frame"`) {
		t.Errorf("zoom to a frame the tree does not have: %v", err)
	}
}

// TestUnplacedSamples checks the root against top on profiles with a
// sample that has no frame, alone and as a -diff_base profile's base (a
// real base CPU profile had one: the root was 10 ms off top's flat).
func TestUnplacedSamples(t *testing.T) {
	fn := &profile.Function{ID: 1, Name: "main.f"}
	loc := &profile.Location{ID: 1, Address: 0x10, Line: []profile.Line{{Function: fn, Line: 3}}}
	base := map[string][]string{"pprof::base": {"true"}}
	for _, tt := range []struct {
		name    string
		samples []*profile.Sample
	}{
		{"plain", []*profile.Sample{
			{Location: []*profile.Location{loc}, Value: []int64{3, 30e6}},
			{Value: []int64{1, 10e6}},
		}},
		{"diff", []*profile.Sample{
			{Location: []*profile.Location{loc}, Value: []int64{3, 30e6}},
			{Location: []*profile.Location{loc}, Value: []int64{-2, -20e6}, Label: base},
			{Value: []int64{-1, -10e6}, Label: base},
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &profile.Profile{
				SampleType: []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
				PeriodType: &profile.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 10e6,
				Function: []*profile.Function{fn}, Location: []*profile.Location{loc},
				Sample: tt.samples,
			}
			checkAgainstTop(t, p, report.DefaultOptions())
		})
	}
}
