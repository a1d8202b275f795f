package main

import (
	"bufio"
	"os/exec"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/testprog"
)

// spinServerSrc is a CPU-bound program serving net/http/pprof on a free
// loopback port: one goroutine hashes without pause in a few functions,
// so that a CPU profile of it holds many samples in few records. It
// prints its base URL and exits when its standard input closes.
const spinServerSrc = `package main

import (
	"fmt"
	"net"
	"net/http"
	_ "net/http/pprof"
	"os"
)

var sink uint64

func mix(x uint64) uint64 { return x*6364136223846793005 + 1442695040888963407 }

//go:noinline
func spin(n int) uint64 {
	x := uint64(n)
	for i := 0; i < n; i++ {
		x = mix(x)
	}
	return x
}

func main() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go func() {
		for {
			sink += spin(1 << 20)
		}
	}()
	go func() {
		os.Stdin.Read(make([]byte, 1))
		os.Exit(0)
	}()
	fmt.Printf("http://%s\n", ln.Addr())
	http.Serve(ln, nil)
}
`

// startSpinServer builds and starts spinServerSrc and returns its base
// URL; the program ends with the test.
func startSpinServer(t *testing.T) string {
	t.Helper()
	cmd := exec.Command(testprog.BuildSource(t, spinServerSrc))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("the spinning server printed no URL: %v", err)
	}
	return strings.TrimSpace(line)
}
