package store_test

import (
	"bytes"
	"errors"
	"reflect"
	"testing"

	"github.com/perflab/perflab/internal/fleetgen"
	"github.com/perflab/perflab/store"
)

// TestEncodeRoundTrip decodes the encoding of every part and header of a
// realistic profile back into the same value, with the same hash.
func TestEncodeRoundTrip(t *testing.T) {
	f, err := fleetgen.New(fleetgen.Config{PIE: true})
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.Profile("heap", 0, 0)
	sp, err := store.Split(p.Profile)
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, h store.Hash, part, back any, err error, hash func() store.Hash) {
		t.Helper()
		if err != nil || !reflect.DeepEqual(part, back) || hash() != h {
			t.Fatalf("%s %s: decoded %+v, %v; want %+v", what, h, back, err, part)
		}
	}
	for h, x := range sp.Parts.Functions {
		back, err := store.DecodeFunction(x.Encode())
		check("function", h, x, back, err, back.Hash)
	}
	for h, x := range sp.Parts.Mappings {
		back, err := store.DecodeMapping(x.Encode())
		check("mapping", h, x, back, err, back.Hash)
	}
	for h, x := range sp.Parts.Locations {
		back, err := store.DecodeLocation(x.Encode())
		check("location", h, x, back, err, back.Hash)
	}
	for h, x := range sp.Parts.Stacks {
		back, err := store.DecodeStack(x.Encode())
		check("stack", h, x, back, err, back.Hash)
	}
	for h, x := range sp.Parts.LabelSets {
		back, err := store.DecodeLabelSet(x.Encode())
		check("label set", h, x, back, err, back.Hash)
	}
	if len(sp.Parts.LabelSets) == 0 {
		t.Fatalf("no label set to decode")
	}
	back, err := store.DecodeHeader(sp.Header.Encode())
	if err != nil || !reflect.DeepEqual(back, sp.Header) {
		t.Fatalf("header: decoded %+v, %v; want %+v", back, err, sp.Header)
	}
}

// decoders decode data as each kind of part and encode what they read.
var decoders = map[string]func([]byte) ([]byte, error){
	"function": func(b []byte) ([]byte, error) { x, err := store.DecodeFunction(b); return x.Encode(), err },
	"mapping":  func(b []byte) ([]byte, error) { x, err := store.DecodeMapping(b); return x.Encode(), err },
	"location": func(b []byte) ([]byte, error) { x, err := store.DecodeLocation(b); return x.Encode(), err },
	"stack":    func(b []byte) ([]byte, error) { x, err := store.DecodeStack(b); return x.Encode(), err },
	"labels":   func(b []byte) ([]byte, error) { x, err := store.DecodeLabelSet(b); return x.Encode(), err },
	"header":   func(b []byte) ([]byte, error) { x, err := store.DecodeHeader(b); return x.Encode(), err },
}

func TestDecodeRefuses(t *testing.T) {
	fn := store.Function{Name: "main.main", StartLine: 3}.Encode()
	for name, data := range map[string][]byte{
		"empty":         nil,
		"truncated":     fn[:len(fn)-1],
		"trailing":      append(append([]byte{}, fn...), 0),
		"non-canonical": append(append([]byte{}, fn[:len(fn)-1]...), 0x86, 0x00), // 3 as two bytes
		"huge count":    {1, 0xff, 0xff, 0xff, 0xff, 0x0f},
	} {
		if _, err := store.DecodeFunction(data); !errors.Is(err, store.ErrInvalid) {
			t.Errorf("%s: %v, want ErrInvalid", name, err)
		}
	}
	if _, err := store.DecodeStack(fn); err == nil {
		t.Errorf("a function decoded as a stack")
	}
}

// FuzzDecode checks that every decoder refuses or reads any input without
// panicking, and that what it reads encodes back to the input.
func FuzzDecode(f *testing.F) {
	f.Add(store.Function{Name: "main.main", Filename: "main.go", StartLine: 3}.Encode())
	f.Add(store.Location{Mapping: 7, Address: 0x40, Lines: []store.Line{{Function: 9, Line: 4}}}.Encode())
	f.Add(store.LabelSet{Numbers: []store.NumberLabel{{Key: "bytes", Values: []int64{-1}, Units: []string{"bytes"}}}}.Encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		for name, decode := range decoders {
			again, err := decode(data)
			if err == nil && !bytes.Equal(again, data) {
				t.Fatalf("%s: read %x, encodes back as %x", name, data, again)
			}
		}
	})
}
