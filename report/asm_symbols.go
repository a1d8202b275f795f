package report

import (
	"fmt"
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
		if err := checkBinary(m, b, ix, sampled, offset); err != nil {
			return nil, err
		}
		var addr uint64
		if address != nil {
			addr = *address
		}
		for _, s := range b.Symbols(rx.MatchString) {
			if addr == 0 || s.Addr <= addr && addr < s.Addr+s.Size {
				out = append(out, &asmSymbol{sym: s, bin: b, offset: offset})
			}
		}
	}
	assignNodes(out, ix, sampled)
	return out, nil
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

// assignNodes gives each symbol the sampled nodes within [start, end-1),
// pprof's range for a symbol (it leaves out the last byte).
func assignNodes(syms []*asmSymbol, ix *index, sampled []int32) {
	for _, s := range syms {
		lo, hi := s.sym.Addr+s.offset, s.sym.Addr+s.sym.Size-1+s.offset
		i := sort.Search(len(sampled), func(i int) bool { return ix.infos[sampled[i]].Address >= lo })
		for ; i < len(sampled) && ix.infos[sampled[i]].Address < hi; i++ {
			s.nodes = append(s.nodes, sampled[i])
		}
	}
}

// checkBinary reports a binary that is not the one the profile was taken
// of: a different build ID, or sampled addresses that fall in other
// functions than the profile says.
func checkBinary(m *profile.Mapping, b *disasm.Binary, ix *index, sampled []int32, offset uint64) error {
	if m.BuildID != "" && b.BuildID != "" && m.BuildID != b.BuildID {
		return &disasm.BinaryError{Path: b.Path, Err: fmt.Errorf("build ID %s does not match the profile's %s", b.BuildID, m.BuildID)}
	}
	var good, bad int
	var example string
	for _, n := range sampled {
		in := &ix.infos[n]
		if in.Objfile != m.File || in.Name == "" || in.Address < m.Start || in.Address >= m.Limit {
			continue
		}
		_, _, fn := b.Line(in.Address - offset)
		if fn == in.Name {
			good++
			continue
		}
		if bad++; example == "" {
			example = fmt.Sprintf("address %#x is in %q in the binary but in %q in the profile", in.Address, fn, in.Name)
		}
	}
	if bad > good {
		return &disasm.BinaryError{Path: b.Path, Err: fmt.Errorf("does not match the profile: %s", example)}
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
