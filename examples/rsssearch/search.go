package rsssearch

import (
	"context"
	"encoding/xml"
	"fmt"
	"html/template"
	"net/http"
	"strings"
	"sync"
	"time"
)

// A Result is one item that matched a search.
type Result struct {
	Engine  string `json:"engine"`
	Title   string `json:"title"`
	Link    string `json:"link"`
	Content string `json:"content"`

	escaped template.HTML // Content escaped at cache fill (tuned)
}

// Variant selects the search code: Naive (the article's) or Tuned.
type Variant int

// The two variants.
const (
	Naive Variant = iota + 1
	Tuned
)

// ParseVariant reads "naive" or "tuned".
func ParseVariant(s string) (Variant, error) {
	switch s {
	case "naive":
		return Naive, nil
	case "tuned":
		return Tuned, nil
	}
	return 0, fmt.Errorf("unknown variant %q: want naive or tuned", s)
}

func (v Variant) String() string {
	if v == Naive {
		return "naive"
	}
	return "tuned"
}

// DefaultExpiry is how long a fetched feed stays in the cache.
const DefaultExpiry = 15 * time.Minute

// feedCache holds decoded feeds until they expire, with one lock per feed
// so that a feed is fetched once however many requests want it.
type feedCache struct {
	expiry time.Duration
	client *http.Client
	tuned  bool

	mu    sync.Mutex
	locks map[string]*sync.Mutex
	docs  map[string]cached
}

type cached struct {
	doc     Document
	expires time.Time
}

func newFeedCache(client *http.Client, expiry time.Duration, tuned bool) *feedCache {
	return &feedCache{expiry: expiry, client: client, tuned: tuned,
		locks: map[string]*sync.Mutex{}, docs: map[string]cached{}}
}

// get returns the feed at uri, from the cache or fetched anew.
func (c *feedCache) get(ctx context.Context, uri string) (Document, error) {
	c.mu.Lock()
	mu, ok := c.locks[uri]
	if !ok {
		mu = new(sync.Mutex)
		c.locks[uri] = mu
	}
	c.mu.Unlock()

	mu.Lock()
	defer mu.Unlock()
	c.mu.Lock()
	e, found := c.docs[uri]
	c.mu.Unlock()
	if found && time.Now().Before(e.expires) {
		return e.doc, nil
	}
	d, err := c.fetch(ctx, uri)
	if err != nil {
		return Document{}, err
	}
	c.mu.Lock()
	c.docs[uri] = cached{doc: d, expires: time.Now().Add(c.expiry)}
	c.mu.Unlock()
	return d, nil
}

// fetch pulls down and decodes one feed; the tuned variant lowers and
// escapes each description once, here.
func (c *feedCache) fetch(ctx context.Context, uri string) (Document, error) {
	var d Document
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return d, err
	}
	resp, err := c.client.Do(req)
	if err != nil {
		return d, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return d, fmt.Errorf("feed %s: %s", uri, resp.Status)
	}
	if err := xml.NewDecoder(resp.Body).Decode(&d); err != nil {
		return d, fmt.Errorf("feed %s: %w", uri, err)
	}
	if c.tuned {
		for i := range d.Channel.Items {
			it := &d.Channel.Items[i]
			it.lower = strings.ToLower(it.Description)
			it.escaped = escapeHTML(it.Description)
		}
	}
	return d, nil
}

// rssSearch is the article's search of one feed: it lowers every item's
// description and the term, for every item of every request.
func rssSearch(ctx context.Context, c *feedCache, uri, term, engine string) ([]Result, error) {
	d, err := c.get(ctx, uri)
	if err != nil {
		return []Result{}, err
	}

	// Create an empty slice of results.
	results := []Result{}

	// Capture the data we need for our results if we find the search term.
	for _, item := range d.Channel.Items {
		if strings.Contains(strings.ToLower(item.Description), strings.ToLower(term)) {
			results = append(results, Result{
				Engine:  engine,
				Title:   item.Title,
				Link:    item.Link,
				Content: item.Description,
			})
		}
	}
	return results, nil
}

// rssSearchTuned searches one feed whose descriptions were lowered at
// cache fill; lowerTerm is the term, lowered once per request.
func rssSearchTuned(ctx context.Context, c *feedCache, uri, lowerTerm, engine string) ([]Result, error) {
	d, err := c.get(ctx, uri)
	if err != nil {
		return nil, err
	}
	var results []Result
	for i := range d.Channel.Items {
		item := &d.Channel.Items[i]
		if strings.Contains(item.lower, lowerTerm) {
			results = append(results, Result{
				Engine: engine, Title: item.Title, Link: item.Link,
				Content: item.Description, escaped: item.escaped,
			})
		}
	}
	return results, nil
}
