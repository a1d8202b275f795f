package rsssearch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"regexp"
	"sync/atomic"
	"testing"
	"time"
)

// feedServer starts a FeedServer on loopback and counts its requests.
func feedServer(t testing.TB, opts FeedOptions) (string, *atomic.Int64) {
	var n atomic.Int64
	fs := NewFeedServer(opts)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		fs.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &n
}

var terms = []string{"covid-19", "COVID-19", "Brexit", "nhs", "no such words", "<b>", `"quoted" &`, "e"}

// direct computes a search without the service: a case-insensitive
// regexp over the generated feeds.
func direct(term string, engines []string, opts FeedOptions) []Result {
	re := regexp.MustCompile("(?i)" + regexp.QuoteMeta(term))
	var out []Result
	for _, e := range engines {
		for _, it := range Feed(e, opts).Channel.Items {
			if re.MatchString(it.Description) {
				out = append(out, Result{Engine: e, Title: it.Title, Link: it.Link, Content: it.Description})
			}
		}
	}
	return out
}

func TestSearchMatchesDirect(t *testing.T) {
	feeds, _ := feedServer(t, FeedOptions{})
	for _, v := range []Variant{Naive, Tuned} {
		svc := New(Options{Variant: v, FeedsURL: feeds})
		for _, engines := range [][]string{Engines, {"nyt", "cnn"}, {"bbc"}, nil} {
			for _, term := range terms {
				got, err := svc.Search(context.Background(), term, engines)
				if err != nil {
					t.Fatal(err)
				}
				for i := range got {
					got[i].escaped = ""
				}
				want := direct(term, engines, FeedOptions{})
				if len(got) != len(want) || (len(want) > 0 && !reflect.DeepEqual(got, want)) {
					t.Errorf("%s: Search(%q, %v): %d results, want %d", v, term, engines, len(got), len(want))
				}
			}
		}
	}
	if n := len(direct("covid-19", Engines, FeedOptions{})); n != 3*DefaultItems/TopicEvery {
		t.Errorf("covid-19 matches %d items, want one in %d of %d", n, TopicEvery, 3*DefaultItems)
	}
}

// TestVariantsSamePages checks that naive and tuned answer every request
// with the same bytes, HTML and JSON.
func TestVariantsSamePages(t *testing.T) {
	feeds, _ := feedServer(t, FeedOptions{})
	naive := httptest.NewServer(New(Options{Variant: Naive, FeedsURL: feeds}))
	defer naive.Close()
	tuned := httptest.NewServer(New(Options{Variant: Tuned, FeedsURL: feeds}))
	defer tuned.Close()
	for _, term := range terms {
		for _, extra := range []string{"&cnn=on&bbc=on&nyt=on", "&bbc=on", "&nyt=on&format=json", ""} {
			q := "/search?term=" + url.QueryEscape(term) + extra
			a, b := post(t, naive.URL+q), post(t, tuned.URL+q)
			if a != b {
				t.Errorf("%s: naive and tuned pages differ (%d and %d bytes)", q, len(a), len(b))
			}
			if len(a) < 3 {
				t.Errorf("%s: page of %d bytes", q, len(a))
			}
		}
	}
}

func post(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Post(u, "text/html", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST %s: %d %v", u, resp.StatusCode, err)
	}
	return string(b)
}

func TestCacheExpiry(t *testing.T) {
	feeds, fetches := feedServer(t, FeedOptions{Items: 3, Words: 20})
	svc := New(Options{Variant: Tuned, FeedsURL: feeds, Expiry: 2 * time.Second})
	ctx := context.Background()
	for range 5 {
		if _, err := svc.Search(ctx, "x", []string{"cnn"}); err != nil {
			t.Fatal(err)
		}
	}
	if n := fetches.Load(); n != 1 {
		t.Fatalf("5 searches within the expiry fetched the feed %d times, want 1", n)
	}
	time.Sleep(2500 * time.Millisecond)
	svc.Search(ctx, "x", []string{"cnn"})
	if n := fetches.Load(); n != 2 {
		t.Fatalf("a search after the expiry: %d fetches, want 2", n)
	}
}

func TestFeedErrors(t *testing.T) {
	feeds, _ := feedServer(t, FeedOptions{})
	svc := New(Options{Variant: Naive, FeedsURL: feeds + "/missing"})
	if _, err := svc.Search(context.Background(), "x", []string{"cnn"}); err == nil {
		t.Fatal("a feed answering 404: no error")
	}
	w := httptest.NewRecorder()
	svc.ServeHTTP(w, httptest.NewRequest("POST", "/search?term=x&cnn=on", nil))
	if w.Code != http.StatusBadGateway {
		t.Fatalf("status %d, want 502", w.Code)
	}
}

func TestFeedDeterministic(t *testing.T) {
	if !reflect.DeepEqual(Feed("cnn", FeedOptions{}), Feed("cnn", FeedOptions{})) {
		t.Fatal("Feed is not deterministic")
	}
	if reflect.DeepEqual(Feed("cnn", FeedOptions{}), Feed("bbc", FeedOptions{})) {
		t.Fatal("cnn and bbc feeds are the same")
	}
}

func BenchmarkHandler(b *testing.B) {
	feeds, _ := feedServer(b, FeedOptions{})
	for _, v := range []Variant{Naive, Tuned} {
		b.Run(v.String(), func(b *testing.B) {
			svc := New(Options{Variant: v, FeedsURL: feeds})
			b.ReportAllocs()
			for b.Loop() {
				w := httptest.NewRecorder()
				svc.ServeHTTP(w, httptest.NewRequest("POST", "/search?term=covid-19&cnn=on&bbc=on&nyt=on", nil))
			}
		})
	}
}
