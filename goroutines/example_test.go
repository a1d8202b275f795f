package goroutines_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/perflab/perflab/goroutines"
)

func Example() {
	dump := `panic: boom

goroutine 1 [running]:
main.main()
	/src/main.go:9 +0x1d

goroutine 7 [chan receive, 3 minutes]:
main.worker(0xc000012345)
	/src/main.go:20 +0x2a
created by main.main in goroutine 1
	/src/main.go:8 +0x44

goroutine 8 [chan receive, 5 minutes]:
main.worker(0xc000099999)
	/src/main.go:20 +0x2a
created by main.main in goroutine 1
	/src/main.go:8 +0x44
`
	d := goroutines.NewDump()
	if err := goroutines.Read("dump.txt", strings.NewReader(dump), d, goroutines.Options{}); err != nil {
		panic(err)
	}
	d.Sort()
	d.WriteText(os.Stdout, goroutines.TextOptions{})
	// Output:
	// panic: boom
	// 3 goroutines in 2 groups
	//
	// 1 goroutine [running] ids 1
	//   panicked here (> marks the first frame in user code)
	//   > main.main  /src/main.go:9
	//
	// 2 goroutines [chan receive, 3-5 minutes] ids 7 8
	//     main.worker  /src/main.go:20
	//   created by main.main at /src/main.go:8
	//
	// Leaks:
	//   2 goroutines in main.worker, blocked on chan receive ≥ 3 minutes, created by main.main at main.go:8: waiting long, possible leak
}

func ExampleScanner() {
	s := goroutines.NewScanner(strings.NewReader(`goroutine profile: total 3
3 @ 0x43d4ce 0x4a2b65
#	0x4a2b64	main.worker+0x24	/src/main.go:20
`))
	for s.Scan() {
		g := s.Goroutine()
		fmt.Println(g.Count, g.Frames[0].Func, g.Frames[0].File, g.Frames[0].Line)
	}
	if err := s.Err(); err != nil {
		panic(err)
	}
	// Output:
	// 3 main.worker /src/main.go 20
}
