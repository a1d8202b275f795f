package goroutines_test

import (
	"bytes"
	"html"
	"io"
	"strings"
	"testing"

	"github.com/perflab/perflab/goroutines"
	"github.com/perflab/perflab/internal/dumpgen"
	"github.com/perflab/perflab/internal/testprog"
)

// TestGroupBudget reads a dump of 100,000 goroutines that all differ but
// every 50th, with a group budget of 4 MiB: the groups hold no more than
// about the budget (one group each held 1.4 to 1.8 GB for a million), the
// smallest are folded into one group, "other", shown last with a note, no
// goroutine is lost, and the one large group keeps its exact count.
func TestGroupBudget(t *testing.T) {
	const n, every, budget = 100_000, 50, 4 << 20
	pr, pw := io.Pipe()
	go func() {
		_, err := dumpgen.Distinct(pw, n, every)
		pw.CloseWithError(err)
	}()
	before := testprog.HeapAlloc()
	d := goroutines.NewDump()
	d.MaxBytes = budget
	if err := goroutines.Read("distinct.txt", pr, d, goroutines.Options{}); err != nil {
		t.Fatal(err)
	}
	d.Sort()
	held := int64(testprog.HeapAlloc()) - int64(before)
	if held > 2*budget {
		t.Errorf("the dump holds %d KB, more than twice its group budget of %d KB", held>>10, budget>>10)
	}
	total := 0
	for _, g := range d.Groups {
		total += g.Count
	}
	leak, other := d.Groups[0], d.Groups[len(d.Groups)-1]
	if d.Total != n || total != n {
		t.Errorf("Total %d, groups count %d goroutines, want %d", d.Total, total, n)
	}
	if leak.Top().Func != "main.leak" || leak.Count != n/every {
		t.Errorf("largest group: %d in %s, want %d in main.leak", leak.Count, leak.Top().Func, n/every)
	}
	if other.Folded == 0 || other.Top().Func != "(other groups)" || len(other.Frames) != 0 {
		t.Fatalf("last group: %d goroutines in %s, %d folded; want the other groups", other.Count, other.Top().Func, other.Folded)
	}
	if other.Folded+len(d.Groups)-1 < n-n/every+1 {
		t.Errorf("%d groups shown and %d folded, want the %d distinct stacks", len(d.Groups)-1, other.Folded, n-n/every+1)
	}
	var text bytes.Buffer
	if err := d.WriteText(&text, goroutines.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	var page bytes.Buffer
	if err := d.WriteHTML(&page, goroutines.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[other: ", "folded by the group budget", `shown as one group, "other"`, "group budget (4 MiB)"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text output lacks %q", want)
		}
		if !strings.Contains(html.UnescapeString(page.String()), want) {
			t.Errorf("HTML output (perflab web) lacks %q", want)
		}
	}
	for _, f := range d.Leaks(1) {
		if f.Group == other {
			t.Errorf("a leak finding for the other groups: %s", f.Text)
		}
	}
}
