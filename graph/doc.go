// Package graph lays out and draws call graphs without Graphviz.
//
// A Graph is what pprof's `web` command shows: boxes for functions (or
// lines, files, addresses) sized and coloured by their values, the tag
// nodelets pprof hangs below them, and edges for calls, weighted, dotted
// when they skip dropped nodes. Package report builds one from a profile
// (report.CallGraph), node for node and edge for edge as `go tool pprof
// -dot` does.
//
// Layout places the nodes in the layered (Sugiyama) style of Graphviz's
// dot: cycles are broken by reversing the edges a depth-first search
// finds closing them; nodes are ranked by longest path from the roots,
// roots then moved down next to their callees; edges spanning several
// ranks pass through virtual nodes (within a budget: the longest edges of
// very deep graphs are drawn straight); each rank is ordered by median
// sweeps, keeping the order with the fewest crossings (counted with a
// Fenwick tree); x coordinates come from weighted least squares under
// the no-overlap constraints, solved exactly by pool-adjacent-violators,
// so boxes of a rank never overlap and ranks are stacked apart. Layout is
// deterministic and near linear: 80 nodes take about a millisecond, 1000
// nodes tens of milliseconds.
//
// WriteSVG draws the result as a standalone SVG document. Every string
// from the profile is escaped (function names can hold markup); nodes and
// edges carry ids and data attributes (data-id, data-name, data-from,
// data-to) for a web page to add pan, zoom and click-to-focus.
package graph
