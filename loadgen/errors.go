package loadgen

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/perflab/perflab/loadgen/internal/http1"
)

// Kinds of request errors, as the error distribution counts them.
const (
	ErrRefused   = "connection refused"
	ErrReset     = "connection reset"
	ErrDNS       = "DNS lookup failed"
	ErrTLS       = "TLS handshake failed"
	ErrTimeout   = "timeout"
	ErrClosed    = "connection closed before the response"
	ErrTruncated = "connection closed mid-response"
	ErrMalformed = "malformed response"
	ErrOther     = "other error"
)

// Kind names the kind of a request error: one of the Err constants.
func Kind(err error) string {
	var dnsErr *net.DNSError
	var tlsErr *http1.TLSError
	var recErr tls.RecordHeaderError
	var protoErr *http1.ProtocolError
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var unknownAuth x509.UnknownAuthorityError
	msg := err.Error()
	switch {
	case errors.As(err, &dnsErr):
		return ErrDNS
	case errors.Is(err, syscall.ECONNREFUSED):
		return ErrRefused
	case errors.As(err, &tlsErr), errors.As(err, &recErr), errors.As(err, &certErr),
		errors.As(err, &unknownAuth), strings.Contains(msg, "tls: "):
		return ErrTLS
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return ErrReset
	case errors.Is(err, os.ErrDeadlineExceeded), errors.Is(err, context.DeadlineExceeded),
		errors.As(err, &netErr) && netErr.Timeout():
		return ErrTimeout
	case errors.As(err, &protoErr), strings.Contains(msg, "malformed HTTP"):
		return ErrMalformed
	case errors.Is(err, io.ErrUnexpectedEOF), strings.Contains(msg, "unexpected EOF"):
		return ErrTruncated
	case errors.Is(err, io.EOF), strings.Contains(msg, "server closed"):
		return ErrClosed
	}
	return ErrOther
}

// An ErrorCount is one line of the error distribution.
type ErrorCount struct {
	Kind    string // one of the Err constants
	Count   int64
	Example string // the first error of this kind, as Go printed it
}
