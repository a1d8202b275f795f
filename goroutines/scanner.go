package goroutines

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// DefaultMaxLine is the longest line a Scanner accepts: no line of a Go
// traceback comes near it, and a longer one means the input is not a dump.
const DefaultMaxLine = 1 << 20

// maxInterned bounds the memory of the names a Scanner shares between
// goroutines, each counted with the entry that holds it (internEntry): a
// program's functions and files take far less.
const maxInterned = 32 << 20

// internEntry is what a name costs in the intern table besides its bytes:
// a million short distinct names used to take three times maxInterned.
const internEntry = 64

// ErrLineTooLong is the error of a Scanner that met a line longer than its
// MaxLine.
var ErrLineTooLong = errors.New("line too long for a goroutine dump")

// A Scanner reads goroutines from a panic, a fatal error, a SIGQUIT or
// GOTRACEBACK dump, runtime.Stack or debug=2 text, or a debug=1 goroutine
// profile, one at a time, in the manner of bufio.Scanner: call Scan until
// it returns false, read each goroutine with Goroutine, then check Err.
// Lines that belong to no goroutine (program logs, registers, signal
// details) are skipped and counted. Memory is bounded by the longest line
// and the largest goroutine, whatever the input's length.
type Scanner struct {
	// MaxLine bounds a line's length; 0 means DefaultMaxLine. Set it
	// before the first Scan.
	MaxLine int

	r       *bufio.Reader
	line    []byte // the current line, without its end of line
	long    []byte // storage for a line longer than r's buffer
	pending bool   // line is read but not consumed
	lineNo  int
	bytes   int64
	partial bool // the last line had no end of line
	eof     bool
	err     error

	g        Goroutine
	intern   map[string]string
	interned int    // bytes in intern
	panic    []byte // the message of a "panic:" or "fatal error:" not yet given to a goroutine
	inPanic  bool   // the lines being read continue the panic message
	profile  string // "goroutine" or "goroutineleak" inside a debug=1 profile
	total    int    // the total a debug=1 profile's header announces
	skipped  int
	saw      bool // a line that belongs to a dump was seen
	cut      bool // the input ended inside a goroutine, mid-line (see Cut)

	snapshot int            // the current snapshot (see Snapshot)
	inSnap   int            // goroutines read in it
	ids      map[int64]bool // their ids, to see a second dump start
	race     *Race          // the race report the last Scan read, or nil
}

// NewScanner returns a Scanner reading r.
func NewScanner(r io.Reader) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, 64<<10), intern: make(map[string]string)}
}

// Goroutine returns the goroutine the last Scan read. It and its slices
// are overwritten by the next call to Scan; copy what must be kept (see
// Goroutine.Clone). Function names and files are shared and never change.
func (s *Scanner) Goroutine() *Goroutine { return &s.g }

// Err returns the first error other than io.EOF, wrapped with the line
// number: a read error, or ErrLineTooLong.
func (s *Scanner) Err() error { return s.err }

// Skipped returns the number of lines that belonged to no goroutine.
func (s *Scanner) Skipped() int { return s.skipped }

// Lines returns the number of lines read so far.
func (s *Scanner) Lines() int { return s.lineNo }

// Bytes returns the number of bytes read so far.
func (s *Scanner) Bytes() int64 { return s.bytes }

// EndsMidLine reports whether the input ended without an end of line, as a
// dump cut short does, but also a whole dump saved without its last end of
// line (see Cut).
func (s *Scanner) EndsMidLine() bool { return s.partial }

// Cut reports whether the input ended mid-line inside a goroutine whose
// stack was not whole: the last line could not be read, or it was not
// the end of a stack (a "created by" location, or the location of
// main.main, runtime.main or runtime.goexit). A dump saved without its
// last end of line is not cut.
func (s *Scanner) Cut() bool { return s.cut }

// Snapshot returns the number of the dump the last goroutine read belongs
// to, from 0: an input may hold several (a program that panicked twice, a
// log with two SIGQUIT dumps). A new one starts at a panic or fatal error
// message, a "SIGQUIT: quit" line or a goroutine profile's header that
// follows goroutines, and at a goroutine id seen before in the current one.
func (s *Scanner) Snapshot() int { return s.snapshot }

// Race returns the data race report the last Scan read, or nil when it
// read a goroutine. It is overwritten by the next call to Scan.
func (s *Scanner) Race() *Race { return s.race }

// ProfileTotal returns the total a debug=1 goroutine profile's first line
// announces ("goroutine profile: total 6"), or -1 if none was read.
func (s *Scanner) ProfileTotal() int {
	if s.profile == "" {
		return -1
	}
	return s.total
}

// Clone returns a deep copy of g, which Scan does not overwrite.
func (g *Goroutine) Clone() *Goroutine {
	c := *g
	c.Frames = append([]Frame(nil), g.Frames...)
	c.Labels = append([]Label(nil), g.Labels...)
	if g.CreatedBy != nil {
		cb := *g.CreatedBy
		c.CreatedBy = &cb
	}
	return &c
}

