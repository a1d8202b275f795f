//go:build unix

package main

import (
	"bufio"
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestGoroutinesForwardsSIGQUIT runs the real binary on a program that
// parks 30 goroutines and sends SIGQUIT to perflab, as Ctrl-\ does on a
// terminal: perflab passes it on and groups the dump the program prints.
func TestGoroutinesForwardsSIGQUIT(t *testing.T) {
	bin, prog := perflab(t), goroutinesProg(t)
	cmd := exec.Command(bin, "goroutines", "--", prog, "park", "30")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(stderr).ReadString('\n') // the program's stdout
	if line != "ready\n" {
		cmd.Process.Kill()
		t.Fatalf("program said %q", line)
	}
	time.Sleep(50 * time.Millisecond) // let the workers park
	cmd.Process.Signal(syscall.SIGQUIT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("perflab: %v\n%s", err, stdout.String())
		}
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("perflab did not end after SIGQUIT")
	}
	out := stdout.String()
	for _, want := range []string{"30 goroutines [chan receive]", "main.leakyWorker", "created by main.park at ", "exit status 2"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q not in\n%s", want, out)
		}
	}
}
