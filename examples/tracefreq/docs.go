package tracefreq

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"math/rand/v2"
)

// Item is one entry of an RSS channel.
type Item struct {
	XMLName     xml.Name `xml:"item"`
	Title       string   `xml:"title"`
	Description string   `xml:"description"`
	Link        string   `xml:"link"`
}

// Channel is an RSS channel.
type Channel struct {
	XMLName xml.Name `xml:"channel"`
	Items   []Item   `xml:"item"`
}

// Document is one RSS document.
type Document struct {
	XMLName xml.Name `xml:"rss"`
	Channel Channel  `xml:"channel"`
}

// ItemsPerDoc is how many items each generated document has.
const ItemsPerDoc = 20

// words make up the generated titles and descriptions.
var words = []string{"economy", "senate", "election", "market", "weather", "science",
	"court", "health", "budget", "trade", "sports", "culture", "energy", "school"}

// Generate returns n RSS documents. Every fourth item mentions topic in its
// title and every seventh in its description, so a search finds
// n*(ItemsPerDoc/4 + ...) matches, the same on every run.
func Generate(n int, topic string) [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	docs := make([][]byte, n)
	for i := range docs {
		var d Document
		for j := range ItemsPerDoc {
			it := Item{Title: phrase(r, 6), Description: phrase(r, 40), Link: fmt.Sprintf("https://news.example/%d/%d", i, j)}
			if j%4 == 0 {
				it.Title += " " + topic
			}
			if j%7 == 0 {
				it.Description = topic + " " + it.Description
			}
			d.Channel.Items = append(d.Channel.Items, it)
		}
		var buf bytes.Buffer
		buf.WriteString(xml.Header)
		if err := xml.NewEncoder(&buf).Encode(&d); err != nil {
			panic(err) // plain strings always encode
		}
		docs[i] = buf.Bytes()
	}
	return docs
}

func phrase(r *rand.Rand, n int) string {
	var b bytes.Buffer
	for i := range n {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	return b.String()
}

// Expected returns how many matches a search of n generated documents
// finds: items whose title or description mentions the topic.
func Expected(n int) int {
	per := 0
	for j := range ItemsPerDoc {
		if j%4 == 0 || j%7 == 0 {
			per++
		}
	}
	return n * per
}
