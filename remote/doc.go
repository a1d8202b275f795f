// Package remote is perflab's own read API, both ends of it: the Handler
// a perflab server serves over its store, and the Reader, a store.Reader
// that asks a running server, so that every command that reads a store
// (perflab query, pgo, and every report given a selection) can be pointed
// at a server's http:// URL instead of a directory, and gets the same
// answers as the store behind the server.
//
// The API is a GET path for each method of store.Reader, below /api/v1/:
//
//	profile_types, label_names, label_values?name=N, series  JSON lists
//	merge                                                    a gzipped pprof profile
//	totals?step=D&group_by=L&focus=RE                        JSON time series
//	profiles?limit=N                                         JSON list of profiles
//	profile?id=ID                                            a gzipped pprof profile
//	stats                                                    JSON
//
// A selection is given by the parameters query (a label selector in
// Prometheus syntax), type (a profile type ID or a kind such as cpu), and
// from and until (RFC 3339, Unix seconds, now, or relative as -1h; see
// store.ParseTime). Profiles are whole, as the store merged them: every
// sample type, lines, inlined frames, mappings, build IDs and labels. An
// error is an answer of one line whose status and Perflab-Error header
// tell the store error it wraps (404 not found, 400 invalid or over a
// limit, 429 busy), so that the Reader's errors wrap the same ones.
//
// The Handler answers any request it gets: the server that mounts it
// (package fleet) adds the token and the Host and cross-site checks. The
// Reader reads each answer within Options.MaxBytes, and decodes profiles
// with package profiles' budgeted decoder, so that a hostile server
// cannot make it run out of memory.
package remote
