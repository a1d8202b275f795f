package goroutines

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/profiles"
)

// Errors of Read, wrapped with the input's name.
var (
	// ErrEmpty is the error of an empty input.
	ErrEmpty = errors.New("empty input")
	// ErrNotDump is the error of an input with no goroutine in it.
	ErrNotDump = errors.New("not a goroutine dump")
)

// runtimeCap is the size at which net/http/pprof's debug=2 output stops:
// writeGoroutineStacks gives up doubling its buffer at 64 MB.
const runtimeCap = 64 << 20

// Options tune Read.
type Options struct {
	// MaxLine bounds a text line; 0 means DefaultMaxLine.
	MaxLine int
	// MaxBytes bounds a binary profile, read whole; 0 means
	// profiles.DefaultMaxBytes. Text is streamed and needs no bound.
	MaxBytes int64
	// Leaked marks the goroutines of a profile (debug=1 or binary) as
	// leaked: the source is a goroutineleak profile. In a dump, where
	// each goroutine has its state, only "(leaked)" ones are.
	Leaked bool
}

// Read adds the goroutines of the source r, named name in errors and
// notes, to d: any text a Scanner reads, or a binary goroutine profile
// (gzipped or not). An input without a goroutine is an error (ErrEmpty,
// ErrNotDump); one cut short is not, but a note says so.
func Read(name string, r io.Reader, d *Dump, opts Options) error {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(512)
	if len(head) == 0 {
		if _, err := br.ReadByte(); err != nil && err != io.EOF {
			return fmt.Errorf("%s: %w", name, err)
		}
		return fmt.Errorf("%s: %w", name, ErrEmpty)
	}
	if isBinary(head) {
		return readProfile(name, br, d, opts)
	}
	s := NewScanner(br)
	s.MaxLine = opts.MaxLine
	n, total, races := 0, 0, 0
	cur, snap, merged := d, 0, 0
	for s.Scan() {
		if s.Snapshot() != snap { // another dump in the same input
			snap, total = s.Snapshot(), 0
			if len(d.Snapshots) < MaxSnapshots-1 {
				cur = NewDump()
				d.Snapshots = append(d.Snapshots, cur)
			} else {
				merged++ // bounded: a hostile input of repeated ids
			}
		}
		if r := s.Race(); r != nil {
			cur.AddRace(r)
			races++
			continue
		}
		g := s.Goroutine()
		// A goroutineleak profile at debug=2 holds every goroutine, the
		// leaked ones marked: Leaked applies to profile records only.
		g.Leaked = g.Leaked || (opts.Leaked && g.ID == 0)
		cur.Add(g)
		n++
		total += max(g.Count, 0)
	}
	if err := s.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if n == 0 && races == 0 {
		return fmt.Errorf("%s: %w: no goroutine header in %d lines", name, ErrNotDump, s.Lines())
	}
	d.noteScan(name, s, total)
	if merged > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("%s: %d more dumps were grouped together with dump %d (at most %d are kept apart)", name, merged, MaxSnapshots, MaxSnapshots))
	}
	return nil
}

// MaxSnapshots bounds the dumps of one input that Read groups apart (see
// Dump.Snapshots); the goroutines of further ones join the last.
const MaxSnapshots = 100

// noteScan records what a scan cut or skipped.
func (d *Dump) noteScan(name string, s *Scanner, read int) {
	if s.Cut() {
		d.Notes = append(d.Notes, fmt.Sprintf("%s: the dump ends mid-line after %d bytes: it was cut short; the last goroutine is partial", name, s.Bytes()))
	}
	if n := len(d.Snapshots); n > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("%s holds %d dumps (a panic, a fatal error, SIGQUIT output or a goroutine profile each): each is grouped on its own", name, n+1))
	}
	if s.Bytes() == runtimeCap {
		d.Notes = append(d.Notes, fmt.Sprintf("%s: the dump is exactly 64 MB, the runtime's cap for debug=2: goroutines past it are missing", name))
	}
	if t := s.ProfileTotal(); t >= 0 && t != read {
		d.Notes = append(d.Notes, fmt.Sprintf("%s: the profile announces %d goroutines, %d were read", name, t, read))
	}
	if n := s.Skipped(); n > 0 {
		d.Notes = append(d.Notes, fmt.Sprintf("%s: skipped %d lines that belong to no goroutine (logs, registers)", name, n))
	}
}

// isBinary reports whether an input starting with head is binary: gzip, or
// bytes that are not text. The escape sequences a program can print in a
// panic message or a label (ESC, and BEL, which ends some) are text: the
// dump is read, and what perflab prints of it is sanitized on a terminal
// (and escaped in HTML) like any other name.
func isBinary(head []byte) bool {
	if bytes.HasPrefix(head, []byte{0x1f, 0x8b}) {
		return true
	}
	for len(head) > 0 {
		r, size := utf8.DecodeRune(head)
		if r == utf8.RuneError && size == 1 && len(head) >= utf8.UTFMax {
			return true
		}
		if r < ' ' && r != '\n' && r != '\r' && r != '\t' && r != '\x1b' && r != '\a' {
			return true
		}
		head = head[size:]
	}
	return false
}

// readProfile adds a binary goroutine profile's samples to d.
func readProfile(name string, r io.Reader, d *Dump, opts Options) error {
	p, err := profiles.Parse(name, r, profiles.Options{MaxBytes: opts.MaxBytes})
	if errors.Is(err, profiles.ErrTooLarge) {
		return err
	} else if err != nil {
		return fmt.Errorf("%s: %w: binary data that does not decode as a goroutine profile either", name, ErrNotDump)
	}
	if len(p.SampleType) == 0 || (p.SampleType[0].Type != "goroutine" && p.SampleType[0].Type != "goroutineleak") {
		return fmt.Errorf("%s: %w: a %s profile, not a goroutine profile", name, ErrNotDump, sampleType(p.SampleType))
	}
	opts.Leaked = opts.Leaked || p.SampleType[0].Type == "goroutineleak"
	g := &Goroutine{}
	for _, smp := range p.Sample {
		*g = Goroutine{Count: int(smp.Value[0]), Frames: g.Frames[:0], Leaked: opts.Leaked}
		for _, loc := range smp.Location {
			for _, ln := range loc.Line {
				f := Frame{Line: int(ln.Line)}
				if ln.Function != nil {
					f.Func, f.File = ln.Function.Name, ln.Function.Filename
				}
				g.Frames = append(g.Frames, f)
			}
		}
		for k, vs := range smp.Label {
			for _, v := range vs {
				g.Labels = append(g.Labels, Label{Key: k, Value: v})
			}
		}
		sortLabels(g.Labels)
		d.Add(g)
	}
	if d.Total == 0 && len(p.Sample) == 0 {
		return fmt.Errorf("%s: %w: the goroutine profile has no samples", name, ErrNotDump)
	}
	return nil
}

// sampleType names a profile's first sample type.
func sampleType(st []*profile.ValueType) string {
	if len(st) == 0 {
		return "typeless"
	}
	return strconv.Quote(st[0].Type)
}

func sortLabels(ls []Label) {
	slices.SortFunc(ls, func(a, b Label) int {
		if c := cmp.Compare(a.Key, b.Key); c != 0 {
			return c
		}
		return cmp.Compare(a.Value, b.Value)
	})
}
