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

// Open returns the binary at path, opened by Open on the first call for
// path (by OpenArg if that was first); its errors are *BinaryError.
func (c *Cache) Open(path string) (*Binary, error) {
	return c.open(path, Open)
}

// OpenArg is Open for the binary the user named, opened by OpenArg.
func (c *Cache) OpenArg(path string) (*Binary, error) {
	return c.open(path, OpenArg)
}

func (c *Cache) open(path string, opener func(string) (*Binary, error)) (*Binary, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.bins[path]; ok {
		return e.b, e.err
	}
	b, err := opener(path)
	if c.bins == nil {
		c.bins = map[string]cached{}
	}
	c.bins[path] = cached{b, err}
	return b, err
}
