package report

import (
	"fmt"
	"io"
)

// writeLineNotes writes the Options.LineNotes of file:line under its
// source line, indented to the source column and marked with "|", so
// that they read as notes and never as source.
func (r *run) writeLineNotes(w io.Writer, file string, line int) {
	if r.o.LineNotes == nil {
		return
	}
	for _, n := range r.o.LineNotes.Lines(file, line) {
		fmt.Fprintf(w, "%10s %10s %6s | %s\n", "", "", "", n)
	}
}
