package tracefreq

import (
	"context"
	"encoding/xml"
	"runtime"
	"runtime/trace"
	"strings"
	"sync"
	"sync/atomic"
)

// A Variant is one way of searching the documents.
type Variant struct {
	Name string
	Find func(topic string, docs [][]byte) int
}

// Variants is the table of the article's variants, by -variant name.
var Variants = []Variant{
	{"find", Find},
	{"findConcurrent", FindConcurrent},
	{"findConcurrentSem", FindConcurrentSem},
	{"findNumCPU", FindNumCPU},
	{"findActor", FindActor},
	{"findNumCPUTasks", FindNumCPUTasks},
}

// Lookup returns the variant named name.
func Lookup(name string) (Variant, bool) {
	for _, v := range Variants {
		if v.Name == name {
			return v, true
		}
	}
	return Variant{}, false
}

// count decodes one document and counts the items that mention topic.
func count(topic string, doc []byte) int {
	var d Document
	if err := xml.Unmarshal(doc, &d); err != nil {
		return 0
	}
	found := 0
	for _, item := range d.Channel.Items {
		if strings.Contains(item.Title, topic) || strings.Contains(item.Description, topic) {
			found++
		}
	}
	return found
}

// Find searches the documents one after another in one goroutine.
func Find(topic string, docs [][]byte) int {
	found := 0
	for _, doc := range docs {
		found += count(topic, doc)
	}
	return found
}

// FindConcurrent starts one goroutine per document.
func FindConcurrent(topic string, docs [][]byte) int {
	var found atomic.Int64
	var wg sync.WaitGroup
	for _, doc := range docs {
		wg.Go(func() { found.Add(int64(count(topic, doc))) })
	}
	wg.Wait()
	return int(found.Load())
}

// FindConcurrentSem starts one goroutine per document but lets only
// GOMAXPROCS of them search at once.
func FindConcurrentSem(topic string, docs [][]byte) int {
	var found atomic.Int64
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for _, doc := range docs {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			found.Add(int64(count(topic, doc)))
		})
	}
	wg.Wait()
	return int(found.Load())
}

// FindNumCPU starts GOMAXPROCS goroutines that take documents from a
// channel.
func FindNumCPU(topic string, docs [][]byte) int {
	return findWorkers(docs, func(_ int, doc []byte) int { return count(topic, doc) }, nil)
}

// FindNumCPUTasks is FindNumCPU with a trace task per worker and a region
// per document, so the trace tells what each goroutine did.
func FindNumCPUTasks(topic string, docs [][]byte) int {
	ctx, task := trace.NewTask(context.Background(), "findNumCPU")
	defer task.End()
	worker := func(id int, work func()) {
		wctx, wt := trace.NewTask(ctx, "worker")
		defer wt.End()
		trace.Logf(wctx, "worker", "%d", id)
		work()
	}
	search := func(_ int, doc []byte) int {
		defer trace.StartRegion(ctx, "searchDocument").End()
		return count(topic, doc)
	}
	return findWorkers(docs, search, worker)
}

// findWorkers runs GOMAXPROCS workers over a channel of documents; wrap,
// if not nil, runs around each worker's loop.
func findWorkers(docs [][]byte, search func(int, []byte) int, wrap func(int, func())) int {
	g := runtime.GOMAXPROCS(0)
	var found atomic.Int64
	ch := make(chan []byte, len(docs))
	for _, doc := range docs {
		ch <- doc
	}
	close(ch)
	var wg sync.WaitGroup
	for i := range g {
		wg.Go(func() {
			loop := func() {
				n := 0
				for doc := range ch {
					n += search(i, doc)
				}
				found.Add(int64(n))
			}
			if wrap != nil {
				wrap(i, loop)
			} else {
				loop()
			}
		})
	}
	wg.Wait()
	return int(found.Load())
}

// FindActor passes the documents through a pipeline: one goroutine
// decodes, one counts, and they hand over each document on a channel, so
// at most two Ps work at once and every document crosses a channel.
func FindActor(topic string, docs [][]byte) int {
	decoded := make(chan Document)
	go func() {
		defer close(decoded)
		for _, doc := range docs {
			var d Document
			if xml.Unmarshal(doc, &d) == nil {
				decoded <- d
			}
		}
	}()
	found := 0
	for d := range decoded {
		for _, item := range d.Channel.Items {
			if strings.Contains(item.Title, topic) || strings.Contains(item.Description, topic) {
				found++
			}
		}
	}
	return found
}
