// Package fleet is perflab server's wiring: one store, the two ways
// profiles come in (package scrape pulls them from the fleet's programs,
// package ingest takes what they push), the ways answers go out
// (Pyroscope's querier API in package querier, perflab's read API in
// package remote, the scrape targets' health) and the viewer (package
// viewer), on one HTTP server behind one guard.
//
// # Safety
//
// Every route is behind the same checks: a server that listens on
// loopback answers only requests whose Host header is a loopback name
// (which defeats DNS rebinding); a request a browser sends on behalf of
// another site is refused (Sec-Fetch-Site, or else Origin; SDKs and
// agents send neither and pass); and with a token, every request must
// carry it, as "Authorization: Bearer TOKEN" or as the password of Basic
// authentication (which Grafana's Pyroscope data source and Pyroscope's
// SDKs send). Listening on an address that is not loopback needs a token:
// perflab server refuses to start without one. Whatever a page shows of
// labels and names is escaped.
//
// # Lifetime
//
// Serve serves until its context is done, while the scraper runs and
// retention drops, every hour, the profiles older than Options.Retention.
// It then stops taking requests, lets those in flight end, and waits for
// the scrapes in flight, so that the caller can close the store, which
// flushes it: a push answered 2xx is in the store.
//
// # The viewer
//
// Package viewer serves the viewer at / and its views of a selection
// below /ui/ and at /download: the views of perflab web over the merged
// profile of the selection the URL names.
package fleet
