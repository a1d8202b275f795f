package collect

import "flag"

// FlagOptions holds the values of the profiling flags that Flags
// registers; they mean what go test's flags of the same names mean.
type FlagOptions struct {
	CPUProfile           string // -cpuprofile: write a CPU profile to this file
	MemProfile           string // -memprofile: write an allocation profile to this file
	MemProfileRate       int    // -memprofilerate: runtime.MemProfileRate while -memprofile records, if > 0
	BlockProfile         string // -blockprofile: write a blocking profile to this file
	BlockProfileRate     int    // -blockprofilerate: runtime.SetBlockProfileRate, if >= 0
	MutexProfile         string // -mutexprofile: write a mutex contention profile to this file
	MutexProfileFraction int    // -mutexprofilefraction: runtime.SetMutexProfileFraction, if >= 0
	Trace                string // -trace: write an execution trace to this file
}

// Flags registers go test's profiling flags on fs: -cpuprofile,
// -memprofile, -memprofilerate, -blockprofile, -blockprofilerate,
// -mutexprofile, -mutexprofilefraction and -trace. After fs is parsed,
// the result's Start begins what the flags ask for:
//
//	prof := collect.Flags(flag.CommandLine)
//	flag.Parse()
//	defer prof.Start().Stop()
//
// As with go test, -memprofile writes the allocs profile (every
// allocation since the program began, after a garbage collection).
func Flags(fs *flag.FlagSet) *FlagOptions {
	f := new(FlagOptions)
	fs.StringVar(&f.CPUProfile, "cpuprofile", "", "write a cpu profile to `file`")
	fs.StringVar(&f.MemProfile, "memprofile", "", "write an allocation profile to `file`")
	fs.IntVar(&f.MemProfileRate, "memprofilerate", 0, "set memory allocation profiling `rate` (see runtime.MemProfileRate)")
	fs.StringVar(&f.BlockProfile, "blockprofile", "", "write a goroutine blocking profile to `file`")
	fs.IntVar(&f.BlockProfileRate, "blockprofilerate", 1, "set blocking profile `rate` (see runtime.SetBlockProfileRate)")
	fs.StringVar(&f.MutexProfile, "mutexprofile", "", "write a mutex contention profile to `file`")
	fs.IntVar(&f.MutexProfileFraction, "mutexprofilefraction", 1, "if >= 0, calls runtime.SetMutexProfileFraction()")
	fs.StringVar(&f.Trace, "trace", "", "write an execution trace to `file`")
	return f
}

// Options returns the Start options the flags ask for.
func (f *FlagOptions) Options() []Option {
	var opts []Option
	if f.CPUProfile != "" {
		opts = append(opts, File(CPU, f.CPUProfile))
	}
	if f.MemProfile != "" {
		opts = append(opts, File(Allocs, f.MemProfile))
		if f.MemProfileRate > 0 {
			opts = append(opts, MemProfileRate(f.MemProfileRate))
		}
	}
	if f.BlockProfile != "" && f.BlockProfileRate >= 0 {
		opts = append(opts, File(Block, f.BlockProfile), BlockProfileRate(f.BlockProfileRate))
	}
	if f.MutexProfile != "" && f.MutexProfileFraction >= 0 {
		opts = append(opts, File(Mutex, f.MutexProfile), MutexProfileFraction(f.MutexProfileFraction))
	}
	if f.Trace != "" {
		opts = append(opts, File(Trace, f.Trace))
	}
	return opts
}

// Start begins a session with the flags' options followed by opts.
func (f *FlagOptions) Start(opts ...Option) *Session {
	return Start(append(f.Options(), opts...)...)
}
