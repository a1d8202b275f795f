package pprofproto

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/profgen"
)

// benchData returns the benchmark profile (profgen.Default), gzipped and
// not.
func benchData(b *testing.B) (gz, raw []byte) {
	b.Helper()
	file, err := profgen.Benchmark()
	if err != nil {
		b.Fatal(err)
	}
	if gz, err = os.ReadFile(file); err != nil {
		b.Fatal(err)
	}
	if raw, err = Gunzip(gz, -1); err != nil {
		b.Fatal(err)
	}
	return gz, raw
}

// BenchmarkDecode decodes the uncompressed benchmark profile.
func BenchmarkDecode(b *testing.B) {
	_, raw := benchData(b)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := Decode(raw); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkProfileParse is the baseline: pprof's own decoder on the same
// uncompressed bytes.
func BenchmarkProfileParse(b *testing.B) {
	_, raw := benchData(b)
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := profile.ParseData(raw); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkGunzip decompresses the gzipped benchmark profile.
func BenchmarkGunzip(b *testing.B) {
	gz, _ := benchData(b)
	b.SetBytes(int64(len(gz)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		if _, err := Gunzip(gz, -1); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkGunzipReadAll is the baseline: what ParseData does, io.ReadAll
// over compress/gzip.
func BenchmarkGunzipReadAll(b *testing.B) {
	gz, _ := benchData(b)
	b.SetBytes(int64(len(gz)))
	b.ReportAllocs()
	start := cpuTime()
	for b.Loop() {
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.ReadAll(zr); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}
