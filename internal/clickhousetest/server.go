package clickhousetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// OracleName is the command the package runs, as testprog.Oracle names it.
const OracleName = "clickhouse-server"

// readyTimeout bounds how long a server may take to answer /ping: 18.16
// answers within about a second on two busy cores.
const readyTimeout = 60 * time.Second

// A Server is one running clickhouse-server.
type Server struct {
	// HTTPAddr is the 127.0.0.1:PORT of its HTTP interface.
	HTTPAddr string
	// TCPPort is its native protocol's port, the one remote_servers names.
	TCPPort int
	// Dir holds its configuration, data and logs.
	Dir string

	bin    string
	config string // path of config.xml

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has exited
}

// A Cluster is a set of servers, one shard each, whose remote_servers
// section names them all under Name.
type Cluster struct {
	Name   string
	Shards []*Server
}

// Start starts one node, stopped when t ends. It skips t (or fails it,
// under PERFLAB_REQUIRE_ORACLES=1) when clickhouse-server is missing.
func Start(t testing.TB) *Server {
	t.Helper()
	return StartCluster(t, "", 1).Shards[0]
}

// StartCluster starts n servers whose remote_servers section names them
// all as the shards of cluster name (none when name is ""), stopped when t
// ends.
func StartCluster(t testing.TB, name string, n int) *Cluster {
	t.Helper()
	bin := testprog.Oracle(t, OracleName)
	dir, err := os.MkdirTemp(tempRoot(), "clickhousetest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c, err := launch(bin, dir, name, n)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

// Launch starts n servers outside a test, as StartCluster does, whose
// data stays in dir (shard0, shard1, ... under it) when they stop, and
// is read again by the next Launch on the same dir: the benchmarks keep a
// loaded database between runs that way. The caller stops them with
// Stop; on Linux they are killed as well when the calling process dies.
func Launch(dir, name string, n int) (*Cluster, error) {
	bin, err := testprog.LookOracle(OracleName)
	if err != nil {
		return nil, err
	}
	return launch(bin, dir, name, n)
}

// launch starts n servers under dir and waits until they all answer. A
// port another process took between its choice and the server's start
// is chosen again, twice at most, for the same directories.
func launch(bin, dir, name string, n int) (*Cluster, error) {
	var err error
	for range 3 {
		var c *Cluster
		c, err = launchOnce(bin, dir, name, n)
		if err == nil {
			return c, nil
		}
		if !strings.Contains(err.Error(), "Address already in use") {
			break
		}
	}
	return nil, err
}

func launchOnce(bin, dir, name string, n int) (*Cluster, error) {
	ports, err := freePorts(2 * n)
	if err != nil {
		return nil, err
	}
	c := &Cluster{Name: name}
	cfgs := make([]config, n)
	for i := range cfgs {
		cfgs[i] = config{
			Dir: filepath.Join(dir, "shard"+strconv.Itoa(i)), HTTPPort: ports[2*i], TCPPort: ports[2*i+1],
			Cluster: name, User: User, Pass: Password,
		}
		if name != "" {
			for j := range n {
				cfgs[i].Shards = append(cfgs[i].Shards, ports[2*j+1])
			}
		}
	}
	for _, cfg := range cfgs {
		s, err := newServer(bin, cfg)
		if err == nil {
			err = s.run()
		}
		if err != nil {
			c.Stop()
			return nil, err
		}
		c.Shards = append(c.Shards, s)
	}
	for _, s := range c.Shards {
		if err := s.waitReady(); err != nil {
			c.Stop()
			return nil, err
		}
	}
	return c, nil
}

func newServer(bin string, cfg config) (*Server, error) {
	if err := os.MkdirAll(cfg.Dir, 0o700); err != nil {
		return nil, err
	}
	path, err := cfg.write()
	if err != nil {
		return nil, err
	}
	return &Server{
		HTTPAddr: net.JoinHostPort("127.0.0.1", strconv.Itoa(cfg.HTTPPort)),
		TCPPort:  cfg.TCPPort,
		Dir:      cfg.Dir,
		bin:      bin,
		config:   path,
	}, nil
}

// freePorts returns n loopback ports that were free a moment ago, all
// held open together so that they differ.
func freePorts(n int) ([]int, error) {
	var ports []int
	for range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer ln.Close()
		ports = append(ports, ln.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// run starts the server's process, in a process group of its own that
// stop kills, its output appended to stderr.log.
func (s *Server) run() error {
	out, err := os.OpenFile(filepath.Join(s.Dir, "stderr.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer out.Close()
	cmd := exec.Command(s.bin, "--config-file="+s.config)
	cmd.Dir = s.Dir
	cmd.Stdout, cmd.Stderr = out, out
	setProcAttr(cmd)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("clickhouse-server: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		close(exited)
	}()
	s.mu.Lock()
	s.cmd, s.exited = cmd, exited
	s.mu.Unlock()
	return nil
}

// waitReady waits until the server answers /ping, or fails with the end
// of its logs when it exits first or takes too long.
func (s *Server) waitReady() error {
	s.mu.Lock()
	exited := s.exited
	s.mu.Unlock()
	deadline := time.Now().Add(readyTimeout)
	for time.Now().Before(deadline) {
		if s.ping() == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("clickhouse-server on %s exited before it answered: %s", s.HTTPAddr, s.logTail())
		case <-time.After(20 * time.Millisecond):
		}
	}
	return fmt.Errorf("clickhouse-server on %s did not answer /ping within %v: %s", s.HTTPAddr, readyTimeout, s.logTail())
}

func (s *Server) ping() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", "http://"+s.HTTPAddr+"/ping", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 64))
	if resp.StatusCode != http.StatusOK || !bytes.HasPrefix(body, []byte("Ok.")) {
		return fmt.Errorf("/ping: %s %q", resp.Status, body)
	}
	return nil
}

// logTail returns the last lines the server wrote to its error log and
// stderr, on one line.
func (s *Server) logTail() string {
	var parts []string
	for _, name := range []string{"error.log", "stderr.log"} {
		b, _ := os.ReadFile(filepath.Join(s.Dir, name))
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		if len(lines) > 5 {
			lines = lines[len(lines)-5:]
		}
		if t := strings.Join(lines, " | "); t != "" {
			parts = append(parts, name+": "+t)
		}
	}
	if len(parts) == 0 {
		return "no log"
	}
	return strings.Join(parts, "; ")
}

// Stop kills the server and its process group, and waits until it has
// exited. Its directory stays, for Restart.
func (s *Server) Stop() {
	s.mu.Lock()
	cmd, exited := s.cmd, s.exited
	s.mu.Unlock()
	if cmd == nil {
		return
	}
	killGroup(cmd)
	<-exited
}

// Restart stops the server if it runs and starts it again on the same
// ports and data, waiting until it answers.
func (s *Server) Restart() error {
	s.Stop()
	if err := s.run(); err != nil {
		return err
	}
	return s.waitReady()
}

// PID returns the process ID of the server, or 0 before it started.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Stop stops every server of c (see Server.Stop).
func (c *Cluster) Stop() {
	for _, s := range c.Shards {
		s.Stop()
	}
}

// Query runs one statement as the default user, in database db (the
// server's default database when db is ""), with settings given as
// "name=value", and returns its output in ClickHouse's TabSeparated
// format.
func (s *Server) Query(db, query string, settings ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
	defer cancel()
	params := url.Values{}
	if db != "" {
		params.Set("database", db)
	}
	for _, kv := range settings {
		k, v, _ := strings.Cut(kv, "=")
		params.Set(k, v)
	}
	u := "http://" + s.HTTPAddr + "/?" + params.Encode()
	req, err := http.NewRequestWithContext(ctx, "POST", u, strings.NewReader(query))
	if err != nil {
		return "", err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", errors.New(strings.TrimSpace(string(body)))
	}
	return string(body), nil
}

// MustQuery is Query that fails t on an error.
func (s *Server) MustQuery(t testing.TB, db, query string, settings ...string) string {
	t.Helper()
	out, err := s.Query(db, query, settings...)
	if err != nil {
		t.Fatalf("clickhouse %s: %s: %v", s.HTTPAddr, query, err)
	}
	return out
}
