// Package viewer is perflab server's viewer: the profiles of a fleet over
// time, in the views of perflab web.
//
// A request names a selection in its URL with the parameters of
// perflab's read API (query, type, from, until; package remote), or one
// stored profile (id), and optionally a second selection to compare it
// with (base_query, base_from, base_until: pprof's -diff_base, so the
// views show what grew in red and what shrank in blue). The Handler
// merges the selection (store.Reader.Merge), builds a web.Server of the
// merged profile and hands it the request: every view of perflab web
// (flame graph, top, graph, peek, source, sandwich, the download) at
// pprof's paths below /ui/, never a copy of them. Those servers are kept
// in a cache bounded by bytes and keyed by the canonical selection: its
// profile type, its selector and its range, resolved (a relative
// from=now-1h stays so in the URL and is resolved per request) and
// aligned to the chart's step, so that the requests of the same minute
// share one merge.
//
// Every page loads the viewer's script (assets/viewer.js), which draws
// the selection bar above the views: a builder of label selectors from
// the store's label names and values, a free-text selector, the profile
// type, the range (presets, absolute from and until) and the comparison;
// and the chart of the selection's total over time (store.Reader.Totals,
// drawn with package chart's uPlot), with the total of the focused or
// searched function as a second line. Dragging on the chart selects a
// range: the URL changes and the views follow. The page at / adds the
// profiles in range (each opened in the views or downloaded) and the
// scrape targets' health. The script asks the read API and /targets of
// the server it runs on; it shows every string as text, never as HTML.
//
// A bad parameter is answered 400 with the reason in the page, a
// selection of nothing 404, both with the selection bar so that the
// selection can be changed in place.
package viewer
