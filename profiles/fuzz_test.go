package profiles

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/fuzz/FuzzParse from this process's real profiles")

// FuzzParse checks that no input makes the loader panic or return an
// error that is not one line naming the source.
func FuzzParse(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseData("fuzz", data, Options{MaxBytes: 1 << 20})
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "fuzz: ") || strings.Contains(msg, "\n") {
				t.Fatalf("error %q is not one line starting with the source's name", msg)
			}
			return
		}
		if err := p.CheckValid(); err != nil {
			t.Fatalf("ParseData returned an invalid profile: %v", err)
		}
	})
}

// TestWriteFuzzSeeds regenerates the seed corpus with -update: real
// profiles of this test process in each format the loader reads, cut to a
// few records so that fuzzing mutates them quickly.
func TestWriteFuzzSeeds(t *testing.T) {
	if !*update {
		t.Skip("run with -update to rewrite the seed corpus")
	}
	runtime.SetBlockProfileRate(1)
	defer runtime.SetBlockProfileRate(0)
	ch := make(chan int)
	go func() { time.Sleep(time.Millisecond); ch <- 1 }()
	<-ch
	gz := ownProfile(t, "goroutine", 0)
	raw, err := decompress(gz, NewBudget(DefaultMaxBytes))
	if err != nil {
		t.Fatal(err)
	}
	seeds := map[string][]byte{
		"proto-gzip":        gz,
		"proto":             raw,
		"goroutine-text":    firstRecords(ownProfile(t, "goroutine", 1), 2),
		"threadcreate-text": firstRecords(ownProfile(t, "threadcreate", 1), 2),
		"heap-text":         firstRecords(ownProfile(t, "heap", 1), 3),
		"contention-text":   firstRecords(ownProfile(t, "block", 1), 2),
		"legacy-cpu":        legacyCPU(10000, []uint64{1, 1}, [][]uint64{{0x401000, 0x402000}, {0x401000}}),
	}
	dir := filepath.Join("testdata", "fuzz", "FuzzParse")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range seeds {
		body := fmt.Sprintf("go test fuzz v1\n[]byte(%q)\n", data)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// firstRecords keeps a legacy text profile's header lines and its first n
// records, each a line with " @ " followed by its "#" comment lines.
func firstRecords(text []byte, n int) []byte {
	var out bytes.Buffer
	records := 0
	for line := range bytes.Lines(text) {
		if bytes.Contains(line, []byte(" @ ")) && !bytes.HasPrefix(line, []byte("heap profile")) {
			records++
		}
		if records > n || (records == n && len(bytes.TrimSpace(line)) == 0) {
			break
		}
		out.Write(line)
	}
	return out.Bytes()
}

// legacyCPU writes samples in the legacy binary CPU format of gperftools
// and old Go versions, in 64-bit little-endian words: a header holding the
// period in microseconds, one record per stack (counts[i], its depth, its
// addresses), a trailer.
func legacyCPU(periodMicros uint64, counts []uint64, stacks [][]uint64) []byte {
	words := []uint64{0, 3, 0, periodMicros, 0}
	for i, s := range stacks {
		words = append(words, counts[i], uint64(len(s)))
		words = append(words, s...)
	}
	words = append(words, 0, 1, 0)
	var buf bytes.Buffer
	for _, w := range words {
		for i := range 8 {
			buf.WriteByte(byte(w >> (8 * i)))
		}
	}
	return buf.Bytes()
}

// TestSeedsAreProfiles checks that every seed is a profile the loader
// accepts, so that fuzzing starts from valid inputs of each format.
func TestSeedsAreProfiles(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzParse", "*"))
	if err != nil || len(files) < 7 {
		t.Fatalf("seed corpus: %d files, %v", len(files), err)
	}
	for _, file := range files {
		body, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		_, arg, _ := strings.Cut(string(body), "\n[]byte(")
		data, err := strconv.Unquote(strings.TrimSuffix(strings.TrimSpace(arg), ")"))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		p, err := ParseData(file, []byte(data), Options{})
		if err != nil {
			t.Errorf("seed rejected: %v", err)
		} else if len(p.Sample) == 0 {
			t.Errorf("%s: no samples", file)
		}
	}
}
