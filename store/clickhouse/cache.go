package clickhouse

import (
	"maps"
	"slices"
	"sync"

	"github.com/perflab/perflab/store"
)

// A writtenCache remembers the series and parts written on each recent
// day, so that a write sends each of them once a day: they are written
// again on each day that uses them, so that retention, which drops whole
// days, never drops what a later day needs.
type writtenCache struct {
	mu   sync.Mutex
	days map[int32]map[uint64]struct{}
	size int
}

// The cache's bounds: some 100 MB at most.
const (
	maxCachedHashes = 2_000_000
	maxCachedDays   = 3
)

func (c *writtenCache) has(day int32, h uint64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.days[day][h]
	return ok
}

// add remembers what units wrote.
func (c *writtenCache) add(units []*unit) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.days == nil {
		c.days = map[int32]map[uint64]struct{}{}
	}
	for _, u := range units {
		for day, hs := range u.written {
			set := c.days[day]
			if set == nil {
				if len(c.days) >= maxCachedDays {
					oldest := slices.Min(slices.Collect(maps.Keys(c.days)))
					if oldest > day {
						continue // an old day's write: not worth remembering
					}
					c.size -= len(c.days[oldest])
					delete(c.days, oldest)
				}
				set = map[uint64]struct{}{}
				c.days[day] = set
			}
			for _, h := range hs {
				set[h] = struct{}{}
			}
			c.size += len(hs)
		}
	}
	if c.size > maxCachedHashes {
		c.days, c.size = nil, 0
	}
}

// forget empties the cache: after DropBefore, what it remembers may be
// gone.
func (c *writtenCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.days, c.size = nil, 0
}

// A partsCache keeps parts read from ClickHouse or written to it: a part
// is named by the hash of its content, so it never changes, and a merge
// of a range read moments ago needs the same parts again. It holds some
// 64 MB at most: a kind of part over its share is forgotten whole.
type partsCache struct {
	mu    sync.Mutex
	parts *store.Parts
	bytes [5]int
}

// maxCachedPartBytes bounds the estimated bytes of each kind of part in a
// partsCache.
const maxCachedPartBytes = 16 << 20

func (c *partsCache) add(ps *store.Parts) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.parts == nil {
		c.parts = store.NewParts()
	}
	addParts(c.parts.Stacks, ps.Stacks, &c.bytes[0], func(s store.Stack) int { return 48 + 8*len(s) })
	addParts(c.parts.Locations, ps.Locations, &c.bytes[1], func(l store.Location) int { return 96 + 24*len(l.Lines) })
	addParts(c.parts.Functions, ps.Functions, &c.bytes[2], func(f store.Function) int {
		return 96 + len(f.Name) + len(f.SystemName) + len(f.Filename)
	})
	addParts(c.parts.Mappings, ps.Mappings, &c.bytes[3], func(m store.Mapping) int { return 160 + len(m.File) + len(m.BuildID) })
	addParts(c.parts.LabelSets, ps.LabelSets, &c.bytes[4], func(ls store.LabelSet) int { return 64 + 48*(len(ls.Strings)+len(ls.Numbers)) })
}

func addParts[T any](dst, src map[store.Hash]T, bytes *int, size func(T) int) {
	for h, v := range src {
		if _, ok := dst[h]; ok {
			continue
		}
		if *bytes > maxCachedPartBytes {
			clear(dst)
			*bytes = 0
		}
		dst[h] = v
		*bytes += size(v)
	}
}

// missing returns the parts of hashes that c has, in out, and the hashes
// it lacks.
func missing[T any](c *partsCache, kind func(*store.Parts) map[store.Hash]T, hashes []store.Hash, out map[store.Hash]T) []store.Hash {
	c.mu.Lock()
	defer c.mu.Unlock()
	var lack []store.Hash
	for _, h := range hashes {
		if c.parts != nil {
			if v, ok := kind(c.parts)[h]; ok {
				out[h] = v
				continue
			}
		}
		lack = append(lack, h)
	}
	return lack
}
