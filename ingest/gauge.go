package ingest

import "sync"

// A gauge counts the bytes the requests in flight hold, against the
// memory budget. A request takes what it is about to allocate before it
// allocates it, and gives everything back when it ends.
type gauge struct {
	mu    sync.Mutex
	limit int64
	used  int64
}

// take takes n bytes if they are left, all or none.
func (g *gauge) take(n int64) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if n < 0 || n > g.limit-g.used {
		return false
	}
	g.used += n
	return true
}

// give gives back n bytes.
func (g *gauge) give(n int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.used -= n
}

// inUse returns the bytes taken now.
func (g *gauge) inUse() int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.used
}

// A reservation is what one request took from the gauge; release gives it
// all back.
type reservation struct {
	g    *gauge
	held int64
}

// take takes n more bytes for the request, or returns ErrBusy.
func (r *reservation) take(n int64) error {
	if !r.g.take(n) {
		return ErrBusy
	}
	r.held += n
	return nil
}

// release gives back everything the request took.
func (r *reservation) release() {
	r.g.give(r.held)
	r.held = 0
}

// bodyQuota lets pprofproto.ReadAll read a request body: it grants bytes
// up to the request's limit (left), each grant taken from the request's
// reservation. busy records that a grant was refused because the budget,
// not the limit, ran out.
type bodyQuota struct {
	res  *reservation
	left int64
	busy bool
}

// Take grants up to n bytes: fewer when the request's limit is near, none
// when the memory budget cannot give them.
func (q *bodyQuota) Take(n int64) int64 {
	n = min(n, q.left)
	if n <= 0 {
		return 0
	}
	if q.res.take(n) != nil {
		q.busy = true
		return 0
	}
	q.left -= n
	return n
}
