package godebug

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// maxLine is the longest line a Scanner holds at once. Longer lines (never
// trace lines) come back as several *Text records, so memory stays bounded.
const maxLine = 64 << 10

// A Scanner reads runtime trace output line by line, as bufio.Scanner
// does, and parses each line into a Record.
//
//	s := godebug.NewScanner(r)
//	for s.Scan() {
//		switch rec := s.Result().(type) {
//		case *godebug.GC:
//			...
//		case *godebug.Text:
//			os.Stderr.Write(s.Bytes()) // the program's own output
//		}
//	}
//	if err := s.Err(); err != nil { ... }
//
// The runtime writes a trace line in many small writes, so a program that
// writes to standard error at the same time can land in the middle of one:
// "gc " + "program output\n" + "1 @0.02s 8%: ...". The Scanner mends such
// a split when the line after it completes the trace line: it returns the
// program's text as a *Text and then the whole trace record.
//
// A process that exits in the middle of a trace line leaves it without its
// end, and the next process's output, appended to the same log, goes on
// on that line: "gc 57 @0.8s 1%: 0.01+" + "gc 1 @0.002s ...". The Scanner
// returns the cut start as a malformed line and the trace line after it
// as a record of its own, so the next process's first GC is not lost.
type Scanner struct {
	r        *bufio.Reader
	raw      []byte
	rec      Record
	err      error
	line     int
	midLine  bool // the previous chunk ended without a newline
	inDetail bool // inside a scheddetail=1 block
	bad      int
	done     bool    // the reader is exhausted
	pending  []byte  // a line read ahead and put back
	queue    []ready // records made ahead, handed out first
}

// A ready is a record made ahead of its Scan call.
type ready struct {
	rec  Record
	raw  []byte
	line int
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, maxLine)}
}

// read returns the next chunk of input: a put-back line, or up to a
// newline or maxLine bytes from the reader.
func (s *Scanner) read() ([]byte, bool) {
	if p := s.pending; p != nil {
		s.pending = nil
		return p, true
	}
	if s.done {
		return nil, false
	}
	raw, err := s.r.ReadSlice('\n')
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		s.err = err
	}
	if err == io.EOF || s.err != nil {
		s.done = true
	}
	return raw, len(raw) > 0
}

// Scan advances to the next line and reports whether there is one. It
// returns false at the end of the input or on a read error.
func (s *Scanner) Scan() bool {
	if len(s.queue) > 0 {
		s.pop()
		return true
	}
	raw, ok := s.read()
	if !ok {
		return false
	}
	continued := s.midLine
	s.midLine = raw[len(raw)-1] != '\n'
	if !continued {
		s.line++
	}
	if continued || (s.midLine && (!s.done || s.pending != nil)) {
		s.rec, s.raw = &Text{}, raw
		s.inDetail = false
		return true
	}
	line := strings.TrimRight(string(raw), "\r\n")
	rec := s.parse(line)
	if s.unglue(line, raw, rec) {
		s.pop()
		return true
	}
	if !s.midLine && maybeSplit(line, rec) {
		raw = append([]byte(nil), raw...) // the read ahead reuses the buffer
		if s.mend(line, rec) {
			s.pop()
			return true
		}
	}
	s.rec, s.raw = rec, raw
	return true
}

func (s *Scanner) pop() {
	r := s.queue[0]
	s.queue = s.queue[1:]
	s.rec, s.raw, s.line = r.rec, r.raw, r.line
}

