package report

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sort"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/disasm"
)

// An asmSymbol is a function of a binary matching the report's regexp,
// with the profile's nodes inside it.
type asmSymbol struct {
	sym    disasm.Sym
	bin    *disasm.Binary
	offset uint64  // profile address minus binary address
	nodes  []int32 // sampled nodes in the symbol, by address
}

// matchSymbols opens the binaries of the mappings that hold matching
// sampled frames (or the address the regexp names) and returns their
// matching symbols, as pprof's symbolsFromBinaries; a binary that cannot
// be opened or does not match the profile is an error.
func matchSymbols(p *profile.Profile, ix *index, rx *regexp.Regexp, address *uint64, d DisasmOptions) ([]*asmSymbol, error) {
	sampled := sampledNodes(ix)
	files := map[string]bool{}
	for _, n := range sampled {
		if in := &ix.infos[n]; in.Objfile != "" && rx.MatchString(ix.names[n]) {
			files[in.Objfile] = true
		}
	}
	var out []*asmSymbol
	for _, m := range p.Mapping {
		if !files[m.File] && (address == nil || *address < m.Start || *address > m.Limit) {
			continue
		}
		b, err := d.Cache.Open(m.File)
		if err != nil {
			return nil, err
		}
		var offset uint64
		if m.Start != 0 {
			if load, ok := b.LoadAddress(); ok {
				offset = m.Start - load
			}
		}
		if err := checkBinary(p, m, b, offset); err != nil {
			return nil, err
		}
		out = append(out, mappingSymbols(b, offset, ix, sampled, rx, address)...)
	}
	return out, nil
}

// mappingSymbols returns b's symbols matching rx (and containing address,
// unless it is nil or 0) with their sampled nodes. Without an address,
// symbols without samples, which pprof would match and then drop, are
// left out before the (costlier) regexp match.
func mappingSymbols(b *disasm.Binary, offset uint64, ix *index, sampled []int32, rx *regexp.Regexp, address *uint64) []*asmSymbol {
	var addr uint64
	if address != nil {
		addr = *address
	}
	var out []*asmSymbol
	for _, sym := range b.Symbols(nil) {
		if addr != 0 && !(sym.Addr <= addr && addr < sym.Addr+sym.Size) {
			continue
		}
		s := &asmSymbol{sym: sym, bin: b, offset: offset}
		s.nodes = nodesIn(s, ix, sampled)
		if (len(s.nodes) > 0 || address != nil) && rx.MatchString(sym.Name) {
			out = append(out, s)
		}
	}
	return out
}

// sampledNodes returns the nodes that carry samples, by address.
func sampledNodes(ix *index) []int32 {
	st := ix.stats
	var out []int32
	for n := range ix.infos {
		if st.cum[n] != 0 || st.cumDiv[n] != 0 || st.flat[n] != 0 {
			out = append(out, int32(n))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return ix.infos[out[i]].Address < ix.infos[out[j]].Address })
	return out
}

// nodesIn returns the sampled nodes within s's [start, end-1), pprof's
// range for a symbol (it leaves out the last byte).
func nodesIn(s *asmSymbol, ix *index, sampled []int32) []int32 {
	lo, hi := s.sym.Addr+s.offset, s.sym.Addr+s.sym.Size-1+s.offset
	i := sort.Search(len(sampled), func(i int) bool { return ix.infos[sampled[i]].Address >= lo })
	j := i
	for j < len(sampled) && ix.infos[sampled[j]].Address < hi {
		j++
	}
	return sampled[i:j:j]
}

// checkBinary reports a binary that is not the one the profile was taken
// of: a different build ID, or a sampled address whose source line in the
// binary differs from the profile's.
func checkBinary(p *profile.Profile, m *profile.Mapping, b *disasm.Binary, offset uint64) error {
	if m.BuildID != "" && b.BuildID != "" && m.BuildID != b.BuildID {
		return &disasm.BinaryError{Path: b.Path, Err: fmt.Errorf("build ID %s does not match the profile's %s", b.BuildID, m.BuildID)}
	}
	for _, l := range p.Location {
		if l.Mapping != m || len(l.Line) == 0 || l.Line[0].Function == nil {
			continue
		}
		// The profile's frames come from the binary's own line table,
		// whose innermost (inlined) position must be the same; code
		// without Go line information (C) proves nothing.
		want := l.Line[0]
		file, line, _ := b.Line(l.Address - offset)
		if line == 0 || want.Line == 0 {
			continue
		}
		// Only the line is compared: for inlined code, debug/gosym may
		// name the caller's file where the runtime names the callee's.
		if int64(line) != want.Line {
			return &disasm.BinaryError{Path: b.Path, Err: fmt.Errorf("does not match the profile: address %#x is at %s:%d in the binary but at %s:%d (%s) in the profile",
				l.Address, filepath.Base(file), line, filepath.Base(want.Function.Filename), want.Line, want.Function.Name)}
		}
	}
	return nil
}

// sortAsmSymbols orders symbols as pprof prints them: by name, then by
// address.
func sortAsmSymbols(syms []*asmSymbol) {
	sort.SliceStable(syms, func(i, j int) bool {
		a, b := syms[i], syms[j]
		if a.sym.Name != b.sym.Name {
			return a.sym.Name < b.sym.Name
		}
		return a.sym.Addr < b.sym.Addr
	})
}
