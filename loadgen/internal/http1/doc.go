// Package http1 is a lean HTTP/1.1 client for load generation: one
// persistent connection, a request serialized once and written as-is, and
// a response parser that reads the status line and the few headers that
// frame the body, then discards the body without allocating. On plain TCP
// under Linux it reads and writes the socket with raw system calls and, on
// a connection in steady use, waits for the response without the read
// that would find nothing right after the write (see rawConn in
// raw_linux.go); elsewhere it uses the net.Conn (raw_other.go).
//
// It exists because net/http's client spends several times more CPU per
// request than the server it measures (see scripts/bench-load); package
// load falls back to net/http for what only it supports: HTTP/2, proxies
// and following redirects.
package http1
