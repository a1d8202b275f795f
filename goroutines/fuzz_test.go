package goroutines_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
)

// FuzzRead feeds anything to Read: it must not panic, must count every
// goroutine it groups, and must keep groups well formed. Seeds in
// testdata/fuzz/FuzzRead are the fixtures of testdata/formats.
func FuzzRead(f *testing.F) {
	f.Add([]byte("goroutine 1 [running]:\nmain.main()\n\t/x.go:1 +0x1\n"))
	f.Add([]byte("goroutine profile: total 1\n1 @ 0x1\n#\t0x1\tmain.f+0x1\t/x.go:2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := goroutines.NewDump()
		err := goroutines.Read("fuzz", bytes.NewReader(data), d, goroutines.Options{MaxLine: 4096, MaxBytes: 1 << 20})
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz") && !strings.Contains(err.Error(), "fuzz:") {
				t.Fatalf("error does not name the input: %v", err)
			}
			return
		}
		d.Sort()
		sum := 0
		for _, g := range d.Groups {
			if g.Count < 0 || g.WaitMin > g.WaitMax || g.Leaked > g.Count {
				t.Fatalf("bad group %+v", g)
			}
			sum += g.Count
		}
		if sum != d.Total {
			t.Fatalf("groups hold %d goroutines, total %d", sum, d.Total)
		}
		var b bytes.Buffer
		if err := d.WriteText(&b, goroutines.TextOptions{Args: true}); err != nil {
			t.Fatal(err)
		}
		if err := d.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		if err := d.WriteHTML(&b, goroutines.HTMLOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, g := range d.Groups {
			for _, fr := range g.Example.Frames {
				goroutines.DecodeArgs(fr.Args, []goroutines.Param{{"a", "string"}, {"b", "[]int"}, {"c", "bool"}})
			}
		}
	})
}
