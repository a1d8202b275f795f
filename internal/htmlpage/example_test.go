package htmlpage_test

import (
	"html/template"
	"os"
	"testing/fstest"

	"github.com/perflab/perflab/internal/htmlpage"
)

func Example() {
	assets := fstest.MapFS{"assets/note.txt": {Data: []byte("a <note> & more")}}
	page := template.Must(template.New("page").Parse("<p>{{.}}</p>\n"))
	note := htmlpage.Text(htmlpage.Sub(assets, "assets"), "note.txt")
	if err := htmlpage.Render(os.Stdout, page, note); err != nil {
		panic(err)
	}
	// Output:
	// <p>a &lt;note&gt; &amp; more</p>
}
