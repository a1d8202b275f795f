package browsertest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/browsertest/internal/browser"
	"github.com/perflab/perflab/internal/testprog"
)

// TestBenchWebLaunch is scripts/bench-web's measurement, run only when
// PERFLAB_BENCH_WEB_CMD is set: with Chromium already running, it starts
// the server command (its "PORT" replaced by a free port), loads
// PERFLAB_BENCH_WEB_PATH until PERFLAB_BENCH_WEB_READY (a JavaScript
// expression) is true, and prints one line:
//
//	bench-web: drawn_s=S bytes=B rss_kb=K page_s=P
//
// the seconds from the server's start to the page fully drawn, the bytes
// the page transferred (document, scripts, styles and fetched data), the
// server's peak RSS (VmHWM) then, and the seconds from the page's request
// (its navigation's start) to it drawn.
func TestBenchWebLaunch(t *testing.T) {
	command := os.Getenv("PERFLAB_BENCH_WEB_CMD")
	if command == "" {
		t.Skip("PERFLAB_BENCH_WEB_CMD not set; scripts/bench-web sets it")
	}
	timeout := 600 * time.Second
	if s := os.Getenv("PERFLAB_BENCH_WEB_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatal(err)
		}
		timeout = d
	}
	b, err := browser.Start(context.Background(), testprog.Oracle(t, "chromium"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	port := testprog.FreePort(t)
	args := strings.Fields(strings.ReplaceAll(command, "PORT", port))
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	base := "http://127.0.0.1:" + port
	waitListening(t, "127.0.0.1:"+port, start.Add(timeout))
	left := time.Until(start.Add(timeout))
	p, err := b.Open(base+os.Getenv("PERFLAB_BENCH_WEB_PATH"), left)
	if err != nil {
		// Still loading at the deadline: report the bound and the RSS so far.
		fmt.Printf("bench-web: drawn_s=>%.0f bytes=- rss_kb=%d\n", time.Since(start).Seconds(), vmHWM(cmd.Process.Pid))
		t.Logf("bench-web: not loaded after %v: %v", time.Since(start), err)
		return
	}
	defer p.Close()
	ready := os.Getenv("PERFLAB_BENCH_WEB_READY")
	for {
		ok, err := browser.Eval[bool](p, ready)
		if err == nil && ok {
			break
		}
		if time.Since(start) > timeout {
			fmt.Printf("bench-web: drawn_s=>%.0f bytes=- rss_kb=%d\n", time.Since(start).Seconds(), vmHWM(cmd.Process.Pid))
			t.Logf("bench-web: not drawn within %v", timeout)
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	// Two animation frames: what was drawn is on the screen.
	browser.Eval[bool](p, `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))`)
	drawn := time.Since(start)
	page, err := browser.Eval[float64](p, `performance.now() / 1000`)
	if err != nil {
		t.Fatal(err)
	}
	bytes, err := browser.Eval[float64](p, `performance.getEntries().filter((e) => e.entryType === "navigation" || e.entryType === "resource")
		.reduce((s, e) => s + (e.transferSize || e.encodedBodySize || 0), 0)`)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("bench-web: drawn_s=%.2f bytes=%.0f rss_kb=%d page_s=%.2f\n", drawn.Seconds(), bytes, vmHWM(cmd.Process.Pid), page)
	if dir := os.Getenv("PERFLAB_SCREENSHOTS"); dir != "" {
		browser.ScreenshotForTest(t, p, "bench-web-"+strconv.Itoa(cmd.Process.Pid))
	}
}

// waitListening polls addr until it accepts a connection.
func waitListening(t *testing.T, addr string, deadline time.Time) {
	for time.Now().Before(deadline) {
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("bench-web: %s not listening in time", addr)
}

// vmHWM reads the peak resident set size of process pid, in kB.
func vmHWM(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			return n
		}
	}
	return -1
}
