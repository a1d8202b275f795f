package pprofproto

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/cputime"
	"github.com/perflab/perflab/internal/profgen"
	"github.com/perflab/perflab/internal/testprog"
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

// benchBytes runs op on data in the benchmark loop and reports bytes per
// second, allocations and CPU time per operation.
func benchBytes(b *testing.B, data []byte, op func([]byte) error) {
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	start := cputime.Self()
	for b.Loop() {
		if err := op(data); err != nil {
			b.Fatal(err)
		}
	}
	testprog.ReportCPU(b, start)
}

// BenchmarkDecode decodes the uncompressed benchmark profile.
func BenchmarkDecode(b *testing.B) {
	_, raw := benchData(b)
	benchBytes(b, raw, func(raw []byte) error {
		_, err := Decode(raw)
		return err
	})
}

// BenchmarkProfileParse is the baseline: pprof's own decoder on the same
// uncompressed bytes.
func BenchmarkProfileParse(b *testing.B) {
	_, raw := benchData(b)
	benchBytes(b, raw, func(raw []byte) error {
		_, err := profile.ParseData(raw)
		return err
	})
}

// BenchmarkGunzip decompresses the gzipped benchmark profile.
func BenchmarkGunzip(b *testing.B) {
	gz, _ := benchData(b)
	benchBytes(b, gz, func(gz []byte) error {
		_, err := Gunzip(gz, -1)
		return err
	})
}

// BenchmarkGunzipReadAll is the baseline: what ParseData does, io.ReadAll
// over compress/gzip.
func BenchmarkGunzipReadAll(b *testing.B) {
	gz, _ := benchData(b)
	benchBytes(b, gz, func(gz []byte) error {
		zr, err := gzip.NewReader(bytes.NewReader(gz))
		if err != nil {
			return err
		}
		_, err = io.ReadAll(zr)
		return err
	})
}
