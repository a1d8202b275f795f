//go:build !linux

package http1

import (
	"errors"
	"net"
)

// newRawConn reports that this OS has no raw system-call fast path (see
// raw_linux.go): the Conn reads and writes the net.Conn, as it does for
// TLS, which works everywhere at some more CPU per request.
func newRawConn(*net.TCPConn) (fastConn, error) { return nil, errors.ErrUnsupported }
