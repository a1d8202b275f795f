package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/atomicfile"
	"github.com/perflab/perflab/internal/term"
	"github.com/perflab/perflab/store"
)

var queryCmd = &command{
	name:     "query",
	summary:  "write the merged profile of a selection of a store",
	synopsis: `perflab query [-store STORE] [-from TIME] [-until TIME] [-type TYPE] [-o FILE] SELECTOR`,
	doc: `
Query writes the merge of the profiles a selection picks in a store (the
directory or ClickHouse database of perflab server, or a running server's
URL): every sample type, with lines, inlined frames, mappings and labels,
as gzipped profile.proto, to FILE, or to standard output when it is not a
terminal. Every perflab report reads it, and so does go tool pprof.

SELECTOR is a label selector in Prometheus syntax, as in Grafana
Pyroscope: {service_name="api", version=~"1\\.4.*"}, with =, !=, =~ and
!~; it may end with a range of its own, @FROM..UNTIL. Any report takes the
same selection as its SOURCE when -store or $PERFLAB_STORE is given. See
docs/server.md.
`,
	examples: `
perflab query -store ./perflab-data -o api.pb.gz '{service_name="api"}'
perflab query -store http://127.0.0.1:4040 -from -24h -type heap '{service_name="api"}' > heap.pb.gz
perflab query -store http://127.0.0.1:4040 '{service_name="api"}@-14d..-7d' | perflab top -
`,
	run: func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer, args []string) error {
		return runQuery(ctx, false, stdout, stderr, args)
	},
}

var pgoCmd = &command{
	name:     "pgo",
	summary:  "write a CPU profile of a selection for go build -pgo",
	synopsis: `perflab pgo [-store STORE] [-from TIME] [-until TIME] [-o FILE] SELECTOR`,
	doc: `
Pgo writes the CPU profile of the selection, merged, for Go's
profile-guided optimization: with the inlined frames and the functions'
start lines that the compiler needs, and without the pprof labels and the
other sample types it does not read, to FILE (default default.pgo, which
go build uses for the main package of its directory). Refresh it as the
code and its load change, for instance before each release: the compiler
accepts a profile of older code, and what it tells of hot calls ages
slowly. See docs/server.md.
`,
	examples: `
perflab pgo -store http://127.0.0.1:4040 -from -7d -o cmd/api/default.pgo '{service_name="api"}'
go build ./cmd/api
`,
	run: func(ctx context.Context, _ io.Reader, stdout, stderr io.Writer, args []string) error {
		return runQuery(ctx, true, stdout, stderr, args)
	},
}

// runQuery runs query, or pgo if pgo.
func runQuery(ctx context.Context, pgo bool, stdout, stderr io.Writer, args []string) error {
	name, outHelp := "query", "write the profile to `FILE` (default standard output, if it is not a terminal)"
	if pgo {
		name, outHelp = "pgo", "write the profile to `FILE`"
	}
	fs := newFlagSet(name)
	sel := addSelectionFlags(fs, !pgo)
	out := fs.String("o", "", outHelp)
	if pgo {
		*out = "default.pgo"
		fs.Lookup("o").DefValue = *out
	}
	token := fs.String("token", "", "the `TOKEN` of a perflab server (default $"+tokenEnv+", which ps does not show)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usageErrorf("want one SELECTOR, got %d arguments", fs.NArg())
	}
	if *out == "" && term.IsTTY(stdout) {
		return usageErrorf("standard output is a terminal: give -o FILE or redirect it")
	}
	if *token == "" {
		*token = os.Getenv(tokenEnv)
	}
	sr, err := sel.reader(*token)
	if err != nil {
		return err
	}
	defer sr.Close()
	src := fs.Arg(0)
	if _, err := sr.selection(src); err != nil {
		return usageErrorf("%v", err)
	}
	p, err := sr.merge(ctx, src)
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	if pgo {
		if p, err = pgoProfile(p, stderr); err != nil {
			return err
		}
	}
	if *out == "" {
		return p.Write(stdout)
	}
	return atomicfile.Write(*out, p.Write)
}

// pgoProfile returns p as go build -pgo reads it best: its CPU time alone,
// without pprof labels, equal stacks merged. It warns when p's functions
// have no start lines, without which the compiler cannot tell call sites
// apart.
func pgoProfile(p *profile.Profile, stderr io.Writer) (*profile.Profile, error) {
	cpu, _ := store.LookupKind("cpu")
	i := -1
	for j, st := range p.SampleType {
		if cpu.Type.Matches(st) {
			i = j
		}
	}
	if i < 0 {
		return nil, errors.New("the merged profile has no cpu/nanoseconds samples")
	}
	p = p.Copy()
	p.SampleType = p.SampleType[i : i+1]
	p.DefaultSampleType = ""
	for _, s := range p.Sample {
		s.Value = s.Value[i : i+1]
		s.Label, s.NumLabel, s.NumUnit = nil, nil, nil
	}
	merged, err := profile.Merge([]*profile.Profile{p})
	if err != nil {
		return nil, fmt.Errorf("merging the profile's stacks: %w", err)
	}
	startLines := false
	for _, f := range merged.Function {
		startLines = startLines || f.StartLine != 0
	}
	if !startLines {
		fmt.Fprintln(stderr, "warning: no function of the profile has a start line: go build -pgo will tell few call sites apart (profiles from Go 1.20 and older lack them)")
	}
	return merged, nil
}
