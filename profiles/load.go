package profiles

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/google/pprof/profile"
)

// Options control how sources are loaded.
type Options struct {
	// Seconds is the duration of a CPU profile or trace fetched from a URL;
	// 0 means the server's default.
	Seconds int
	// Timeout bounds each fetch; 0 means 1.5 x Seconds, else 60 s.
	Timeout time.Duration
	// MaxBytes caps the decompressed size of one source; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Status, if not nil, receives progress such as a CPU profile's countdown.
	Status io.Writer
}

// DefaultMaxBytes is the decompressed size above which a source is refused.
const DefaultMaxBytes = 2 << 30

// Load reads every source (a file name or a URL) and merges them into one
// profile.
func Load(ctx context.Context, sources []string, opts Options) (*profile.Profile, error) {
	if len(sources) == 0 {
		return nil, fmt.Errorf("no profile given")
	}
	var ps []*profile.Profile
	for _, src := range sources {
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		p, err := Parse(src, bytes.NewReader(data), opts)
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	if len(ps) == 1 {
		return ps[0], nil
	}
	return profile.Merge(ps)
}

// Parse decodes one profile read from r; name identifies it in errors.
func Parse(name string, r io.Reader, opts Options) (*profile.Profile, error) {
	p, err := profile.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}
