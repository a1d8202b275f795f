package report

import (
	"path/filepath"
	"strconv"
	"strings"
	"unsafe"

	"github.com/perflab/perflab/internal/parallel"

	"github.com/google/pprof/profile"
)

// nodeInfo identifies a graph node: a frame at the chosen granularity. Its
// fields and their order match pprof's, because pprof breaks ties between
// equal-looking nodes by comparing this struct's default formatting.
type nodeInfo struct {
	Name      string
	OrigName  string
	Address   uint64
	File      string
	StartLine int
	Lineno    int
	Columnno  int
	Objfile   string
}

// printableName is the node's name as reports print it: address, function
// and file:line, whichever the granularity kept.
func (n *nodeInfo) printableName() string {
	var parts []string
	if n.Address != 0 {
		parts = append(parts, hex16(n.Address))
	}
	if n.Name != "" {
		parts = append(parts, n.Name)
	}
	switch {
	case n.Lineno != 0:
		s := n.File + ":" + strconv.Itoa(n.Lineno)
		if n.Columnno != 0 {
			s += ":" + strconv.Itoa(n.Columnno)
		}
		parts = append(parts, s)
	case n.File != "":
		parts = append(parts, n.File)
	case n.Name != "":
	case n.Objfile != "":
		parts = append(parts, "["+filepath.Base(n.Objfile)+"]")
	default:
		parts = append(parts, "<unknown>")
	}
	return strings.Join(parts, " ")
}

// An index is a profile in integer form: interned nodes, each location as
// a run of node IDs (innermost inlined frame first, as in the profile),
// and each sample's value; a sample's locations map to their index with
// locs, cheaply, so stacks are not copied.
type index struct {
	infos []nodeInfo
	names []string // printable names, by node ID

	locStart []int32 // location i's nodes are locNodes[locStart[i]:locStart[i+1]]
	locNodes []int32
	locOne   []int32 // location i's node if it has one, else -1

	samples []*profile.Sample
	locs    *locIndex // position of each sample's locations
	w, dw   []int64   // sample values and, for mean reports, divisors
	stats   *stats    // nodes' flat and cumulative values
}

// granularity says which parts of a frame identify a node.
type granularity struct {
	function, file, line, column, address, inlines bool
	objNames                                       bool // keep the object file name and start line
	trimPath, sourcePath                           string
	trim                                           bool // apply trimPath to file names
	// keep, if set, selects the functions whose frames get nodes of their
	// own; all other frames share node 0, which reports must not print.
	keep func(name string) bool
}

func newGranularity(o *Options, objNames, trim bool) granularity {
	g := granularity{inlines: !o.NoInlines, objNames: objNames, trimPath: o.TrimPath, sourcePath: o.SourcePath, trim: trim}
	switch o.Granularity {
	case "addresses":
		g.function, g.file, g.line, g.address = true, true, true, true
		g.column = g.inlines // pprof aggregates nothing at all in this case
	case "lines":
		g.function, g.file, g.line = true, true, true
	case "files":
		g.file = true
	case "filefunctions":
		g.function, g.file = true, true
	default:
		g.function = true
	}
	return g
}

// newIndex interns p's frames at granularity g and sums the samples'
// values selected by val.
func newIndex(p *profile.Profile, g granularity, val valuer) *index {
	ix := newFrameIndex(p, g)
	ix.addSamples(p.Sample, val)
	return ix
}

// newFrameIndex interns p's frames at granularity g, without the samples:
// names, locStart, locNodes and locs are set.
func newFrameIndex(p *profile.Profile, g granularity) *index {
	ix := &index{}
	ix.addLocations(p, &g)
	ix.names = make([]string, len(ix.infos))
	for i := range ix.infos {
		ix.names[i] = ix.infos[i].printableName()
	}
	ix.locs = newLocIndex(p.Location)
	ix.locOne = make([]int32, len(ix.locStart)-1)
	for loc := range ix.locOne {
		ix.locOne[loc] = -1
		if ix.locStart[loc+1]-ix.locStart[loc] == 1 {
			ix.locOne[loc] = ix.locNodes[ix.locStart[loc]]
		}
	}
	return ix
}

