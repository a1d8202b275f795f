package profiles_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/reporttest"
	"github.com/perflab/perflab/profiles"
)

// TestResolve checks Options.Resolve: a source it claims is its profile,
// also as a base; one it does not is read as a file; its error names the
// source.
func TestResolve(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cpu.pprof")
	reporttest.WriteProfile(t, reporttest.OneSample("file.go"), file)
	fail := errors.New("no such selection")
	resolve := func(_ context.Context, src string) (*profile.Profile, bool, error) {
		switch {
		case src == "{bad}":
			return nil, true, fail
		case strings.HasPrefix(src, "{"):
			p := reporttest.OneSample("resolved.go")
			p.Sample[0].Value = []int64{4, 40_000_000}
			return p, true, nil
		}
		return nil, false, nil
	}
	opts := profiles.Options{Resolve: resolve}
	p, err := profiles.Load(context.Background(), []string{"{a}"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Function[0].Filename; got != "resolved.go" || len(p.Mapping) != 1 {
		t.Errorf("a resolved source: function of %s, %d mappings; want resolved.go, one mapping given", got, len(p.Mapping))
	}
	opts.Base = []string{file}
	p, err = profiles.Load(context.Background(), []string{"{a}", "{b}"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var total int64
	for _, s := range p.Sample {
		total += s.Value[0]
	}
	if total != 4+4-1 {
		t.Errorf("two resolved sources less a file's base: %d samples, want 7", total)
	}
	_, err = profiles.Load(context.Background(), []string{file, "{bad}"}, profiles.Options{Resolve: resolve})
	if !errors.Is(err, fail) || !strings.Contains(err.Error(), "{bad}: no such selection") {
		t.Errorf("a failing resolution = %v, want its error after the source", err)
	}
}
