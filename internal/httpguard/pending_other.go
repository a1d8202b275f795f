//go:build !unix

package httpguard

import "net"

// pending reports whether the client of c has sent bytes that the server
// has not read yet. Without a portable way to peek, it reports false: the
// connection that waited longest is closed.
func pending(c net.Conn) bool { return false }
