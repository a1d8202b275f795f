package goroutines

import "strings"

// A Frame is one call in a goroutine's stack.
type Frame struct {
	// Func is the function as the runtime prints it: "main.main.func1",
	// "net/http.(*conn).serve", "main.F[...]"; "panic" for runtime.gopanic.
	Func string
	// File and Line locate the call; Line is 0 when unknown.
	File string
	Line int
	// Args is the raw argument text between the parentheses, as printed:
	// "0xc00003a710, 0x2, {0x1, 0x2}, 0x5?", "..." for an inlined call,
	// "" for none and for debug=1 and binary profiles, which have no words.
	Args string
}

// Stdlib reports whether the frame is in Go's standard library or runtime:
// the import path's first element has no dot and is not "main", and the
// file, when known, lies under a src/ directory holding that path (GOROOT).
func (f Frame) Stdlib() bool {
	pkg := f.Package()
	first, _, _ := strings.Cut(pkg, "/")
	if pkg == "" || pkg == "main" || strings.Contains(first, ".") {
		return false
	}
	if f.Func == "panic" {
		return true
	}
	if f.File == "" || strings.HasPrefix(f.File, "$GOROOT") || strings.HasPrefix(f.File, "_cgo_") {
		return true
	}
	// The runtime's own packages (internal/runtime/maps, ...) have
	// functions in runtime/*.go.
	return strings.Contains(f.File, "/src/"+pkg+"/") || strings.Contains(f.File, "/src/"+first+"/") ||
		strings.Contains(f.File, "/src/runtime/")
}

// Package returns the import path of the frame's function: "net/http" for
// "net/http.(*conn).serve", "main" for "main.main.func1".
func (f Frame) Package() string {
	name := f.Func
	slash := strings.LastIndexByte(name, '/')
	dot := strings.IndexByte(name[slash+1:], '.')
	if dot < 0 {
		if f.Func == "panic" {
			return "runtime"
		}
		return ""
	}
	return name[:slash+1+dot]
}

// A Goroutine is one goroutine of a dump, or, from a goroutine profile
// (debug=1 text or binary), Count goroutines with the same stack.
type Goroutine struct {
	// ID is the goroutine's id; 0 for profile records, which have none
	// (goroutine 0 of a GOTRACEBACK=crash dump is "g0", the scheduler's).
	ID int64
	// Count is the number of goroutines this record stands for: 1 in a
	// dump, N in a profile.
	Count int
	// State is what the goroutine was doing: "running", "chan receive",
	// "select", "IO wait", ...; empty in profiles, which do not say.
	State string
	// WaitMinutes is how long the goroutine has been blocked, in whole
	// minutes, as printed; 0 under a minute.
	WaitMinutes int
	// Locked reports ", locked to thread".
	Locked bool
	// Leaked reports a goroutine the runtime's leak detector found (the
	// "(leaked)" state of Go 1.26's goroutineleak experiment, or a record
	// of a goroutineleak profile).
	Leaked bool
	// Labels are the goroutine's pprof labels, where the dump shows them.
	Labels []Label
	// Frames are the calls, innermost first.
	Frames []Frame
	// CreatedBy is the go statement that started the goroutine; nil for
	// the main goroutine and when unknown.
	CreatedBy *Frame
	// CreatorID is the id of the goroutine that ran that go statement
	// (Go 1.21+ "created by ... in goroutine N"); 0 when not printed.
	CreatorID int64
	// Elided counts frames the runtime left out ("...N frames elided..."),
	// and ElidedAt is where: the elided frames came before Frames[ElidedAt]
	// (len(Frames) when they were the last).
	Elided, ElidedAt int
	// Truncated reports a stack cut short: the dump ended inside it, or a
	// frame's line was missing.
	Truncated bool
	// Panic is the panic or fatal error message printed before this
	// goroutine's stack, "" for other goroutines.
	Panic string
}

// A Label is one pprof label.
type Label struct {
	Key, Value string
}

// UserFrame returns the index of the first frame outside the standard
// library (the runtime's panic machinery included), or -1.
func (g *Goroutine) UserFrame() int {
	for i, f := range g.Frames {
		if !f.Stdlib() {
			return i
		}
	}
	return -1
}
