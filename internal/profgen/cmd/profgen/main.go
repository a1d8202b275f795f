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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/perflab/perflab/internal/profgen"
)

// errUsage reports wrong arguments, once the usage has been printed.
var errUsage = errors.New("usage")

func main() {
	switch err := run(os.Args[1:], os.Stdout, os.Stderr); {
	case err == nil, errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	default:
		fmt.Fprintf(os.Stderr, "profgen: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stdout, stderr io.Writer) error {
	c := profgen.Default
	fs := flag.NewFlagSet("profgen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "output `file` (gzipped profile.proto); required unless -cache")
	cache := fs.String("cache", "", "keep the profile in `dir` and print its path")
	src := fs.String("src", "", "write source files under `dir` and name them in the profile")
	fs.Uint64Var(&c.Seed, "seed", c.Seed, "random seed")
	fs.IntVar(&c.Samples, "samples", c.Samples, "number of samples")
	fs.IntVar(&c.Locations, "locations", c.Locations, "number of locations")
	fs.IntVar(&c.Functions, "functions", c.Functions, "number of functions")
	fs.IntVar(&c.MaxDepth, "depth", c.MaxDepth, "deepest stack, in frames")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if *cache != "" {
		file, err := profgen.Cached(*cache, c)
		if err == nil {
			fmt.Fprintln(stdout, file)
		}
		return err
	}
	if *out == "" || fs.NArg() > 0 {
		fs.Usage()
		return errUsage
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
