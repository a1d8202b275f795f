package disasm

import "sync"

// A Cache opens each binary once. The zero value is ready to use.
type Cache struct {
	mu   sync.Mutex
	bins map[string]cached
}

type cached struct {
	b   *Binary
	err error
}

// Open returns the binary at path, opened on the first call; its errors
// are *BinaryError.
func (c *Cache) Open(path string) (*Binary, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.bins[path]; ok {
		return e.b, e.err
	}
	b, err := Open(path)
	if c.bins == nil {
		c.bins = map[string]cached{}
	}
	c.bins[path] = cached{b, err}
	return b, err
}
