package exectrace

import "golang.org/x/exp/trace"

// denseGoIDs is the bound under which goroutine IDs index a slice rather
// than a map: the runtime hands IDs out in order, so a trace's goroutines
// mostly have small ones.
const denseGoIDs = 1 << 20

// A goMap holds the live goroutines by ID.
type goMap struct {
	dense  []*goState
	sparse map[trace.GoID]*goState
	n      int
}

func (m *goMap) get(id trace.GoID) *goState {
	if id >= 0 && id < denseGoIDs {
		if int(id) < len(m.dense) {
			return m.dense[id]
		}
		return nil
	}
	return m.sparse[id]
}

func (m *goMap) put(id trace.GoID, g *goState) {
	if id >= 0 && id < denseGoIDs {
		for int(id) >= len(m.dense) {
			m.dense = append(m.dense, make([]*goState, max(64, len(m.dense)))...)
		}
		m.dense[id] = g
		return
	}
	if m.sparse == nil {
		m.sparse = make(map[trace.GoID]*goState)
	}
	m.sparse[id] = g
}

func (m *goMap) delete(id trace.GoID) {
	if id >= 0 && id < denseGoIDs {
		if int(id) < len(m.dense) {
			m.dense[id] = nil
		}
		return
	}
	delete(m.sparse, id)
}

// each calls f for every live goroutine.
func (m *goMap) each(f func(g *goState)) {
	for _, g := range m.dense {
		if g != nil {
			f(g)
		}
	}
	for _, g := range m.sparse {
		f(g)
	}
}
