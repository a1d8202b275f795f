package profiles

import (
	"strings"

	"github.com/google/pprof/profile"
	"github.com/ianlancetaylor/demangle"
)

// demangleOptions are pprof's default demangling options (its
// -symbolize=demangle=default): names lose their parameters, the
// parameters of enclosing functions and their template arguments. One
// option is perflab's own: a demangled name is at most 64 KiB (2^16), so
// that a hostile mangled name cannot expand without bound (the demangler
// then leaves the name as it is; pprof sets no limit).
var demangleOptions = []demangle.Option{demangle.NoParams, demangle.NoEnclosingParams, demangle.NoTemplateParams, demangle.MaxLength(16)}

// demangleNames gives the functions of p the names pprof displays, as
// pprof's symbolizer does (internal/symbolizer's Demangle with the default
// mode, which go tool pprof runs on every profile it loads, local or
// remote, after symbolization and before pruning uninteresting frames):
//
//   - a function whose Name is set and differs from its SystemName is left
//     alone: it is taken as already demangled;
//   - otherwise a mangled C++ SystemName ("_ZN3foo3barEv"), or one with an
//     extra leading '_' as on macOS, becomes its simplified demangled form
//     ("foo::bar");
//   - otherwise, if the SystemName looks like demangled C++ (see
//     looksLikeDemangledCPlusPlus), every (...) and <...> group is cut out
//     of it ("std::vector<int>::push_back(int)" becomes
//     "std::vector::push_back", and so does the Go name
//     "main.F[go.shape.func(int)]" lose its "(int)");
//   - the result, or the SystemName unchanged, becomes the Name, so a
//     function with a SystemName and no Name gets one.
func demangleNames(p *profile.Profile) {
	for _, fn := range p.Function {
		if fn.Name != "" && fn.Name != fn.SystemName {
			continue
		}
		fn.Name = displayName(fn.SystemName)
	}
}

// displayName returns the name pprof displays for a function whose
// system name is sys.
func displayName(sys string) string {
	if d := demangleFilter(sys); d != sys {
		return d
	}
	if rest, ok := strings.CutPrefix(sys, "_"); ok {
		if d := demangleFilter(rest); d != rest {
			return d
		}
	}
	if !looksLikeDemangledCPlusPlus(sys) {
		return sys
	}
	return cutGroups(cutGroups(sys, '(', ')'), '<', '>')
}

// demangleFilter returns the demangled form of name, or name itself if it
// does not demangle. The demangler panics on some malformed names (an
// index out of range on "_ZW3A00", a C++20 module name cut short); such a
// name is left as it is.
func demangleFilter(name string) (d string) {
	defer func() {
		if recover() != nil {
			d = name
		}
	}()
	return demangle.Filter(name, demangleOptions...)
}

// looksLikeDemangledCPlusPlus reports whether name seems to be a demangled
// C++ name, by pprof's heuristic: it holds "::" or any of "<>[]", but is
// neither a Java name like "Class.<init>" (".<") nor a Go method of a
// generic type like "main.(*T[...]).M" ("]).").
func looksLikeDemangledCPlusPlus(name string) bool {
	if strings.Contains(name, ".<") || strings.Contains(name, "]).") {
		return false
	}
	return strings.ContainsAny(name, "<>[]") || strings.Contains(name, "::")
}

// cutGroups removes from name every outermost group that open starts and
// close ends, nested groups included. A close with no open before it
// leaves the rest of the name as it is (pprof aborts there); an open never
// closed is kept.
func cutGroups(name string, open, close byte) string {
	var b strings.Builder
	depth, start := 0, 0 // start: the first byte not yet copied
	for i := 0; i < len(name); i++ {
		switch name[i] {
		case open:
			if depth == 0 {
				b.WriteString(name[start:i])
				start = i
			}
			depth++
		case close:
			depth--
			if depth < 0 { // unbalanced: keep the rest as it is
				b.WriteString(name[start:])
				return b.String()
			}
			if depth == 0 {
				start = i + 1
			}
		}
	}
	b.WriteString(name[start:])
	return b.String()
}
