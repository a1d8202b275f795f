package demo

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// ptyPair opens a pseudo-terminal: what is written to tty can be read from
// control. (profiles' countdown test opens one the same way.)
func ptyPair(t *testing.T) (control, tty *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { control.Close() })
	if err := unix.IoctlSetPointerInt(int(control.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(control.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pseudo-terminal number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return control, tty
}

// TestProgressOnTerminal runs the demo with a terminal as Options.Progress
// and checks that both runs' progress was drawn there, and cleared.
func TestProgressOnTerminal(t *testing.T) {
	t.Setenv("CI", "")
	control, tty := ptyPair(t)
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := control.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	if _, err := Run(context.Background(), &bytes.Buffer{}, Options{Reps: 1, Progress: tty}); err != nil {
		t.Fatal(err)
	}
	tty.Write([]byte("END"))
	deadline := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		s := screen.String()
		mu.Unlock()
		if bytes.Contains([]byte(s), []byte("END")) {
			for _, want := range []string{`naive: 2 of 2 searches done, \d+\.\ds`, `tuned: 1 of 2 searches done`, `\r +\r`} {
				if !regexp.MustCompile(want).MatchString(s) {
					t.Errorf("terminal lacks %q: %q", want, s)
				}
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("terminal shows %q", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
