package graph

import (
	"math"
	"sort"
	"unicode/utf8"
)

// place gives every vertex its coordinates: ranks stacked from top down,
// and in each rank the x that keeps it closest to its neighbours (by
// weight; long edges weigh more so that they run straight) without
// overlapping, found exactly by pool-adjacent-violators regression.
func (l *layered) place(d *Drawing, top float64) {
	heights := make([]float64, len(l.ranks))
	for r, rk := range l.ranks {
		for _, u := range rk {
			heights[r] = max(heights[r], l.v[u].h)
		}
	}
	y := top
	centers := make([]float64, len(l.ranks))
	for r, h := range heights {
		centers[r] = y + h/2
		y += h + rankSep
	}
	for _, rk := range l.ranks {
		x := 0.0
		for _, u := range rk {
			l.v[u].x = x + l.v[u].w/2
			x += l.v[u].w + nodeSep
		}
	}
	for it := 0; it < 8; it++ {
		for r := 1; r < len(l.ranks); r++ {
			l.align(r, true, false)
		}
		for r := len(l.ranks) - 2; r >= 0; r-- {
			l.align(r, false, true)
		}
	}
	for r := range l.ranks {
		l.align(r, true, true)
	}
	minX, maxX := 0.0, 0.0
	first := true
	for i := range l.v {
		lo, hi := l.v[i].x-l.v[i].w/2, l.v[i].x+l.v[i].w/2
		if first || lo < minX {
			minX = lo
		}
		if first || hi > maxX {
			maxX = hi
		}
		first = false
	}
	shift := margin - minX
	for i := range l.v {
		l.v[i].x += shift
	}
	for i := range l.g.Nodes {
		v := &l.v[i]
		d.Nodes[i] = Box{X: v.x - v.w/2, Y: centers[v.rank] - v.h/2, W: v.w, H: v.h}
	}
	d.Width = maxX - minX + 2*margin
	d.Height = y - rankSep + margin
	if len(l.ranks) == 0 {
		d.Height = top + margin
	}
	l.centers = centers
}

// align moves the vertices of rank r towards the weighted mean x of their
// neighbours above (up) and below (down), keeping their order and gaps.
func (l *layered) align(r int, up, down bool) {
	rk := l.ranks[r]
	if len(rk) == 0 {
		return
	}
	target := make([]float64, len(rk))
	weight := make([]float64, len(rk))
	offset := make([]float64, len(rk))
	for i, u := range rk {
		v := &l.v[u]
		sum, w := 0.0, 0.0
		if up {
			for k, n := range v.up {
				sum += v.upW[k] * l.v[n].x
				w += v.upW[k]
			}
		}
		if down {
			for k, n := range v.down {
				sum += v.downW[k] * l.v[n].x
				w += v.downW[k]
			}
		}
		if w == 0 {
			sum, w = v.x*0.01, 0.01 // stay put unless pushed
		}
		if i > 0 {
			p := &l.v[rk[i-1]]
			gap := nodeSep
			if p.node < 0 || v.node < 0 {
				gap = dummySep
			}
			offset[i] = offset[i-1] + p.w/2 + v.w/2 + gap
		}
		target[i] = sum/w - offset[i]
		weight[i] = w
	}
	y := isotonic(target, weight)
	for i, u := range rk {
		l.v[u].x = y[i] + offset[i]
	}
}

