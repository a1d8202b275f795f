package goroutines

import (
	"github.com/perflab/perflab/internal/htmlpage"
	"html/template"
	"io"
)

// HTMLOptions tune WriteHTML.
type HTMLOptions struct {
	// LongWait is as in TextOptions.
	LongWait int
}

// WriteHTML writes the dump as one self-contained HTML fragment (a
// <section class="goroutines"> with its own <style>), for a page such as
// perflab web's to mount: the panic, the leak findings, then one <details>
// block per group, counts first, standard-library frames dimmed and the
// first user frame of the panicking goroutine marked. Everything taken
// from the dump is escaped. The fragment is rendered into a buffer first,
// so that w receives nothing on error.
func (d *Dump) WriteHTML(w io.Writer, o HTMLOptions) error {
	if o.LongWait <= 0 {
		o.LongWait = 1
	}
	type frame struct {
		Frame
		Std, Marked bool
	}
	type group struct {
		*Group
		Frames []frame
	}
	data := struct {
		*Dump
		Leaks  []Finding
		Groups []group
	}{Dump: d, Leaks: d.Leaks(o.LongWait)}
	for _, g := range d.Groups {
		user := -1
		if g.Panic != "" {
			user = g.UserFrame()
		}
		gr := group{Group: g}
		for i, f := range g.Frames {
			gr.Frames = append(gr.Frames, frame{Frame: f, Std: f.Stdlib(), Marked: i == user})
		}
		data.Groups = append(data.Groups, gr)
	}
	return htmlpage.Render(w, htmlTemplate, data)
}

var htmlTemplate = template.Must(template.New("goroutines").Parse(`<section class="goroutines">
<style>
.goroutines{font:13px/1.4 ui-monospace,monospace}
.goroutines .panic{color:#b00;white-space:pre-wrap}
.goroutines summary{cursor:pointer}
.goroutines .count{font-weight:bold;display:inline-block;min-width:5em}
.goroutines ol{list-style:none;margin:.2em 0 .6em 1.5em;padding:0}
.goroutines .std{opacity:.5}
.goroutines .marked{background:#fe8}
.goroutines .loc{color:#555;margin-left:1em}
.goroutines .leak{color:#b00}
.goroutines .note{color:#555}
</style>
{{if .Panic}}<pre class="panic">{{.Panic}}</pre>{{end}}
<p>{{.Total}} goroutines in {{len .Groups}} groups</p>
{{if .Leaks}}<ul class="leaks">{{range .Leaks}}<li class="leak">{{.Text}}</li>{{end}}</ul>{{end}}
{{range .Groups}}<details{{if or .Panic (lt (len $.Groups) 20)}} open{{end}}>
<summary><span class="count">{{.Count}}</span> {{.Heading}}{{if .Panic}} <b>panicked</b>{{end}}</summary>
<ol>{{range .Frames}}<li class="{{if .Std}}std{{end}}{{if .Marked}} marked{{end}}">{{.Func}}<span class="loc">{{.File}}:{{.Line}}</span></li>{{end}}
{{with .CreatedBy}}<li>created by {{.Func}}<span class="loc">{{.File}}:{{.Line}}</span></li>{{end}}</ol>
</details>
{{end}}{{range .Notes}}<p class="note">{{.}}</p>{{end}}</section>
`))
