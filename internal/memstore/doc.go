// Package memstore is a store.Store that keeps what is written in memory,
// in order, for the tests of the fleet's write path (ingest, scrape) until
// store/storetest's Reference store is there to read it back. Write keeps
// the store's contract (labels checked against the Limits, all or none,
// ErrBusy when told to be full); the Reader methods answer
// ErrNotImplemented, except Stats.
package memstore
