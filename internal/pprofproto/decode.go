package pprofproto

import (
	"fmt"

	"github.com/google/pprof/profile"
)

// Decode parses a profile as profile.ParseData does: data may be
// profile.proto, gzipped or not, or a legacy text profile. The result, or
// the error, is the same as ParseData's; well-formed profile.proto is
// decoded faster, with a fraction of the allocations. Gzipped data is
// inflated without a size limit: callers that need one (any program
// reading untrusted input) call Gunzip with their limit first.
func Decode(data []byte) (*profile.Profile, error) {
	raw := data
	if IsGzip(data) {
		var err error
		if raw, err = Gunzip(data, -1); err != nil {
			return parseData(data)
		}
	}
	if p, ok := decodeProto(raw); ok {
		return p, nil
	}
	// Not a valid profile.proto: let pprof parse the legacy formats and
	// word the error.
	return parseData(raw)
}

// parseData is profile.ParseData, with a panic in one of its legacy
// parsers turned into an error.
func parseData(data []byte) (p *profile.Profile, err error) {
	defer func() {
		if e := recover(); e != nil {
			p, err = nil, fmt.Errorf("parsing profile: %v", e)
		}
	}()
	return profile.ParseData(data)
}

// decodeProto decodes a valid, uncompressed profile.proto. It reports
// false for any input that profile.ParseData would reject or would read
// differently, without saying why.
func decodeProto(data []byte) (*profile.Profile, bool) {
	if len(data) == 0 {
		return nil, false
	}
	d := &decoder{p: &profile.Profile{}}
	if d.scan(data) != nil || d.strings() != nil {
		return nil, false
	}
	steps := []func() error{d.header, d.mappings, d.functions, d.locations, d.samples}
	for _, step := range steps {
		if step() != nil {
			return nil, false
		}
	}
	return d.p, true
}

// valueType is a ValueType as string-table indexes.
type valueType struct{ typ, unit int64 }

// decoder holds the state of one decodeProto call. scan records where the
// repeated messages are; the other steps decode them in dependency order
// (strings, mappings and functions, then locations, then samples), so that
// every reference is resolved as soon as it is read.
type decoder struct {
	p *profile.Profile

	// Top-level fields, as read by scan.
	data         []byte // the whole Profile message
	sampleTypes  []valueType
	periodType   *valueType
	sampleAt     []int // where each Sample field starts in data (a third of the memory of its payload slice)
	mappingMsgs  [][]byte
	locationMsgs [][]byte
	functionMsgs [][]byte
	stringMsgs   [][]byte
	stringBytes  int
	comments     []uint64
	dropFrames   int64
	keepFrames   int64
	defaultType  int64
	docURL       int64

	table []string // the string table

	mappingByID  idIndex[profile.Mapping]
	functionByID idIndex[profile.Function]
	locationByID idIndex[profile.Location]
	// locationSeq holds the locations when their IDs are 1..n in order,
	// as every writer of profile.proto numbers them: then a location is
	// found by arithmetic, without a lookup.
	locationSeq []profile.Location
}

// scan reads the top-level fields of a Profile message, keeping the
// payloads of repeated messages for the later steps.
func (d *decoder) scan(data []byte) error {
	var f field
	if err := d.reserve(data); err != nil {
		return err
	}
	d.data = data
	for i := 0; i < len(data); {
		start := i
		var err error
		if i, err = next(data, i, &f); err != nil {
			return err
		}
		if err := d.topField(&f, start); err != nil {
			return err
		}
	}
	return nil
}

// reserve counts the repeated messages of a Profile and sizes the
// decoder's lists for them, so that scan never grows a list.
func (d *decoder) reserve(data []byte) error {
	var n [7]int
	var f field
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return err
		}
		if f.num < uint64(len(n)) {
			n[f.num]++
		}
	}
	d.sampleAt = make([]int, 0, n[2])
	d.mappingMsgs = make([][]byte, 0, n[3])
	d.locationMsgs = make([][]byte, 0, n[4])
	d.functionMsgs = make([][]byte, 0, n[5])
	d.stringMsgs = make([][]byte, 0, n[6])
	return nil
}

// topField records top-level field f, which starts at offset start.
func (d *decoder) topField(f *field, start int) error {
	var err error
	if f.num >= 1 && f.num <= 6 || f.num == 11 {
		if f.typ != wireBytes {
			return errWire
		}
	}
	switch f.num {
	case 1:
		var vt valueType
		err = decodeValueType(f.data, &vt)
		d.sampleTypes = append(d.sampleTypes, vt)
	case 2:
		d.sampleAt = append(d.sampleAt, start)
	case 3:
		d.mappingMsgs = append(d.mappingMsgs, f.data)
	case 4:
		d.locationMsgs = append(d.locationMsgs, f.data)
	case 5:
		d.functionMsgs = append(d.functionMsgs, f.data)
	case 6:
		d.stringMsgs = append(d.stringMsgs, f.data)
		d.stringBytes += len(f.data)
	case 7:
		d.dropFrames, err = f.int64()
	case 8:
		d.keepFrames, err = f.int64()
	case 9:
		if d.p.TimeNanos != 0 {
			return errWire // concatenated profiles
		}
		d.p.TimeNanos, err = f.int64()
	case 10:
		d.p.DurationNanos, err = f.int64()
	case 11:
		vt := new(valueType)
		err = decodeValueType(f.data, vt)
		d.periodType = vt
	case 12:
		d.p.Period, err = f.int64()
	case 13:
		d.comments, err = appendPacked(d.comments, f)
	case 14:
		d.defaultType, err = f.int64()
	case 15:
		d.docURL, err = f.int64()
	}
	return err
}

func decodeValueType(data []byte, vt *valueType) error {
	var f field
	for i := 0; i < len(data); {
		var err error
		if i, err = next(data, i, &f); err != nil {
			return err
		}
		switch f.num {
		case 1:
			vt.typ, err = f.int64()
		case 2:
			vt.unit, err = f.int64()
		}
		if err != nil {
			return err
		}
	}
	return nil
}
