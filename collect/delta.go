package collect

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime/pprof"
	"time"

	"github.com/google/pprof/profile"
)

// serveDelta answers /debug/pprof/NAME?seconds=N as net/http/pprof does:
// the profile's growth over the next N seconds, as the difference of two
// snapshots. It applies to the cumulative profiles: heap, allocs, block
// and mutex.
func (h *handler) serveDelta(w http.ResponseWriter, r *http.Request, p *pprof.Profile, debug int) {
	switch p.Name() {
	case "heap", "allocs", "block", "mutex":
	default:
		httpError(w, http.StatusBadRequest, "seconds is not supported for the "+p.Name()+" profile")
		return
	}
	if debug != 0 {
		httpError(w, http.StatusBadRequest, "seconds is not supported with debug")
		return
	}
	d, err := ParseSeconds(r.URL.Query().Get("seconds"), 30*time.Second, h.opts.maxDuration())
	if err != nil {
		httpError(w, http.StatusBadRequest, err.Error())
		return
	}
	release, ok := h.slots.take(r.Context(), p.Name()+"?seconds", h.opts.maxConcurrent())
	if !ok {
		tooMany(w, fmt.Sprintf("too many %s profiles over seconds at once; try again later", p.Name()))
		return
	}
	defer release()
	end := time.Now().Add(d + writeGrace)
	before, err := snapshot(p)
	if err != nil {
		httpError(w, http.StatusInternalServerError, p.Name()+": "+err.Error())
		return
	}
	sleep(r.Context(), d)
	if r.Context().Err() != nil {
		return
	}
	after, err := snapshot(p)
	if err == nil {
		after, err = subtract(after, before)
	}
	var buf bytes.Buffer
	if err == nil {
		err = after.Write(&buf)
	}
	if err != nil {
		httpError(w, http.StatusInternalServerError, p.Name()+": "+err.Error())
		return
	}
	serveData(w, r, p.Name()+"-delta", buf.Bytes(), end)
}

func snapshot(p *pprof.Profile) (*profile.Profile, error) {
	var buf bytes.Buffer
	if err := p.WriteTo(&buf, 0); err != nil {
		return nil, err
	}
	return profile.Parse(&buf)
}

// subtract returns after minus before, covering the time between them.
func subtract(after, before *profile.Profile) (*profile.Profile, error) {
	end, dur := after.TimeNanos, after.TimeNanos-before.TimeNanos
	before.Scale(-1)
	diff, err := profile.Merge([]*profile.Profile{before, after})
	if err != nil {
		return nil, err
	}
	diff.TimeNanos, diff.DurationNanos = end, dur
	return diff, nil
}
