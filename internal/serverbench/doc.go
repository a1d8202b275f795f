// Package serverbench measures a running perflab server end to end, for
// scripts/bench-server: the fleet's write path as a fleet drives it, the
// server's own process measured from outside.
//
// Pushes are 10-second CPU profiles of internal/fleetgen's service, one
// series per instance, each encoded up front as pyroscope-go sends it (a
// multipart POST /ingest, name=SERVICE.cpu{instance=...,version=...},
// from and until), so that the client's cost is not in the figures; Run
// sends them from a number of connections, as a fleet pushing at once
// does, and retries those the server turns back for its memory budget.
//
// Targets are K programs' /debug/pprof/ trees (profile, allocs and
// goroutine, as net/http/pprof serves them: a CPU profile is answered
// after the seconds asked), each on a loopback listener of its own,
// serving fleetgen's profiles, for the server's scraper to pull.
//
// Usage reads a process's CPU time and peak RSS where the system tells
// them (Linux's /proc); Server starts a perflab server binary and reads
// its address from its first line.
package serverbench
