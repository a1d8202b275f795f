// Package ingest receives the profiles that programs push to perflab
// server: the fleet's write path, between the network and the Store.
//
// It speaks Grafana Pyroscope's ingest APIs, so that programs instrumented
// with github.com/grafana/pyroscope-go, Grafana Alloy's pyroscope.write and
// collect's push mode send to perflab unchanged:
//
//   - POST /ingest, as Pyroscope's Go SDK sends it: a multipart form with
//     the pprof profile (and the SDK's sample_type_config), and the query
//     parameters name=APP{k=v,...} (or APP.KIND{...}), from, until,
//     sampleRate, spyName, units, aggregationType and format. The
//     profile's kind (the series' __name__) comes from its own sample
//     types, as Pyroscope derives it.
//   - POST /push.v1.PusherService/Push, Pyroscope's Push API over the
//     connect protocol (protobuf or JSON, gzip or not), with the labels of
//     each series given as they are stored.
//
// # Validate, then write
//
// A push is read and decoded whole before anything is written: every
// profile is decoded by package profiles within a budget (a gzip bomb is
// cut at the limit), checked (profile.proto well formed, a known kind,
// samples and labels within the store's Limits), and only then written,
// all the profiles of one push in one Store.Write call (all or none). A
// hostile or truncated push gets an answer of one line (400 Bad Request,
// 413 Content Too Large or 429 Too Many Requests) and changes nothing
// stored.
//
// # Memory
//
// The bytes of the requests in flight and of the profiles they decode are
// taken from one budget (Options.MemoryBudget) before they are allocated:
// a request that would go beyond it gets 429 at once, so that no rate of
// pushes makes the server run out of memory. The store's own back-pressure
// (store.ErrBusy) is answered with 429 as well.
//
// Handler serves both APIs; the server that mounts it (perflab server)
// adds the listener, its timeouts, the token and the Host and cross-site
// checks.
package ingest
