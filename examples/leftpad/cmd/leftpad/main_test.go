package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/perflab/perflab/examples/internal/cli"
	"github.com/perflab/perflab/internal/testprog"
	"github.com/perflab/perflab/profiles"
)

// TestProgram runs the real leftpad command for each version on
// 127.0.0.1:0 with its debug server, sends real requests, receives the
// StatsD packets on a UDP socket, fetches a heap profile from the debug
// server, stops the program with SIGTERM (exit status 0) and reads its
// request log. It also checks the exit statuses of bad command lines and
// failures.
func TestProgram(t *testing.T) {
	bin := testprog.BuildPackage(t, "github.com/perflab/perflab/examples/leftpad/cmd/leftpad")
	for _, version := range []string{"v1", "v2"} {
		t.Run(version, func(t *testing.T) { testProgram(t, bin, version) })
	}
	t.Run("exit status", func(t *testing.T) { testExitStatus(t, bin) })
}

func testProgram(t *testing.T, bin, version string) {
	udp, err := net.ListenUDP("udp", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer udp.Close()
	cmd := exec.Command(bin, "-version="+version, "-addr=127.0.0.1:0", "-debug-addr=127.0.0.1:0", "-statsd="+udp.LocalAddr().String())
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	serviceURL, debugURL := readAddresses(t, stderr)

	const n = 5
	for range n {
		req, _ := http.NewRequest("GET", serviceURL+"?str=test&len=10&chr=*", nil)
		req.Header.Set("User-Agent", "perflab-test/2.0")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != `{"str":"******test"}`+"\n" {
			t.Fatalf("GET: %d %q", resp.StatusCode, body)
		}
	}
	packet := regexp.MustCompile(`^leftpad\.(requests:1\|c|duration:[0-9.]+\|ms)$`)
	buf := make([]byte, 1500)
	udp.SetReadDeadline(time.Now().Add(10 * time.Second))
	for i := range 2 * n {
		m, err := udp.Read(buf)
		if err != nil {
			t.Fatalf("StatsD packet %d: %v", i, err)
		}
		if !packet.Match(buf[:m]) {
			t.Errorf("StatsD packet %d: %q", i, buf[:m])
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p, err := profiles.Load(ctx, []string{debugURL + "heap"}, profiles.Options{})
	if err != nil {
		t.Fatalf("heap profile from the debug server: %v", err)
	}
	if len(p.Sample) == 0 || p.SampleType[len(p.SampleType)-1].Type != "inuse_space" {
		t.Errorf("heap profile: %d samples, types %v", len(p.Sample), p.SampleType)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	if err := cmd.Wait(); err != nil {
		t.Fatalf("leftpad after SIGTERM: %v", err)
	}
	log := stdout.String()
	if got := strings.Count(log, `url=/v1/leftpad/?str=test&len=10&chr=* ip=127.0.0.1 user_agent="perflab-test/2.0"`); got != n {
		t.Errorf("%d of %d requests logged:\n%s", got, n, log)
	}
}

// readAddresses reads the service's and the debug server's URLs from the
// program's first lines on stderr, then drains the rest.
func readAddresses(t *testing.T, stderr io.Reader) (service, debug string) {
	t.Helper()
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`http://[0-9.:]+/\S*`)
	for (service == "" || debug == "") && sc.Scan() {
		u := re.FindString(sc.Text())
		switch {
		case strings.Contains(u, "/debug/pprof/"):
			debug = u
		case strings.Contains(u, "/v1/leftpad/"):
			service = u
		}
	}
	if service == "" || debug == "" {
		t.Fatalf("addresses not announced on stderr (service %q, debug %q)", service, debug)
	}
	go io.Copy(io.Discard, stderr) // keep the pipe from filling
	return service, debug
}

// testExitStatus runs the real command: 2 for a bad command line (-h
// included), 1 if it cannot serve.
func testExitStatus(t *testing.T, bin string) {
	tests := []struct {
		args     []string
		code     int
		inStderr string
	}{
		{[]string{"-h"}, 0, "Usage of leftpad"},
		{[]string{"-nosuchflag"}, 2, "-nosuchflag"},
		{[]string{"-version=v3"}, 2, "leftpad: -version: "},
		{[]string{"-addr=256.0.0.1:0", "-debug-addr=", "-statsd="}, 1, "leftpad: -addr: "},
	}
	for _, tt := range tests {
		cmd := exec.Command(bin, tt.args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Fatalf("leftpad %q: %v", tt.args, err)
		}
		if code := cmd.ProcessState.ExitCode(); code != tt.code || !strings.Contains(stderr.String(), tt.inStderr) {
			t.Errorf("leftpad %q: exit %d, stderr %q; want exit %d, stderr holding %q", tt.args, code, stderr.String(), tt.code, tt.inStderr)
		}
	}
}

// TestBadFlags checks that run rejects bad command lines as cli.FlagError or
// cli.UsageError, which main turns into exit status 2 and a message, and that
// a failure to serve is neither: exit status 1.
func TestBadFlags(t *testing.T) {
	for _, args := range [][]string{{"-version=v3"}, {"-nosuchflag"}} {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, args)
		if !errors.As(err, new(cli.FlagError)) && !errors.As(err, new(cli.UsageError)) {
			t.Errorf("leftpad %q: run returned %#v, want a cli.FlagError or cli.UsageError", args, err)
		}
		if code := cli.ExitStatus("leftpad", err, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("leftpad %q: exit %d, stderr %q; want exit 2 and a message", args, code, stderr.String())
		}
	}
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, []string{"-addr=256.0.0.1:0", "-debug-addr=", "-statsd="})
	if err == nil || errors.As(err, new(cli.FlagError)) || errors.As(err, new(cli.UsageError)) {
		t.Errorf("bad -addr: run returned %#v, want a failure", err)
	}
	code := cli.ExitStatus("leftpad", err, &stderr)
	if code != 1 || !strings.Contains(stderr.String(), "-addr") {
		t.Errorf("bad -addr: exit %d, stderr %q; want exit 1 naming -addr", code, stderr.String())
	}
}
