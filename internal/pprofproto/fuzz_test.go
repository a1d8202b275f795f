package pprofproto

import (
	"bytes"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
)

// tiny is a generated profile small enough to fuzz.
var tiny = profgen.Config{Seed: 3, Samples: 12, Locations: 20, Functions: 8, MaxDepth: 6,
	InlinePercent: 30, LabelPercent: 40, SourceRoot: "/src"}

// FuzzDecode checks that Decode never panics and always agrees with
// profile.ParseData: the same profile, or the same error.
func FuzzDecode(f *testing.F) {
	p, err := profgen.Generate(tiny)
	if err != nil {
		f.Fatal(err)
	}
	for _, q := range []*profile.Profile{p, fullProfile()} {
		var raw, gz bytes.Buffer
		q.WriteUncompressed(&raw)
		q.Write(&gz)
		f.Add(raw.Bytes())
		f.Add(gz.Bytes())
	}
	f.Add([]byte("heap profile: 1: 2 [3: 4] @ heap/1048576\n1: 2 [3: 4] @ 0x1 0x2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		want, wantErr := parseData(data)
		got, gotErr := Decode(data)
		if (wantErr == nil) != (gotErr == nil) || wantErr != nil && wantErr.Error() != gotErr.Error() {
			t.Fatalf("Decode error %v, ParseData error %v", gotErr, wantErr)
		}
		if wantErr == nil {
			if err := sameProfile(want, got); err != nil {
				t.Fatalf("Decode differs from ParseData: %v", err)
			}
		}
	})
}
