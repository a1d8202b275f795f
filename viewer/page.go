package viewer

import (
	"bytes"
	"html/template"
	"net/http"
)

// pageData is what assets/page.html renders; html/template escapes every
// string of it.
type pageData struct {
	Page       string // "home" or "error", for viewer.js
	Query      string // the request's selection parameters, encoded
	Error      string // a bad parameter or a selection of nothing
	StoreError string // why the store's writes fail
}

var pageTmpl = template.Must(template.ParseFS(assets, "assets/page.html"))

// page renders d into a buffer, then answers with it and status.
func (h *Handler) page(w http.ResponseWriter, status int, d pageData) {
	var b bytes.Buffer
	if err := pageTmpl.Execute(&b, d); err != nil {
		http.Error(w, "rendering the viewer's page: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("X-Frame-Options", "DENY")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}
