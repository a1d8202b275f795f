package web_test

import (
	"fmt"
	"net/http/httptest"
	"strings"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/web"
)

// A goroutine dump served as groups: here a dump of two goroutines in the
// same place, read from text.
func ExampleNewGoroutines() {
	dump := `goroutine 7 [chan receive, 3 minutes]:
main.worker(0xc000010000)
	/src/main.go:12 +0x25
created by main.main in goroutine 1
	/src/main.go:20 +0x3c

goroutine 8 [chan receive, 4 minutes]:
main.worker(0xc000010008)
	/src/main.go:12 +0x25
created by main.main in goroutine 1
	/src/main.go:20 +0x3c
`
	d := goroutines.NewDump()
	if err := goroutines.Read("dump.txt", strings.NewReader(dump), d, goroutines.Options{}); err != nil {
		fmt.Println(err)
		return
	}
	d.Sort()
	s, err := web.NewGoroutines(d, web.GoroutineOptions{Title: "dump.txt"})
	if err != nil {
		fmt.Println(err)
		return
	}
	srv := httptest.NewServer(s)
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL + "/ui/goroutines")
	if err != nil {
		fmt.Println(err)
		return
	}
	resp.Body.Close()
	fmt.Println(resp.Status, d.Total, "goroutines in", len(d.Groups), "group")
	// Output: 200 OK 2 goroutines in 1 group
}
