package exectrace

import "golang.org/x/exp/trace"

// An event is what the Analyzer reads of one trace.Event. Analyzer.Event
// fills it from the reader's event; a generation's log (genlog.go),
// written on another core, gives it back decoded.
type event struct {
	kind trace.EventKind
	time trace.Time
	g    trace.GoID   // the goroutine the event happened on
	p    trace.ProcID // the P it happened on
	// goTransition says the event is a goroutine's change of state: goID's,
	// from one state to the other, for reason (in str).
	goTransition bool
	goID         trace.GoID
	from, to     trace.GoState
	// str is the transition's reason, the range's name, the label, the
	// metric's name or the task's or region's type.
	str string
	// value is the metric's value, the task's ID or the Sync's number.
	value uint64
	scope trace.ResourceID // the range's
	// The event's stack and the transition's, looked up only when asked
	// for (eventStack, transSystem) since finding them costs: in the
	// reader's event src, or in log, the log's stack and named (0: not
	// told, 1: a user goroutine's transition stack, 2: a runtime one's).
	src      *trace.Event
	log      *genStacks
	logStack int32
	named    byte
	stackID  stackID // 1 + the event's stack, once looked up
}

// fromReader fills e from the reader's event ev, which must stay valid
// while e is used.
func (e *event) fromReader(ev *trace.Event) {
	*e = event{kind: ev.Kind(), time: ev.Time(), g: ev.Goroutine(), p: ev.Proc(), src: ev}
	switch e.kind {
	case trace.EventStateTransition:
		st := ev.StateTransition()
		if st.Resource.Kind == trace.ResourceGoroutine {
			e.goTransition, e.goID, e.str = true, st.Resource.Goroutine(), st.Reason
			e.from, e.to = st.Goroutine()
		}
	case trace.EventSync:
		e.value = uint64(ev.Sync().N)
	case trace.EventMetric:
		m := ev.Metric()
		e.str = m.Name
		if m.Value.Kind() == trace.ValueUint64 {
			e.value = m.Value.Uint64()
		}
	case trace.EventRangeBegin, trace.EventRangeActive, trace.EventRangeEnd:
		r := ev.Range()
		e.str, e.scope = r.Name, r.Scope
	case trace.EventTaskBegin, trace.EventTaskEnd:
		tk := ev.Task()
		e.str, e.value = tk.Type, uint64(tk.ID)
	case trace.EventRegionBegin, trace.EventRegionEnd:
		e.str = ev.Region().Type
	case trace.EventLabel:
		e.str = ev.Label().Label
	}
}

// eventStack interns the event's stack, once.
func (t *stackTable) eventStack(e *event) stackID {
	if e.stackID == 0 {
		var id stackID
		switch {
		case e.log != nil:
			id = e.log.id(t, e.logStack)
		case e.src != nil:
			id = t.id(e.src.Stack())
		}
		e.stackID = id + 1
	}
	return e.stackID - 1
}

// transSystem reports whether the transition e has a stack (ok) and
// whether it is a runtime goroutine's.
func (t *stackTable) transSystem(e *event) (system, ok bool) {
	if e.log != nil {
		return e.named == 2, e.named != 0
	}
	if e.src == nil {
		return false, false
	}
	s := e.src.StateTransition().Stack
	if s == trace.NoStack {
		return false, false
	}
	return t.system(s), true
}
