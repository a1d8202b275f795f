// Package storetest is what every store.Store backend is tested with, and
// the executable specification of the Store interface's semantics.
//
// Reference is a deliberately simple in-memory Store built on package
// store's canonical form: it keeps every written profile as it was split,
// scans all of them for every query, and composes answers with
// store.Compose. It is meant to be obviously correct, not fast, and keeps
// nothing across restarts.
//
// Run is the one suite every backend runs: it writes the same profiles to
// the backend and to a Reference and requires byte-identical answers from
// every method on many selections (every selector operator, edges of time
// ranges, profile types, Totals' group-by and focus, limits, empty
// results), with concurrent writers, after DropBefore, and after
// reopening the store when the backend can.
//
// Recorder wraps a store for the tests of what writes to one (ingest,
// scrape, collect's push mode): it keeps what was written, counts the
// writes, and can refuse them as a full store does.
package storetest
