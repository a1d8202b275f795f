package fleetgen_test

import (
	"testing"

	"github.com/perflab/perflab/internal/fleetgen"
)

// BenchmarkNew generates the default service's program and stacks.
func BenchmarkNew(b *testing.B) {
	for b.Loop() {
		if _, err := fleetgen.New(fleetgen.Config{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkProfile generates consecutive CPU profiles of the default
// service, as a benchmark of a week (60,480 of them) does.
func BenchmarkProfile(b *testing.B) {
	f, err := fleetgen.New(fleetgen.Config{})
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if _, err := f.Profile("cpu", 0, i); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
