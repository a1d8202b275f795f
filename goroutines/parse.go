package goroutines

import (
	"bytes"
	"strconv"
	"strings"
)

// header parses a goroutine header into a fresh s.g, in any of the forms
// Go 1.17 to 1.27 print:
//
//	goroutine 1 [running]:
//	goroutine 7 [chan receive, 12 minutes, locked to thread]:
//	goroutine 9 gp=0xc000007c00 m=3 mp=0xc000100008 [select (leaked)]:
//	goroutine 5 [running, labels:{"pattern": "GET /"}]:
//	goroutine 7 [running] {pattern: "GET /"}:
//
// It returns false, leaving s.g alone, if line is not a header.
func (s *Scanner) header(line []byte) bool {
	rest := line[len("goroutine "):]
	n := 0
	for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 19 || !bytes.HasSuffix(rest, []byte(":")) {
		return false
	}
	id, _ := strconv.ParseInt(string(rest[:n]), 10, 64)
	open := bytes.IndexByte(rest[n:], '[')
	if open < 0 {
		return false
	}
	inside, after, ok := cutBracket(rest[n+open+1:])
	if !ok {
		return false
	}
	s.seen(id)
	s.reset(id)
	s.states(inside)
	after = bytes.TrimSpace(bytes.TrimSuffix(after, []byte(":")))
	if len(after) > 0 && after[0] == '{' {
		s.g.Labels = parseLabels(after, s.g.Labels)
	}
	return true
}

// reset starts a new goroutine, handing it the pending panic message.
func (s *Scanner) reset(id int64) {
	g := &s.g
	*g = Goroutine{ID: id, Count: 1, Frames: g.Frames[:0], Labels: g.Labels[:0]}
	if len(s.panic) > 0 {
		g.Panic = string(s.panic)
		s.panic = s.panic[:0]
	}
	s.inPanic = false
}

// cutBracket splits "state, 3 minutes]..." at the "]" that closes the
// bracket, skipping quoted label values.
func cutBracket(b []byte) (inside, after []byte, ok bool) {
	i := indexUnquoted(b, ']')
	if i < 0 {
		return nil, nil, false
	}
	return b[:i], b[i+1:], true
}

// indexUnquoted returns the index of the first c in b outside a quoted
// (backslash-escaped) string, or -1.
func indexUnquoted(b []byte, c byte) int {
	quoted := false
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\\':
			if quoted {
				i++
			}
		case '"':
			quoted = !quoted
		case c:
			if !quoted {
				return i
			}
		}
	}
	return -1
}

// states reads the items between the brackets of a header.
func (s *Scanner) states(inside []byte) {
	first := true
	for len(inside) > 0 {
		var item []byte
		if bytes.HasPrefix(inside, []byte("labels:{")) {
			end := labelsEnd(inside[len("labels:"):])
			item, inside = inside[:len("labels:")+end], inside[len("labels:")+end:]
		} else if i := indexOutsideLabels(inside); i >= 0 {
			item, inside = inside[:i], inside[i:]
		} else {
			item, inside = inside, nil
		}
		inside = bytes.TrimPrefix(inside, []byte(", "))
		s.state(item, first)
		first = false
	}
}

// state reads one item of a header's bracket.
func (s *Scanner) state(item []byte, first bool) {
	g := &s.g
	switch {
	case first:
		if i := bytes.Index(item, []byte(" labels:{")); i >= 0 {
			// Go 1.26: "[chan receive labels:{"k": "v"}]", no comma.
			g.Labels = parseLabels(item[i+len(" labels:"):], g.Labels)
			item = item[:i]
		}
		for _, mark := range [...]string{" (scan)", " (leaked)"} {
			if i := bytes.Index(item, []byte(mark)); i >= 0 {
				g.Leaked = g.Leaked || mark == " (leaked)"
				item = append(item[:i:i], item[i+len(mark):]...)
			}
		}
		g.State = s.str(item)
	case bytes.HasSuffix(item, []byte(" minutes")):
		g.WaitMinutes, _ = strconv.Atoi(string(item[:len(item)-len(" minutes")]))
	case string(item) == "locked to thread":
		g.Locked = true
	case bytes.HasPrefix(item, []byte("labels:")):
		g.Labels = parseLabels(item[len("labels:"):], g.Labels)
	}
}

