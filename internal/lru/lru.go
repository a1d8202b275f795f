// Package lru is the cache of perflab's servers: the most recently used
// values within a bound on their count, on their bytes, or both. Package
// web keeps its rendered answers and flame trees in it, package viewer
// the views of its selections.
package lru

import (
	"container/list"
	"sync"
)

// A Cache keeps the most recently used values within a bound: at most
// maxCount of them if maxCount > 0, and at most maxBytes of them as size
// counts them if maxBytes > 0. A value larger than a quarter of maxBytes
// is not kept at all, so that one value cannot push out all the others.
// Its methods may be called concurrently.
type Cache[V any] struct {
	mu       sync.Mutex
	maxCount int
	maxBytes int64
	size     func(V) int64
	bytes    int64      // the sizes of the kept values
	order    *list.List // of *entry[V], most recent first
	items    map[string]*list.Element
}

type entry[V any] struct {
	key  string
	val  V
	size int64
}

// New returns an empty Cache of at most maxCount values (0: no bound on
// their count) and maxBytes bytes as size counts them (0: no bound on
// their bytes; size may then be nil).
func New[V any](maxCount int, maxBytes int64, size func(V) int64) *Cache[V] {
	return &Cache[V]{maxCount: maxCount, maxBytes: maxBytes, size: size, order: list.New(), items: map[string]*list.Element{}}
}

// Get returns the value of k, if it is kept, and makes it the most
// recently used.
func (c *Cache[V]) Get(k string) (v V, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return v, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry[V]).val, true
}

// Put keeps v as k's value, the most recently used, and drops the least
// recently used values beyond the bounds. A value larger than a quarter
// of maxBytes is not kept (and replaces none).
func (c *Cache[V]) Put(k string, v V) {
	var n int64
	if c.size != nil {
		n = c.size(v)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.remove(e)
	}
	if c.maxBytes > 0 && n > c.maxBytes/4 {
		return
	}
	c.items[k] = c.order.PushFront(&entry[V]{k, v, n})
	c.bytes += n
	for c.order.Len() > 0 && (c.maxCount > 0 && c.order.Len() > c.maxCount || c.maxBytes > 0 && c.bytes > c.maxBytes) {
		c.remove(c.order.Back())
	}
}

// Len returns the number of values kept and the sum of their sizes.
func (c *Cache[V]) Len() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.bytes
}

// remove drops an entry; c.mu is held.
func (c *Cache[V]) remove(e *list.Element) {
	ent := e.Value.(*entry[V])
	c.order.Remove(e)
	delete(c.items, ent.key)
	c.bytes -= ent.size
}
