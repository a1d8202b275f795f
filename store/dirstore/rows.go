package dirstore

import (
	"cmp"
	"slices"
)

// rows are the samples of a profile or of a rollup, with their parts
// numbered as the file that holds them numbers them: the ordinal of a
// stack, and of a label set plus one (0 for no pprof labels). Values
// hold ncol values for each row, row after row. Encoded rows are sorted
// by stack then label set.
type rows struct {
	ncol   int
	stacks []uint32
	labels []uint32
	values []int64
}

func (rs *rows) len() int { return len(rs.stacks) }

func (rs *rows) reset(ncol int) {
	rs.ncol = ncol
	rs.stacks, rs.labels, rs.values = rs.stacks[:0], rs.labels[:0], rs.values[:0]
}

func (rs *rows) add(stack, labels uint32, values []int64) {
	rs.stacks = append(rs.stacks, stack)
	rs.labels = append(rs.labels, labels)
	rs.values = append(rs.values, values...)
}

func (rs *rows) row(i int) []int64 { return rs.values[i*rs.ncol : (i+1)*rs.ncol : (i+1)*rs.ncol] }

// sort sorts rs by stack then label set.
func (rs *rows) sort() {
	idx := make([]int, rs.len())
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(rs.stacks[a], rs.stacks[b]), cmp.Compare(rs.labels[a], rs.labels[b]))
	})
	sorted := rows{ncol: rs.ncol, stacks: make([]uint32, 0, len(idx)), labels: make([]uint32, 0, len(idx)), values: make([]int64, 0, len(rs.values))}
	for _, i := range idx {
		sorted.add(rs.stacks[i], rs.labels[i], rs.row(i))
	}
	*rs = sorted
}

// encode appends rs, sorted, column after column: the stacks as
// differences from the one before, the label sets, then each column of
// values divided by the greatest common divisor of the column (a CPU
// profile's nanoseconds are multiples of its period), which is written
// first (0 when the column is all zeros, and then nothing follows).
func (b *buf) rows(rs *rows) {
	n := rs.len()
	b.uint(uint64(n))
	prev := uint32(0)
	for _, s := range rs.stacks {
		b.uint(uint64(s - prev))
		prev = s
	}
	for _, l := range rs.labels {
		b.uint(uint64(l))
	}
	for c := range rs.ncol {
		g := int64(0)
		for i := range n {
			g = gcd(g, rs.values[i*rs.ncol+c])
		}
		b.uint(uint64(g))
		if g == 0 {
			continue
		}
		for i := range n {
			b.int(rs.values[i*rs.ncol+c] / g)
		}
	}
}

// gcd returns the greatest common divisor of |a| and |b|, which is 0 only
// when both are 0. It stays positive for math.MinInt64.
func gcd(a, b int64) int64 {
	ua, ub := abs(a), abs(b)
	for ub != 0 {
		ua, ub = ub, ua%ub
	}
	if ua > 1<<62 {
		return 1 // |MinInt64|: a divisor of it that fits
	}
	return int64(ua)
}

func abs(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// rows reads rows of ncol columns into rs, reusing its memory.
func (r *reader) rows(rs *rows, ncol int) {
	rs.reset(ncol)
	n := r.count(2)
	prev := uint64(0)
	for range n {
		prev += r.uint()
		if prev > 1<<32-1 {
			r.failf("stack ordinal out of range")
			return
		}
		rs.stacks = append(rs.stacks, uint32(prev))
	}
	for range n {
		l := r.uint()
		if l > 1<<32-1 {
			r.failf("label set ordinal out of range")
			return
		}
		rs.labels = append(rs.labels, uint32(l))
	}
	if r.err != nil {
		return
	}
	if n*ncol > 256*len(r.b)+4096 { // more values than bytes can tell
		r.failf("%d rows of %d values in %d bytes", n, ncol, len(r.b))
		return
	}
	rs.values = slices.Grow(rs.values[:0], n*ncol)[:n*ncol]
	for c := range ncol {
		g := int64(r.uint())
		if g == 0 {
			for i := range n {
				rs.values[i*ncol+c] = 0
			}
			continue
		}
		for i := range n {
			rs.values[i*ncol+c] = r.int() * g
		}
	}
	if r.err != nil {
		rs.reset(ncol)
	}
}
