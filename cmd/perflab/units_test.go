package main

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/internal/reporttest"
)

// unitSpellings are the ways profiles spell units, pprof's and others.
var unitSpellings = []string{
	"ns", "nanoseconds", "us", "microseconds", "µs" /* U+00B5 */, "μs" /* U+03BC */, "ms", "s", "seconds", "hours",
	"B", "bytes", "kB", "KB", "kilobytes", "MB", "GB", "count", "gcu",
}

// writeUnitProfile writes a two-function profile whose values are in unit.
func writeUnitProfile(t *testing.T, path, unit string, scale int64) {
	a := &profile.Function{ID: 1, Name: "main.a"}
	b := &profile.Function{ID: 2, Name: "main.b"}
	la := &profile.Location{ID: 1, Line: []profile.Line{{Function: a}}}
	lb := &profile.Location{ID: 2, Line: []profile.Line{{Function: b}}}
	p := &profile.Profile{
		SampleType: []*profile.ValueType{{Type: "work", Unit: unit}},
		Function:   []*profile.Function{a, b}, Location: []*profile.Location{la, lb},
		Sample: []*profile.Sample{
			{Location: []*profile.Location{la}, Value: []int64{1500 * scale}},
			{Location: []*profile.Location{lb, la}, Value: []int64{2_500_000 * scale}},
		},
	}
	reporttest.WriteProfile(t, p, path)
}

// TestUnitsLikePprof prints and merges profiles in every unit spelling
// with perflab and with go tool pprof, and wants the same output, or both
// to fail: converting to other units, scaling to the unit a flag names,
// and merging with a profile in nanoseconds or bytes.
func TestUnitsLikePprof(t *testing.T) {
	reporttest.Pprof(t)
	dir := t.TempDir()
	writeUnitProfile(t, filepath.Join(dir, "ns.pb"), "nanoseconds", 1)
	writeUnitProfile(t, filepath.Join(dir, "bytes.pb"), "bytes", 1)
	for i, u := range unitSpellings {
		f := fmt.Sprintf("u%d.pb", i)
		writeUnitProfile(t, filepath.Join(dir, f), u, 3)
		for _, args := range [][]string{
			{"top", f}, {"top", "-unit=ms", f}, {"top", "-unit=kB", f}, {"top", "-unit=" + u, "ns.pb"},
			{"top", "-unit=" + u, "bytes.pb"}, {"top", f, "ns.pb"}, {"top", "bytes.pb", f},
		} {
			t.Run(u+" "+strings.Join(args[1:], " "), func(t *testing.T) {
				t.Parallel()
				compareArgsWithPprof(t, dir, args)
			})
		}
	}
}

// compareArgsWithPprof runs "perflab CMD ARGS" and "pprof -CMD ARGS" in dir
// and wants the same stdout, or both to fail.
func compareArgsWithPprof(t *testing.T, dir string, args []string) {
	pargs := append([]string{"-" + args[0]}, args[1:]...)
	want, stderr, perr := reporttest.RunPprof(t, dir, nil, pargs...)
	largs := append([]string(nil), args...)
	for i, a := range largs {
		if strings.HasSuffix(a, ".pb") {
			largs[i] = filepath.Join(dir, a)
		}
	}
	var got, errw bytes.Buffer
	err := run(context.Background(), strings.NewReader(""), &got, &errw, largs)
	switch {
	case (perr != nil) != (err != nil):
		t.Fatalf("pprof: %v %s; perflab: %v", perr, stderr, err)
	case err == nil && !bytes.Equal(got.Bytes(), want):
		t.Errorf("perflab %s differs from pprof: %s", strings.Join(args, " "), reporttest.FirstDiff(got.Bytes(), want))
	}
}
