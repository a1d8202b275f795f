package collect

import (
	"fmt"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
)

// Kind names one profile that Start can write.
type Kind string

// The kinds of profile Start writes. The names are those of runtime/pprof,
// plus Trace (an execution trace) and Wall (wall-clock samples of every
// goroutine, on and off CPU).
const (
	CPU          Kind = "cpu"
	Heap         Kind = "heap"
	Allocs       Kind = "allocs"
	Goroutine    Kind = "goroutine"
	Block        Kind = "block"
	Mutex        Kind = "mutex"
	ThreadCreate Kind = "threadcreate"
	Trace        Kind = "trace"
	Wall         Kind = "wall"
)

// GoroutineLeak is the runtime's goroutineleak profile: goroutines blocked
// on objects no running goroutine can reach. Go 1.26 has it when built
// with GOEXPERIMENT=goroutineleakprofile (Go 1.27 always); it is in Kinds,
// and so written and served, only where the runtime has it.
const GoroutineLeak Kind = "goroutineleak"

// Kinds lists every kind in the order Start writes them.
var Kinds = []Kind{CPU, Wall, Trace, Heap, Allocs, Goroutine, Block, Mutex, ThreadCreate}

func init() {
	if pprof.Lookup(string(GoroutineLeak)) != nil {
		Kinds = append(Kinds, GoroutineLeak)
	}
}

// FileName is the name of the file a kind is written to inside the
// directory given by Dir: "cpu.pprof", "heap.pprof", ..., "trace.out".
func (k Kind) FileName() string {
	if k == Trace {
		return "trace.out"
	}
	return string(k) + ".pprof"
}

func (k Kind) valid() bool { return slices.Contains(Kinds, k) }

// Environment variables read by FromEnv and by Start.
const (
	// EnvProfile is a comma-separated list of kinds, such as "cpu,heap",
	// or "all".
	EnvProfile = "PERFLAB_PROFILE"
	// EnvProfileDir is the directory the files go to; "." if unset.
	EnvProfileDir = "PERFLAB_PROFILE_DIR"
)

// ParseKinds parses a comma-separated list of kinds such as "cpu,heap" or
// "all", case-insensitively; "mem" means heap. Spaces around names are
// ignored, as are empty items and repeats; an unknown name is an error
// that names it.
func ParseKinds(s string) ([]Kind, error) {
	var kinds []Kind
	seen := make(map[Kind]bool)
	for item := range strings.SplitSeq(s, ",") {
		name := strings.ToLower(strings.TrimSpace(item))
		if name == "" {
			continue
		}
		if name == "all" {
			return append([]Kind(nil), Kinds...), nil
		}
		k := Kind(name)
		if name == "mem" {
			k = Heap
		}
		if !k.valid() {
			return nil, fmt.Errorf("unknown profile kind %q (want a list of %s, or all)", clip(item, 40), kindList())
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	return kinds, nil
}

func kindList() string {
	names := make([]string, len(Kinds))
	for i, k := range Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ",")
}

// FromEnv returns the options that PERFLAB_PROFILE and PERFLAB_PROFILE_DIR
// ask for: none if PERFLAB_PROFILE is unset or empty. Start applies them
// itself after its own options, so the environment of a relaunched program
// wins over what its code asks for; FromEnv is for callers that want to
// inspect or report them.
func FromEnv() ([]Option, error) {
	spec := os.Getenv(EnvProfile)
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	kinds, err := ParseKinds(spec)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvProfile, err)
	}
	opts := []Option{Profiles(kinds...)}
	if dir := os.Getenv(EnvProfileDir); dir != "" {
		opts = append(opts, Dir(dir))
	}
	return opts, nil
}

// clip shortens s to at most n bytes for an error message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}
