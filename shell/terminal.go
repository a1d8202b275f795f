package shell

import (
	"io"
	"os"
	"sort"
	"strings"

	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/settings"
	xterm "golang.org/x/term"
)

// A terminal reads lines with editing, history and completion.
type terminal struct {
	fd int
	t  *xterm.Terminal
}

// openTerminal returns a line editor on in, echoing to out, when both are
// terminals, or nil: then lines are read plainly. out may be a
// term.Sanitizer on the terminal (perflab's default there): the editor
// draws on the terminal itself, and what it draws from the profile
// (completed names) is escaped by autoComplete. As Go's pprof, a dumb
// terminal (TERM unset or "dumb") gets plain lines.
func openTerminal(in io.Reader, out io.Writer) *terminal {
	if v := strings.ToLower(os.Getenv("TERM")); v == "" || v == "dumb" {
		return nil
	}
	fin, ok := in.(*os.File)
	fout, ok2 := term.File(out)
	if !ok || !ok2 || !xterm.IsTerminal(int(fin.Fd())) || !xterm.IsTerminal(int(fout.Fd())) {
		return nil
	}
	fd := int(fin.Fd())
	state, err := xterm.MakeRaw(fd)
	if err != nil {
		return nil
	}
	xterm.Restore(fd, state)
	rw := struct {
		io.Reader
		io.Writer
	}{fin, fout}
	return &terminal{fd: fd, t: xterm.NewTerminal(rw, "(pprof) ")}
}

// readLine reads one edited line, with the terminal in raw mode only while
// the line is typed, so that reports print as usual.
func (t *terminal) readLine() (string, error) {
	state, err := xterm.MakeRaw(t.fd)
	if err != nil {
		return "", err
	}
	defer xterm.Restore(t.fd, state)
	return t.t.ReadLine()
}

// autoComplete is the terminal's completion on Tab: it completes the text
// before the cursor and keeps what follows.
func (s *Shell) autoComplete(line string, pos int, key rune) (string, int, bool) {
	if key != '\t' {
		return "", 0, false
	}
	// The editor writes the line raw: a completed name must not drive
	// the terminal.
	done := term.Escape(s.complete(line[:pos]))
	return done + line[pos:], len(done), true
}

// complete completes a line as pprof's shell does: the first word among
// the commands and options, the word after "help" likewise, and the last
// word of a report command (but tags) among the profile's function names.
func (s *Shell) complete(line string) string {
	tokens := strings.Fields(line)
	switch {
	case len(tokens) == 0:
		return line
	case len(tokens) == 1 && !strings.HasSuffix(line, " "):
		if m := matchCommandOrOption(tokens[0]); m != "" {
			return m
		}
		return line
	case len(tokens) == 2 && tokens[0] == "help":
		if m := matchCommandOrOption(tokens[1]); m != "" {
			return "help " + m
		}
		return line
	}
	cmd, _ := splitCommand(tokens[0])
	if _, ok := reports[cmd]; !ok || cmd == "tags" || strings.HasSuffix(line, " ") {
		return line
	}
	last := tokens[len(tokens)-1]
	prefix := ""
	if strings.HasPrefix(last, "-") {
		prefix, last = "-", last[1:]
	}
	tokens[len(tokens)-1] = prefix + s.completeFunction(last)
	return strings.Join(tokens, " ")
}

// matchCommandOrOption returns the one command, option or choice name
// starting with prefix, or "" if none or several do.
func matchCommandOrOption(prefix string) string {
	prefix = strings.ToLower(prefix)
	var names []string
	for name := range commandHelp {
		names = append(names, name)
	}
	names = append(names, "help", "options", "quit", "exit")
	for _, st := range settings.All() {
		names = append(names, st.Name)
		names = append(names, st.ChoiceNames()...)
	}
	sort.Strings(names)
	var match string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) {
			if match != "" {
				return ""
			}
			match = n
		}
	}
	return match
}

// completeFunction returns the one function name of the profile that
// contains sub, or sub if none or several do.
func (s *Shell) completeFunction(sub string) string {
	found := ""
	for _, fn := range s.p.Function {
		if strings.Contains(fn.Name, sub) && fn.Name != found {
			if found != "" {
				return sub
			}
			found = fn.Name
		}
	}
	if found != "" {
		return found
	}
	return sub
}
