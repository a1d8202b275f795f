package goroutines_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
)

// FuzzRead feeds anything to Read: it must not panic, must count every
// goroutine it groups, in every dump of the input, and must keep groups
// and race groups well formed. Seeds in testdata/fuzz/FuzzRead are the
// fixtures of testdata/formats, and inputs with two dumps, data race
// reports, frames elided mid-stack, line numbers past an int and no last
// end of line.
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
		if len(d.Snapshots) >= goroutines.MaxSnapshots {
			t.Fatalf("%d dumps kept apart", len(d.Snapshots)+1)
		}
		for _, sn := range append([]*goroutines.Dump{d}, d.Snapshots...) {
			sum := 0
			for _, g := range sn.Groups {
				if g.Count < 0 || g.WaitMin > g.WaitMax || g.Leaked > g.Count || g.Elided > 0 && (g.ElidedAt < 0 || g.ElidedAt > len(g.Frames)) {
					t.Fatalf("bad group %+v", g)
				}
				sum += g.Count
			}
			if sum != sn.Total {
				t.Fatalf("groups hold %d goroutines, total %d", sum, sn.Total)
			}
			for _, r := range sn.Races {
				if r.Count <= 0 || r.Example == nil {
					t.Fatalf("bad race group %+v", r)
				}
			}
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
