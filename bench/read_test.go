package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
)

func TestParseArgs(t *testing.T) {
	got := ParseArgs([]string{"a.txt", "b.txt", "a.txt", "L=a.txt", "-"})
	want := []Arg{{"a.txt", "a.txt#0"}, {"b.txt", "b.txt"}, {"a.txt", "a.txt#1"}, {"a.txt", "L"}, {"-", "-"}}
	if len(got) != len(want) {
		t.Fatalf("ParseArgs = %v, want %v", got, want)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("ParseArgs[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

func TestReadReportsMalformedLines(t *testing.T) {
	b, err := NewBuilder(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	in := "goos: linux\nBenchmarkA-2 100 5 ns/op\nBenchmarkB-2 x 5 ns/op\nBenchmarkC-2 100\nBenchmarkA-2 100 6 ns/op\n"
	var warnings []error
	if err := b.Read(Arg{Path: "in.txt", Label: "in"}, strings.NewReader(in), func(e error) { warnings = append(warnings, e) }); err != nil {
		t.Fatal(err)
	}
	if b.Results() != 2 || len(warnings) != 2 {
		t.Fatalf("got %d results and warnings %v, want 2 results and 2 warnings", b.Results(), warnings)
	}
	var se *benchfmt.SyntaxError
	if !errors.As(warnings[0], &se) || se.FileName != "in.txt" || se.Line != 3 {
		t.Errorf("first warning %v, want a syntax error at in.txt:3", warnings[0])
	}
	ts := b.Tables()
	if len(ts.Tables) != 1 || ts.Tables[0].Unit != "sec/op" || len(ts.Tables[0].Rows) != 1 {
		t.Fatalf("tables: %+v", ts.Tables)
	}
}

func TestReadLongLineFails(t *testing.T) {
	b, _ := NewBuilder(DefaultConfig())
	in := "BenchmarkA 1 " + strings.Repeat("1", 70000) + " ns/op\n"
	err := b.Read(Arg{Path: "long.txt", Label: "long.txt"}, strings.NewReader(in), func(error) {})
	if err == nil || !strings.Contains(err.Error(), "long.txt:") {
		t.Errorf("Read of a 70 kB line: %v, want an error naming long.txt", err)
	}
}

// FuzzRead feeds arbitrary bytes as two inputs through reading, statistics
// and every output format: none may panic, and the JSON must be valid.
func FuzzRead(f *testing.F) {
	f.Add([]byte("goos: linux\npkg: p\nBenchmarkA-2 100 5 ns/op 3 B/op 1 allocs/op\nBenchmarkA-2 100 6 ns/op 3 B/op 1 allocs/op\n"),
		[]byte("goos: linux\npkg: p\nBenchmarkA-2 100 9 ns/op 4 B/op 2 allocs/op\nBenchmarkB/k=v-2 1 1 MB/s\n"))
	f.Add([]byte("Unit x/op assume=exact\nBenchmarkX 1 5 x/op\nBenchmarkX 1 6 x/op\n"), []byte("BenchmarkX 1 0 x/op\n"))
	f.Add([]byte("BenchmarkA 1 -5 ns/op\nBenchmarkA 1 +Inf ns/op\n"), []byte("BenchmarkA 1 NaN ns/op\nBenchmark 1 1 ns/op\n"))
	f.Add([]byte("BenchmarkA x 1 ns/op\nBenchmarkA 1\nUnit\n"), []byte(""))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		bld, err := NewBuilder(DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		for i, in := range [][]byte{a, b} {
			arg := Arg{Path: "in", Label: string(rune('a' + i))}
			if err := bld.Read(arg, bytes.NewReader(in), func(error) {}); err != nil {
				return // e.g. a line too long: reported, not a crash
			}
		}
		ts := bld.Tables()
		if err := ts.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if err := ts.WriteCSV(io.Discard, io.Discard); err != nil {
			t.Fatal(err)
		}
		_ = ts.WriteOld(io.Discard)
		var js bytes.Buffer
		if err := ts.WriteJSON(&js); err != nil {
			t.Fatal(err)
		}
		if !json.Valid(js.Bytes()) {
			t.Fatalf("invalid JSON: %s", js.Bytes())
		}
		g, _ := ParseGate("sec/op>+5%,x/op<0")
		g.Check(ts)
		_ = g.CheckUnits(ts, bld.InputUnits())
		ts.UnitGaps()
	})
}
