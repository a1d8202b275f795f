package rsssearch

import (
	"encoding/xml"
	"fmt"
	"html/template"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
)

// Engines are the feeds the service searches, in the order results list them.
var Engines = []string{"cnn", "bbc", "nyt"}

// FeedOptions shape the generated feeds. The zero value means the defaults.
type FeedOptions struct {
	Items int // items per feed; 0 means DefaultItems
	Words int // words per description; 0 means DefaultWords
}

// The default feed shape: 40 items of about 2.6 KB each per feed.
const (
	DefaultItems = 40
	DefaultWords = 400
)

// Document is an RSS document as the engines decode it.
type Document struct {
	XMLName xml.Name `xml:"rss"`
	Channel Channel  `xml:"channel"`
}

// Channel is an RSS channel.
type Channel struct {
	Title       string `xml:"title"`
	Link        string `xml:"link"`
	Description string `xml:"description"`
	Items       []Item `xml:"item"`
}

// Item is one story of a feed. lower and escaped are the tuned variant's
// cache: the description lower-cased and HTML-escaped, computed once when
// the feed is fetched.
type Item struct {
	Title       string `xml:"title"`
	Link        string `xml:"link"`
	Description string `xml:"description"`
	PubDate     string `xml:"pubDate"`

	lower   string
	escaped template.HTML
}

// Feed returns the generated feed of an engine: the same document for the
// same engine and options, every time.
func Feed(engine string, opts FeedOptions) Document {
	items, words := opts.Items, opts.Words
	if items <= 0 {
		items = DefaultItems
	}
	if words <= 0 {
		words = DefaultWords
	}
	var seed uint64
	for _, c := range []byte(engine) {
		seed = seed*131 + uint64(c)
	}
	rng := rand.New(rand.NewPCG(seed, 15))
	up := strings.ToUpper(engine)
	d := Document{Channel: Channel{
		Title: up + " top stories", Link: "https://" + engine + ".example/", Description: "Generated " + up + " feed",
	}}
	for i := range items {
		d.Channel.Items = append(d.Channel.Items, Item{
			Title:       fmt.Sprintf("%s story %d: %s", up, i+1, sentence(rng, 6)),
			Link:        fmt.Sprintf("https://%s.example/story/%d", engine, i+1),
			Description: description(rng, words, i%TopicEvery == TopicEvery/2),
			PubDate:     fmt.Sprintf("Mon, %02d Mar 2020 %02d:00:00 GMT", 1+i%28, i%24),
		})
	}
	return d
}

// vocabulary is what descriptions are made of; the topics appear in
// several spellings so that a search must ignore case.
var vocabulary = strings.Fields(`the a of to in and for on with as by at from
	government health minister hospital cases vaccine economy markets schools
	travel border lockdown report officials data study researchers city week
	people workers test testing masks distance weather election court energy
	Coronavirus coronavirus pandemic Brexit NHS
	Europe America China Africa Asia London Washington Beijing "quoted" & <b>`)

// topics are the spellings of the topic every TopicEvery-th item is about.
var topics = []string{"Covid-19", "COVID-19", "covid-19"}

// TopicEvery is how often an item mentions covid-19: one item in eight.
const TopicEvery = 8

func description(rng *rand.Rand, words int, topical bool) string {
	var b strings.Builder
	at := -1
	if topical {
		at = rng.IntN(words)
	}
	for b.Len() == 0 || words > 0 {
		n := max(min(words, 8+rng.IntN(12)), 1)
		b.WriteString(sentence(rng, n))
		b.WriteString(" ")
		if at >= words-n && at < words {
			b.WriteString(topics[rng.IntN(len(topics))] + " cases rise. ")
		}
		words -= n
	}
	return strings.TrimSpace(b.String())
}

// sentence is n words starting with a capital letter and ending in a stop.
func sentence(rng *rand.Rand, n int) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = vocabulary[rng.IntN(len(vocabulary))]
	}
	ws[0] = strings.ToUpper(ws[0][:1]) + ws[0][1:]
	return strings.Join(ws, " ") + "."
}

// FeedServer serves the generated feeds at /ENGINE/rss, as RSS 2.0 XML.
type FeedServer struct {
	opts  FeedOptions
	once  sync.Once
	feeds map[string][]byte
}

// NewFeedServer returns a handler serving every engine's feed.
func NewFeedServer(opts FeedOptions) *FeedServer { return &FeedServer{opts: opts} }

// FeedPath is the path of an engine's feed on a FeedServer.
func FeedPath(engine string) string { return "/" + engine + "/rss" }

func (f *FeedServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.once.Do(func() {
		f.feeds = map[string][]byte{}
		for _, e := range Engines {
			b, _ := xml.MarshalIndent(Feed(e, f.opts), "", " ")
			f.feeds[FeedPath(e)] = append([]byte(xml.Header), b...)
		}
	})
	b, ok := f.feeds[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/rss+xml; charset=utf-8")
	w.Write(b)
}
