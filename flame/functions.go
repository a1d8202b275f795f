package flame

import (
	"cmp"
	"slices"

	"github.com/perflab/perflab/internal/parallel"
)

// A FuncStat is one row of the sandwich view's function table.
type FuncStat struct {
	Name      string
	File      string
	Line      int
	Package   string
	Self      int64 // value of the samples whose innermost frame it is
	Total     int64 // value of the samples it is on, counted once however often it recurs
	BaseSelf  int64 // the base's, in a diff
	BaseTotal int64
}

// Functions returns every frame's self and total values, by decreasing
// total, then name. Total counts a sample once however often the frame
// recurs in its stack, as top's cum does.
func (t *Tree) Functions() []FuncStat {
	n := len(t.frames)
	ranges := split(len(t.w))
	selfs, totals := make([][]sums, len(ranges)), make([][]sums, len(ranges))
	parallel.Run(ranges, func(k, lo, hi int) {
		self, total := make([]sums, n), make([]sums, n)
		stamp := make([]int32, n)
		for i := lo; i < hi; i++ {
			st := t.stack(i)
			mark := int32(i + 1)
			for _, f := range st {
				if stamp[f] != mark {
					stamp[f] = mark
					total[f].add(t, int32(i))
				}
			}
			if len(st) > 0 {
				self[st[len(st)-1]].add(t, int32(i))
			}
		}
		selfs[k], totals[k] = self, total
	})
	self, total := selfs[0], totals[0]
	for k := 1; k < len(ranges); k++ {
		for f := range n {
			self[f].merge(&selfs[k][f])
			total[f].merge(&totals[k][f])
		}
	}
	out := make([]FuncStat, 0, n)
	for f := range n {
		if total[f].cnt == 0 {
			continue
		}
		fi := &t.frames[f]
		out = append(out, FuncStat{Name: fi.name, File: fi.file, Line: fi.line, Package: t.pkgs[fi.pkg],
			Self: divide(self[f].w, self[f].d), Total: divide(total[f].w, total[f].d),
			BaseSelf: divide(self[f].bw, self[f].bd), BaseTotal: divide(total[f].bw, total[f].bd)})
	}
	slices.SortFunc(out, func(a, b FuncStat) int {
		if c := cmp.Compare(b.Total, a.Total); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	return out
}