// maybeSplit reports whether line may be the start of a trace line with
// the program's output written into it.
func maybeSplit(line string, rec Record) bool {
	switch rec.(type) {
	case *Text, *SyntaxError:
	default:
		return false
	}
	for _, p := range []string{"gc ", "SCHED ", "pacer: ", "scan: "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// maxSplitPrefix bounds how much of a line can be the start of a split
// trace line; trace lines are shorter.
const maxSplitPrefix = 512

// mend tries to complete the split trace line that line starts with from
// the next line. On success it queues the program's text and the trace
// record; otherwise it puts the next line back.
func (s *Scanner) mend(line string, rec Record) bool {
	next, ok := s.read()
	if !ok {
		return false
	}
	rest := strings.TrimRight(string(next), "\r\n")
	if next[len(next)-1] != '\n' && !s.done || s.classifies(rest) {
		s.pending = append([]byte(nil), next...)
		return false
	}
	for k := min(len(line), maxSplitPrefix); k >= 3; k-- {
		kind, body := classify(line[:k]+rest, s.inDetail)
		if kind == "" || kind == "note" {
			continue
		}
		whole, err := parseKind(kind, body)
		if err != nil {
			continue
		}
		if _, bad := rec.(*SyntaxError); bad {
			s.bad--
		}
		s.queue = append(s.queue,
			ready{&Text{}, []byte(line[k:] + "\n"), s.line},
			ready{whole, append([]byte(line[:k]), next...), s.line + 1})
		s.line++
		return true
	}
	s.pending = append([]byte(nil), next...)
	return false
}

// unglue splits a malformed trace line in two where a whole gc or SCHED
// line starts inside it: the cut end of one process's trace followed by
// the next process's first line. It queues the cut start (rec, still
// counted malformed) and the record of the line after it. The cut start
// is shorter than a trace line, so only the first maxSplitPrefix bytes are
// searched.
func (s *Scanner) unglue(line string, raw []byte, rec Record) bool {
	if _, bad := rec.(*SyntaxError); !bad {
		return false
	}
	for i := min(len(line)-1, maxSplitPrefix); i > 0; i-- {
		var kind string
		switch {
		case isGCStart(line[i:]):
			kind = "gc"
		case isSchedStart(line[i:]):
			kind = "SCHED"
		default:
			continue
		}
		whole, err := parseKind(kind, line[i:])
		if err != nil {
			continue
		}
		if sc, ok := whole.(*Sched); ok && sc.Detailed {
			s.inDetail = true
		}
		raw = append([]byte(nil), raw...)
		s.queue = append(s.queue, ready{rec, raw[:i], s.line}, ready{whole, raw[i:], s.line})
		return true
	}
	return false
}

// classifies reports whether line is a trace line of its own.
func (s *Scanner) classifies(line string) bool {
	kind, _ := classify(line, s.inDetail)
	return kind != ""
}

// Result returns the record of the line Scan just read.
func (s *Scanner) Result() Record { return s.rec }

// Bytes returns the line Scan just read exactly as it came, newline
// included. It is valid until the next call to Scan.
func (s *Scanner) Bytes() []byte { return s.raw }

// Line returns the 1-based number of the line Scan just read.
func (s *Scanner) Line() int { return s.line }

// Malformed returns the number of malformed trace lines read so far.
func (s *Scanner) Malformed() int { return s.bad }

// Err returns the first read error, or nil at a clean end of input.
func (s *Scanner) Err() error { return s.err }

// parse classifies one line and parses it.
func (s *Scanner) parse(line string) Record {
	kind, body := classify(line, s.inDetail)
	// A scheddetail block ends at the next trace line of another kind;
	// the program's own lines may come in the middle of one.
	s.inDetail = s.inDetail && (kind == "P" || kind == "M" || kind == "G" || kind == "")
	switch kind {
	case "":
		return &Text{}
	case "note":
		return note(body)
	}
	rec, err := parseKind(kind, body)
	if err != nil {
		s.bad++
		return &SyntaxError{Line: s.line, Kind: kind, Msg: err.Error()}
	}
	if sc, ok := rec.(*Sched); ok && sc.Detailed {
		s.inDetail = true
	}
	return rec
}

// parseKind parses a line of a kind classify found.
func parseKind(kind, body string) (Record, error) {
	switch kind {
	case "gc":
		return parseGC(body)
	case "scan":
		return parseScan(body)
	case "pacer":
		return parsePacer(body)
	case "SCHED":
		return parseSched(body)
	case "P":
		return parseSchedP(body)
	case "M":
		return parseSchedM(body)
	case "G":
		return parseSchedG(body)
	}
	return nil, errors.New("unknown kind " + kind)
}
