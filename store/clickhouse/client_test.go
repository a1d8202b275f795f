package clickhouse

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/perflab/perflab/internal/clickhousetest"
	"github.com/perflab/perflab/internal/testprog"
)

// row holds a value of each type the store's tables use.
type row struct {
	u8      uint8
	u32     uint32
	u64     uint64
	i64     int64
	s       string
	strs    []string
	u64s    []uint64
	i64s    []int64
	comment string
}

func (r row) write(w *rowWriter) {
	w.uint8(r.u8)
	w.uint32(r.u32)
	w.uint64(r.u64)
	w.int64(r.i64)
	w.string(r.s)
	w.strings(r.strs)
	w.uint64s(r.u64s)
	w.int64s(r.i64s)
	w.endRow()
}

func readRow(r *rowReader) row {
	return row{u8: r.uint8(), u32: r.uint32(), u64: r.uint64(), i64: r.int64(), s: r.string(), strs: r.strings(), u64s: r.uint64s(), i64s: r.int64s()}
}

const rowColumns = "(u8 UInt8, u32 UInt32, u64 UInt64, i64 Int64, s String, strs Array(String), u64s Array(UInt64), i64s Array(Int64))"

// TestRowBinary writes rows of every type the tables use through a
// gzipped RowBinary insert, and reads them back in RowBinary, more rows
// than one block of ClickHouse's answer holds (65,536); ClickHouse's own
// sum over them agrees with Go's (both wrap around).
func TestRowBinary(t *testing.T) {
	node := clickhousetest.Node(t)
	db := clickhousetest.Database(t, node)
	c := newClient(Config{Shards: []string{node.HTTPAddr}, Database: db})
	defer c.close()
	ctx := context.Background()
	if err := c.exec(ctx, 0, "creating a table", "CREATE TABLE t "+rowColumns+" ENGINE = MergeTree ORDER BY u64"); err != nil {
		t.Fatal(err)
	}
	rows := []row{
		{u8: math.MaxUint8, u32: math.MaxUint32, u64: math.MaxUint64, i64: math.MinInt64, s: "\x00\xff\t\n'\\\"ünïcode", strs: []string{"", "a", strings.Repeat("x", 300)}, u64s: []uint64{0, math.MaxUint64}, i64s: []int64{-1, math.MaxInt64}},
		{s: "", strs: nil, u64s: nil, i64s: nil},
	}
	sumI64 := rows[0].i64 + rows[1].i64
	for i := range 70_000 {
		rows = append(rows, row{u8: uint8(i), u32: uint32(i * 7), u64: uint64(i) + 1, i64: int64(i) - 35_000, s: fmt.Sprint("s", i%1000), strs: []string{fmt.Sprint(i)}, u64s: []uint64{uint64(i)}, i64s: []int64{int64(-i)}})
		sumI64 += int64(i) - 35_000
	}
	var w rowWriter
	for _, r := range rows {
		r.write(&w)
	}
	if err := c.insert(ctx, 0, "writing rows", "t", "(u8, u32, u64, i64, s, strs, u64s, i64s)", &w); err != nil {
		t.Fatal(err)
	}
	got := make([]row, 0, len(rows))
	err := c.query(ctx, 0, "reading rows", "SELECT * FROM t ORDER BY u64", func(r *rowReader) error {
		for r.more() {
			got = append(got, readRow(r))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// ORDER BY u64 puts the empty row first and the one of maxima last.
	want := append(append([]row{rows[1]}, rows[2:]...), rows[0])
	if len(got) != len(want) {
		t.Fatalf("read %d rows, wrote %d", len(got), len(want))
	}
	for i := range want {
		if !rowsEqual(got[i], want[i]) {
			t.Fatalf("row %d reads %+v, want %+v", i, got[i], want[i])
		}
	}
	wantSums := fmt.Sprintf("%d\t%d\n", sumI64, len(rows))
	if got, err := node.Query(db, "SELECT sum(i64), count() FROM t"); err != nil || got != wantSums {
		t.Errorf("ClickHouse's sums: %q, %v; want %q", got, err, wantSums)
	}
}

func rowsEqual(a, b row) bool {
	return a.u8 == b.u8 && a.u32 == b.u32 && a.u64 == b.u64 && a.i64 == b.i64 && a.s == b.s &&
		slices.Equal(a.strs, b.strs) && slices.Equal(a.u64s, b.u64s) && slices.Equal(a.i64s, b.i64s)
}

// TestTimeout checks that a query that outlasts the store's timeout is
// abandoned with an error that names it.
func TestTimeout(t *testing.T) {
	t.Parallel()
	node := clickhousetest.Node(t)
	c := newClient(Config{Shards: []string{node.HTTPAddr}, Database: "default", Timeout: time.Second})
	defer c.close()
	err := c.exec(context.Background(), 0, "sleeping", "SELECT sleep(3)")
	if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "no answer within 1s") {
		t.Errorf("a 3 s query with a 1 s timeout: %v, want no answer within 1s", err)
	}
}

// TestAnyShard checks that a request for any shard goes to one that
// answers when another cannot be reached, and that a shard's exception
// is not tried elsewhere.
func TestAnyShard(t *testing.T) {
	node := clickhousetest.Node(t)
	closed := strings.TrimSuffix(strings.TrimPrefix(testprog.ClosedPortURL(t), "http://"), "/")
	c := newClient(Config{Shards: []string{closed, node.HTTPAddr}, Database: "default", Cluster: "c"})
	defer c.close()
	for range 2 { // each shard first once
		var one uint8
		if err := c.query(context.Background(), anyShard, "asking", "SELECT 1", func(r *rowReader) error {
			for r.more() {
				one = r.uint8()
			}
			return nil
		}); err != nil || one != 1 {
			t.Errorf("SELECT 1 on any shard: %d, %v", one, err)
		}
	}
	err := c.exec(context.Background(), 0, "asking", "SELECT 1")
	if err == nil || !strings.Contains(err.Error(), "clickhouse "+closed+": asking: ") || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("SELECT 1 on the closed port: %v, want connection refused", err)
	}
}

// TestExternal looks rows up by a temporary table of hashes sent with
// the query, through a Distributed table: the rows of both shards come
// back, and only those.
func TestExternal(t *testing.T) {
	st := open(t, clusterURL(t))
	ctx := context.Background()
	var w rowWriter
	const n = 1000
	for hash := range uint64(n) {
		w.uint32(1)
		w.uint64(hash)
		w.uint64s([]uint64{hash * 3})
		w.endRow()
	}
	if err := st.c.insert(ctx, anyShard, "writing stacks", "stacks", "(day, hash, locations)", &w); err != nil {
		t.Fatal(err)
	}
	var ids rowWriter
	want := map[uint64]uint64{}
	for _, h := range []uint64{2, 3, n / 2, n - 1, n + 5} {
		ids.uint64(h)
		if h < n {
			want[h] = h * 3
		}
	}
	got := map[uint64]uint64{}
	err := st.c.queryExternal(ctx, anyShard, "reading stacks", "SELECT hash, any(locations) FROM stacks WHERE hash IN ids GROUP BY hash",
		[]external{{name: "ids", structure: "hash UInt64", rows: &ids}}, func(r *rowReader) error {
			for r.more() {
				h, locs := r.uint64(), r.uint64s()
				got[h] = locs[0]
			}
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(got, want) {
		t.Errorf("read %v, want %v", got, want)
	}
}
