package investigate

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io"
	"math"
	"path/filepath"

	"github.com/google/pprof/profile"
	"github.com/perflab/perflab/chart"
	"github.com/perflab/perflab/flame"
	"github.com/perflab/perflab/internal/htmlpage"
	"github.com/perflab/perflab/internal/units"
	"github.com/perflab/perflab/report"
	"github.com/perflab/perflab/timeline"
)

// flame draws the flame graph fragment: through Options.Flame if set,
// else with package flame.
func (r *runner) flame() template.HTML {
	if r.cpuProfile == nil {
		return ""
	}
	draw := r.o.Flame
	if draw == nil {
		draw = FlameGraphs
	}
	h, err := draw(r.cpuProfile, r.baseCPU)
	if err != nil {
		r.problem("flame graph: %v", err)
		return ""
	}
	return h
}

// charts are the report's charts: latency histogram, throughput and mean
// latency of the rounds (one series per URL: loading one URL after the
// other is no change over time), and the live heap at each GC.
func charts(rep *Report) []chart.Chart {
	var hx, hy chart.Values
	for _, b := range rep.Histogram {
		hx, hy = append(hx, b.Le), append(hy, float64(b.Count))
	}
	rx, rps, lat := roundSeries(rep)
	var gx, live, goal chart.Values
	for _, p := range rep.GC.Heap {
		gx, live, goal = append(gx, p.Seconds), append(live, float64(p.Live)), append(goal, float64(p.Goal))
	}
	return []chart.Chart{
		{Title: "Latency histogram" + rep.histogramMode(), XLabel: "latency up to", XUnit: chart.Seconds, YLabel: "responses", Unit: chart.Count,
			X: hx, Series: []chart.Series{{Label: "responses", Style: chart.Bars, Y: hy}}},
		{Title: "Throughput by round", XLabel: "round", XUnit: chart.Count, YLabel: "req/s", Unit: chart.Count,
			X: rx, Series: rps},
		{Title: "Mean latency by round", XLabel: "round", XUnit: chart.Count, YLabel: "latency", Unit: chart.Seconds,
			X: rx, Series: lat},
		{Title: "Live heap at each GC (whole run)", XLabel: "time since start", XUnit: chart.Seconds, YLabel: "heap", Unit: chart.Bytes,
			X: gx, Series: []chart.Series{{Label: "live", Y: live}, {Label: "goal", Y: goal}}},
	}
}

// roundSeries returns the rounds' numbers (1, 2, ...) and, for each URL,
// the throughput and mean latency of its rounds, NaN past its last.
func roundSeries(rep *Report) (x chart.Values, rps, lat []chart.Series) {
	byURL := rep.roundsByURL()
	n := 0
	for _, rds := range byURL {
		n = max(n, len(rds))
	}
	for i := range n {
		x = append(x, float64(i+1))
	}
	for i, rds := range byURL {
		label := rep.URLs[i].Method + " " + rep.URLs[i].URL
		r, l := chart.Series{Label: label, Style: chart.Points}, chart.Series{Label: label, Style: chart.Points}
		for j := range n {
			v, m := math.NaN(), math.NaN()
			if j < len(rds) {
				v, m = rds[j].RPS, rds[j].MeanLatency
			}
			r.Y, l.Y = append(r.Y, v), append(l.Y, m)
		}
		rps, lat = append(rps, r), append(lat, l)
	}
	return x, rps, lat
}

var htmlTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"pct":     func(x float64) string { return trimPct(100 * x) },
	"seconds": units.Seconds,
	"bytes":   func(x float64) string { return units.Bytes(int64(x)) },
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
	read := func(name string) string { return htmlpage.Text(assets, name) }
	data := struct {
		R                                   *Report
		Text                                string
		Flame                               template.HTML
		UPlotCSS                            template.CSS
		UPlotJS, ChartJS, Specs, TimelineJS template.JS
	}{rep, text.String(), flame, template.CSS(read("uPlot.min.css")),
		template.JS(read("uPlot.iife.min.js")), template.JS(read("perflab-chart.js")), template.JS(specs),
		timeline.Script()} // the scripts are perflab's own
	return htmlpage.Render(w, htmlTemplate, data)
}

// FlameGraphs draws the CPU profile's flame graph with package flame and,
// with a base profile, the differential flame graph of the two (red where
// the CPU grew, blue where it shrank), as fragments of the report page.
func FlameGraphs(cpu, base *profile.Profile) (template.HTML, error) {
	var buf bytes.Buffer
	t, err := flame.Build(cpu.Copy(), report.DefaultOptions())
	if err != nil {
		return "", err
	}
	buf.WriteString("<h3>CPU flame graph</h3>\n")
	if err := flame.WriteFragment(&buf, t, flame.HTMLOptions{ID: "flame-cpu", Orientation: "flame"}); err != nil {
		return "", err
	}
	if base != nil {
		d, err := flame.BuildDiff(cpu.Copy(), base.Copy(), report.DefaultOptions())
		if err != nil {
			return "", err
		}
		buf.WriteString("<h3>Differential flame graph against the base run, the base scaled to this run's total (red: a larger share of the CPU, blue: a smaller)</h3>\n")
		o := flame.HTMLOptions{ID: "flame-diff", Orientation: "flame", Query: flame.Query{Normalize: true}, BaseName: "the base run's CPU profile"}
		if err := flame.WriteFragment(&buf, d, o); err != nil {
			return "", err
		}
	}
	return template.HTML(buf.String()), nil
}