// addLocations interns the nodes of every location's lines.
func (ix *index) addLocations(p *profile.Profile, g *granularity) {
	ids := make(map[nodeInfo]int32, len(p.Function))
	intern := func(ni nodeInfo) int32 {
		id, ok := ids[ni]
		if !ok {
			id = int32(len(ix.infos))
			ids[ni] = id
			ix.infos = append(ix.infos, ni)
		}
		return id
	}
	fns := make(map[*profile.Function]fnKey, len(p.Function))
	if g.keep != nil {
		intern(nodeInfo{Name: "(other functions)"})
	}
	ix.locStart = make([]int32, 0, len(p.Location)+1)
	for _, l := range p.Location {
		ix.locStart = append(ix.locStart, int32(len(ix.locNodes)))
		var objfile string
		if l.Mapping != nil {
			objfile = l.Mapping.File
		}
		addr := l.Address
		if !g.address {
			addr = 0
		}
		lines := l.Line
		if !g.inlines && len(lines) > 1 {
			lines = lines[len(lines)-1:]
		}
		if len(lines) == 0 {
			ix.locNodes = append(ix.locNodes, intern(nodeInfo{Address: addr, Objfile: objfile}))
			continue
		}
		for _, ln := range lines {
			ni := nodeInfo{Address: addr, Objfile: objfile}
			if f := ln.Function; f != nil {
				if g.keep != nil && !g.keep(f.Name) {
					ix.locNodes = append(ix.locNodes, 0)
					continue
				}
				k, ok := fns[f]
				if !ok {
					k = g.funcKey(f)
					fns[f] = k
				}
				ni.Name, ni.File = k.name, k.file
				ni.Lineno, ni.Columnno = g.lineOf(ln)
				if g.objNames || ni.Name == "" {
					ni.StartLine = int(f.StartLine)
				} else {
					ni.Objfile = ""
				}
			}
			ix.locNodes = append(ix.locNodes, intern(ni))
		}
	}
	ix.locStart = append(ix.locStart, int32(len(ix.locNodes)))
}

// lineOf returns the line and column a node keeps of ln.
func (g *granularity) lineOf(ln profile.Line) (line, column int) {
	if g.line {
		line = int(ln.Line)
	}
	if g.column {
		column = int(ln.Column)
	}
	return line, column
}

// fnKey is the part of a node taken from its function.
type fnKey struct{ name, file string }

// funcKey returns the name and file a node of function f carries.
func (g *granularity) funcKey(f *profile.Function) fnKey {
	var k fnKey
	if g.function {
		k.name = f.Name
	}
	if g.file && f.Filename != "" {
		name := f.Filename
		if g.trim {
			name = trimPath(name, g.trimPath, g.sourcePath)
		}
		if name != "" {
			k.file = filepath.Clean(name)
		}
	}
	return k
}

// A locIndex maps a sample's locations to their position in
// Profile.Location. When the locations lie in one array, in order (as the
// decoder allocates them), the position follows from the pointer alone,
// which spares a cache miss per frame on large profiles; otherwise it is
// looked up by ID: in a slice when IDs are dense, as Go writes them, else
// in a map.
type locIndex struct {
	base, span uintptr // the locations' array, when they form one
	dense      []int32
	sparse     map[uint64]int32
}

const locSize = unsafe.Sizeof(profile.Location{})

func newLocIndex(locs []*profile.Location) *locIndex {
	li := &locIndex{}
	if len(locs) > 0 {
		base := uintptr(unsafe.Pointer(locs[0]))
		inArray := true
		for i, l := range locs {
			if uintptr(unsafe.Pointer(l)) != base+uintptr(i)*locSize {
				inArray = false
				break
			}
		}
		if inArray {
			li.base, li.span = base, uintptr(len(locs))*locSize
		}
	}
	var max uint64
	for _, l := range locs {
		if l.ID > max {
			max = l.ID
		}
	}
	if max <= uint64(4*len(locs)+1024) {
		li.dense = make([]int32, max+1)
		for i := range li.dense {
			li.dense[i] = -1
		}
		for i, l := range locs {
			li.dense[l.ID] = int32(i)
		}
		return li
	}
	li.sparse = make(map[uint64]int32, len(locs))
	for i, l := range locs {
		li.sparse[l.ID] = int32(i)
	}
	return li
}

// get returns the position of l, or -1 if it is not in the table.
func (li *locIndex) get(l *profile.Location) int32 {
	if off := uintptr(unsafe.Pointer(l)) - li.base; li.span != 0 && off < li.span && off%locSize == 0 {
		return int32(off / locSize)
	}
	id := l.ID
	if li.dense != nil {
		if id < uint64(len(li.dense)) {
			return li.dense[id]
		}
		return -1
	}
	if i, ok := li.sparse[id]; ok {
		return i
	}
	return -1
}

