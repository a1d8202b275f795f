package main

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/testprog"
)

// TestProgram runs the real command on free ports, searches through it,
// fetches a profile from its debug server and stops it with SIGTERM.
func TestProgram(t *testing.T) {
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/rsssearch/cmd/rsssearch")
	cmd := exec.Command(bin, "-variant=tuned", "-addr=127.0.0.1:0", "-debug-addr=127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	sc := bufio.NewScanner(stderr)
	var service, debug string
	url := regexp.MustCompile(`http://127\.0\.0\.1:[0-9]+/\S*`)
	for service == "" && sc.Scan() {
		line := sc.Text()
		switch {
		case strings.Contains(line, "debug server"):
			debug = url.FindString(line)
		case strings.Contains(line, "serving"):
			service = url.FindString(line)
		}
	}
	go io.Copy(io.Discard, stderr)
	resp, err := http.Post(service+"?term=covid-19&cnn=on&bbc=on&nyt=on", "text/html", nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(body), "15 results for covid-19") {
		t.Fatalf("search: %d %.300s", resp.StatusCode, body)
	}
	resp, err = http.Get(debug + "heap")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("debug server %s: %v", debug, err)
	}
	resp.Body.Close()
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("after SIGTERM: %v, want exit status 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("still running 10s after SIGTERM")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, c := range []struct {
		args []string
		code int
	}{{[]string{"-nosuch"}, 2}, {[]string{"-variant=fast"}, 2}, {[]string{"extra"}, 2}, {[]string{"-addr=" + taken.Addr().String(), "-debug-addr="}, 1}} {
		err := exec.Command(bin, c.args...).Run()
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != c.code {
			t.Errorf("rsssearch %q: %v, want exit status %d", c.args, err, c.code)
		}
	}
}
