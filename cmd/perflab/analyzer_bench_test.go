package main

import (
	"context"
	"io"
	"testing"

	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/profiles"
)

// The analyzer benchmarks run perflab's report commands, exactly as the
// command line does, on the benchmark profile of package profgen (500k
// samples, 200k locations, 20k functions, ~70 MB uncompressed), which is
// generated on first use into profgen.CacheDir and reused afterwards.
// scripts/bench-analyzer compares the same commands with go tool pprof.

// benchRegex matches about 20 of the benchmark profile's functions, the
// hottest among them; peek and list use it.
const benchRegex = "ComputeBlock"

func benchProfile(b *testing.B) string {
	b.Helper()
	file, err := profgen.Benchmark()
	if err != nil {
		b.Fatal(err)
	}
	return file
}

func benchCommand(b *testing.B, args ...string) {
	file := benchProfile(b)
	args = append(args, file)
	b.ReportAllocs()
	for b.Loop() {
		if err := run(context.Background(), nil, io.Discard, io.Discard, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad is the loading that every report command starts with:
// read, inflate, decode and check the profile.
func BenchmarkLoad(b *testing.B) {
	sources := []string{benchProfile(b)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := profiles.Load(context.Background(), sources, profiles.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkTop is "perflab top", as "go tool pprof -top".
func BenchmarkTop(b *testing.B) { benchCommand(b, "top") }

// BenchmarkPeek is "perflab peek REGEX", as "go tool pprof -peek=REGEX".
func BenchmarkPeek(b *testing.B) { benchCommand(b, "peek", benchRegex) }

// BenchmarkList is "perflab list REGEX", as "go tool pprof -list=REGEX";
// the profile's source files exist, so every line is read and annotated.
func BenchmarkList(b *testing.B) { benchCommand(b, "list", benchRegex) }
