// Package termtest gives tests a real pseudo-terminal, so that they can check
// what perflab draws on a terminal (progress lines, countdowns).
package termtest

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// A PTY is a pseudo-terminal whose screen output is recorded.
type PTY struct {
	// TTY is the terminal side: give it to the code under test as its output.
	TTY *os.File

	control *os.File // the side a person types on and the screen shows
	mu      sync.Mutex
	screen  bytes.Buffer
}

// Open opens a pseudo-terminal, or skips the test where there is none
// (every system but Linux, for now). It is closed when the test ends.
func Open(t testing.TB) *PTY {
	t.Helper()
	control, tty, err := openPTY()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close(); control.Close() })
	p := &PTY{TTY: tty, control: control}
	go p.record(control)
	return p
}

func (p *PTY) record(control *os.File) {
	buf := make([]byte, 4096)
	for {
		n, err := control.Read(buf)
		p.mu.Lock()
		p.screen.Write(buf[:n])
		p.mu.Unlock()
		if err != nil {
			return
		}
	}
}

// Type sends keys to the terminal as if typed: "to\t\r" is t, o, Tab,
// Enter; "\x1b[A" is the Up arrow.
func (p *PTY) Type(t testing.TB, keys string) {
	t.Helper()
	if _, err := p.control.WriteString(keys); err != nil {
		t.Fatalf("typing %q: %v", keys, err)
	}
}

// Screen writes a marker to the terminal, waits until it has come through
// (so that everything written before it has too) and returns all that was
// drawn before the marker.
func (p *PTY) Screen(t testing.TB) string {
	t.Helper()
	const marker = "<<end of screen>>"
	p.TTY.WriteString(marker)
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.mu.Lock()
		s := p.screen.String()
		p.mu.Unlock()
		if i := strings.Index(s, marker); i >= 0 {
			return s[:i]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed the end marker; it shows %q", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// WaitFor waits until the terminal has shown want, from the start of the
// session, and returns all it has shown so far.
func (p *PTY) WaitFor(t testing.TB, want string) string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.mu.Lock()
		s := p.screen.String()
		p.mu.Unlock()
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal never showed %q; it shows %q", want, s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
