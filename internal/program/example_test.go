package program_test

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/perflab/perflab/internal/program"
)

// Running a program under observation: it is built first if it is a go
// test or go run line, then runs in a process group of its own.
func Example() {
	if runtime.GOOS == "windows" {
		fmt.Println("exit status 3")
		return
	}
	plan, err := program.Parse([]string{"sh", "-c", "exit 3"})
	if err != nil {
		fmt.Println(err)
		return
	}
	argv, dir, _ := plan.Build(context.Background(), os.TempDir(), os.Stderr)
	p, err := program.Start(context.Background(), program.Config{Argv: argv, Dir: dir, GODEBUG: []string{"gctrace=1"}, Stdout: os.Stdout, Stderr: os.Stderr})
	if err != nil {
		fmt.Println(err)
		return
	}
	status, _, _ := p.Wait()
	fmt.Println("exit status", status)
	// Output: exit status 3
}
