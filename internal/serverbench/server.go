package serverbench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// servingPrefix begins the line perflab server writes once it listens.
const servingPrefix = "Serving perflab server on "

// A Server is a perflab server process.
type Server struct {
	// URL is where it serves, http://HOST:PORT.
	URL string
	cmd *exec.Cmd

	mu   sync.Mutex
	tail []string // its last lines on standard error
	done chan struct{}
}

// StartServer runs bin (a perflab binary) as perflab server with args,
// and returns once it says where it serves, within a minute.
func StartServer(ctx context.Context, bin string, args ...string) (*Server, error) {
	cmd := exec.CommandContext(ctx, bin, append([]string{"server"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, fmt.Errorf("serverbench: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("serverbench: %w", err)
	}
	s := &Server{cmd: cmd, done: make(chan struct{})}
	url := make(chan string, 1)
	go s.read(stderr, url)
	select {
	case u := <-url:
		s.URL = u
		return s, nil
	case <-s.done:
	case <-time.After(time.Minute):
	}
	s.Stop()
	return nil, fmt.Errorf("serverbench: %s server said no address: %s", bin, s.Tail())
}

// read keeps the last lines of r, sends the address of the serving line
// to url, and closes s.done at the end of r.
func (s *Server) read(r io.Reader, url chan<- string) {
	defer close(s.done)
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		if u, ok := strings.CutPrefix(line, servingPrefix); ok {
			select {
			case url <- u:
			default:
			}
		}
		s.mu.Lock()
		s.tail = append(s.tail, line)
		if len(s.tail) > 5 {
			s.tail = s.tail[1:]
		}
		s.mu.Unlock()
	}
}

// PID returns the server's process ID.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Usage reads the server's usage so far.
func (s *Server) Usage() (Usage, error) { return ReadUsage(s.PID()) }

// Tail returns the server's last lines on standard error, joined.
func (s *Server) Tail() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.tail, " / ")
}

// Stop asks the server to stop (SIGTERM: it flushes its store and exits
// 0), kills it if it has not within 30 s, and reports how it ended.
func (s *Server) Stop() error {
	if err := s.cmd.Process.Signal(stopSignal); err != nil && !errors.Is(err, os.ErrProcessDone) {
		s.cmd.Process.Kill()
	}
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
	}
	if err := s.cmd.Wait(); err != nil {
		return fmt.Errorf("serverbench: the server: %w (%s)", err, s.Tail())
	}
	return nil
}
