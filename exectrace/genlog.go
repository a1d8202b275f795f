package exectrace

import (
	"encoding/binary"
	"strings"

	"golang.org/x/exp/trace"
)

// A genLog is one generation's events as the Analyzer reads them, written
// by the goroutine that read the generation on its own (Analyze reads
// several at once) and read back by the Analyzer, in order. Events are
// encoded with varints, about 11 bytes each, twice what they take in the
// trace; strings and stacks are kept once, the stacks as the reader's
// handles, interned only if the Analyzer asks for them.
type genLog struct {
	buf    []byte
	strs   []string
	stacks genStacks
	events int
	err    error // why the reader stopped, after the events it gave

	// for writing
	strIDs    map[string]uint32
	lastStr   string
	lastStrID uint32
	stackIDs  map[trace.Stack]int32
	lastStack trace.Stack
	lastIdx   int32
	named     goBytes // goroutines whose transition's stack the log told
	last      trace.Time
}

// genStacks are the stacks a genLog's events refer to.
type genStacks struct {
	refs []logStack
	ids  []stackID // interned, by index; -1 before
}

type logStack struct {
	s      trace.Stack
	key    string // its PCs
	system bool
}

// newGenLog returns an empty log for a generation of size bytes: its
// events take about twice that.
func newGenLog(size int64) *genLog {
	return &genLog{buf: make([]byte, 0, min(2*size, 1<<30)), strIDs: make(map[string]uint32), stackIDs: make(map[trace.Stack]int32)}
}

var _ Sink = (*genLog)(nil)

// Event appends ev to the log.
func (l *genLog) Event(ev *trace.Event) {
	l.events++
	kind, t := ev.Kind(), ev.Time()
	b := append(l.buf, byte(kind))
	b = binary.AppendUvarint(b, uint64(t-l.last))
	l.last = t
	b = binary.AppendVarint(b, int64(ev.Goroutine()))
	b = binary.AppendVarint(b, int64(ev.Proc()))
	switch kind {
	case trace.EventStateTransition:
		b = l.transition(b, ev)
	case trace.EventSync:
		b = binary.AppendUvarint(append(b, 0), uint64(ev.Sync().N))
	case trace.EventMetric, trace.EventTaskBegin, trace.EventTaskEnd, trace.EventRegionBegin, trace.EventRegionEnd, trace.EventLabel:
		var e event
		e.fromReader(ev)
		b = binary.AppendUvarint(b, uint64(l.str(e.str)))
		b = binary.AppendUvarint(b, e.value)
	case trace.EventRangeBegin, trace.EventRangeActive, trace.EventRangeEnd:
		r := ev.Range()
		b = binary.AppendUvarint(b, uint64(l.str(r.Name)))
		b = append(b, byte(r.Scope.Kind))
		b = binary.AppendVarint(b, scopeID(r.Scope))
	}
	l.buf = b
}

// transition appends a state transition's fields: for a goroutine's, its
// states, ID, reason, the event's stack where the Analyzer may look at it
// (a goroutine leaving Running) and, the first time the goroutine shows
// one in the generation, whether the transition's stack is a runtime
// goroutine's.
func (l *genLog) transition(b []byte, ev *trace.Event) []byte {
	st := ev.StateTransition()
	if st.Resource.Kind != trace.ResourceGoroutine {
		return append(b, 0)
	}
	from, to := st.Goroutine()
	id := st.Resource.Goroutine()
	b = append(b, (byte(from)<<4|byte(to))+1) // 0: not a goroutine's
	b = binary.AppendVarint(b, int64(id))
	b = binary.AppendUvarint(b, uint64(l.str(st.Reason)))
	stk := int32(-1)
	if to == trace.GoRunnable || to == trace.GoWaiting || to == trace.GoSyscall {
		stk = l.stack(ev.Stack())
	}
	b = binary.AppendVarint(b, int64(stk))
	named := byte(0) // 0: not told; 1: a user goroutine's stack; 2: a runtime goroutine's
	if st.Stack != trace.NoStack && l.named.get(id) == 0 {
		l.named.set(id, 1)
		named = 1
		if l.stacks.refs[l.stack(st.Stack)].system {
			named = 2
		}
	}
	return append(b, named)
}

