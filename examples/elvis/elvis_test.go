package elvis

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"testing/iotest"
)

// table is the case study's table of inputs and expected outputs.
var table = []struct{ in, out string }{
	{"abc", "abc"},
	{"elvis", "Elvis"},
	{"aElvis", "aElvis"},
	{"abcelvis", "abcElvis"},
	{"eelvis", "eElvis"},
	{"aelvis", "aElvis"},
	{"aabeeeelvis", "aabeeeElvis"},
	{"e l v i s", "e l v i s"},
	{"aa bb e l v i saa", "aa bb e l v i saa"},
	{" elvi s", " elvi s"},
	{"elvielvis", "elviElvis"},
	{"elvielvielviselvi1", "elvielviElviselvi1"},
	{"elvielviselvis", "elviElvisElvis"},
}

// stream returns every input of the table concatenated, and the expected output.
func stream() (in, out []byte) {
	for _, tt := range table {
		in = append(in, tt.in...)
		out = append(out, tt.out...)
	}
	return in, out
}

func reader(t testing.TB, in []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := ReplaceReader(bytes.NewReader(in), &out, Find, Repl); err != nil {
		t.Fatalf("ReplaceReader(%q): %v", in, err)
	}
	return out.Bytes()
}

func scan(in []byte) []byte {
	var out bytes.Buffer
	ReplaceScan(in, Find, Repl, &out)
	return out.Bytes()
}

func TestTable(t *testing.T) {
	all, want := stream()
	cases := append(table, struct{ in, out string }{string(all), string(want)}, struct{ in, out string }{"", ""})
	for _, tt := range cases {
		if got := reader(t, []byte(tt.in)); string(got) != tt.out {
			t.Errorf("ReplaceReader(%q) = %q, want %q", tt.in, got, tt.out)
		}
		if got := scan([]byte(tt.in)); string(got) != tt.out {
			t.Errorf("ReplaceScan(%q) = %q, want %q", tt.in, got, tt.out)
		}
	}
}

// TestReaderOneByteAtATime feeds the stream one byte per Read, as a slow
// network connection would.
func TestReaderOneByteAtATime(t *testing.T) {
	in, want := stream()
	var out bytes.Buffer
	if err := ReplaceReader(iotest.OneByteReader(bytes.NewReader(in)), &out, Find, Repl); err != nil {
		t.Fatal(err)
	}
	if out.String() != string(want) {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

func TestReaderErrors(t *testing.T) {
	boom := errors.New("boom")
	err := ReplaceReader(iotest.ErrReader(boom), &bytes.Buffer{}, Find, Repl)
	if !errors.Is(err, boom) {
		t.Errorf("read error: got %v, want %v", err, boom)
	}
	if err := ReplaceReader(strings.NewReader("x"), &bytes.Buffer{}, nil, Repl); err == nil {
		t.Error("empty search word: got nil error")
	}
}

// TestScanAllocatesNothing checks the claim the case study makes for the
// second solution: no allocation once the output buffer has grown.
func TestScanAllocatesNothing(t *testing.T) {
	in, _ := stream()
	var out bytes.Buffer
	out.Grow(2 * len(in))
	allocs := testing.AllocsPerRun(100, func() {
		out.Reset()
		ReplaceScan(in, Find, Repl, &out)
	})
	if allocs != 0 {
		t.Errorf("ReplaceScan: %v allocs per run, want 0", allocs)
	}
	if got := testing.AllocsPerRun(100, func() { reader(t, in) }); got == 0 {
		t.Errorf("ReplaceReader: 0 allocs per run; the benchmark comparison assumes it allocates")
	}
}

// FuzzReplace checks both solutions against bytes.ReplaceAll, which has the
// same leftmost, non-overlapping semantics.
func FuzzReplace(f *testing.F) {
	for _, tt := range table {
		f.Add([]byte(tt.in), "elvis")
	}
	f.Add([]byte("aaaa"), "aa")
	f.Add([]byte("abababa"), "aba")
	f.Fuzz(func(t *testing.T, in []byte, find string) {
		if find == "" {
			return
		}
		repl := []byte(strings.ToUpper(find) + "!")
		want := bytes.ReplaceAll(in, []byte(find), repl)
		var got bytes.Buffer
		if err := ReplaceReader(bytes.NewReader(in), &got, []byte(find), repl); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("ReplaceReader(%q, %q) = %q, want %q", in, find, got.Bytes(), want)
		}
		got.Reset()
		ReplaceScan(in, []byte(find), repl, &got)
		if !bytes.Equal(got.Bytes(), want) {
			t.Errorf("ReplaceScan(%q, %q) = %q, want %q", in, find, got.Bytes(), want)
		}
	})
}

func BenchmarkAlgorithmOne(b *testing.B) {
	in, _ := stream()
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := ReplaceReader(bytes.NewReader(in), &out, Find, Repl); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAlgorithmTwo(b *testing.B) {
	in, _ := stream()
	var out bytes.Buffer
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		ReplaceScan(in, Find, Repl, &out)
	}
}
