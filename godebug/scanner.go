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
type Scanner struct {
	r        *bufio.Reader
	raw      []byte
	rec      Record
	err      error
	line     int
	midLine  bool // the previous chunk ended without a newline
	inDetail bool // inside a scheddetail=1 block
	bad      int
	done     bool
}

// NewScanner returns a Scanner reading from r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, maxLine)}
}

// Scan advances to the next line and reports whether there is one. It
// returns false at the end of the input or on a read error.
func (s *Scanner) Scan() bool {
	if s.done {
		return false
	}
	raw, err := s.r.ReadSlice('\n')
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		s.err = err
	}
	if len(raw) == 0 {
		s.done = true
		return false
	}
	if err == io.EOF || s.err != nil {
		s.done = true
	}
	s.raw = raw
	continued := s.midLine
	s.midLine = raw[len(raw)-1] != '\n'
	if !continued {
		s.line++
	}
	if continued || (s.midLine && !s.done) {
		s.rec = &Text{}
		s.inDetail = false
		return true
	}
	s.rec = s.parse(strings.TrimRight(string(raw), "\r\n"))
	return true
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
	s.inDetail = s.inDetail && (kind == "P" || kind == "M" || kind == "G")
	var rec Record
	var err error
	switch kind {
	case "":
		return &Text{}
	case "note":
		return note(body)
	case "gc":
		rec, err = parseGC(body)
	case "scan":
		rec, err = parseScan(body)
	case "pacer":
		rec, err = parsePacer(body)
	case "SCHED":
		var sc *Sched
		sc, err = parseSched(body)
		rec, s.inDetail = sc, err == nil && sc.Detailed
	case "P":
		rec, err = parseSchedP(body)
	case "M":
		rec, err = parseSchedM(body)
	case "G":
		rec, err = parseSchedG(body)
	}
	if err != nil {
		s.bad++
		return &SyntaxError{Line: s.line, Kind: kind, Msg: err.Error()}
	}
	return rec
}
