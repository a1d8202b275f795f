package profgen

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/internal/atomicfile"
)

// version names the generator's output in cache file names; bump it when
// the same Config starts to produce a different profile.
const version = 2

// Cached returns the path of the gzipped profile that c describes, kept
// in dir (created if need be) under a name made from c, generating it (and
// its sources, with SourceRoot set to dir/src-NAME) only if it is not there
// yet. Benchmarks and scripts share the big profile this way; its source
// files make list work.
func Cached(dir string, c Config) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	c = c.withDefaults()
	name := fmt.Sprintf("cpu-v%d-s%d-n%d-l%d-f%d-d%d-i%d-p%d",
		version, c.Seed, c.Samples, c.Locations, c.Functions, c.MaxDepth, c.InlinePercent, c.LabelPercent)
	file := filepath.Join(dir, name+".pb.gz")
	if _, err := os.Stat(file); err == nil {
		return file, nil
	}
	abs, err := filepath.Abs(filepath.Join(dir, "src-"+name))
	if err != nil {
		return "", err
	}
	c.SourceRoot = abs
	p, err := Generate(c)
	if err != nil {
		return "", err
	}
	if err := WriteSources(p, c.SourceRoot); err != nil {
		return "", err
	}
	return file, atomicfile.Write(file, p.Write)
}

// CacheDir is where benchmarks and scripts keep generated profiles:
// perflab-profgen in the system's temporary directory.
func CacheDir() string {
	return filepath.Join(os.TempDir(), "perflab-profgen")
}

// Benchmark returns the path of the Default profile in CacheDir,
// generating it on first use (about a minute).
func Benchmark() (string, error) {
	return Cached(CacheDir(), Default)
}
