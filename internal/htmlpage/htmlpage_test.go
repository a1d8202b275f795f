package htmlpage

import (
	"bytes"
	"html/template"
	"testing"
	"testing/fstest"
)

func TestRenderWritesNothingOnError(t *testing.T) {
	tmpl := template.Must(template.New("p").Parse("<p>{{.Missing}}</p>"))
	var b bytes.Buffer
	if err := Render(&b, tmpl, struct{}{}); err == nil {
		t.Fatal("Render of a template failing on its data: no error")
	}
	if b.Len() != 0 {
		t.Errorf("Render wrote %q before failing; want nothing", b.String())
	}
}

func TestMissingAssetPanics(t *testing.T) {
	fsys := fstest.MapFS{"assets/a.js": {Data: []byte("x")}}
	for name, f := range map[string]func(){
		"Sub":  func() { Sub(fsys, "nope") },
		"Text": func() { Text(fsys, "assets/b.js") },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s of a missing name did not panic", name)
				}
			}()
			f()
		}()
	}
	if got := Text(Sub(fsys, "assets"), "a.js"); got != "x" {
		t.Errorf("Text(Sub(fsys, assets), a.js) = %q, want x", got)
	}
}
