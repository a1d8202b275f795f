package compilenotes

import "strings"

// runtimeCallees are the runtime's functions that the compiler calls for
// an allocation on the line itself, and the category of that allocation:
// a site charged to one of them (a profile that keeps runtime frames) is
// classified as the line's own allocation, not as a callee's.
var runtimeCallees = []struct{ prefix, category string }{
	{"runtime.mapassign", "map"},
	{"runtime.makemap", "map"},
	{"internal/runtime/maps.", "map"},
	{"runtime.growslice", "append"},
	{"runtime.makeslice", "unknown-size"},
	{"runtime.concatstring", "conversion"},
	{"runtime.slicebytetostring", "conversion"},
	{"runtime.stringtoslice", "conversion"},
	{"runtime.intstring", "conversion"},
	{"runtime.rawstring", "conversion"},
	{"runtime.convT", "interface"},
	{"runtime.newobject", "address"},
	{"runtime.closure", "closure"},
}

// runtimeCategory returns the category of an allocation the compiler
// made through the runtime function fn, or "".
func runtimeCategory(fn string) string {
	for _, r := range runtimeCallees {
		if strings.HasPrefix(fn, r.prefix) {
			return r.category
		}
	}
	return ""
}

// calleeHints say what a called function allocates and how that is
// usually avoided, by the function's name or its package, first match
// wins: "strconv.Itoa allocates " + hint.
var calleeHints = []struct{ prefix, hint string }{
	{"strconv.", "the string it returns: use strconv's Append functions (AppendInt, AppendFloat, AppendQuote) into a buffer you keep"},
	{"fmt.Sprint", "the string it returns: use fmt.Appendf, or strconv's Append functions for numbers, into a buffer you keep"},
	{"fmt.Errorf", "the error it returns: return a prebuilt error value on hot paths"},
	{"fmt.", "its formatting state and boxed arguments: use fmt.Fprintf to a writer you keep, or fmt.Appendf into a buffer you keep"},
	{"strings.(*Builder)", "as the builder grows: size it once with Grow, or keep and Reset one across calls"},
	{"bytes.(*Buffer)", "as the buffer grows: size it once with Grow, or keep and Reset one across calls"},
	{"strings.", "the new string it returns: append into a []byte or a strings.Builder you keep, or work on the original string (strings.EqualFold, strings.Index) instead of making a new one"},
	{"bytes.", "the new slice it returns: append into a buffer you keep"},
	{"encoding/json.", "its encoder or decoder state and output: keep one json.Encoder on the writer (or a bytes.Buffer you Reset), and decode into a value you reuse"},
	{"regexp.MustCompile", "the compiled regexp: compile it once, in a package variable"},
	{"regexp.Compile", "the compiled regexp: compile it once, in a package variable"},
	{"regexp.", "its matches: use the Index and Match methods, which allocate less than those returning strings"},
	{"sort.", "the interface value of its argument: use slices.Sort or slices.SortFunc, which take none"},
	{"errors.New", "a new error each call: make the error once, in a package variable"},
}

// calleeHint returns the hint of a site whose line calls via, which
// allocates.
func calleeHint(via string) string {
	for _, h := range calleeHints {
		if strings.HasPrefix(via, h.prefix) {
			return via + " allocates " + h.hint
		}
	}
	return via + " allocates what it returns: reuse its result across calls, or look for a variant that writes into memory you pass (perflab peek '" + shortFunc(via) + "' shows where inside it)"
}

// hintFor returns the hint of a site: its category's, or for a callee's
// allocation, one that names the callee.
func hintFor(st *Site) string {
	if st.Category == "callee" && st.Via != "" {
		return calleeHint(st.Via)
	}
	c, _ := LookupCategory(st.Category)
	return c.Hint
}
