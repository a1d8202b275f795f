package serverbench

import "time"

// Usage is what a process has used, as the system tells it.
type Usage struct {
	// CPU is its user and system CPU time.
	CPU time.Duration
	// RSS and PeakRSS are its resident set size, now and at its highest,
	// in bytes.
	RSS, PeakRSS int64
}
