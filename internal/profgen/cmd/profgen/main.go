// Command profgen writes a large, realistic Go CPU profile for
// benchmarks; see package profgen.
//
//	go run ./internal/profgen/cmd/profgen -o big.pprof -src /tmp/src
//
// writes the default benchmark profile (500k samples) to big.pprof, with
// function file names under /tmp/src, and the matching Go source files
// there so that list finds them. With -cache DIR instead of -o, it
// prints the path of the profile kept in DIR for these flags, generating
// it (with its sources) only if it is not there yet.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/internal/profgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintf(os.Stderr, "profgen: %v\n", err)
		os.Exit(1)
	}
}

func run() error {
	c := profgen.Default
	out := flag.String("o", "", "output `file` (gzipped profile.proto); required unless -cache")
	cache := flag.String("cache", "", "keep the profile in `dir` and print its path")
	src := flag.String("src", "", "write source files under `dir` and name them in the profile")
	flag.Uint64Var(&c.Seed, "seed", c.Seed, "random seed")
	flag.IntVar(&c.Samples, "samples", c.Samples, "number of samples")
	flag.IntVar(&c.Locations, "locations", c.Locations, "number of locations")
	flag.IntVar(&c.Functions, "functions", c.Functions, "number of functions")
	flag.IntVar(&c.MaxDepth, "depth", c.MaxDepth, "deepest stack, in frames")
	flag.Parse()
	if *cache != "" {
		file, err := profgen.Cached(*cache, c)
		if err == nil {
			fmt.Println(file)
		}
		return err
	}
	if *out == "" || flag.NArg() > 0 {
		flag.Usage()
		os.Exit(2)
	}
	if *src != "" {
		abs, err := filepath.Abs(*src)
		if err != nil {
			return err
		}
		c.SourceRoot = abs
	}
	p, err := profgen.Generate(c)
	if err != nil {
		return err
	}
	if *src != "" {
		if err := profgen.WriteSources(p, c.SourceRoot); err != nil {
			return err
		}
	}
	f, err := os.Create(*out)
	if err != nil {
		return err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
