package ingest

import (
	"context"
	"errors"
	"net/http"

	"connectrpc.com/connect"

	"github.com/perflab/perflab/profiles"
	"github.com/perflab/perflab/store"
)

// The errors a push fails with, besides the store's.
var (
	// ErrInvalid: the push is malformed (a bad name, a truncated or
	// corrupt profile, an unknown profile kind).
	ErrInvalid = errors.New("invalid push")
	// ErrTooLarge: the request body or a profile inflated from it is over
	// its limit (Options.MaxRequestBytes, Options.MaxProfileBytes).
	ErrTooLarge = errors.New("too large")
	// ErrBusy: the requests in flight hold Options.MemoryBudget; retry
	// later.
	ErrBusy = errors.New("busy: the memory budget for pushes in flight is taken; retry later")
)

// errorKinds is the one table of what a failed push is answered with, on
// /ingest (an HTTP status) and on the Push API (a connect code, which the
// connect protocol turns into its own HTTP status). The first entry whose
// error the failure wraps decides; anything else is an internal error.
var errorKinds = []struct {
	err    error
	status int
	code   connect.Code
}{
	{ErrInvalid, http.StatusBadRequest, connect.CodeInvalidArgument},
	{store.ErrLimit, http.StatusBadRequest, connect.CodeInvalidArgument},
	{ErrTooLarge, http.StatusRequestEntityTooLarge, connect.CodeInvalidArgument},
	{profiles.ErrTooLarge, http.StatusRequestEntityTooLarge, connect.CodeInvalidArgument},
	{ErrBusy, http.StatusTooManyRequests, connect.CodeResourceExhausted},
	{store.ErrBusy, http.StatusTooManyRequests, connect.CodeResourceExhausted},
	{context.Canceled, http.StatusServiceUnavailable, connect.CodeCanceled},
	{context.DeadlineExceeded, http.StatusServiceUnavailable, connect.CodeDeadlineExceeded},
}

// Status returns the HTTP status /ingest answers err with: 400 for a
// malformed push or one over a store limit, 413 for a body or profile
// over its size limit, 429 when the memory budget or the store is full,
// 500 for anything else.
func Status(err error) int {
	for _, k := range errorKinds {
		if errors.Is(err, k.err) {
			return k.status
		}
	}
	return http.StatusInternalServerError
}

// connectError returns err as the Push API answers it.
func connectError(err error) error {
	code := connect.CodeInternal
	for _, k := range errorKinds {
		if errors.Is(err, k.err) {
			code = k.code
			break
		}
	}
	return connect.NewError(code, errors.New(oneLine(err.Error())))
}

// invalidf returns an error wrapping ErrInvalid whose message is the
// formatted text alone.
func invalidf(format string, args ...any) error {
	return &kindError{msg: sprintf(format, args...), kind: ErrInvalid}
}

// tooLargef returns an error wrapping ErrTooLarge whose message is the
// formatted text alone.
func tooLargef(format string, args ...any) error {
	return &kindError{msg: sprintf(format, args...), kind: ErrTooLarge}
}

// A kindError is an error of one of the kinds above, with a message of its
// own rather than the kind's, and the error that caused it, if any.
type kindError struct {
	msg   string
	kind  error
	cause error
}

func (e *kindError) Error() string { return e.msg }

func (e *kindError) Unwrap() []error {
	if e.cause == nil {
		return []error{e.kind}
	}
	return []error{e.kind, e.cause}
}
