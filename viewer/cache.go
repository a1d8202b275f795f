package viewer

import (
	"github.com/google/pprof/profile"

	"github.com/perflab/perflab/internal/lru"
	"github.com/perflab/perflab/web"
)

// A cache keeps the web.Servers of the latest selections, the least
// recently used dropped first, within a bound on their estimated bytes
// (their merged profile's and their rendered answers'). A server larger
// than a quarter of the bound is not kept.
type cache = lru.Cache[view]

// A view is a selection's web.Server and its estimated bytes.
type view struct {
	s     *web.Server
	bytes int64
}

func newCache(max int64) *cache {
	return lru.New(0, max, func(v view) int64 { return v.bytes })
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
