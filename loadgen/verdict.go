package loadgen

import (
	"errors"
	"fmt"
	"strings"
)

// Causes of a RunError, for errors.Is.
var (
	// ErrAllFailed means that every request that completed failed without
	// a response, and none got one.
	ErrAllFailed = errors.New("every request failed")
	// ErrNothingCompleted means that no request completed at all: the
	// server never answered before the run ended.
	ErrNothingCompleted = errors.New("no request completed")
)

// A RunError says that a run failed as a whole: no request got a response.
type RunError struct {
	URL    string
	Cause  error  // ErrAllFailed or ErrNothingCompleted
	Detail string // the most common error, or what became of the requests
}

func (e *RunError) Error() string {
	if e.Cause == ErrNothingCompleted {
		return fmt.Sprintf("no request to %s completed: %s", e.URL, e.Detail)
	}
	return fmt.Sprintf("every request to %s failed: %s", e.URL, e.Detail)
}

// Unwrap returns the cause.
func (e *RunError) Unwrap() error { return e.Cause }

// Err reports whether the run failed as a whole: a *RunError when no
// request got a response, naming the most common error if some failed,
// else how many were left in flight or never sent. It returns nil when
// any request got a response, whatever its status; Failures and
// FailureShare measure partial failure.
func (r *Result) Err() error {
	switch {
	case r.Responses > 0:
		return nil
	case r.ErrorCount > 0:
		return &RunError{URL: r.URL, Cause: ErrAllFailed, Detail: r.Errors[0].Example}
	}
	var parts []string
	if r.Unfinished > 0 {
		parts = append(parts, fmt.Sprintf("%d still in flight at the end, abandoned", r.Unfinished))
	}
	if r.Unsent > 0 {
		parts = append(parts, fmt.Sprintf("%d due by the schedule never sent", r.Unsent))
	}
	if len(parts) == 0 {
		parts = append(parts, "none was sent")
	}
	return &RunError{URL: r.URL, Cause: ErrNothingCompleted, Detail: strings.Join(parts, ", ")}
}

// Failures counts the requests that did not end in a good response:
// those that failed without a response, those answered with a 5xx status,
// those left unfinished at the end, and in rate mode those never sent.
func (r *Result) Failures() int64 {
	return r.ErrorCount + r.ServerErrors + r.Unfinished + r.Unsent
}

// FailureShare is Failures over every request the run sent or was due to
// send (Requests + Unfinished + Unsent), from 0 to 1; 0 when there were none.
func (r *Result) FailureShare() float64 {
	total := r.Requests + r.Unfinished + r.Unsent
	if total == 0 {
		return 0
	}
	return float64(r.Failures()) / float64(total)
}
