package havlak

import "embed"

// Source holds the Go files of this package, so that a program built
// with it (such as perflab demo) can show annotated source listings of its
// profiles on a machine without the source tree.
//
//go:embed cfg.go lsg.go naive.go tuned.go loopgraph.go run.go
var Source embed.FS
