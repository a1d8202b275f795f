package scrape

import (
	"slices"

	"github.com/perflab/perflab/store"
)

// A fetch is one profile fetched from every target of a job: one kind,
// or allocs and heap together, which are the same heap profile (the
// series __name__=memory).
type fetch struct {
	path       string // below the job's PathPrefix
	name       string // the series' __name__
	timed      bool   // fetched with ?seconds=interval, back to back
	cumulative bool   // stored as the growth between two scrapes
}

// plan returns the fetches that scrape kinds, in the order of
// store.Kinds.
func plan(kinds []store.Kind) []fetch {
	var fs []fetch
	for _, k := range store.Kinds {
		if !slices.Contains(kinds, k) || slices.ContainsFunc(fs, func(f fetch) bool { return f.name == k.Type.Name }) {
			continue
		}
		fs = append(fs, fetch{
			path:       k.Path,
			name:       k.Type.Name,
			timed:      k.Timed,
			cumulative: k.Type.Name == "memory" || k.Cumulative,
		})
	}
	return fs
}
