package profiles

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// openPTY opens a pseudo-terminal and returns its controlling side, which
// reads what is written to the terminal side.
func openPTY(t *testing.T) (control, tty *os.File) {
	t.Helper()
	control, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { control.Close() })
	fd := int(control.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlocking pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Skipf("pseudo-terminal number: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return control, tty
}

// TestCountdownOnTerminal fetches a 2-second CPU profile with a terminal
// as Options.Status and checks the countdown drawn there.
func TestCountdownOnTerminal(t *testing.T) {
	t.Setenv("CI", "")
	control, tty := openPTY(t)
	var mu sync.Mutex
	var screen bytes.Buffer
	go func() {
		buf := make([]byte, 1024)
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
	srv, _ := pprofServer(t)
	if _, err := Load(context.Background(), []string{srv.URL}, Options{Seconds: 2, Status: tty}); err != nil {
		t.Fatal(err)
	}
	tty.Write([]byte("END\n"))
	for i := 0; ; i++ {
		mu.Lock()
		s := screen.String()
		mu.Unlock()
		if strings.Contains(s, "END") {
			break
		}
		if i > 100 {
			t.Fatalf("the terminal shows %q", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	s := screen.String()
	u := srv.URL + "/debug/pprof/profile?seconds=2"
	for _, want := range []string{
		"\rFetching " + u + ": collecting, 2s left",
		"\rFetching " + u + ": collecting, 1s left",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the terminal shows %q; want it to contain %q", s, want)
		}
	}
	if !regexp.MustCompile(`\r {20,}\rEND`).MatchString(s) {
		t.Errorf("the terminal shows %q; want the line cleared when the fetch ends", s)
	}
}
