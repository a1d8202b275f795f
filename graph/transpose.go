package graph

// transposeMax is the largest layered graph (in vertices) that transpose
// refines: its cost grows with the square of the degrees.
const transposeMax = 20000

// transpose swaps neighbouring vertices of a rank while that removes
// crossings with the ranks above and below (Graphviz's transpose step),
// at most a few passes.
func (l *layered) transpose() {
	if len(l.v) > transposeMax {
		return
	}
	for pass := 0; pass < 4; pass++ {
		improved := false
		for _, rk := range l.ranks {
			for i := 0; i+1 < len(rk); i++ {
				u, w := rk[i], rk[i+1]
				if l.pairCrossings(u, w) > l.pairCrossings(w, u) {
					rk[i], rk[i+1] = w, u
					l.v[w].pos, l.v[u].pos = i, i+1
					improved = true
				}
			}
		}
		if !improved {
			return
		}
	}
}

// pairCrossings counts the crossings between the edges of u and those of
// w, u placed left of w, with both neighbouring ranks.
func (l *layered) pairCrossings(u, w int) int {
	return crossPairs(l, l.v[u].up, l.v[w].up) + crossPairs(l, l.v[u].down, l.v[w].down)
}

func crossPairs(l *layered, a, b []int) int {
	n := 0
	for _, x := range a {
		px := l.v[x].pos
		for _, y := range b {
			if px > l.v[y].pos {
				n++
			}
		}
	}
	return n
}