// next reads the next line into s.line; false at the end or on error.
func (s *Scanner) next() bool {
	if s.pending {
		s.pending = false
		return true
	}
	if s.eof || s.err != nil {
		return false
	}
	max := s.MaxLine
	if max <= 0 {
		max = DefaultMaxLine
	}
	s.long = s.long[:0]
	for {
		b, err := s.r.ReadSlice('\n')
		s.bytes += int64(len(b))
		if err == bufio.ErrBufferFull || len(s.long) > 0 {
			if len(s.long)+len(b) > max {
				s.err = fmt.Errorf("line %d: %w (over %d bytes)", s.lineNo+1, ErrLineTooLong, max)
				return false
			}
			s.long = append(s.long, b...)
			if err == bufio.ErrBufferFull {
				continue
			}
			b = s.long
		}
		if err != nil && err != bufio.ErrBufferFull {
			s.eof = true
			if err != io.EOF {
				s.err = fmt.Errorf("line %d: %w", s.lineNo+1, err)
				return false
			}
			if len(b) == 0 {
				return false
			}
			s.partial = true
		}
		s.lineNo++
		b = bytes.TrimSuffix(b, []byte{'\n'})
		s.line = bytes.TrimSuffix(b, []byte{'\r'})
		return true
	}
}

// unread makes the current line the next one.
func (s *Scanner) unread() { s.pending = true }

// str interns b.
func (s *Scanner) str(b []byte) string {
	if v, ok := s.intern[string(b)]; ok {
		return v
	}
	v := string(b)
	if s.interned+len(v)+internEntry > maxInterned { // bounded: a hostile input of distinct names
		return v
	}
	s.interned += len(v) + internEntry
	s.intern[v] = v
	return v
}

// Scan reads the next goroutine, or data race report (see Race). It
// returns false at the end of the input or on an error (see Err).
func (s *Scanner) Scan() bool {
	s.race = nil
	for s.next() {
		line := s.line
		t := bytes.TrimLeft(line, " \t")
		switch {
		case len(t) == 0:
			s.inPanic = false
		case bytes.HasPrefix(t, []byte("goroutine ")) && s.header(t):
			s.saw = true
			s.inSnap++
			s.body()
			return true
		case s.profile != "" && s.record(line):
			s.saw = true
			s.inSnap++
			return true
		case string(t) == raceHeader:
			s.saw = true
			s.readRace()
			return true
		case s.preamble(line, t):
			s.saw = true
		default:
			s.skipped++
		}
	}
	return false
}

// newSnapshot starts the next dump of the input, if goroutines were read
// in the current one.
func (s *Scanner) newSnapshot() {
	if s.inSnap == 0 {
		return
	}
	s.snapshot++
	s.inSnap = 0
	clear(s.ids)
}

// seen records goroutine id in the current snapshot; an id seen before
// starts a new one. Goroutine 0 (each thread's g0 in a crash) and
// profile records, which have no id, do not count.
func (s *Scanner) seen(id int64) {
	if id == 0 {
		return
	}
	if s.ids == nil {
		s.ids = make(map[int64]bool)
	}
	if s.ids[id] {
		s.newSnapshot()
	}
	s.ids[id] = true
}

// preamble reads a line that comes before the goroutines: a panic or
// fatal error message and its continuation, a profile's header, or one of
// the runtime's lines around a crash, which carry nothing to group.
func (s *Scanner) preamble(line, t []byte) bool {
	if s.inPanic && (line[0] == '\t' || line[0] == '[') {
		s.addPanic(line) // "\tpanic: again", "[signal SIGSEGV: ...]"
		return true
	}
	if bytes.HasPrefix(line, []byte("SIGQUIT: ")) {
		s.newSnapshot() // another SIGQUIT dump
		return true
	}
	for _, p := range [...]string{"panic: ", "fatal error: ", "fatal: "} {
		if bytes.HasPrefix(t, []byte(p)) {
			if !s.inPanic {
				s.newSnapshot() // another panic
				s.panic = s.panic[:0]
			}
			s.addPanic(t)
			s.inPanic = true
			return true
		}
	}
	for _, p := range [...]string{"goroutine profile: total ", "goroutineleak profile: total "} {
		if rest, ok := bytes.CutPrefix(line, []byte(p)); ok {
			s.newSnapshot() // another profile
			s.profile = p[:bytes.IndexByte([]byte(p), ' ')]
			s.total, _ = strconv.Atoi(string(rest))
			return true
		}
	}
	return runtimeLine(t)
}

// addPanic appends a line to the panic message, within a bound.
func (s *Scanner) addPanic(line []byte) {
	const maxPanic = 8 << 10
	if len(s.panic) > 0 {
		s.panic = append(s.panic, '\n')
	}
	s.panic = append(s.panic, line[:min(len(line), maxPanic-len(s.panic))]...)
}

// runtimeLine reports lines the runtime prints around tracebacks: signal
// and register lines of a crash, "runtime stack:", scheduler traces.
func runtimeLine(line []byte) bool {
	for _, p := range [...]string{"SIG", "PC=", "signal arrived", "runtime stack:", "runtime: ", "exit status ", "-----",
		"[originating from goroutine ", "goroutine running on other thread", "=================="} {
		if bytes.HasPrefix(line, []byte(p)) {
			return true
		}
	}
	// Registers: "rax    0x0", "r8     0x1", "rip    0x46e2a1", "eflags 0x246".
	name, val, ok := bytes.Cut(line, []byte(" "))
	return ok && len(name) <= 6 && isLower(name) && bytes.HasPrefix(bytes.TrimLeft(val, " "), []byte("0x"))
}

func isLower(b []byte) bool {
	for _, c := range b {
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return len(b) > 0
}
