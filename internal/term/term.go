// Package term decides whether output is read live by a person at a
// terminal, draws a one-line progress display there, and keeps text taken
// from the input from sending the terminal control sequences (Sanitize).
//
// Progress is shown only on a terminal, and never when CI=true, so that
// piped output and CI logs hold data and messages only.
package term

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	xterm "golang.org/x/term"
)

// IsTerminal reports whether w is a terminal that a person is watching:
// an *os.File attached to a terminal, outside CI.
func IsTerminal(w io.Writer) bool {
	return os.Getenv("CI") != "true" && IsTTY(w)
}

// IsTTY reports whether w is an *os.File attached to a terminal, or a
// Sanitizer writing to one, in CI or not.
func IsTTY(w io.Writer) bool {
	f, ok := File(w)
	return ok && xterm.IsTerminal(int(f.Fd()))
}

// File returns the *os.File w writes to: w itself, or the file a
// Sanitizer writes to. Code that draws on a terminal itself (a line
// editor) needs the file, to set its mode; what it writes there from the
// input must then be escaped by the caller (see Escape).
func File(w io.Writer) (*os.File, bool) {
	if s, ok := w.(*Sanitizer); ok {
		w = s.w
	}
	f, ok := w.(*os.File)
	return f, ok
}

// A Line is a single status line that is redrawn in place. On anything that
// is not a terminal it writes nothing. Its text is escaped (see Escape);
// on a Sanitizer, its own carriage returns pass. Its methods are safe for
// concurrent use.
type Line struct {
	mu    sync.Mutex
	w     io.Writer
	on    bool
	width int // length of the text last drawn
}

// NewLine returns a status line drawn on w when w is a terminal.
func NewLine(w io.Writer) *Line {
	return &Line{w: w, on: IsTerminal(w)}
}

// Enabled reports whether the line is drawn at all.
func (l *Line) Enabled() bool { return l.on }

// Printf replaces the line's text.
func (l *Line) Printf(format string, args ...any) {
	if !l.on {
		return
	}
	text := Escape(fmt.Sprintf(format, args...))
	l.mu.Lock()
	defer l.mu.Unlock()
	pad := max(l.width-len(text), 0)
	l.draw("\r" + text + strings.Repeat(" ", pad))
	l.width = len(text)
}

// Clear erases the line, leaving the cursor at the start of it.
func (l *Line) Clear() {
	if !l.on {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.width > 0 {
		l.draw("\r" + strings.Repeat(" ", l.width) + "\r")
		l.width = 0
	}
}

// draw writes s, raw through a Sanitizer.
func (l *Line) draw(s string) {
	if sw, ok := l.w.(*Sanitizer); ok {
		sw.writeRaw([]byte(s))
		return
	}
	io.WriteString(l.w, s)
}
