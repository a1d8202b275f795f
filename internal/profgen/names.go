package profgen

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// stdPackages are standard-library import paths; the deepest layers of a
// generated call graph live in them, as in real Go programs.
var stdPackages = []string{
	"bufio", "bytes", "compress/flate", "compress/gzip", "context",
	"crypto/sha256", "crypto/tls", "database/sql", "encoding/binary",
	"encoding/json", "fmt", "io", "math/big", "net", "net/http", "os",
	"reflect", "regexp", "sort", "strconv", "strings", "sync", "syscall",
	"time", "unicode/utf8", "internal/poll", "internal/bytealg", "runtime",
}

var (
	services = []string{"shop", "billing", "search", "auth", "media", "ledger", "feeds", "router"}
	areas    = []string{
		"cart", "catalog", "checkout", "index", "query", "store", "cache",
		"codec", "session", "token", "render", "ranking", "pricing", "stock",
		"notify", "audit", "queue", "batch", "shard", "replica", "policy",
		"quota", "geo", "image", "thumb", "feed", "graph", "wal", "compact",
	}
	verbs = []string{
		"parse", "read", "write", "encode", "decode", "load", "store", "find",
		"lookup", "merge", "split", "scan", "build", "apply", "check", "hash",
		"sort", "filter", "flush", "render", "resolve", "validate", "compute",
		"update", "insert", "delete", "fetch", "marshal", "unmarshal", "walk",
	}
	nouns = []string{
		"Header", "Body", "Value", "Key", "Entry", "Record", "Block", "Page",
		"Token", "Field", "Row", "Index", "Node", "Edge", "Batch", "Frame",
		"Chunk", "Buffer", "Request", "Response", "Item", "Price", "Order",
		"User", "Session", "Segment", "Query", "Plan", "Result", "Event",
	}
)

// packagePaths returns n distinct import paths: application packages
// first, then the standard library, so that deeper layers are stdlib.
func packagePaths(n int) []string {
	var app []string
	for i := 0; len(app) < n-len(stdPackages); i++ {
		svc := services[i%len(services)]
		area := areas[(i/len(services))%len(areas)]
		p := fmt.Sprintf("github.com/acme/%s/internal/%s", svc, area)
		if gen := i / (len(services) * len(areas)); gen > 0 {
			p += fmt.Sprint(gen + 1)
		}
		app = append(app, p)
	}
	if n < len(stdPackages) {
		return append(app, stdPackages[:n]...)
	}
	return append(app, stdPackages...)
}

// lastElem returns the package name of an import path.
func lastElem(path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// funcName makes a Go-style symbol for the k-th function of pkg: a plain
// function, a method on a value or pointer receiver, or a closure.
func funcName(r *rand.Rand, pkg string, k int) string {
	verb := verbs[r.IntN(len(verbs))]
	noun := nouns[r.IntN(len(nouns))]
	typ := nouns[r.IntN(len(nouns))]
	plain := fmt.Sprintf("%s%s%d", verb, noun, k)
	exported := strings.ToUpper(plain[:1]) + plain[1:]
	var name string
	switch r.IntN(10) {
	case 0, 1, 2:
		name = plain
	case 3, 4:
		name = exported
	case 5, 6, 7:
		name = fmt.Sprintf("(*%s).%s", typ, exported)
	case 8:
		name = fmt.Sprintf("%s.%s", typ, plain)
	default:
		name = fmt.Sprintf("%s.func%d", exported, 1+r.IntN(3))
	}
	return pkg + "." + name
}
