// Package web serves perflab's profile viewer: the flame graph, sandwich,
// red/blue diff, call graph, top, peek and source views of one loaded
// profile, at the paths and with the URL parameters of pprof's web UI
// (go tool pprof -http), so that a pprof bookmark opens the same view.
//
// A Server holds the profile in memory, loaded once; it never re-parses
// it. Every request's settings are pprof's report settings, read from the
// URL with settings.ApplyURL (package settings is the one table of
// them); the menu of every page is derived from the same table. Answers
// are computed from the profile by package report (top, peek, list) and
// the flame graph and call graph packages, one aggregation at a time, and
// cached per view and canonical settings, so switching between views and
// back costs nothing. Reports leave the profile as it is (their filters
// build a filtered view that shares its parts), so every request reads the
// loaded profile; only the download filters a shallow copy in place.
//
// Pages are html/template documents rendered into a buffer before they
// are written, so every string from the profile is escaped and a bad
// parameter (a broken regexp, an unknown sample type) is shown in place
// with status 400 while the server keeps serving. Assets are plain CSS
// and ES modules embedded with go:embed. Every server of the package makes
// the checks of every perflab server (internal/httpguard): unless
// Options.AnyHost, a request whose Host header is not a loopback name is
// refused with 403, which defeats DNS rebinding against a server bound to
// 127.0.0.1; a request a browser sends on behalf of another site is
// refused with 403 on every path but the static assets; with
// Options.Token, every request needs the token (a bearer header, or the
// cookie a visit with ?token= sets). Serve them with the connection rules
// of internal/httpguard.Listen, as perflab web does.
//
// Two more servers share that front: TraceServer serves the timeline of
// an execution trace from an exectrace.Index, its summary and an overview,
// reading only the generations of a finer window on demand, and
// GoroutineServer serves the groups of a goroutine dump (goroutines.Dump).
package web
