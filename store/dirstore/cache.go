package dirstore

import (
	"container/list"
	"sync"
)

// A dictCache keeps the dictionaries of the sections queries read most
// recently, up to a number of bytes.
type dictCache struct {
	max int64

	mu    sync.Mutex
	bytes int64
	order *list.List // of *cached, most recent first
	byKey map[dictKey]*list.Element
}

// A dictKey names a section of a block.
type dictKey struct {
	block   *block
	section *sectionMeta
}

type cached struct {
	key  dictKey
	dict *dict
	size int64
}

func newDictCache(max int64) *dictCache {
	return &dictCache{max: max, order: list.New(), byKey: map[dictKey]*list.Element{}}
}

// get returns the dictionary of sec in b, reading it when it is not
// cached.
func (c *dictCache) get(b *block, sec *sectionMeta) (*dict, error) {
	key := dictKey{b, sec}
	c.mu.Lock()
	if e, ok := c.byKey[key]; ok {
		c.order.MoveToFront(e)
		c.mu.Unlock()
		return e.Value.(*cached).dict, nil
	}
	c.mu.Unlock()
	d, err := b.readDict(sec)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok { // read meanwhile by another query
		return e.Value.(*cached).dict, nil
	}
	x := &cached{key: key, dict: d, size: d.size()}
	c.byKey[key] = c.order.PushFront(x)
	c.bytes += x.size
	for c.bytes > c.max && c.order.Len() > 1 {
		c.evict(c.order.Back())
	}
	return d, nil
}

func (c *dictCache) evict(e *list.Element) {
	x := c.order.Remove(e).(*cached)
	delete(c.byKey, x.key)
	c.bytes -= x.size
}

// forget drops the dictionaries of b, which is being removed.
func (c *dictCache) forget(b *block) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for key, e := range c.byKey {
		if key.block == b {
			c.evict(e)
		}
	}
}
