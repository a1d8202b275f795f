package web

import (
	"container/list"
	"sync"
)

// An lru keeps the most recently used values within a bound: at most
// maxCount of them if maxCount > 0, and at most maxBytes of them as size
// counts them if maxBytes > 0. A value larger than a quarter of maxBytes
// is not kept at all, so that one answer cannot push out all the others.
type lru[V any] struct {
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

func (c *lru[V]) get(k string) (v V, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.items[k]
	if !ok {
		return v, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry[V]).val, true
}

func (c *lru[V]) put(k string, v V) {
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

// remove drops an entry; c.mu is held.
func (c *lru[V]) remove(e *list.Element) {
	ent := e.Value.(*entry[V])
	c.order.Remove(e)
	delete(c.items, ent.key)
	c.bytes -= ent.size
}

// cache holds rendered answers, bounded by their bytes; derivedCache holds
// the per-refinement structures views are answered from (flame trees), a
// few of them, since each is as large as the filtered profile's call tree.
type (
	cache        = lru[answer]
	derivedCache = lru[any]
)

// DefaultCacheBytes bounds the rendered answers a server keeps unless
// Options.CacheBytes says otherwise.
const DefaultCacheBytes = 256 << 20

// derivedEntries is how many flame trees a server keeps.
const derivedEntries = 4

func newCache(maxBytes int64) *cache {
	return &lru[answer]{maxBytes: maxBytes, size: answer.bytes, order: list.New(), items: map[string]*list.Element{}}
}

func newDerivedCache(max int) *derivedCache {
	return &lru[any]{maxCount: max, order: list.New(), items: map[string]*list.Element{}}
}

// bytes is what an answer holds in memory, near enough.
func (a answer) bytes() int64 {
	n := int64(cap(a.body) + len(a.contentType) + 64)
	for _, w := range a.warnings {
		n += int64(len(w)) + 16
	}
	return n
}
