package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/perflab/perflab/internal/benchgen"
)

// readAll reads the inputs into a new Builder with the default Config.
func readAll(t *testing.T, inputs ...[]byte) (*Builder, error) {
	t.Helper()
	b, err := NewBuilder(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range inputs {
		name := fmt.Sprintf("in%d.txt", i)
		if err := b.Read(Arg{Path: name, Label: name}, bytes.NewReader(in), func(err error) { t.Error(err) }); err != nil {
			return b, err
		}
	}
	return b, nil
}

// TestReadKeyBudget checks that an input adding a configuration key before
// each result is refused, naming the file and line, once its keys would
// cost benchproc more than the budget for its size, and that inputs within
// the budget, with few keys or many names, are read whole.
func TestReadKeyBudget(t *testing.T) {
	gen := func(f func(io.Writer, int) (int, error), size int) ([]byte, int) {
		var buf bytes.Buffer
		n, err := f(&buf, size)
		if err != nil {
			t.Fatal(err)
		}
		return buf.Bytes(), n
	}
	big, results := gen(benchgen.ManyKeys, 340_000)
	_, err := readAll(t, big)
	var ke *KeysError
	if !errors.Is(err, ErrTooManyKeys) || !errors.As(err, &ke) {
		t.Fatalf("Read of %d results with a key each: %v, want a *KeysError", results, err)
	}
	if ke.File != "in0.txt" || ke.Line != 2*ke.Results || ke.Results >= results || ke.Cost <= ke.Limit ||
		!strings.HasPrefix(err.Error(), fmt.Sprintf("in0.txt:%d: too many configuration keys", ke.Line)) || strings.Contains(err.Error(), "\n") {
		t.Errorf("error %+v: %v", ke, err)
	}

	// The budget counts every input: two halves fail like the whole.
	// The budget counts every input: the first 40 kB are within it, but
	// the keys they add still count against the next input.
	cut := bytes.LastIndex(big[:40_000], []byte("key"))
	if _, err := readAll(t, big[:cut]); err != nil {
		t.Fatalf("Read of the first 40 kB: %v", err)
	}
	if _, err := readAll(t, big[:cut], big[cut:]); !errors.As(err, &ke) || ke.File != "in1.txt" {
		t.Errorf("Read of the input in two parts: %v, want a *KeysError in in1.txt", err)
	}

	small, results := gen(benchgen.ManyKeys, 20_000)
	names, nameResults := gen(benchgen.ManyNames, 1_000_000)
	var synthetic bytes.Buffer
	writeSynthetic(&synthetic, 1, 400, 20)
	for _, in := range []struct {
		name    string
		data    []byte
		results int
	}{
		{"20 kB of keys", small, results},
		{"1 MB of names", names, nameResults},
		{"synthetic", synthetic.Bytes(), 400 * 20},
	} {
		b, err := readAll(t, in.data)
		if err != nil || b.Results() != in.results {
			t.Errorf("%s: %d results, %v; want %d, no error", in.name, b.Results(), err, in.results)
		}
	}
}

// TestConfigsGroupTables checks that tables are grouped by configuration,
// and that keys a table has no value for (b, cleared by "b:") play no
// part.
func TestConfigsGroupTables(t *testing.T) {
	in := "a: 1\nBenchmarkX 1 5 ns/op 3 B/op\nb: 2\nBenchmarkX 1 5 ns/op 3 B/op\nb:\nc: 3\nBenchmarkY 1 5 ns/op\nc:\nBenchmarkY 1 5 B/op\n"
	b, err := readAll(t, []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	ts := b.Tables()
	cs := ts.configs()
	var got []string
	for i := range ts.Tables {
		got = append(got, fmt.Sprintf("%s %d %s", ts.Tables[i].Unit, cs.id[i], cs.name(ts.Keys[i])))
	}
	want := []string{"sec/op 0 a:1", "B/op 0 a:1", "sec/op 1 a:1 c:3", "sec/op 2 a:1 b:2", "B/op 2 a:1 b:2"}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("tables by configuration:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
