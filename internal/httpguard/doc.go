// Package httpguard is what makes an HTTP server a perflab server: the
// rules every perflab server applies (the collect debug server, perflab
// web and weblist, and the fleet server to come), in one place.
//
// Two halves, used together:
//
//   - Guard wraps a handler with the request rules of a Policy: a server
//     listening on loopback answers only loopback Host names (which
//     defeats DNS rebinding); a request a browser sends on behalf of
//     another site is refused (which defeats cross-site request forgery
//     and cross-site reads); with a Token, every request must carry it.
//   - Listen binds the address with the connection rules: an empty host
//     means 127.0.0.1, a non-loopback address needs a token (or an
//     explicit Public), every client has bounded time to send its request
//     and take its answer, and at most MaxConns connections are open. A
//     handler may give its answer a write stall (SetWriteStall): the
//     client must take some of it every so often, counted by what it
//     takes, not by how long the writing goroutine waited for a CPU.
//
// The cross-site rule is "refuse cross-site, allow the rest": browsers
// send Sec-Fetch-Site on every request, and "cross-site" or "same-site"
// (another port of the same host is same-site) is refused, while
// "same-origin" (the server's own pages, POSTs from them included) and
// "none" (the address bar, a bookmark) pass. A request without
// Sec-Fetch-Site (an older browser) is judged by its Origin header, and one
// with neither (curl, go tool pprof, SDKs and agents that push data) passes:
// non-browser clients need no special header. Static assets can be exempted
// (Policy.Assets): they hold no data and do no work. Whether a client runs on
// this machine is decided from the connection's peer address
// (LoopbackPeer), never from the Host header, which the client chooses.
//
// The token is compared in constant time. It is taken from
// "Authorization: Bearer TOKEN" (the scheme in any case, RFC 7235) and,
// with Policy.BrowserLogin, from a cookie: a browser opens any URL of the
// server once with ?token=TOKEN, the server answers with a redirect to the
// same URL without it and an HttpOnly, SameSite=Strict cookie that holds
// the token, which the browser then sends with every request to the server
// and never with a request another site makes it send.
package httpguard
