package exectrace

import "golang.org/x/exp/trace"

// denseGoIDs is the bound under which goroutine IDs index a slice rather
// than a map: the runtime hands IDs out in order, so a trace's goroutines
// mostly have small ones.
const denseGoIDs = 1 << 20

// A goMap holds something per goroutine, by ID.
type goMap[T any] struct {
	dense  []*T
	sparse map[trace.GoID]*T
}

func (m *goMap[T]) get(id trace.GoID) *T {
	if id >= 0 && id < denseGoIDs {
		if int(id) < len(m.dense) {
			return m.dense[id]
		}
		return nil
	}
	return m.sparse[id]
}

func (m *goMap[T]) put(id trace.GoID, g *T) {
	if id >= 0 && id < denseGoIDs {
		for int(id) >= len(m.dense) {
			m.dense = append(m.dense, make([]*T, max(64, len(m.dense)))...)
		}
		m.dense[id] = g
		return
	}
	if m.sparse == nil {
		m.sparse = make(map[trace.GoID]*T)
	}
	m.sparse[id] = g
}

func (m *goMap[T]) delete(id trace.GoID) {
	if id >= 0 && id < denseGoIDs {
		if int(id) < len(m.dense) {
			m.dense[id] = nil
		}
		return
	}
	delete(m.sparse, id)
}

// each calls f for every goroutine held.
func (m *goMap[T]) each(f func(g *T)) {
	for _, g := range m.dense {
		if g != nil {
			f(g)
		}
	}
	for _, g := range m.sparse {
		f(g)
	}
}

// A goBytes holds a byte per goroutine, by ID, 0 for those never set.
type goBytes struct {
	dense  []byte
	sparse map[trace.GoID]byte
}

func (m *goBytes) get(id trace.GoID) byte {
	if id >= 0 && id < denseGoIDs {
		if int(id) < len(m.dense) {
			return m.dense[id]
		}
		return 0
	}
	return m.sparse[id]
}

func (m *goBytes) set(id trace.GoID, b byte) {
	if id >= 0 && id < denseGoIDs {
		if int(id) >= len(m.dense) {
			if b == 0 {
				return
			}
			m.dense = append(m.dense, make([]byte, int(id)+1-len(m.dense)+len(m.dense)/2)...)
		}
		m.dense[id] = b
		return
	}
	if m.sparse == nil {
		m.sparse = make(map[trace.GoID]byte)
	}
	m.sparse[id] = b
}
