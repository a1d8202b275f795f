package profiles

import (
	"context"
	"os"
	"testing"

	"github.com/perflab/perflab/internal/profgen"
)

// benchProfile returns the path of the generated CPU profile c describes,
// generating it once into profgen.CacheDir. The large one, profgen.Default
// (~70 MB uncompressed, the one the performance targets are measured on),
// takes about a minute the first time; -short skips it.
func benchProfile(b *testing.B, c profgen.Config) string {
	b.Helper()
	path, err := profgen.Cached(profgen.CacheDir(), c)
	if err != nil {
		b.Fatal(err)
	}
	return path
}

var benchConfigs = []struct {
	name string
	cfg  profgen.Config
}{
	{"small", profgen.Small},
	{"large", profgen.Default},
}

// forEachProfile runs bench as a sub-benchmark on the generated profile of
// each of benchConfigs; the large one is skipped with -short.
func forEachProfile(b *testing.B, bench func(b *testing.B, path string)) {
	for _, bc := range benchConfigs {
		b.Run(bc.name, func(b *testing.B) {
			if bc.name == "large" && testing.Short() {
				b.Skip("large profile skipped with -short")
			}
			bench(b, benchProfile(b, bc.cfg))
		})
	}
}

// BenchmarkParseData measures decompressing and decoding a gzipped
// profile.proto held in memory.
func BenchmarkParseData(b *testing.B) {
	forEachProfile(b, func(b *testing.B, path string) {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(data)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ParseData(path, data, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkLoad measures the whole of Load on a file: reading, decoding,
// validating and preparing the profile for reports.
func BenchmarkLoad(b *testing.B) {
	forEachProfile(b, func(b *testing.B, path string) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(context.Background(), []string{path}, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkDecompress measures inflating a gzipped profile within the cap.
func BenchmarkDecompress(b *testing.B) {
	data, err := os.ReadFile(benchProfile(b, profgen.Small))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decompress(data, NewBudget(DefaultMaxBytes)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEstimateCost measures the pass that bounds decoding memory, to
// be compared with BenchmarkParseData/large.
func BenchmarkEstimateCost(b *testing.B) {
	if testing.Short() {
		b.Skip("large profile skipped with -short")
	}
	data, err := os.ReadFile(benchProfile(b, profgen.Default))
	if err != nil {
		b.Fatal(err)
	}
	raw, err := decompress(data, NewBudget(DefaultMaxBytes))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw)))
	for b.Loop() {
		estimateCost(raw)
	}
}

// BenchmarkDemangleNames measures giving a loaded profile's functions the
// names pprof displays, a step of every Load.
func BenchmarkDemangleNames(b *testing.B) {
	forEachProfile(b, func(b *testing.B, path string) {
		p, err := Load(context.Background(), []string{path}, Options{})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			for _, f := range p.Function {
				f.Name = f.SystemName
			}
			demangleNames(p)
		}
		b.ReportMetric(float64(len(p.Function)), "funcs")
	})
}
