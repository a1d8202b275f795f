// Package rsssearch is the RSS search service of the Ultimate Go article on
// profiling ("Macro level optimization"): POST
// /search?term=covid-19&cnn=on&bbc=on&nyt=on searches the RSS feeds of the
// chosen engines (cnn, bbc, nyt) for a term and renders the matching items
// with html/template, or as JSON with format=json or an Accept header of
// application/json.
//
// Each engine fetches its feed over HTTP with a plain http.Get and decodes
// it with encoding/xml into a cache with an expiry, one lock per feed, as
// the article's code does. FeedServer serves the feeds: generated,
// deterministic, with large descriptions, so the service runs on loopback
// without the internet.
//
// The service comes in two variants. Naive is the article's code:
// strings.ToLower on every item's description, and on the term, for every
// item of every request (the article found 2.3 GB of its 4.4 GB allocated
// there). Tuned is the article's fix, lowering each description once when
// the cache is filled and the term once per request, plus what a profile of
// the fixed version shows next: each description is HTML-escaped once at
// cache fill instead of for every match of every request, and pages are
// rendered into pooled buffers. Both variants answer every request with
// the same bytes.
package rsssearch
