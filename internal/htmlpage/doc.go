// Package htmlpage holds what perflab's self-contained HTML pages share:
// their browser assets embedded with go:embed (served by the web UI,
// inlined into pages written to files) and rendering into memory, so that
// a writer gets a whole page or nothing. The flame, graph, chart,
// exectrace, goroutines and investigate packages write their pages with it.
package htmlpage
