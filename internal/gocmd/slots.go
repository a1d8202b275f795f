package gocmd

import "context"

// MaxInputRuns is how many Input runs of the go command may run at once
// in the process: a build takes a core or more for seconds, and requests
// to perflab's viewer must not be able to start one each.
const MaxInputRuns = 2

// inputSlots holds one token per running Input run.
var inputSlots = make(chan struct{}, MaxInputRuns)

// acquire waits for a slot for an Input run, or for ctx to end, and
// returns the function that gives the slot back.
func acquire(ctx context.Context) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case inputSlots <- struct{}{}:
		return func() { <-inputSlots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