// scopeID is the ID of a range's scope, whatever its kind.
func scopeID(r trace.ResourceID) int64 {
	switch r.Kind {
	case trace.ResourceGoroutine:
		return int64(r.Goroutine())
	case trace.ResourceProc:
		return int64(r.Proc())
	case trace.ResourceThread:
		return int64(r.Thread())
	}
	return 0
}

// resource makes the ResourceID of kind and id.
func resource(kind trace.ResourceKind, id int64) trace.ResourceID {
	switch kind {
	case trace.ResourceGoroutine:
		return trace.MakeResourceID(trace.GoID(id))
	case trace.ResourceProc:
		return trace.MakeResourceID(trace.ProcID(id))
	case trace.ResourceThread:
		return trace.MakeResourceID(trace.ThreadID(id))
	}
	return trace.ResourceID{Kind: kind}
}

func (l *genLog) str(s string) uint32 {
	if s == l.lastStr && len(l.strs) > 0 {
		return l.lastStrID
	}
	i, ok := l.strIDs[s]
	if !ok {
		i = uint32(len(l.strs))
		s = strings.Clone(s) // the generation's tables go with its reader
		l.strs = append(l.strs, s)
		l.strIDs[s] = i
	}
	l.lastStr, l.lastStrID = s, i
	return i
}

// stack returns the index of s in the log's stacks, -1 for no stack.
func (l *genLog) stack(s trace.Stack) int32 {
	if s == trace.NoStack {
		return -1
	}
	if s == l.lastStack {
		return l.lastIdx
	}
	if i, ok := l.stackIDs[s]; ok {
		l.lastStack, l.lastIdx = s, i
		return i
	}
	var key []byte
	root := ""
	for f := range s.Frames() {
		if len(key) < 8*maxFrames {
			key = binary.LittleEndian.AppendUint64(key, f.PC)
		}
		root = f.Func
	}
	i := int32(len(l.stacks.refs))
	l.stacks.refs = append(l.stacks.refs, logStack{s: s, key: string(key), system: isSystemRoot(root)})
	l.stacks.ids = append(l.stacks.ids, -1)
	l.stackIDs[s] = i
	l.lastStack, l.lastIdx = s, i
	return i
}

// id interns the log's stack i into t.
func (g *genStacks) id(t *stackTable, i int32) stackID {
	if i < 0 {
		return 0
	}
	if id := g.ids[i]; id >= 0 {
		return id
	}
	r := g.refs[i]
	t.key = append(t.key[:0], r.key...)
	id, ok := t.ids[r.key]
	if !ok {
		id = t.add(r.s)
	}
	g.ids[i] = id
	return id
}

// A logReader reads a genLog's events back.
type logReader struct {
	l    *genLog
	off  int
	last trace.Time
}

// next decodes the next event into e; false at the end of the log.
func (r *logReader) next(e *event) bool {
	b := r.l.buf
	if r.off >= len(b) {
		return false
	}
	*e = event{kind: trace.EventKind(b[r.off])}
	r.off++
	r.last += trace.Time(r.uvarint())
	e.time = r.last
	e.g, e.p = trace.GoID(r.varint()), trace.ProcID(r.varint())
	switch e.kind {
	case trace.EventStateTransition:
		st := b[r.off]
		r.off++
		if st == 0 {
			break
		}
		st--
		e.goTransition, e.from, e.to = true, trace.GoState(st>>4), trace.GoState(st&15)
		e.goID = trace.GoID(r.varint())
		e.str = r.l.strs[r.uvarint()]
		e.log, e.logStack = &r.l.stacks, int32(r.varint())
		e.named = b[r.off]
		r.off++
	case trace.EventSync:
		r.off++
		e.value = r.uvarint()
	case trace.EventMetric, trace.EventTaskBegin, trace.EventTaskEnd, trace.EventRegionBegin, trace.EventRegionEnd, trace.EventLabel:
		e.str = r.l.strs[r.uvarint()]
		e.value = r.uvarint()
	case trace.EventRangeBegin, trace.EventRangeActive, trace.EventRangeEnd:
		e.str = r.l.strs[r.uvarint()]
		kind := trace.ResourceKind(b[r.off])
		r.off++
		e.scope = resource(kind, r.varint())
	}
	return true
}

func (r *logReader) uvarint() uint64 {
	v, n := binary.Uvarint(r.l.buf[r.off:])
	r.off += n
	return v
}

func (r *logReader) varint() int64 {
	v, n := binary.Varint(r.l.buf[r.off:])
	r.off += n
	return v
}
