package godebug

import "strings"

// classify tells which kind of trace line line is, if any, and returns
// the part of it to parse. inDetail says whether a scheddetail=1 block is
// open, the only place P, M and G lines are recognised. The kind is "" for
// a line that is not trace output.
func classify(line string, inDetail bool) (kind, body string) {
	switch {
	case isGCStart(line):
		return "gc", line
	case strings.HasPrefix(line, "scan: "):
		return "scan", line
	case strings.HasPrefix(line, "pacer: "):
		return "pacer", line
	case isSchedStart(line):
		return "SCHED", line
	case line == "GC forced", strings.HasPrefix(line, "scvg"), isScav(line):
		return "note", line
	}
	if inDetail {
		t := strings.TrimLeft(line, " ")
		if len(t) < len(line) && len(t) > 1 && isDigit(t[1]) {
			switch t[0] {
			case 'P', 'M', 'G':
				return t[:1], line
			}
		}
	}
	// Logs often put a timestamp or a tag before each line.
	if i := strings.Index(line, " gc "); i >= 0 && isGCStart(line[i+1:]) {
		return "gc", line[i+1:]
	}
	if i := strings.Index(line, " SCHED "); i >= 0 && isSchedStart(line[i+1:]) {
		return "SCHED", line[i+1:]
	}
	return "", line
}

// isGCStart reports whether s starts like a gctrace line: "gc N @".
func isGCStart(s string) bool {
	return numberThen(s, "gc ", " @")
}

// isSchedStart reports whether s starts like a schedtrace line: "SCHED Nms: ".
func isSchedStart(s string) bool {
	return numberThen(s, "SCHED ", "ms: ")
}

// isScav reports whether s is a scavenger line: "scav N KiB work...".
func isScav(s string) bool {
	return numberThen(s, "scav ", " KiB")
}

// numberThen reports whether s is prefix, a decimal number, then suffix.
func numberThen(s, prefix, suffix string) bool {
	if !strings.HasPrefix(s, prefix) {
		return false
	}
	s = s[len(prefix):]
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return i > 0 && strings.HasPrefix(s[i:], suffix)
}

func isDigit(b byte) bool { return '0' <= b && b <= '9' }

func note(line string) *Note {
	switch {
	case line == "GC forced":
		return &Note{Kind: "forced", Text: line}
	default:
		return &Note{Kind: "scavenger", Text: line}
	}
}
