// Package fleettest holds the tests of perflab's fleet that need
// dependencies perflab itself does not: a real program instrumented with
// Grafana Pyroscope's Go SDK (github.com/grafana/pyroscope-go) pushing to
// perflab's ingest handlers. It is a module of its own, as browsertest is
// for Chromium, so that the main module never requires the SDK.
package fleettest
