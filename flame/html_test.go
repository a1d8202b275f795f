package flame_test

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/report"
)

const hostile = `</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">&amp;<!--`

// hostileProfile has function, file and label strings that are HTML.
func hostileProfile() *profile.Profile {
	p := smallProfile()
	for _, f := range p.Function {
		f.Name += hostile
		f.Filename = "/src/" + hostile + ".go"
	}
	p.Sample[0].Label = map[string][]string{hostile: {hostile}}
	return p
}

// TestHTMLEscapesProfileStrings writes pages of a profile whose strings
// are HTML: no profile string appears unescaped, the scripts hold no
// closing tag but their own, and the data reads back as the names.
func TestHTMLEscapesProfileStrings(t *testing.T) {
	tree, err := flame.Build(hostileProfile(), report.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	o := flame.HTMLOptions{Title: "t " + hostile, Legend: []string{hostile}, Query: flame.Query{Search: hostile}}
	if err := flame.WriteHTML(&buf, tree, o); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "<script>window.pwned") || strings.Contains(page, "<img src=x") {
		t.Fatalf("page holds a profile string unescaped")
	}
	if n, want := strings.Count(strings.ToLower(page), "</script"), 2; n != want {
		t.Errorf("page has %d </script sequences, want %d (its own two script elements)", n, want)
	}
	m := regexp.MustCompile(`(?s)<script type="application/json" id="perflab-flame-data">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no data element")
	}
	var data struct {
		View struct {
			Strings []string `json:"strings"`
		} `json:"view"`
	}
	if err := json.Unmarshal([]byte(m[1]), &data); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(data.View.Strings, "\n"), "main.main"+hostile) {
		t.Errorf("data strings %q lack the hostile name", data.View.Strings)
	}
}

// TestHTMLSizeBounded: a view with many frames is cut to fit the bound.
func TestHTMLSizeBounded(t *testing.T) {
	p := smallProfile()
	// A wide, flat profile: 60,000 leaf functions under main.
	var fns []*profile.Function
	var locs []*profile.Location
	for i := range 60_000 {
		name := "pkg.fn" + strings.Repeat("x", 20) + string(rune('a'+i%26)) + itoa(i)
		f := &profile.Function{ID: uint64(100 + i), Name: name, Filename: "/src/f.go"}
		fns = append(fns, f)
		locs = append(locs, &profile.Location{ID: uint64(100 + i), Line: []profile.Line{{Function: f, Line: 1}}})
		p.Sample = append(p.Sample, &profile.Sample{Value: []int64{int64(1 + i%7)}, Location: []*profile.Location{locs[i], p.Location[0]}})
	}
	p.Function = append(p.Function, fns...)
	p.Location = append(p.Location, locs...)
	tree, err := flame.Build(p, report.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := flame.WriteHTML(&buf, tree, flame.HTMLOptions{Query: flame.Query{MinWidth: 1e-9}}); err != nil {
		t.Fatal(err)
	}
	if n := buf.Len(); n > 2_000_000 || n < 100_000 {
		t.Errorf("page of 60,000 frames is %d bytes, want it cut to at most 2 MB but not emptied", n)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestAssets(t *testing.T) {
	for _, name := range []string{"flame.js", "flame.css"} {
		b, err := fs.ReadFile(flame.Assets(), name)
		if err != nil || len(b) == 0 {
			t.Errorf("asset %s: %d bytes, %v", name, len(b), err)
		}
		if strings.Contains(strings.ToLower(string(b)), "</script") {
			t.Errorf("asset %s holds </script, which would end its inlined script element", name)
		}
	}
}
