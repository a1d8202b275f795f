package flame_test

import (
	"net/url"
	"reflect"
	"testing"

	"github.com/perflab/perflab/flame"
)

func TestQueryRoundTrip(t *testing.T) {
	q := flame.Query{Path: []string{"main.main", "a&b=c?"}, MinWidth: 0.001, MaxDepth: 20, MaxFrames: 500,
		Search: "^net/http", Sandwich: "runtime.mallocgc", Reverse: true, Normalize: true}
	got, err := flame.ParseQuery(q.Encode())
	if err != nil || !reflect.DeepEqual(got, q) {
		t.Errorf("ParseQuery(Encode(%+v)) = %+v, %v", q, got, err)
	}
	for _, bad := range []string{"minwidth=2", "minwidth=x", "maxdepth=-1", "maxframes=1.5", "reverse=maybe"} {
		v, _ := url.ParseQuery(bad)
		if _, err := flame.ParseQuery(v); err == nil {
			t.Errorf("ParseQuery(%q) accepted", bad)
		}
	}
}

// FuzzParseQuery: any URL query either fails to parse with an error or
// gives a Query that Encode writes back to an equal Query, and a view
// of it either fails or is well formed.
func FuzzParseQuery(f *testing.F) {
	for _, s := range []string{"", "path=main.main&path=main.work&search=json", "sandwich=main.work&reverse=1&normalize=true",
		"minwidth=0.01&maxdepth=3&maxframes=2", "search=(", "minwidth=NaN"} {
		f.Add(s)
	}
	tree := smallTree(f)
	f.Fuzz(func(t *testing.T, s string) {
		vals, err := url.ParseQuery(s)
		if err != nil {
			return
		}
		q, err := flame.ParseQuery(vals)
		if err != nil {
			return
		}
		again, err := flame.ParseQuery(q.Encode())
		if err != nil || !reflect.DeepEqual(again, q) && !(len(q.Path) == 0 && len(again.Path) == 0) {
			t.Fatalf("%q: %+v encodes to %+v (%v)", s, q, again, err)
		}
		q.MaxFrames = min(q.MaxFrames, 1000)
		if v, err := tree.View(q); err == nil {
			checkView(t, v)
		}
	})
}