// labelsEnd returns the length of the "{...}" that starts b.
func labelsEnd(b []byte) int {
	if i := indexUnquoted(b, '}'); i >= 0 {
		return i + 1
	}
	return len(b)
}

// parseLabels appends the labels of `{"k": "v", k2: "v2"}` to ls: keys and
// values quoted (Go 1.26's header, debug=1's "# labels:") or bare.
func parseLabels(b []byte, ls []Label) []Label {
	t := string(bytes.TrimSpace(b))
	t = strings.TrimPrefix(t, "{")
	t = strings.TrimSuffix(t, "}")
	for len(ls) < 64 {
		t = strings.TrimLeft(t, " ,")
		if t == "" {
			break
		}
		var k, v string
		k, t = labelToken(t, ':')
		t = strings.TrimLeft(strings.TrimPrefix(t, ":"), " ")
		v, t = labelToken(t, ',')
		ls = append(ls, Label{Key: k, Value: v})
	}
	return ls
}

// labelToken reads a quoted or bare token ending before stop.
func labelToken(t string, stop byte) (tok, rest string) {
	if strings.HasPrefix(t, `"`) {
		if q, err := strconv.QuotedPrefix(t); err == nil {
			u, _ := strconv.Unquote(q)
			return u, t[len(q):]
		}
	}
	i := strings.IndexByte(t, stop)
	if i < 0 {
		return t, ""
	}
	return strings.TrimSpace(t[:i]), t[i:]
}

// body reads a goroutine's frames up to a blank line, the next header or
// the end of the input. Lines that fit nowhere (logs) are skipped.
func (s *Scanner) body() {
	g := &s.g
	ancestors := false
	for s.next() {
		// Dumps pasted into issues and logs are often indented, with
		// spaces for tabs: only the indentation's presence counts.
		t := bytes.TrimLeft(s.line, " \t")
		indented := len(t) < len(s.line)
		switch {
		case len(t) == 0:
			if s.eof && s.partial { // indentation, then the end
				s.cut = true
				g.Truncated = true
			}
			s.finish()
			return
		case isHeader(t), !indented && startsDump(t):
			s.unread()
			s.finish()
			return
		case ancestors:
			// GODEBUG=tracebackancestors: the creators' stacks, not this one's.
		case bytes.HasPrefix(t, []byte("[originating from goroutine ")):
			ancestors = true
		case indented && s.fileLine(t):
		case bytes.HasPrefix(t, []byte("created by ")):
			s.createdBy(t[len("created by "):])
		case bytes.HasPrefix(t, []byte("...")) && bytes.HasSuffix(t, []byte(" frames elided...")):
			n, err := strconv.Atoi(string(t[3 : len(t)-len(" frames elided...")]))
			if err != nil {
				n = 1 // "...additional frames elided..."
			}
			if g.Elided == 0 {
				g.ElidedAt = len(g.Frames)
			}
			g.Elided += n
		case isCall(t):
			s.frame(t)
		case runtimeLine(t):
		case s.eof && s.partial: // the line a cut ends in
			s.cut = true
		default:
			s.skipped++
		}
		if s.eof && s.partial && !s.cut && !s.stackEnded(t) {
			s.cut = true // the input ends mid-line, and the stack may go on
		}
	}
	g.Truncated = g.Truncated || s.cut
	s.finish()
}

// stackEnded reports whether line t, the goroutine's last, ends its stack:
// the location of its creator, or of the outermost frame of the main
// goroutine (main.main, runtime.main, runtime.goexit).
func (s *Scanner) stackEnded(t []byte) bool {
	g := &s.g
	if g.CreatedBy != nil {
		return g.CreatedBy.File != ""
	}
	n := len(g.Frames)
	if n == 0 || g.Frames[n-1].File == "" || !bytes.HasPrefix(s.line, []byte("\t")) && !bytes.HasPrefix(s.line, []byte(" ")) {
		return false
	}
	switch g.Frames[n-1].Func {
	case "main.main", "runtime.main", "runtime.goexit":
		return true
	}
	return false
}

