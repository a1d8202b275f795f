package loadgen

import (
	"errors"
	"fmt"
	"math"
	"strconv"
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

// A FailureLimit is the one meaning of -fail-on-errors, for perflab load
// and perflab investigate alike: the largest share of failed requests (Failures
// over every request sent or due) a run may have. It is a flag.Value
// that reads a fraction ("0.01") or a percentage ("1%"); the zero value
// is no limit.
type FailureLimit struct {
	Share float64
	On    bool // the flag was given
}

// String prints the share as a percentage, or "" when there is no limit.
func (l *FailureLimit) String() string {
	if !l.On {
		return ""
	}
	return formatShare(l.Share)
}

// Set parses a share from 0 to 1, as a fraction or a percentage.
func (l *FailureLimit) Set(v string) error {
	share, err := parseShare(v)
	if err != nil {
		return err
	}
	l.Share, l.On = share, true
	return nil
}

// Check returns an error when the results, together, failed more than
// the limit allows: how many of how many requests failed, and how.
func (l *FailureLimit) Check(results ...*Result) error {
	var failed, due, errs, server, unfinished, unsent int64
	var urls []string
	for _, r := range results {
		failed += r.Failures()
		due += r.Requests + r.Unfinished + r.Unsent
		errs, server, unfinished, unsent = errs+r.ErrorCount, server+r.ServerErrors, unfinished+r.Unfinished, unsent+r.Unsent
		urls = append(urls, r.URL)
	}
	if !l.On || due == 0 || float64(failed)/float64(due) <= l.Share {
		return nil
	}
	var parts []string
	for _, c := range []struct {
		n    int64
		what string
	}{{errs, "without a response"}, {server, "with a 5xx status"}, {unfinished, "unfinished"}, {unsent, "never sent"}} {
		if c.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", c.n, c.what))
		}
	}
	return fmt.Errorf("%s of the %d requests to %s failed (%s), more than -fail-on-errors %s",
		formatShare(float64(failed)/float64(due)), due, strings.Join(urls, ", "), strings.Join(parts, ", "), l)
}

// parseShare parses a share from 0 to 1 given as a fraction ("0.01") or
// a percentage ("1%", "0.5%").
func parseShare(v string) (float64, error) {
	num, pct := strings.CutSuffix(strings.TrimSpace(v), "%")
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("bad share %q: want a fraction like 0.01 or a percentage like 1%%", v)
	}
	if pct {
		x /= 100
	}
	switch {
	case x < 0:
		return 0, fmt.Errorf("share %q is negative", v)
	case x > 1 && !pct:
		return 0, fmt.Errorf("share %q is more than 1; write %s%% for a percentage", v, num)
	case x > 1:
		return 0, fmt.Errorf("share %q is more than 100%%", v)
	}
	return x, nil
}

// formatShare prints a share as a percentage, with no more digits than it needs.
func formatShare(x float64) string {
	return strconv.FormatFloat(x*100, 'g', 4, 64) + "%"
}