// isotonic returns the non-decreasing sequence closest to t in weighted
// least squares (pool adjacent violators).
func isotonic(t, w []float64) []float64 {
	type block struct {
		sum, w float64
		n      int
	}
	var bs []block
	for i := range t {
		bs = append(bs, block{t[i] * w[i], w[i], 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.sum/a.w <= b.sum/b.w {
				break
			}
			bs = bs[:len(bs)-2]
			bs = append(bs, block{a.sum + b.sum, a.w + b.w, a.n + b.n})
		}
	}
	out := make([]float64, 0, len(t))
	for _, b := range bs {
		for range b.n {
			out = append(out, b.sum/b.w)
		}
	}
	return out
}

// route draws every edge through its chain of vertices, leaving and
// entering boxes at ports spread along their borders.
func (l *layered) route(d *Drawing) {
	startOff, endOff := l.ports()
	for i, chain := range l.chains {
		if len(chain) < 2 {
			continue
		}
		pts := make([]Point, 0, len(chain))
		for k, u := range chain {
			v := &l.v[u]
			y := l.centers[v.rank]
			switch {
			case k == 0:
				pts = append(pts, Point{v.x + startOff[i], y + v.h/2})
			case k == len(chain)-1:
				pts = append(pts, Point{v.x + endOff[i], y - v.h/2})
			default:
				pts = append(pts, Point{v.x, y})
			}
		}
		label := Point{(pts[0].X+pts[len(pts)-1].X)/2 + 4, (pts[0].Y + pts[len(pts)-1].Y) / 2}
		if len(pts) > 2 {
			m := pts[len(pts)/2]
			label = Point{m.X + 4, m.Y}
		}
		if l.reversed[i] {
			for a, b := 0, len(pts)-1; a < b; a, b = a+1, b-1 {
				pts[a], pts[b] = pts[b], pts[a]
			}
		}
		d.Edges[i] = Path{Points: pts, Label: label}
	}
	spreadLabels(l.g, d)
}

// labelFont is the size of edge labels; labelWidth estimates one's width.
const labelFont = 8.0

func labelWidth(s string) float64 { return float64(utf8.RuneCountInString(s))*labelFont*charWidth + 2 }

// spreadLabels moves edge labels that would overprint each other (same
// height, overlapping widths) to rows above and below, in order of x.
func spreadLabels(g *Graph, d *Drawing) {
	type label struct {
		edge int
		x, w float64
	}
	byY := make(map[float64][]label)
	var ys []float64
	for i, e := range g.Edges {
		p := &d.Edges[i]
		if len(p.Points) < 2 || e.Label == "" {
			continue
		}
		if byY[p.Label.Y] == nil {
			ys = append(ys, p.Label.Y)
		}
		byY[p.Label.Y] = append(byY[p.Label.Y], label{i, p.Label.X, labelWidth(e.Label)})
	}
	sort.Float64s(ys)
	offsets := []float64{0, labelFont + 1, -(labelFont + 1), 2 * (labelFont + 1), -2 * (labelFont + 1)}
	for _, y := range ys {
		ls := byY[y]
		sort.SliceStable(ls, func(a, b int) bool { return ls[a].x < ls[b].x })
		right := make([]float64, len(offsets)) // right end of the last label of each row
		for k := range right {
			right[k] = math.Inf(-1)
		}
		for _, lb := range ls {
			row := 0
			for k := range offsets {
				if right[k] <= lb.x {
					row = k
					break
				}
				if right[k] < right[row] {
					row = k
				}
			}
			right[row] = lb.x + lb.w
			d.Edges[lb.edge].Label.Y += offsets[row]
		}
	}
}

// ports spreads the edges leaving the bottom of each box, and those
// entering its top, in the order of their other ends.
func (l *layered) ports() (start, end []float64) {
	start = make([]float64, len(l.chains))
	end = make([]float64, len(l.chains))
	type port struct{ edge, pos int }
	downs := make(map[int][]port)
	ups := make(map[int][]port)
	for i, c := range l.chains {
		if len(c) < 2 {
			continue
		}
		downs[c[0]] = append(downs[c[0]], port{i, l.v[c[1]].pos})
		ups[c[len(c)-1]] = append(ups[c[len(c)-1]], port{i, l.v[c[len(c)-2]].pos})
	}
	spread := func(m map[int][]port, off []float64) {
		for u, ps := range m {
			sort.Slice(ps, func(a, b int) bool {
				if ps[a].pos != ps[b].pos {
					return ps[a].pos < ps[b].pos
				}
				return ps[a].edge < ps[b].edge
			})
			step := min(12, l.v[u].w*0.8/float64(len(ps)))
			for k, p := range ps {
				off[p.edge] = (float64(k) - float64(len(ps)-1)/2) * step
			}
		}
	}
	spread(downs, start)
	spread(ups, end)
	return start, end
}
