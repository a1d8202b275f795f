// Package settings is the one table of report settings — pprof's names,
// URL parameters, help, choices and shortcuts — and what is derived from
// it: the report commands' flags (RegisterFlags), the shell's assignments
// (Set) and the web UI's URL state (ApplyURL, EncodeURL). It keeps the
// settings-to-flags and URL layer apart from report generation, as pprof
// keeps internal/driver apart from internal/report: package report
// computes reports from a report.Options; this package fills one in.
package settings
