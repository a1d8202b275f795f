package htmlpage

import (
	"bytes"
	"html/template"
	"io"
	"io/fs"
)

// Sub returns the directory dir of an embedded tree, for a web UI to
// serve. It panics if dir is not there: an embedded tree is fixed at
// build time, so that is a programming error.
func Sub(fsys fs.FS, dir string) fs.FS {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(err)
	}
	if _, err := fs.Stat(sub, "."); err != nil {
		panic(err)
	}
	return sub
}

// Text returns the embedded file name as a string, to inline in a page.
// It panics if the file is missing, as Sub does.
func Text(fsys fs.FS, name string) string {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// Render executes t with data into memory and then writes the result to
// w: an error in the template leaves w untouched.
func Render(w io.Writer, t *template.Template, data any) error {
	var buf bytes.Buffer
	if err := t.Execute(&buf, data); err != nil {
		return err
	}
	_, err := w.Write(buf.Bytes())
	return err
}