// addSamples records every sample's value and sums the nodes' values.
// Large profiles are split between goroutines, each summing into its own
// arrays.
func (ix *index) addSamples(samples []*profile.Sample, val valuer) {
	ix.samples = samples
	li := ix.locs
	ix.w = make([]int64, len(samples))
	if val.div >= 0 {
		ix.dw = make([]int64, len(samples))
	}
	parts := parallel.Split(len(samples), parallelMin)
	sts := make([]*stats, len(parts))
	parallel.Run(parts, func(p int, lo, hi int) {
		sts[p] = ix.scanSamples(samples, lo, hi, li, val)
	})
	ix.stats = sts[0]
	for _, st := range sts[1:] {
		ix.stats.negative = ix.stats.negative || st.negative
		for n := range st.flat {
			ix.stats.flat[n] += st.flat[n]
			ix.stats.flatDiv[n] += st.flatDiv[n]
			ix.stats.cum[n] += st.cum[n]
			ix.stats.cumDiv[n] += st.cumDiv[n]
		}
	}
}

// scanSamples indexes samples[lo:hi]: a sample adds to the cumulative
// value of each node on its stack once, however often the node recurs, and
// to the flat value of its innermost frame.
func (ix *index) scanSamples(samples []*profile.Sample, lo, hi int, li *locIndex, val valuer) *stats {
	nn := len(ix.infos)
	st := &stats{flat: make([]int64, nn), flatDiv: make([]int64, nn), cum: make([]int64, nn), cumDiv: make([]int64, nn)}
	stamp := make([]int32, nn)
	for si := lo; si < hi; si++ {
		s := samples[si]
		w, dw := val.get(s.Value)
		if w < 0 || dw < 0 {
			st.negative = true
		}
		ix.w[si] = w
		if ix.dw != nil {
			ix.dw[si] = dw
		}
		if w == 0 && dw == 0 {
			continue
		}
		mark := int32(si + 1)
		leaf := int32(-1)
		for _, l := range s.Location {
			loc := li.get(l)
			if loc < 0 {
				continue
			}
			if n := ix.locOne[loc]; n >= 0 { // most locations: one node
				if leaf < 0 {
					leaf = n
				}
				if stamp[n] != mark {
					stamp[n] = mark
					st.cum[n] += w
					st.cumDiv[n] += dw
				}
				continue
			}
			nodes := ix.locNodes[ix.locStart[loc]:ix.locStart[loc+1]]
			if leaf < 0 {
				leaf = nodes[0]
			}
			for _, n := range nodes {
				if stamp[n] != mark {
					stamp[n] = mark
					st.cum[n] += w
					if dw != 0 {
						st.cumDiv[n] += dw
					}
				}
			}
		}
		if leaf >= 0 {
			st.flat[leaf] += w
			st.flatDiv[leaf] += dw
		}
	}
	return st
}

// trimPath removes from a source path the prefixes -trim_path lists or,
// without -trim_path, everything up to a directory named like one of the
// -source_path entries, as pprof does before looking for the file.
func trimPath(path, trim, search string) string {
	sPath, search := filepath.ToSlash(path), filepath.ToSlash(search)
	if trim == "" {
		for _, dir := range filepath.SplitList(search) {
			want := "/" + filepath.Base(dir) + "/"
			if i := strings.Index(sPath, want); i != -1 {
				return path[i+len(want):]
			}
		}
	}
	prefixes := append(filepath.SplitList(filepath.ToSlash(trim)), "/proc/self/cwd/./", "/proc/self/cwd/")
	for _, pre := range prefixes {
		if !strings.HasSuffix(pre, "/") {
			pre += "/"
		}
		if strings.HasPrefix(sPath, pre) {
			return path[len(pre):]
		}
	}
	return path
}

// hex16 formats an address as pprof's node names do: 16 hex digits.
func hex16(a uint64) string {
	const digits = "0123456789abcdef"
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = digits[a&15]
		a >>= 4
	}
	return string(b[:])
}

// weight returns sample si's value and, for mean reports, its divisor (0
// otherwise).
func (ix *index) weight(si int) (w, dw int64) {
	if ix.dw != nil {
		dw = ix.dw[si]
	}
	return ix.w[si], dw
}
