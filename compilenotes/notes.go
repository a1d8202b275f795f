package compilenotes

import (
	"path/filepath"
	"sort"

	"github.com/perflab/perflab/report"
)

// A Kind is what a note says about its line.
type Kind int

// The kinds of notes, in the order a line shows them.
const (
	MovedToHeap  Kind = iota // "moved to heap: x": a variable lives on the heap
	Escape                   // "x escapes to heap": a value's storage is on the heap
	NoEscape                 // "make([]byte, n) does not escape": kept only for sizes unknown at compile time
	Inlined                  // "inlining call to F"
	CannotInline             // "cannot inline F: reason"
	BoundsCheck              // "bounds check kept" (isInBounds, isSliceInBounds)
	LargeCopy                // "large copy: N bytes"
)

var kindNames = [...]string{"moved to heap", "escape", "no escape", "inlined", "cannot inline", "bounds check", "large copy"}

// String names the kind.
func (k Kind) String() string {
	if k < 0 || int(k) >= len(kindNames) {
		return "unknown"
	}
	return kindNames[k]
}

// A Note is one of the compiler's decisions about a source position.
type Note struct {
	File    string   // absolute path of the source file
	Line    int      // 1-based
	Col     int      // 1-based byte column, 0 if unknown
	Kind    Kind     //
	Message string   // the compiler's own text, e.g. "moved to heap: u"
	Flow    []string // for escapes, the compiler's explanation of the flow, one step a line
}

// Notes indexes the compiler's notes by file and line.
type Notes struct {
	byFile map[string]map[int][]Note
}

// newNotes returns an empty index.
func newNotes() *Notes { return &Notes{byFile: map[string]map[int][]Note{}} }

// add indexes n; a note equal to one already at its position (same kind,
// column and message) is merged into it, keeping the longer flow.
func (ns *Notes) add(n Note) {
	n.File = filepath.Clean(n.File)
	lines := ns.byFile[n.File]
	if lines == nil {
		lines = map[int][]Note{}
		ns.byFile[n.File] = lines
	}
	for i, o := range lines[n.Line] {
		if o.Kind == n.Kind && o.Col == n.Col && o.Message == n.Message {
			if len(n.Flow) > len(o.Flow) {
				lines[n.Line][i].Flow = n.Flow
			}
			return
		}
	}
	lines[n.Line] = append(lines[n.Line], n)
}

// At returns the notes of file:line, ordered by column and kind. file is
// compared after filepath.Clean.
func (ns *Notes) At(file string, line int) []Note {
	if ns == nil {
		return nil
	}
	out := ns.byFile[filepath.Clean(file)][line]
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Col != out[j].Col {
			return out[i].Col < out[j].Col
		}
		return out[i].Kind < out[j].Kind
	})
	return out
}

// Files returns the files that have notes, sorted.
func (ns *Notes) Files() []string {
	var out []string
	for f := range ns.byFile {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Len returns the number of notes.
func (ns *Notes) Len() int {
	n := 0
	for _, lines := range ns.byFile {
		for _, l := range lines {
			n += len(l)
		}
	}
	return n
}

// Lines returns the notes of file:line as list -compiler prints them: one
// message a line, each escape followed by its flow, indented.
func (ns *Notes) Lines(file string, line int) []string {
	var out []string
	for _, n := range ns.At(file, line) {
		if static(n) {
			continue
		}
		out = append(out, n.Message)
		for _, f := range n.Flow {
			out = append(out, "    "+f)
		}
	}
	return out
}

var _ report.LineNoter = (*Notes)(nil)
