package viewer

import (
	"container/list"
	"sync"

	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/web"
)

// A cache keeps the web.Servers of the latest selections, the least
// recently used dropped first, within a bound on their estimated bytes.
// A server larger than the bound is not kept.
type cache struct {
	mu      sync.Mutex
	max     int64
	bytes   int64
	order   *list.List // of *entry, the most recently used first
	entries map[string]*list.Element
}

type entry struct {
	key   string
	s     *web.Server
	bytes int64
}

func newCache(max int64) *cache {
	return &cache{max: max, order: list.New(), entries: map[string]*list.Element{}}
}

func (c *cache) get(key string) (*web.Server, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*entry).s, true
}

func (c *cache) put(key string, s *web.Server, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if bytes > c.max {
		return
	}
	if e, ok := c.entries[key]; ok {
		c.bytes -= e.Value.(*entry).bytes
		c.order.Remove(e)
	}
	c.entries[key] = c.order.PushFront(&entry{key, s, bytes})
	c.bytes += bytes
	for c.bytes > c.max {
		old := c.order.Back().Value.(*entry)
		c.order.Remove(c.order.Back())
		delete(c.entries, old.key)
		c.bytes -= old.bytes
	}
}

// size returns the entries and bytes the cache holds.
func (c *cache) size() (int, int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.bytes
}

// profileBytes estimates the memory p takes: its samples, locations,
// functions and mappings with their strings.
func profileBytes(p *profile.Profile) int64 {
	n := int64(256)
	for _, s := range p.Sample {
		n += 96 + 8*int64(len(s.Location)+len(s.Value))
		for k, vs := range s.Label {
			n += 48 + int64(len(k))
			for _, v := range vs {
				n += 16 + int64(len(v))
			}
		}
		n += 64 * int64(len(s.NumLabel))
	}
	for _, l := range p.Location {
		n += 96 + 48*int64(len(l.Line))
	}
	for _, f := range p.Function {
		n += 96 + int64(len(f.Name)+len(f.SystemName)+len(f.Filename))
	}
	for _, m := range p.Mapping {
		n += 128 + int64(len(m.File)+len(m.BuildID))
	}
	return n
}
