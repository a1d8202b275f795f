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
// block per group, counts first (with the growth since the base after
// Compare), standard-library frames dimmed and the first user frame of
// the panicking goroutine marked, then the data races. An input that held
// several dumps gets one such part each. Everything taken from the dump is
// escaped. The fragment is rendered into a buffer first, so that w
// receives nothing on error.
func (d *Dump) WriteHTML(w io.Writer, o HTMLOptions) error {
	if o.LongWait <= 0 {
		o.LongWait = 1
	}
	data := struct {
		Parts []htmlPart
		Notes []string
	}{Notes: d.Notes}
	for _, sn := range append([]*Dump{d}, d.Snapshots...) {
		data.Parts = append(data.Parts, sn.htmlPart(o, len(data.Parts)+1, len(d.Snapshots)+1))
	}
	return htmlpage.Render(w, htmlTemplate, data)
}

// htmlPart is what the template shows of one dump of the input.
type htmlPart struct {
	*Dump
	N, Of  int // "Dump N of Of" when the input held several
	Leaks  []Finding
	Groups []htmlGroup
}

type htmlGroup struct {
	*Group
	Compared bool
	Growth   int
	Frames   []htmlFrame
}

type htmlFrame struct {
	Frame
	Std, Marked bool
	Elided      int // frames elided before this one
}

func (d *Dump) htmlPart(o HTMLOptions, n, of int) htmlPart {
	part := htmlPart{Dump: d, N: n, Of: of, Leaks: d.Leaks(o.LongWait)}
	for _, g := range d.Groups {
		user := -1
		if g.Panic != "" {
			user = g.UserFrame()
		}
		gr := htmlGroup{Group: g, Compared: g.baseSeen, Growth: g.Count - g.BaseCount}
		for i, f := range g.Frames {
			hf := htmlFrame{Frame: f, Std: f.Stdlib(), Marked: i == user}
			if g.Elided > 0 && i == g.ElidedAt {
				hf.Elided = g.Elided
			}
			gr.Frames = append(gr.Frames, hf)
		}
		part.Groups = append(part.Groups, gr)
	}
	return part
}

var htmlTemplate = template.Must(template.New("goroutines").Parse(`<section class="goroutines">
<style>
.goroutines{font:13px/1.4 ui-monospace,monospace}
.goroutines .panic{color:#b00;white-space:pre-wrap}
.goroutines summary{cursor:pointer}
.goroutines .count{font-weight:bold;display:inline-block;min-width:5em}
.goroutines .growth{color:#b00;font-weight:bold}
.goroutines .growth.same,.goroutines .growth.less{color:#555;font-weight:normal}
.goroutines ol{list-style:none;margin:.2em 0 .6em 1.5em;padding:0}
.goroutines .std{opacity:.5}
.goroutines .marked{background:#fe8}
.goroutines .elided{color:#555;font-style:italic}
.goroutines .loc{color:#555;margin-left:1em}
.goroutines .leak{color:#b00}
.goroutines .note{color:#555}
</style>
{{range $p := .Parts}}<div class="dump">
{{if gt .Of 1}}<h2>Dump {{.N}} of {{.Of}}</h2>{{end}}
{{if .Panic}}<pre class="panic">{{.Panic}}</pre>{{end}}
{{if or .Total (not .Races)}}<p>{{.Total}} goroutines in {{len .Groups}} groups</p>{{end}}
{{if .Leaks}}<ul class="leaks">{{range .Leaks}}<li class="leak">{{.Text}}</li>{{end}}</ul>{{end}}
{{range .Groups}}<details{{if or .Panic (lt (len $p.Groups) 20)}} open{{end}}>
<summary><span class="count">{{.Count}}</span> {{if .Compared}}<span class="growth{{if eq .Growth 0}} same{{else if lt .Growth 0}} less{{end}}" title="{{.BaseCount}} in the base dump">{{if ge .Growth 0}}+{{end}}{{.Growth}} since base</span> {{end}}{{.Heading}}{{if .Panic}} <b>panicked</b>{{end}}</summary>
<ol>{{range .Frames}}{{if .Elided}}<li class="elided">...{{.Elided}} frames elided...</li>{{end}}<li class="{{if .Std}}std{{end}}{{if .Marked}} marked{{end}}">{{.Func}}<span class="loc">{{.File}}{{if .Line}}:{{.Line}}{{end}}</span></li>{{end}}
{{if and .Elided (ge .ElidedAt (len .Frames))}}<li class="elided">...{{.Elided}} frames elided...</li>{{end}}
{{with .CreatedBy}}<li>created by {{.Func}}<span class="loc">{{.File}}{{if .Line}}:{{.Line}}{{end}}</span></li>{{end}}</ol>
</details>
{{end}}{{if .Races}}<h3>Data races</h3>
{{range .Races}}<details open class="race"><summary>{{.Title}}</summary>
{{with .Example}}{{if .Location}}<p class="note">location: {{.Location}}</p>{{end}}
<p>{{.Access.Op}} at {{.Access.Addr}} by {{.Access.By}}:</p>{{template "access" .Access}}
<p>previous {{.Previous.Op}} at {{.Previous.Addr}} by {{.Previous.By}}:</p>{{template "access" .Previous}}{{end}}
</details>
{{end}}{{end}}</div>
{{end}}{{range .Notes}}<p class="note">{{.}}</p>{{end}}</section>
{{define "access"}}<ol>{{range .Frames}}<li>{{.Func}}<span class="loc">{{.File}}{{if .Line}}:{{.Line}}{{end}}</span></li>{{end}}</ol>
{{if .CreatedAt}}<p>created at:</p><ol>{{range .CreatedAt}}<li>{{.Func}}<span class="loc">{{.File}}{{if .Line}}:{{.Line}}{{end}}</span></li>{{end}}</ol>{{end}}{{end}}
`))
