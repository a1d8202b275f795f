package compilenotes

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// A Header is the first record of a file the compiler writes with
// -json=0,DIR: the version of the format and the source file that the
// following diagnostics are about.
type Header struct {
	Version   int    `json:"version"`
	Package   string `json:"package"`
	GOOS      string `json:"goos"`
	GOARCH    string `json:"goarch"`
	GCVersion string `json:"gc_version"`
	File      string `json:"file"`
}

// diagnostic is the subset of an LSP Diagnostic the compiler writes (see
// cmd/compile/internal/logopt).
type diagnostic struct {
	Range struct {
		Start position `json:"start"`
	} `json:"range"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Related []struct {
		Message string `json:"message"`
	} `json:"relatedInformation"`
}

type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// MaxLineBytes bounds one record of a diagnostics file: escape
// explanations are long, but a record of more than 4 MiB is not the
// compiler's.
const MaxLineBytes = 4 << 20

// ErrFormat reports a diagnostics file that is not the compiler's
// version-0 JSON.
var ErrFormat = errors.New("not the compiler's -json=0 diagnostics")

// ParseJSON reads one diagnostics file of `go build -gcflags=-json=0,DIR`:
// a header record, then one LSP diagnostic a line. It returns the header
// and the notes perflab shows — escapes with their flow, inlining
// failures, bounds checks kept and large copies — positioned in
// header.File. Other diagnostics (nil checks, leaking parameters, inlining
// costs) are skipped. A cannot-inline note's message is "cannot inline:
// REASON"; Build puts the function's name in.
func ParseJSON(r io.Reader) (Header, []Note, error) {
	var h Header
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes)
	if !sc.Scan() {
		if err := sc.Err(); err != nil {
			return h, nil, fmt.Errorf("reading header: %w", err)
		}
		return h, nil, fmt.Errorf("%w: empty", ErrFormat)
	}
	if err := json.Unmarshal(sc.Bytes(), &h); err != nil {
		return h, nil, fmt.Errorf("%w: header: %w", ErrFormat, err)
	}
	if h.Version != 0 || h.File == "" {
		return h, nil, fmt.Errorf("%w: header has version %d, file %q", ErrFormat, h.Version, h.File)
	}
	var notes []Note
	for lineno := 2; sc.Scan(); lineno++ {
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var d diagnostic
		if err := json.Unmarshal(b, &d); err != nil {
			return h, notes, fmt.Errorf("%w: line %d: %w", ErrFormat, lineno, err)
		}
		if n, ok := noteOf(h.File, &d); ok {
			notes = append(notes, n)
		}
	}
	if err := sc.Err(); err != nil {
		return h, notes, fmt.Errorf("reading diagnostics: %w", err)
	}
	return h, notes, nil
}

// noteOf turns a diagnostic into a note, if perflab shows its kind.
func noteOf(file string, d *diagnostic) (Note, bool) {
	n := Note{File: file, Line: d.Range.Start.Line, Col: d.Range.Start.Character, Message: d.Message}
	if n.Line <= 0 {
		return n, false
	}
	switch d.Code {
	case "escape", "escapes":
		if d.Message == "" {
			return n, false
		}
		n.Kind = Escape
		for _, r := range d.Related {
			if step, ok := strings.CutPrefix(r.Message, "escflow:"); ok {
				n.Flow = append(n.Flow, strings.TrimSpace(step))
			}
		}
	case "cannotInlineFunction":
		n.Kind, n.Message = CannotInline, "cannot inline: "+d.Message
	case "cannotInlineCall":
		n.Kind, n.Message = CannotInline, "cannot inline call: "+d.Message
	case "isInBounds":
		n.Kind, n.Message = BoundsCheck, "bounds check kept"
	case "isSliceInBounds":
		n.Kind, n.Message = BoundsCheck, "slice bounds check kept"
	case "copy":
		n.Kind, n.Message = LargeCopy, "large copy: "+d.Message
	default:
		return n, false
	}
	return n, true
}
