package investigate

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/perflab/perflab/chart"
)

// flame draws the flame graph fragment through Options.Flame, if set.
func (r *runner) flame() template.HTML {
	if r.o.Flame == nil || r.cpuProfile == nil {
		return ""
	}
	h, err := r.o.Flame(r.cpuProfile, r.baseCPU)
	if err != nil {
		r.problem("flame graph: %v", err)
		return ""
	}
	return h
}

// charts are the report's charts: latency histogram, throughput of the
// rounds, and the live heap at each GC.
func charts(rep *Report) []chart.Chart {
	var hx, hy chart.Values
	for _, b := range rep.Histogram {
		hx, hy = append(hx, b.Le), append(hy, float64(b.Count))
	}
	var rx, ry, rl chart.Values
	for i, rd := range rep.Rounds {
		rx, ry, rl = append(rx, float64(i+1)), append(ry, rd.RPS), append(rl, rd.MeanLatency)
	}
	var gx, live, goal chart.Values
	for _, p := range rep.GC.Heap {
		gx, live, goal = append(gx, p.Seconds), append(live, float64(p.Live)), append(goal, float64(p.Goal))
	}
	return []chart.Chart{
		{Title: "Latency histogram", XLabel: "latency up to", XUnit: chart.Seconds, YLabel: "responses", Unit: chart.Count,
			X: hx, Series: []chart.Series{{Label: "responses", Style: chart.Bars, Y: hy}}},
		{Title: "Throughput by round", XLabel: "round", XUnit: chart.Count, YLabel: "req/s", Unit: chart.Count,
			X: rx, Series: []chart.Series{{Label: "req/s", Y: ry, Style: chart.Points}}},
		{Title: "Mean latency by round", XLabel: "round", XUnit: chart.Count, YLabel: "latency", Unit: chart.Seconds,
			X: rx, Series: []chart.Series{{Label: "mean latency", Y: rl, Style: chart.Points}}},
		{Title: "Live heap at each GC (whole run)", XLabel: "time since start", XUnit: chart.Seconds, YLabel: "heap", Unit: chart.Bytes,
			X: gx, Series: []chart.Series{{Label: "live", Y: live}, {Label: "goal", Y: goal}}},
	}
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":     func(x float64) string { return trimPct(100 * x) },
	"seconds": seconds,
	"bytes":   func(x float64) string { return byteSize(int64(x)) },
	"base":    filepath.Base,
}).Parse(htmlPage))

func trimPct(x float64) string { return template.HTMLEscapeString(trim(x)) + "%" }

// WriteHTML writes the report as one self-contained HTML page, charts
// included; flame, if not empty, is a flame graph fragment to show in the
// CPU section (Options.Flame makes it).
func (rep *Report) WriteHTML(w io.Writer, flame template.HTML) error {
	specs, err := json.Marshal(charts(rep))
	if err != nil {
		return err
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	assets := chart.Assets()
	read := func(name string) string { b, _ := fs.ReadFile(assets, name); return string(b) }
	data := struct {
		R                       *Report
		Text                    string
		Flame                   template.HTML
		UPlotCSS                template.CSS
		UPlotJS, ChartJS, Specs template.JS
	}{rep, text.String(), flame, template.CSS(read("uPlot.min.css")),
		template.JS(read("uPlot.iife.min.js")), template.JS(read("perflab-chart.js")), template.JS(specs)}
	var buf bytes.Buffer
	if err := htmlTemplate.Execute(&buf, data); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}
