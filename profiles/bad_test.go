package profiles

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/testprog"
)

// ownProfile returns a real profile of the test process itself.
func ownProfile(t testing.TB, name string, debug int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pprof.Lookup(name).WriteTo(&buf, debug); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func gzipped(t testing.TB, data []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(data)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func encode(t testing.TB, p *profile.Profile) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := p.WriteUncompressed(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestBadInput(t *testing.T) {
	gz := ownProfile(t, "heap", 0)
	raw, err := decompress(gz, NewBudget(DefaultMaxBytes))
	if err != nil {
		t.Fatal(err)
	}
	corrupt := bytes.Clone(gz)
	for i := 20; i < len(corrupt)-8; i += 7 {
		corrupt[i] ^= 0x5a
	}
	lyingSize := bytes.Clone(gz)
	copy(lyingSize[len(lyingSize)-4:], []byte{0xff, 0xff, 0xff, 0xff})
	sampleType := []*profile.ValueType{{Type: "samples", Unit: "count"}}
	missingLoc := encode(t, &profile.Profile{SampleType: sampleType,
		Sample: []*profile.Sample{{Value: []int64{1}, Location: []*profile.Location{{ID: 9}}}}})
	dupLoc := &profile.Profile{SampleType: sampleType,
		Sample: []*profile.Sample{{Value: []int64{1}, Location: []*profile.Location{{ID: 9}}}}}
	dupLoc.Location = []*profile.Location{dupLoc.Sample[0].Location[0], {ID: 9}}
	negPeriod := encode(t, &profile.Profile{SampleType: sampleType, PeriodType: sampleType[0], Period: -5})
	tests := []struct {
		name, input string
		want        string
	}{
		{"empty", "", "empty input"},
		{"truncated gzip", string(gz[:len(gz)/2]), "truncated gzip data"},
		{"corrupt gzip", string(corrupt), "corrupt gzip data"},
		{"gzip size lies", string(lyingSize), "corrupt gzip data"},
		{"gzip in gzip", string(gzipped(t, gz)), "gzip data inside gzip data"},
		{"truncated proto", string(raw[:len(raw)-3]), "not a valid profile.proto (truncated or corrupt"},
		{"absurd length", "\x0a\xff\xff\xff\xff\xff\xff\xff\xff\x01", "a field is longer than the data left"},
		{"text", "hello, world\nthis is not a profile\n", `unrecognized text format starting "hello, world"`},
		{"binary", "\x00\x01\x02\xff\xfe", "not a profile"},
		{"html", "<!DOCTYPE html><html><body>404</body></html>", "not a profile"},
		{"missing location ID", string(missingLoc), "a sample refers to a location ID that does not exist"},
		{"duplicate location ID", string(encode(t, dupLoc)), "multiple locations with same id"},
		{"negative period", string(negPeriod), "negative sampling period -5"},
		{"legacy heap, negative count", "heap profile: -1: 5 [1: 2] @ heap/1024\n1: 2 [3: 4] @ 0x1\n", "not a profile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParseData("in.prof", []byte(tt.input), Options{})
			checkError(t, p, err, "in.prof: ", tt.want)
		})
	}
}

// checkError checks that err is one line naming the source and the cause.
func checkError(t *testing.T, p *profile.Profile, err error, prefix, want string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error; want one containing %q", want)
	}
	if p != nil {
		t.Errorf("a profile returned with the error %v", err)
	}
	msg := err.Error()
	t.Log(msg)
	if !strings.HasPrefix(msg, prefix) || !strings.Contains(msg, want) || strings.Contains(msg, "\n") {
		t.Errorf("error %q: want one line starting %q and containing %q", msg, prefix, want)
	}
}

// TestGzipBomb checks that a small gzip stream inflating far beyond the
// limit is refused without the memory it would take.
func TestGzipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zeros := make([]byte, 1<<20)
	for range 64 {
		zw.Write(zeros)
	}
	zw.Close()
	bomb := buf.Bytes() // 64 MiB of zeros in about 64 KiB
	const limit = 4 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p, err := ParseData("bomb.pb.gz", bomb, Options{MaxBytes: limit})
	runtime.ReadMemStats(&after)
	checkError(t, p, err, "bomb.pb.gz: ", "inflates to more than 4 MiB (the limit")
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("error %v does not wrap ErrTooLarge", err)
	}
	if testprog.Race {
		t.Skip("allocation bound not checked under -race")
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4*limit {
		t.Errorf("refusing a bomb allocated %d bytes; want at most %d", alloc, 4*limit)
	}
}

// TestProtoBomb checks that data that decompresses within the limit but
// would decode to far more memory (here, millions of empty samples) is
// refused before it is decoded.
func TestProtoBomb(t *testing.T) {
	bomb := gzipped(t, bytes.Repeat([]byte{0x12, 0x00}, 8<<20)) // 16 MiB, 8M empty samples
	const limit = 32 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	p, err := ParseData("samples.pb.gz", bomb, Options{MaxBytes: limit})
	runtime.ReadMemStats(&after)
	checkError(t, p, err, "samples.pb.gz: ", "GiB of memory, more than 4 x the limit of 32 MiB")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20 {
		t.Errorf("refusing the input allocated %d bytes; want at most the decompressed size and change", alloc)
	}
}

// TestTextBomb checks the same for a legacy text profile of millions of
// tiny records.
func TestTextBomb(t *testing.T) {
	text := append([]byte("goroutine profile: total 1\n"), bytes.Repeat([]byte("1 @ 0x1\n"), 1<<20)...)
	p, err := ParseData("goroutine.txt", text, Options{MaxBytes: 64 << 20})
	checkError(t, p, err, "goroutine.txt: ", "GiB of memory, more than 4 x the limit of 64 MiB")
}

func TestLoadErrorsNameTheSource(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.txt")
	if err := os.WriteFile(big, bytes.Repeat([]byte("x"), 2048), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "good.pb.gz")
	if err := os.WriteFile(good, ownProfile(t, "goroutine", 0), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.pb.gz")
	if err := os.WriteFile(bad, []byte("garbage\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	heap := filepath.Join(dir, "heap.pb.gz")
	if err := os.WriteFile(heap, ownProfile(t, "heap", 0), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		sources []string
		opts    Options
		prefix  string
		want    string
	}{
		{[]string{filepath.Join(dir, "nosuch.prof")}, Options{}, filepath.Join(dir, "nosuch.prof") + ": ", "no such file, and not a URL"},
		{[]string{dir}, Options{}, dir + ": ", "is a directory"},
		{[]string{big}, Options{MaxBytes: 1024}, big + ": ", "more than 1 KiB (the limit"},
		{[]string{good, bad}, Options{}, bad + ": ", "not a profile"},
		{[]string{good}, Options{Base: []string{bad}}, bad + ": ", "not a profile"},
		{[]string{good, heap}, Options{}, "merging " + good + ", " + heap + ": ", "incompatible"},
		{nil, Options{}, "no profile given", ""},
	}
	for _, tt := range tests {
		p, err := Load(context.Background(), tt.sources, tt.opts)
		checkError(t, p, err, tt.prefix, tt.want)
	}
}

// TestRecoverAs checks the guard that turns a panic in the pprof library
// into a one-line error.
func TestRecoverAs(t *testing.T) {
	f := func() (err error) {
		defer recoverAs(&err, "loading x.prof: %s")
		var locs []*profile.Location
		_ = locs[3].Address // index out of range
		return nil
	}
	err := f()
	checkError(t, nil, err, "loading x.prof: ", "index out of range")
}
