package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/perflab/perflab/exectrace"
	"golang.org/x/exp/trace"
)

// A stackAnswer is the JSON of /ui/timeline/stack: what P ran at a time.
type stackAnswer struct {
	Proc      int          `json:"proc"`
	AtNs      int64        `json:"at_ns"`
	Goroutine int64        `json:"goroutine"` // 0 when the P was idle
	FromNs    int64        `json:"from_ns"`   // when it began running on the P
	UntilNs   int64        `json:"until_ns"`  // when it stopped, -1 if not in the generation
	Then      string       `json:"then"`      // the state it went to, and why
	Resumed   []stackFrame `json:"resumed"`   // where it resumed running
	Stopped   []stackFrame `json:"stopped"`   // where it stopped
	Text      string       `json:"text"`
}

type stackFrame struct {
	Func string `json:"func"`
	File string `json:"file"`
	Line uint64 `json:"line"`
}

// maxStackFrames bounds the frames of a stack answer.
const maxStackFrames = 64

// stack answers ?t=NS&p=PROC with the goroutine P ran at that time.
func (s *TraceServer) stack(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	at, err1 := strconv.ParseInt(q.Get("t"), 10, 64)
	p, err2 := strconv.Atoi(q.Get("p"))
	if err1 != nil || err2 != nil || at < 0 || p < 0 {
		http.Error(w, fmt.Sprintf("stack: URL parameters t=%q p=%q: want a time in nanoseconds and a P number", q.Get("t"), q.Get("p")), http.StatusBadRequest)
		return
	}
	told := s.ix.Origin() + trace.Time(s.ix.ToldFrom(time.Duration(at), time.Duration(at+1)))
	f := &stackFinder{origin: s.ix.Origin(), told: told, cur: trace.NoGoroutine, proc: trace.ProcID(p), at: s.ix.Origin() + trace.Time(at), ans: stackAnswer{Proc: p, AtNs: at, UntilNs: -1}}
	s.read.Lock()
	_, err := s.ix.ReadWindow(s.r, time.Duration(at), time.Duration(at+1), f)
	s.read.Unlock()
	var te *exectrace.TruncatedError
	if err != nil && !errors.As(err, &te) {
		http.Error(w, "stack: "+err.Error(), http.StatusInternalServerError)
		return
	}
	a := f.answer()
	body, err := json.Marshal(a)
	if err != nil {
		http.Error(w, "stack: "+err.Error(), http.StatusInternalServerError)
		return
	}
	write(w, r, http.StatusOK, "application/json", body)
}

// A stackFinder follows the goroutines one P runs up to a time, then
// the one running at that time until it stops.
type stackFinder struct {
	origin  trace.Time
	proc    trace.ProcID
	at      trace.Time
	cur     trace.GoID // running on proc, NoGoroutine if none
	since   trace.Time
	resumed trace.Stack
	frozen  bool // at has passed: cur is the answer
	seen    bool // an event
	first   trace.Time
	told    trace.Time // from when the events read tell what goroutines do (Index.ToldFrom)
	done    bool
	ans     stackAnswer
}

func (f *stackFinder) Event(ev *trace.Event) {
	if !f.seen {
		f.seen, f.first = true, ev.Time()
	}
	if f.done || ev.Kind() != trace.EventStateTransition {
		return
	}
	st := ev.StateTransition()
	if st.Resource.Kind != trace.ResourceGoroutine {
		return
	}
	id := st.Resource.Goroutine()
	from, to := st.Goroutine()
	// A goroutine's first state in the events read is its state since
	// they began, even when the runtime tells it after at.
	undetermined := from == trace.GoUndetermined
	if ev.Time() > f.at && !f.frozen && !(undetermined && to == trace.GoRunning && ev.Proc() == f.proc && f.cur == trace.NoGoroutine) {
		f.freeze()
	}
	switch {
	case !f.frozen && to == trace.GoRunning && from != trace.GoRunning && ev.Proc() == f.proc:
		f.cur, f.since, f.resumed = id, ev.Time(), stackOf(ev, st)
		if undetermined {
			f.since = max(f.first, f.told)
		}
	case id == f.cur && f.cur != trace.NoGoroutine && from == trace.GoRunning && to != trace.GoRunning:
		if !f.frozen {
			f.cur = trace.NoGoroutine
			return
		}
		f.ans.UntilNs = int64(ev.Time() - f.origin)
		f.ans.Then = to.String()
		if st.Reason != "" {
			f.ans.Then += " (" + st.Reason + ")"
		}
		f.ans.Stopped = frames(stackOf(ev, st))
		f.done = true
	}
}

func (f *stackFinder) freeze() {
	f.frozen = true
	if f.cur == trace.NoGoroutine {
		f.done = true
		return
	}
	f.ans.Goroutine = int64(f.cur)
	f.ans.FromNs = int64(f.since - f.origin)
	f.ans.Resumed = frames(f.resumed)
}

func (f *stackFinder) answer() stackAnswer {
	if !f.frozen {
		f.freeze() // the window ended before at
	}
	a := f.ans
	switch {
	case a.Goroutine == 0:
		a.Text = fmt.Sprintf("P%d ran no goroutine at %v", a.Proc, time.Duration(a.AtNs))
	case a.UntilNs < 0:
		a.Text = fmt.Sprintf("P%d ran goroutine %d at %v, since %v", a.Proc, a.Goroutine, time.Duration(a.AtNs), time.Duration(a.FromNs))
	default:
		a.Text = fmt.Sprintf("P%d ran goroutine %d at %v, from %v to %v, then %s", a.Proc, a.Goroutine,
			time.Duration(a.AtNs), time.Duration(a.FromNs), time.Duration(a.UntilNs), a.Then)
	}
	return a
}

// stackOf returns the stack of the goroutine making a transition.
func stackOf(ev *trace.Event, st trace.StateTransition) trace.Stack {
	if st.Stack != trace.NoStack {
		return st.Stack
	}
	return ev.Stack()
}

func frames(s trace.Stack) []stackFrame {
	out := []stackFrame{}
	if s == trace.NoStack {
		return out
	}
	for fr := range s.Frames() {
		out = append(out, stackFrame{Func: fr.Func, File: fr.File, Line: fr.Line})
		if len(out) >= maxStackFrames {
			break
		}
	}
	return out
}
