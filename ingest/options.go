package ingest

import (
	"fmt"
	"strings"
	"time"

	"github.com/perflab/perflab/store"
)

// Options bound what a Handler takes. Zero fields take the defaults below.
type Options struct {
	// Limits are the store's: labels are checked against them
	// (store.Labels.Check), and a profile with more than MaxProfileSamples
	// samples is refused, before anything is written.
	Limits store.Limits
	// MaxRequestBytes bounds one request's body (413 beyond it).
	MaxRequestBytes int64
	// MaxProfileBytes bounds one profile once inflated from gzip (413
	// beyond it).
	MaxProfileBytes int64
	// MemoryBudget bounds the bytes that the requests in flight hold
	// together: their bodies and the profiles they decode (429 beyond it).
	MemoryBudget int64
	// Now returns the time of a push that gives none; nil means time.Now.
	Now func() time.Time
}

// The defaults of Options: room for the largest heap profiles of big
// programs (a 10-second CPU profile is tens of kilobytes), and a memory
// budget that a small server can afford.
const (
	DefaultMaxRequestBytes = 16 << 20
	DefaultMaxProfileBytes = 32 << 20
	DefaultMemoryBudget    = 256 << 20
)

func (o Options) withDefaults() Options {
	o.Limits = o.Limits.WithDefaults()
	if o.MaxRequestBytes <= 0 {
		o.MaxRequestBytes = DefaultMaxRequestBytes
	}
	if o.MaxProfileBytes <= 0 {
		o.MaxProfileBytes = DefaultMaxProfileBytes
	}
	if o.MemoryBudget <= 0 {
		o.MemoryBudget = DefaultMemoryBudget
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return o
}

// sprintf is fmt.Sprintf on one line.
func sprintf(format string, args ...any) string {
	return oneLine(fmt.Sprintf(format, args...))
}

// oneLine replaces line breaks so that a message stays one line.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(s)
}

// clip shortens s for a message.
func clip(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