// startsDump reports whether t is the first line of another dump: a panic
// or fatal error message, SIGQUIT's line, a goroutine profile's header or
// a data race report.
func startsDump(t []byte) bool {
	for _, p := range [...]string{"panic: ", "fatal error: ", "SIGQUIT: ", "goroutine profile: total ", "goroutineleak profile: total ", raceHeader} {
		if bytes.HasPrefix(t, []byte(p)) {
			return true
		}
	}
	return false
}

// isHeader reports whether t may be a goroutine header.
func isHeader(t []byte) bool {
	return bytes.HasPrefix(t, []byte("goroutine ")) && bytes.HasSuffix(t, []byte(":"))
}

// finish marks a goroutine whose last frame has no file line as truncated.
func (s *Scanner) finish() {
	g := &s.g
	if n := len(g.Frames); n > 0 && g.Frames[n-1].File == "" {
		g.Truncated = true
		if s.eof {
			g.Frames = g.Frames[:n-1] // cut mid-frame: keep what is whole
			g.ElidedAt = min(g.ElidedAt, n-1)
		}
	}
	if g.CreatedBy != nil && g.CreatedBy.File == "" && s.eof {
		g.Truncated = true
	}
}

// frame reads a function line, "main.example(0xc00003a710, 0x2, ...)".
func (s *Scanner) frame(line []byte) {
	open := bytes.LastIndexByte(line, '(')
	args := line[open+1 : len(line)-1]
	args = args[:min(len(args), maxArgs)]
	f := Frame{Func: s.str(line[:open])}
	switch {
	case len(args) == 0:
	case string(args) == "...":
		f.Args = "..."
	default:
		f.Args = string(args)
	}
	if n := len(s.g.Frames); n > 0 && s.g.Frames[n-1].File == "" {
		s.g.Truncated = true // a frame without its file line
	}
	if len(s.g.Frames) < maxFrames {
		s.g.Frames = append(s.g.Frames, f)
	} else {
		if s.g.Elided == 0 {
			s.g.ElidedAt = maxFrames
		}
		s.g.Elided++
	}
}

// maxFrames bounds the frames kept of one goroutine; the runtime prints at
// most 100 (plus 50 after an elision). maxName bounds a function's name
// and a file's, maxArgs the argument text kept (the runtime prints at most
// ten words): together they bound a goroutine's memory.
const (
	maxFrames = 1024
	maxName   = 4096
	maxArgs   = 1024
)

// createdBy reads "main.main in goroutine 1" after "created by ".
func (s *Scanner) createdBy(rest []byte) {
	if i := bytes.Index(rest, []byte(" in goroutine ")); i >= 0 {
		s.g.CreatorID, _ = strconv.ParseInt(string(rest[i+len(" in goroutine "):]), 10, 64)
		rest = rest[:i]
	}
	// Before Go 1.21 some creators were printed with arguments.
	if open := bytes.IndexByte(rest, '('); open > 0 && rest[len(rest)-1] == ')' {
		rest = rest[:open]
	}
	s.g.CreatedBy = &Frame{Func: s.str(rest)}
}

// fileLine reads "/src/main.go:12 +0x1d" (with " fp=... sp=... pc=..."
// at GOTRACEBACK=system and above) into the last frame or the creator.
func (s *Scanner) fileLine(b []byte) bool {
	f := s.lastFrame()
	if f == nil {
		return false
	}
	file, line, ok := s.location(b)
	if ok {
		f.File, f.Line = file, line
	}
	return ok
}

