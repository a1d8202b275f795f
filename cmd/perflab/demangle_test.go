package main

import (
	"testing"

	"github.com/perflab/perflab/internal/reporttest"
)

// TestDemangledNamesMatchPprof compares perflab's reports with go tool
// pprof's on a profile of C++ names (mangled, demangled, look-alikes) and
// Go generic and method names, which pprof's symbolizer demangles or
// simplifies on loading: every report must show pprof's names.
func TestDemangledNamesMatchPprof(t *testing.T) {
	reporttest.Pprof(t)
	dir := t.TempDir()
	reporttest.WriteNamesProfile(t, dir, reporttest.DemangleCases)
	p := &reporttest.Profiles{Dir: dir}
	files := []string{"names.pb.gz"}
	for _, c := range []conformanceCase{
		{cmd: "top"}, {cmd: "top", flags: []string{"-cum"}}, {cmd: "tree"}, {cmd: "traces"}, {cmd: "raw"},
		{cmd: "peek", rx: "."}, {cmd: "peek", rx: "push_back"}, {cmd: "list", rx: "foo::"},
		{cmd: "list", rx: "main"}, {cmd: "top", flags: []string{"-focus=img"}}, {cmd: "top", flags: []string{"-show=std::vector::"}},
	} {
		c.files = files
		t.Run(c.name(), func(t *testing.T) { compareWithPprof(t, p, c) })
	}
	t.Run("dot", func(t *testing.T) { compareDot(t, dir, []string{p.Path(files[0])}) })
}
