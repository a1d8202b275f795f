package web

import "github.com/perflab/perflab/internal/lru"

// cache holds rendered answers, bounded by their bytes; derivedCache holds
// the per-refinement structures views are answered from (flame trees), a
// few of them, since each is as large as the filtered profile's call tree.
type (
	cache        = lru.Cache[answer]
	derivedCache = lru.Cache[any]
)

// DefaultCacheBytes bounds the rendered answers a server keeps unless
// Options.CacheBytes says otherwise.
const DefaultCacheBytes = 256 << 20

// derivedEntries is how many flame trees a server keeps.
const derivedEntries = 4

func newCache(maxBytes int64) *cache {
	return lru.New(0, maxBytes, answer.bytes)
}

func newDerivedCache(max int) *derivedCache {
	return lru.New[any](max, 0, nil)
}

// bytes is what an answer holds in memory, near enough.
func (a answer) bytes() int64 {
	n := int64(cap(a.body) + len(a.contentType) + 64)
	for _, w := range a.warnings {
		n += int64(len(w)) + 16
	}
	return n
}
