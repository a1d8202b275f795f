package report

import (
	"math"
	"slices"
	"sort"

	"github.com/perflab/perflab/internal/parallel"
)

// sortEntropy orders nodes by pprof's entropy score (scoreNodes): nodes
// whose calls branch or merge come before simple pass-throughs.
func (dg *dotGraph) sortEntropy(g []*dotNode) {
	names := dg.ix.names
	sort.Slice(g, func(i, j int) bool {
		l, r := g[i], g[j]
		if a, b := abs64(l.score), abs64(r.score); a != b {
			return a > b
		}
		if li, ri := &dg.ix.infos[l.id], &dg.ix.infos[r.id]; l.id != r.id {
			if li.Address != 0 && ri.Address != 0 && li.Address != ri.Address {
				return li.Address < ri.Address
			}
			if names[l.id] != names[r.id] {
				return names[l.id] < names[r.id]
			}
		}
		if a, b := abs64(l.flat), abs64(r.flat); a != b {
			return a > b
		}
		return infoString(&dg.ix.infos[l.id]) < infoString(&dg.ix.infos[r.id])
	})
}

// scoreNodes sets the entropy score of g's nodes from all the edges
// between nodes of byID, before any is trimmed, as pprof scores its graph:
// the weights of each node's edges are gathered in one array, in and out.
func scoreNodes(g, byID []*dotNode, edges *edgeList) {
	inStart := make([]int32, len(byID)+1)
	outStart := make([]int32, len(byID)+1)
	for i := range edges.n {
		e := edges.at(i)
		if byID[e.src] != nil && byID[e.dst] != nil {
			inStart[e.dst+1]++
			outStart[e.src+1]++
		}
	}
	for i := range byID {
		inStart[i+1] += inStart[i]
		outStart[i+1] += outStart[i]
	}
	m := inStart[len(byID)]
	ws := make([]int64, 2*m)
	inNext := slices.Clone(inStart[:len(byID)])
	outNext := slices.Clone(outStart[:len(byID)])
	for i := range edges.n {
		e := edges.at(i)
		if byID[e.src] != nil && byID[e.dst] != nil {
			ws[inNext[e.dst]] = e.w
			inNext[e.dst]++
			ws[m+outNext[e.src]] = e.w
			outNext[e.src]++
		}
	}
	// Sorting each node's weights is most of the work: split between
	// goroutines when there are many.
	parallel.Run(parallel.Split(len(g), 256), func(_, lo, hi int) {
		for _, n := range g[lo:hi] {
			in := ws[inStart[n.id]:inStart[n.id+1]]
			out := ws[m+outStart[n.id] : m+outStart[n.id+1]]
			n.score = entropyScore(in, out, n.flat, n.cum)
		}
	})
}

// entropyScore is the score of a node with edge weights in and out (put
// in order) and values flat and cum.
func entropyScore(in, out []int64, flat, cum int64) int64 {
	score := 0.0
	if len(in) == 0 {
		score++
	} else {
		score += edgeEntropy(in, 0)
	}
	if len(out) == 0 {
		score++
	} else {
		score += edgeEntropy(out, flat)
	}
	return int64(score*float64(cum)) + flat
}

// edgeEntropy is the entropy of the distribution of edges' weights ws
// (and self, the node's own value). It sorts ws.
func edgeEntropy(ws []int64, self int64) float64 {
	// Sum in a fixed order: float addition is not associative, and pprof's
	// own order is a map's, so ties at the last bit are left to chance.
	slices.Sort(ws)
	total := self
	for _, w := range ws {
		if w > 0 {
			total += abs64(w)
		}
	}
	score := 0.0
	if total != 0 {
		for _, w := range ws {
			frac := float64(abs64(w)) / float64(total)
			score += -frac * math.Log2(frac)
		}
		if self > 0 {
			frac := float64(abs64(self)) / float64(total)
			score += -frac * math.Log2(frac)
		}
	}
	return score
}
