package compilenotes

import (
	"bufio"
	"io"
	"path/filepath"
	"strconv"
	"strings"
)

// ParseText reads the compiler's -m output, as go build prints it on
// standard error ("./file.go:12:6: moved to heap: u"), and returns the
// notes the JSON diagnostics lack: variables moved to heap, calls inlined,
// and slices of a size unknown at compile time that do not escape (they
// are still heap allocated when larger than a small stack buffer).
// Relative file names are taken relative to dir.
func ParseText(r io.Reader, dir string) ([]Note, error) {
	var notes []Note
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	for sc.Scan() {
		if n, ok := parseTextLine(sc.Text(), dir); ok {
			notes = append(notes, n)
		}
	}
	return notes, sc.Err()
}

// parseTextLine parses one line of -m output, if it is a note ParseText keeps.
func parseTextLine(line, dir string) (Note, bool) {
	var n Note
	// FILE:LINE:COL: MESSAGE; FILE may hold colons (Windows drives).
	rest, msg, ok := strings.Cut(line, ": ")
	for ok && strings.Count(rest, ":") < 2 {
		var more string
		more, msg, ok = strings.Cut(msg, ": ")
		rest += ": " + more
	}
	if !ok {
		return n, false
	}
	i := strings.LastIndexByte(rest, ':')
	j := strings.LastIndexByte(rest[:i], ':')
	if j <= 0 {
		return n, false
	}
	lineNo, err1 := strconv.Atoi(rest[j+1 : i])
	col, err2 := strconv.Atoi(rest[i+1:])
	if err1 != nil || err2 != nil || lineNo <= 0 {
		return n, false
	}
	file := rest[:j]
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	n = Note{File: file, Line: lineNo, Col: col, Message: msg}
	switch {
	case strings.HasPrefix(msg, "moved to heap: "):
		n.Kind = MovedToHeap
	case strings.HasPrefix(msg, "inlining call to "):
		n.Kind = Inlined
	case strings.HasSuffix(msg, " does not escape") && variableSlice(msg):
		n.Kind = NoEscape
	default:
		return n, false
	}
	return n, true
}

// variableSlice reports whether msg begins with a make of a slice whose
// size is not a constant: "make([]byte, n)".
func variableSlice(msg string) bool {
	return strings.HasPrefix(msg, "make([]") && !constantMake(msg)
}

// constantMake reports whether the make expression that msg begins with
// has only constant sizes: "make([]byte, 64)" but not "make([]byte, n)".
func constantMake(msg string) bool {
	args := sizeArgs(msg)
	for _, a := range args {
		if _, err := strconv.ParseInt(strings.TrimSpace(a), 0, 64); err != nil {
			return false
		}
	}
	return true
}

// sizeArgs returns the size arguments of the make expression that msg
// begins with: everything after the type, split at top-level commas.
func sizeArgs(msg string) []string {
	depth, start := 0, -1
	var args []string
	for i := len("make("); i < len(msg); i++ {
		switch msg[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if start >= 0 {
					args = append(args, msg[start:i])
				}
				return args
			}
			depth--
		case ',':
			if depth == 0 {
				if start >= 0 {
					args = append(args, msg[start:i])
				}
				start = i + 1
			}
		}
	}
	return nil
}
