package report

import "testing"

// TestEdgeListChunks checks that edges keep their index across chunk
// boundaries and that an edge's address is stable while the list grows.
func TestEdgeListChunks(t *testing.T) {
	var l edgeList
	const n = 3<<edgeChunkBits + 5
	first := (*edge)(nil)
	for i := range int32(n) {
		l.add(edge{src: i, dst: -i, w: int64(i) * 3})
		if i == 0 {
			first = l.at(0)
		}
	}
	if l.n != n {
		t.Fatalf("n = %d, want %d", l.n, n)
	}
	for i := range int32(n) {
		if e := l.at(i); e.src != i || e.dst != -i || e.w != int64(i)*3 {
			t.Fatalf("at(%d) = %+v", i, *e)
		}
	}
	if first != l.at(0) {
		t.Errorf("edge 0 moved while the list grew")
	}
}
