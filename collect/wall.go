package collect

import (
	"encoding/binary"
	"io"
	"os"
	"reflect"
	"runtime"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// wallSampler records the stacks of all goroutines at a fixed rate, the
// way fgprof does: a goroutine running, runnable or waiting is sampled
// alike, so a profile shows where wall-clock time goes, not only CPU time.
type wallSampler struct {
	period time.Duration
	start  time.Time
	quit   chan struct{}
	done   chan *wallProfile
}

// wallProfile is what a sampler recorded: per distinct stack, the number
// of samples and the wall time they stand for.
type wallProfile struct {
	period time.Duration
	start  time.Time
	end    time.Duration
	stacks map[string]*wallStack
}

type wallStack struct {
	pcs     []uintptr
	samples int64
	nanos   int64
}

func startWall(hz int) *wallSampler {
	w := &wallSampler{
		period: time.Second / time.Duration(hz),
		start:  time.Now(),
		quit:   make(chan struct{}),
		done:   make(chan *wallProfile, 1),
	}
	go w.run()
	return w
}

// stop ends sampling and returns what was recorded.
func (w *wallSampler) stop() *wallProfile {
	close(w.quit)
	return <-w.done
}

// run samples until stop is called. Each sample is weighted by the time
// since the previous one, so a late tick on a busy machine still accounts
// for the time it covers.
func (w *wallSampler) run() {
	p := &wallProfile{period: w.period, start: w.start, stacks: make(map[string]*wallStack)}
	tick := time.NewTicker(w.period)
	defer tick.Stop()
	var recs []runtime.StackRecord
	var key []byte
	last := time.Now()
sample:
	for {
		select {
		case <-w.quit:
			break sample
		case now := <-tick.C:
			recs = goroutineStacks(recs)
			select {
			case <-w.quit:
				// stop was called before these stacks were taken, so
				// its caller is among them, inside stop: drop them. (A
				// tick ready with quit was taken half the time.)
				break sample
			default:
			}
			weight := now.Sub(last).Nanoseconds()
			last = now
			for i := range recs {
				key = p.add(key, recs[i].Stack(), weight)
			}
		}
	}
	p.end = time.Since(w.start)
	w.done <- p
}

// goroutineStacks returns the stacks of all goroutines, reusing recs.
func goroutineStacks(recs []runtime.StackRecord) []runtime.StackRecord {
	for {
		n, ok := runtime.GoroutineProfile(recs[:cap(recs)])
		if ok {
			return recs[:n]
		}
		recs = make([]runtime.StackRecord, n+n/4+16)
	}
}

// add counts one sample of the stack pcs; key is scratch space.
func (p *wallProfile) add(key []byte, pcs []uintptr, nanos int64) []byte {
	key = key[:0]
	for _, pc := range pcs {
		key = binary.LittleEndian.AppendUint64(key, uint64(pc))
	}
	st := p.stacks[string(key)]
	if st == nil {
		st = &wallStack{pcs: append([]uintptr(nil), pcs...)}
		p.stacks[string(key)] = st
	}
	st.samples++
	st.nanos += nanos
	return key
}

// machinery lists the entry functions of goroutines that belong to the
// profiling itself (this sampler, the signal watcher, the CPU profile and
// trace readers) rather than to the program; their stacks are left out.
var machinery []string

func init() {
	machinery = []string{
		funcName((*wallSampler).run),
		funcName((*Session).watch),
		"runtime/pprof.profileWriter",
		"os/signal.loop",
		"runtime/trace.(*traceMultiplexer)",
	}
}

func funcName(f any) string {
	return runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
}

// isMachinery reports whether a function belongs to the profiling
// machinery.
func isMachinery(name string) bool {
	for _, m := range machinery {
		if strings.HasPrefix(name, m) {
			return true
		}
	}
	return false
}

// Write encodes the recorded samples as a gzipped profile.proto with
// sample types samples/count and wall/nanoseconds.
func (p *wallProfile) Write(w io.Writer) error {
	return p.build().Write(w)
}

// build turns the samples into a symbolized profile.
func (p *wallProfile) build() *profile.Profile {
	exe, _ := os.Executable()
	m := &profile.Mapping{ID: 1, Start: 0, Limit: ^uint64(0), File: exe,
		HasFunctions: true, HasFilenames: true, HasLineNumbers: true, HasInlineFrames: true}
	prof := &profile.Profile{
		SampleType: []*profile.ValueType{
			{Type: "samples", Unit: "count"},
			{Type: "wall", Unit: "nanoseconds"},
		},
		DefaultSampleType: "wall",
		PeriodType:        &profile.ValueType{Type: "wall", Unit: "nanoseconds"},
		Period:            p.period.Nanoseconds(),
		TimeNanos:         p.start.UnixNano(),
		DurationNanos:     p.end.Nanoseconds(),
		Mapping:           []*profile.Mapping{m},
	}
	b := symbolizer{prof: prof, mapping: m, locs: make(map[uintptr]*profile.Location), funcs: make(map[[2]string]*profile.Function)}
	for _, st := range p.stacks {
		locs := make([]*profile.Location, 0, len(st.pcs))
		self := false
		for _, pc := range st.pcs {
			loc := b.location(pc)
			locs = append(locs, loc)
			for _, ln := range loc.Line {
				self = self || isMachinery(ln.Function.Name)
			}
		}
		if self {
			continue
		}
		for _, loc := range locs {
			b.add(loc)
		}
		prof.Sample = append(prof.Sample, &profile.Sample{Location: locs, Value: []int64{st.samples, st.nanos}})
	}
	return prof
}

// symbolizer turns program counters into locations, sharing one location
// per address and one function per name and file. Locations and functions
// enter the profile only through add, so that those of the stacks left out
// (the profiler's own) do not.
type symbolizer struct {
	prof    *profile.Profile
	mapping *profile.Mapping
	locs    map[uintptr]*profile.Location
	funcs   map[[2]string]*profile.Function
}

// location returns the location of a return address, with one line per
// frame inlined at the call.
func (b *symbolizer) location(pc uintptr) *profile.Location {
	if loc := b.locs[pc]; loc != nil {
		return loc
	}
	loc := &profile.Location{Mapping: b.mapping, Address: uint64(pc)}
	frames := runtime.CallersFrames([]uintptr{pc})
	for {
		fr, more := frames.Next()
		if fr.Function != "" || fr.File != "" {
			loc.Line = append(loc.Line, profile.Line{Function: b.function(fr), Line: int64(fr.Line)})
		}
		if !more {
			break
		}
	}
	b.locs[pc] = loc
	return loc
}

// add puts loc and its functions into the profile, numbering them, unless
// they are there already.
func (b *symbolizer) add(loc *profile.Location) {
	if loc.ID != 0 {
		return
	}
	loc.ID = uint64(len(b.prof.Location) + 1)
	b.prof.Location = append(b.prof.Location, loc)
	for _, ln := range loc.Line {
		if fn := ln.Function; fn.ID == 0 {
			fn.ID = uint64(len(b.prof.Function) + 1)
			b.prof.Function = append(b.prof.Function, fn)
		}
	}
}

func (b *symbolizer) function(fr runtime.Frame) *profile.Function {
	key := [2]string{fr.Function, fr.File}
	if fn := b.funcs[key]; fn != nil {
		return fn
	}
	name := fr.Function
	if name == "" {
		name = "unknown"
	}
	fn := &profile.Function{Name: name, SystemName: name, Filename: fr.File}
	b.funcs[key] = fn
	return fn
}
