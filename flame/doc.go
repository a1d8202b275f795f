// Package flame draws flame graphs of profiles: the data model a browser
// queries and the JavaScript that draws it, shared by perflab web's
// /ui/flamegraph, the static pages of "perflab flame -o" and perflab investigate's
// report.
//
// Build turns a *profile.Profile, under report.Options (filters, sample
// index, -mean, granularity, -noinlines, with pprof's meanings), into a
// Tree once; View and Functions then answer every query from the Tree
// without the profile. A Tree keeps each sample's stack as a run of
// interned frame IDs in one array; View grows only the visible part of the
// call tree from the samples under the zoom root, dropping a group of
// samples as soon as it is narrower than Query.MinWidth (half a pixel of
// a 2000-pixel graph by default), so a view of any profile holds a few
// thousand frames and a zoom takes tens of milliseconds on the
// 500,000-sample benchmark profile.
//
// A Query selects the zoom root (a path of frame names), the narrowest
// frame and deepest row kept, a search regexp (View marks the matching
// frames and sums the samples through them), a sandwich frame (all its
// callers merged above it, all its callees below) and, in a diff, the
// reverse (base-shaped) view and normalisation. ParseQuery and
// Query.Encode keep a query in URL parameters beside pprof's.
//
// Diffs: samples of a -diff_base base (labelled pprof::base=true), the
// negative samples -base leaves, or the base given to BuildDiff, are the
// base's; each frame of a View then carries the base's values beside the
// new ones, and flame.js colours it red where it grew and blue where it
// shrank, more saturated the larger the change.
//
// The browser side is flame.js, an ES module (Assets serves it with
// flame.css). Its API, documented at its top:
//
//	import { FlameGraph, staticLoader, queryParams } from "./flame.js";
//	const fg = new FlameGraph(element, {
//		load: (q) => fetch("/flame?" + queryParams(q)).then((r) => r.json()),
//		query: {path: [], search: "", sandwich: "", reverse: false, normalize: false},
//		orientation: "icicle", // or "flame"
//		onSelect: (name) => {}, // a frame chosen for the sandwich view
//		onQuery: (q) => {},     // the query changed: sync the URL
//	});
//	fg.setQuery(q); fg.setOrientation("flame");
//
// In a static page load is staticLoader({view, reverse}) over the inlined
// views; on a server it fetches a View's JSON (View.MarshalJSON) for the
// query. WriteHTML writes a self-contained page, at most about 2 MB
// whatever the profile; WriteFragment the same graph as part of a larger
// page.
package flame
