package web

import (
	"container/list"
	"sync"
)

// An lru keeps the most recently used values, at most max of them.
type lru[V any] struct {
	mu    sync.Mutex
	max   int
	order *list.List // of *entry[V], most recent first
	items map[string]*list.Element
}

type entry[V any] struct {
	key string
	val V
}

func newLRU[V any](max int) *lru[V] {
	return &lru[V]{max: max, order: list.New(), items: map[string]*list.Element{}}
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
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		e.Value.(*entry[V]).val = v
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&entry[V]{k, v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*entry[V]).key)
	}
}

// cache holds rendered answers; derivedCache holds the per-refinement
// structures views are answered from (flame trees), fewer of them since
// each is as large as the filtered profile's call tree.
type (
	cache        = lru[answer]
	derivedCache = lru[any]
)

func newCache(max int) *cache               { return newLRU[answer](max) }
func newDerivedCache(max int) *derivedCache { return newLRU[any](max) }
