package collect

import (
	"runtime/trace"
	"sync"
	"time"
)

// flightRecorder is the process's one runtime flight recorder, shared by
// every Handler that asks for it.
type flightRecorder struct {
	fr *trace.FlightRecorder
}

var (
	flightOnce   sync.Once
	flightShared *flightRecorder
	flightErr    error
)

// startFlightRecorder starts the shared flight recorder on first use; the
// settings of later calls are ignored.
func startFlightRecorder(minAge time.Duration, maxBytes uint64) (*flightRecorder, error) {
	flightOnce.Do(func() {
		fr := trace.NewFlightRecorder(trace.FlightRecorderConfig{MinAge: minAge, MaxBytes: maxBytes})
		if err := fr.Start(); err != nil {
			flightErr = err
			return
		}
		flightShared = &flightRecorder{fr: fr}
	})
	return flightShared, flightErr
}
