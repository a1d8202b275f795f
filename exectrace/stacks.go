package exectrace

import (
	"encoding/binary"
	"strings"

	"golang.org/x/exp/trace"
)

// maxFrames is how deep a stack is kept: go tool trace keeps the first
// 129 frames of a stack and tells stacks apart by their first 128 PCs.
const maxFrames = 129

// maxStacks bounds the distinct stacks kept; later ones are counted under
// one "(other stacks)" entry, so memory stays bounded on any trace.
const maxStacks = 1 << 17

// A Frame is one call in a stack, leaf first.
type Frame struct {
	PC   uint64
	Func string
	File string
	Line uint64
}

// stackID indexes stackTable.stacks; 0 is the empty stack.
type stackID int32

// A stackTable interns stacks by content. x/exp/trace's Stack handles are
// valid within one generation and hold its tables alive, so they are
// translated to stackIDs through a cache that is dropped at each
// generation.
//
// go tool trace tells stacks apart by their first 128 PCs, zero-padded:
// stacks that differ only by trailing zero PCs, such as the empty stack
// and one made of a single 0x0 frame, are one to it, shown with the
// frames of the one it met last. Each such stack has its own stackID
// here, and canon maps it to the first of them, by which costs add up.
type stackTable struct {
	ids    map[string]stackID // by all the PCs
	keys   map[string]stackID // by the PCs go tool trace compares: the first stack with them
	stacks [][]Frame
	canon  []stackID // by stackID
	gen    map[trace.Stack]stackID
	sys    map[trace.Stack]bool // per generation too
	last   trace.Stack          // the last stack asked for, and its id
	lastID stackID
	key    []byte
	funcs  map[string]string // interned function and file names
}

func newStackTable() *stackTable {
	return &stackTable{ids: map[string]stackID{"": 0}, keys: map[string]stackID{"": 0}, stacks: [][]Frame{nil}, canon: []stackID{0},
		gen: make(map[trace.Stack]stackID), sys: make(map[trace.Stack]bool), funcs: make(map[string]string)}
}

// newGeneration drops the per-generation cache.
func (t *stackTable) newGeneration() {
	clear(t.gen)
	clear(t.sys)
	t.last, t.lastID = trace.NoStack, 0
}

// system reports whether s is the stack of a runtime goroutine, whose
// root function is in package runtime (other than runtime.main), as go
// tool trace tells them apart, or the tracer's own (runtime/trace).
func (t *stackTable) system(s trace.Stack) bool {
	if v, ok := t.sys[s]; ok {
		return v
	}
	root := ""
	for f := range s.Frames() {
		root = f.Func
	}
	v := isSystemRoot(root)
	t.sys[s] = v
	return v
}

// isSystemRoot reports whether a stack whose root function is root is a
// runtime goroutine's.
func isSystemRoot(root string) bool {
	return strings.HasPrefix(root, "runtime.") && root != "runtime.main" || strings.HasPrefix(root, "runtime/trace.")
}

// id returns the stackID of s; canon[id] is the stack costs add up by.
func (t *stackTable) id(s trace.Stack) stackID {
	if s == trace.NoStack {
		return 0
	}
	if s == t.last {
		return t.lastID
	}
	if id, ok := t.gen[s]; ok {
		t.last, t.lastID = s, id
		return id
	}
	t.key = t.key[:0]
	for f := range s.Frames() {
		t.key = binary.LittleEndian.AppendUint64(t.key, f.PC)
		if len(t.key) == 8*maxFrames {
			break
		}
	}
	id, ok := t.ids[string(t.key)]
	if !ok {
		id = t.add(s)
	}
	t.gen[s] = id
	t.last, t.lastID = s, id
	return id
}

// add interns the stack s, whose PCs are in t.key.
func (t *stackTable) add(s trace.Stack) stackID {
	if len(t.stacks) >= maxStacks {
		return t.overflow()
	}
	id := stackID(len(t.stacks))
	t.ids[string(t.key)] = id
	t.stacks = append(t.stacks, t.frames(s))
	// go tool trace compares the first 128 PCs, zero-padded: trailing
	// zero PCs make no difference.
	key := t.key[:min(len(t.key), 8*(maxFrames-1))]
	for len(key) >= 8 && binary.LittleEndian.Uint64(key[len(key)-8:]) == 0 {
		key = key[:len(key)-8]
	}
	c, ok := t.keys[string(key)]
	if !ok {
		c = id
		t.keys[string(key)] = id
	}
	t.canon = append(t.canon, c)
	return id
}

// frames copies the frames of s, interning names.
func (t *stackTable) frames(s trace.Stack) []Frame {
	var fs []Frame
	for f := range s.Frames() {
		fs = append(fs, Frame{PC: f.PC, Func: t.intern(f.Func), File: t.intern(f.File), Line: f.Line})
		if len(fs) >= maxFrames {
			break
		}
	}
	return fs
}

func (t *stackTable) intern(s string) string {
	if v, ok := t.funcs[s]; ok {
		return v
	}
	s = string([]byte(s)) // do not keep the generation's string table alive
	t.funcs[s] = s
	return s
}

// overflow returns the stack that stands for all stacks beyond maxStacks.
func (t *stackTable) overflow() stackID {
	const key = "\xff(other stacks)"
	if id, ok := t.ids[key]; ok {
		return id
	}
	id := stackID(len(t.stacks))
	t.ids[key] = id
	t.stacks = append(t.stacks, []Frame{{Func: "(other stacks)"}})
	t.canon = append(t.canon, id)
	return id
}

// A stackCost is the time and count charged to one stack.
type stackCost struct {
	Count int64
	Time  int64 // nanoseconds
	// shown is the stack a profile shows: of the stacks that add up
	// here, the one charged last in go tool trace's order, seq.
	shown stackID
	seq   int64
}

// A costTable sums costs by stack, indexed by stackID.
type costTable struct{ c []stackCost }

func (t *costTable) get(id stackID) *stackCost {
	if int(id) >= len(t.c) {
		t.c = append(t.c, make([]stackCost, int(id)+1-len(t.c))...)
	}
	return &t.c[id]
}

// add charges one interval of d nanoseconds to key, an interval of the
// stack id that ended seq-th in go tool trace's order.
func (t *costTable) add(key, id stackID, d, seq int64) {
	sc := t.get(key)
	sc.Count++
	sc.Time += d
	if seq >= sc.seq {
		sc.shown, sc.seq = id, seq
	}
}

func (t *costTable) addCount(id stackID)         { t.get(id).Count++ }
func (t *costTable) addTime(id stackID, d int64) { t.get(id).Time += d }

// each calls f for every stack with a cost, in stackID order.
func (t *costTable) each(f func(id stackID, c stackCost)) {
	for i, c := range t.c {
		if c != (stackCost{}) {
			f(stackID(i), c)
		}
	}
}