// location reads "/src/main.go:12 +0x1d", with or without what follows
// the line number (" +0x1d", " fp=... sp=... pc=...", or a part of them
// where a dump was cut). A line number too large for an int keeps its
// text in the file, "main.go:99999999999999999999", and line 0.
func (s *Scanner) location(b []byte) (file string, line int, ok bool) {
	b = b[:min(len(b), maxName)]
	if i := bytes.Index(b, []byte(" +0x")); i >= 0 {
		b = b[:i]
	} else if i := bytes.Index(b, []byte(" fp=")); i >= 0 {
		b = b[:i]
	}
	colon := bytes.LastIndexByte(b, ':')
	if colon <= 0 {
		return "", 0, false
	}
	digits := b[colon+1:]
	n := 0
	for n < len(digits) && '0' <= digits[n] && digits[n] <= '9' {
		n++
	}
	// What may follow the number once " +0x..." and " fp=..." are cut
	// off: nothing, or the start of one of them where the input ends.
	if rest := digits[n:]; n == 0 || !bytes.HasPrefix([]byte(" +0x"), rest) && !bytes.HasPrefix([]byte(" fp="), rest) {
		return "", 0, false
	}
	v, err := strconv.Atoi(string(digits[:n]))
	if err != nil { // a line number past any int
		return s.str(b[:colon+1+n]), 0, true
	}
	return s.str(b[:colon]), v, true
}

// lastFrame returns the frame or creator waiting for its file line.
func (s *Scanner) lastFrame() *Frame {
	g := &s.g
	if g.CreatedBy != nil {
		if g.CreatedBy.File == "" {
			return g.CreatedBy
		}
		return nil
	}
	if n := len(g.Frames); n > 0 && g.Frames[n-1].File == "" {
		return &g.Frames[n-1]
	}
	return nil
}

// record reads a debug=1 profile record: "3 @ 0x43d4ce 0x4062ec ..."
// followed by "# labels: {...}" and "#\t0x4a2b64\tmain.f+0x24\t/x.go:10".
func (s *Scanner) record(line []byte) bool {
	count, rest, ok := bytes.Cut(line, []byte(" @"))
	n, err := strconv.Atoi(string(count))
	if !ok || err != nil || n < 0 || (len(rest) > 0 && rest[0] != ' ') {
		return false
	}
	s.reset(0)
	s.g.Count = n
	s.g.Leaked = s.profile == "goroutineleak"
	whole := false // the last line read was a whole frame
	for s.next() {
		l := s.line
		if len(l) == 0 || l[0] != '#' {
			s.unread()
			return true
		}
		whole = false
		if lb, ok := bytes.CutPrefix(l, []byte("# labels: ")); ok {
			s.g.Labels = parseLabels(lb, s.g.Labels)
			continue
		}
		whole = s.recordFrame(l)
	}
	if s.eof && s.partial && !whole {
		s.cut = true // the input ends mid-line, in a frame or before any
		s.g.Truncated = true
	}
	return true
}

// recordFrame reads "#\t0x4a2b64\tmain.f+0x24\t/x.go:10", and reports
// whether it held a whole frame.
func (s *Scanner) recordFrame(l []byte) bool {
	parts := bytes.Split(l, []byte("\t"))
	if len(parts) < 4 {
		return false
	}
	fn := parts[2]
	if i := bytes.LastIndex(fn, []byte("+0x")); i > 0 {
		fn = fn[:i]
	}
	if len(s.g.Frames) >= maxFrames {
		if s.g.Elided == 0 {
			s.g.ElidedAt = maxFrames
		}
		s.g.Elided++
		return true
	}
	s.g.Frames = append(s.g.Frames, Frame{Func: s.str(fn)})
	return s.fileLine(parts[len(parts)-1])
}

// indexOutsideLabels returns the index of the first ", " of b that is not
// inside a labels:{...} item, or -1.
func indexOutsideLabels(b []byte) int {
	i := bytes.Index(b, []byte(", "))
	l := bytes.Index(b, []byte("labels:{"))
	if i < 0 || l < 0 || i < l {
		return i
	}
	end := l + len("labels:") + labelsEnd(b[l+len("labels:"):])
	if j := bytes.Index(b[end:], []byte(", ")); j >= 0 {
		return end + j
	}
	return -1
}

// isCall reports whether line looks like a frame's call: a function name
// (a dot in it, no space) and its arguments in parentheses. Log lines that
// happen to end in ")" do not pass.
func isCall(line []byte) bool {
	if line[len(line)-1] != ')' {
		return false
	}
	open := bytes.LastIndexByte(line, '(')
	if open <= 0 {
		return false
	}
	name := line[:open]
	return len(name) <= maxName && !bytes.ContainsAny(name, " \t\"") && (bytes.IndexByte(name, '.') > 0 || string(name) == "panic")
}
