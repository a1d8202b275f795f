package compilenotes

import "strings"

// A Category is a plain reason for heap allocations, with a short hint
// on how such allocations are usually removed.
type Category struct {
	Name  string // as -json prints it
	Title string
	Hint  string
}

// Categories is the one table of allocation categories, in the order of
// precedence when a line's notes name several.
var Categories = []Category{
	{"closure", "captured by a closure",
		"pass the value as an argument, or keep the closure from outliving the call"},
	{"too-large", "too large for the stack",
		"reuse one buffer across calls (a struct field or sync.Pool)"},
	{"unknown-size", "size not known at compile time",
		"use a constant size, or reuse a buffer sized once (a struct field or sync.Pool)"},
	{"conversion", "string/[]byte conversion or concatenation",
		"build the bytes once (append, strings.Builder) and convert once, or keep []byte throughout"},
	{"map", "map allocated or grown on the heap",
		"size the map once (make(map[K]V, n)) and reuse it with clear(m), or use a slice when the keys are small integers"},
	{"address", "address taken and outlives the call",
		"return or store a value instead of a pointer, or let the caller pass the memory in"},
	{"interface", "passed to an interface or ...any",
		"avoid boxing on hot paths: typed calls (strconv.Append*, a typed logger) instead of fmt and any"},
	{"append", "appended beyond capacity",
		"preallocate with make(T, 0, n), or reuse the slice with s[:0]"},
	{"callee", "allocated inside a called function",
		"the function the line calls allocates what it returns: reuse its result, or call a variant that writes into memory you keep (each site's hint names one)"},
	{"other", "other",
		"no compiler note on this line: often a map growing as it fills (give make a size hint, or use a slice) or a runtime call; see perflab peek and list -compiler"},
}

// LookupCategory returns the category named name.
func LookupCategory(name string) (Category, bool) {
	for _, c := range Categories {
		if c.Name == name {
			return c, true
		}
	}
	return Category{}, false
}

// rank returns the precedence of the category named name: lower first.
func rank(name string) int {
	for i, c := range Categories {
		if c.Name == name {
			return i
		}
	}
	return len(Categories)
}

// Classify returns the name of the category of an allocation the note
// explains, or "" if the note is not about allocation (inlining, bounds
// checks, copies).
func Classify(n Note) string {
	flow := strings.Join(n.Flow, "\n")
	switch n.Kind {
	case MovedToHeap:
		switch {
		case strings.Contains(flow, "captured by a closure"):
			return "closure"
		case strings.Contains(flow, "too large for stack"):
			return "too-large"
		}
		return "address"
	case NoEscape:
		return "unknown-size"
	case Escape:
		return classifyEscape(strings.TrimSuffix(n.Message, " escapes to heap"), flow)
	}
	return ""
}

// classifyEscape classifies the expression x that escapes by the way
// given in flow.
func classifyEscape(x, flow string) string {
	switch {
	case strings.Contains(flow, "too large for stack"):
		return "too-large"
	case x == "func literal" || strings.Contains(flow, "captured by a closure"):
		return "closure"
	case strings.HasPrefix(x, "make(map[") || strings.HasPrefix(x, "map["):
		return "map"
	case strings.HasPrefix(x, "make("):
		if variableSlice(x) {
			return "unknown-size"
		}
		return "address"
	case strings.HasPrefix(x, "append("):
		return "append"
	case strings.HasPrefix(x, "string(") || strings.HasPrefix(x, "([]byte)(") ||
		strings.HasPrefix(x, "([]rune)(") || strings.HasPrefix(x, "[]byte("):
		return "conversion"
	case x == "... argument" || strings.Contains(flow, "interface-converted") || strings.Contains(flow, "... argument"):
		return "interface"
	case strings.Contains(x, " + "):
		return "conversion" // a concatenation: only strings are heap allocated by +
	case strings.HasPrefix(x, "&") || strings.HasPrefix(x, "new(") || strings.HasPrefix(x, "[]"):
		return "address"
	}
	// A plain value (a name, a call, a field) gets storage of its own
	// only when converted to an interface.
	return "interface"
}

// classifyLine returns the category of an allocation made directly on a
// line with these notes: the one of highest precedence they name, or "other".
func classifyLine(notes []Note) string {
	best, unknownSize := "other", false
	for _, n := range notes {
		if n.Kind == NoEscape {
			// Such a slice lives on the stack up to a few dozen bytes:
			// the reason only if no other note explains the line.
			unknownSize = true
			continue
		}
		if c := Classify(n); c != "" && rank(c) < rank(best) {
			best = c
		}
	}
	if best == "other" && unknownSize {
		return "unknown-size"
	}
	return best
}
