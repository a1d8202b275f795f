package investigate

// htmlPage is report.html's template: the findings first, then each
// section, charts drawn by the chart package's script from JSON specs.
const htmlPage = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>perflab investigate: {{index .R.Program 0}}</title>
<style>{{.UPlotCSS}}</style>
<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em auto; max-width: 1240px; padding: 0 1em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: right; } td.l, th.l { text-align: left; }
.headline { font-size: 1.1em; font-weight: 600; } .finding { margin: .6em 0; } .evidence { color: #555; }
.where { font-family: monospace; color: #345; } pre { background: #f6f6f6; padding: .8em; white-space: pre-wrap; font-size: 12px; }
.problem { color: #a00; } .perflab-chart { margin: 1.2em 0; } .perflab-nodata { color: #777; font-style: italic; }
</style>
</head>
<body>
<h1>perflab investigate: <code>{{range .R.Program}}{{.}} {{end}}</code></h1>
<p class="headline" id="headline">{{.R.Headline}}</p>
{{range .R.Problems}}<p class="problem">{{.}}</p>{{end}}
<h2>Findings</h2>
<ol id="findings">{{range .R.Findings}}
<li class="finding"><b>{{.Title}}</b><br><span class="evidence">{{.Evidence}}</span>{{if .Where}}<br>look at: <span class="where">{{.Where}}</span>{{end}}</li>{{else}}<li>none</li>{{end}}
</ol>
<h2>Load</h2>
<table><tr><th class="l">URL</th><th>responses</th><th>errors</th><th>req/s</th><th>p50</th><th>p90</th><th>p99</th><th>max</th></tr>
{{range .R.URLs}}<tr><td class="l">{{.Method}} {{.URL}}</td><td>{{.Responses}}</td><td>{{.Errors}}</td><td>{{printf "%.0f" .RPS}}</td><td>{{seconds .Latency.P50}}</td><td>{{seconds .Latency.P90}}</td><td>{{seconds .Latency.P99}}</td><td>{{seconds .Latency.Max}}</td></tr>
{{end}}</table>
<div id="perflab-chart-root"></div>
<h2>CPU</h2>
{{if .Flame}}<div id="flame">{{.Flame}}</div>{{else}}<p class="note">No flame graph: no CPU profile was collected.</p>{{end}}
<table><tr><th>flat</th><th>flat%</th><th>cum</th><th>cum%</th><th class="l">function</th></tr>
{{range .R.CPUTop}}<tr><td>{{.FlatText}}</td><td>{{pct .FlatPct}}</td><td>{{.CumText}}</td><td>{{pct .CumPct}}</td><td class="l">{{.Func}}</td></tr>
{{end}}</table>
<h2>Allocations</h2>
<p>{{bytes .R.AllocBytesPerRequest}} and {{printf "%.1f" .R.AllocsPerRequest}} objects allocated per request.</p>
<table id="allocs"><tr><th>bytes</th><th>per request</th><th class="l">site</th><th class="l">calls</th><th class="l">compiler's reasons</th></tr>
{{range .R.AllocTop}}<tr><td>{{pct .BytesShare}}</td><td>{{bytes .BytesPerReq}}</td><td class="l">{{.Func}} ({{base .File}}:{{.Line}})</td><td class="l">{{.Callee}}</td><td class="l">{{range .Reasons}}{{.}}<br>{{end}}{{if .CategoryTitle}}{{.CategoryTitle}}: {{.Hint}}{{end}}</td></tr>
{{end}}</table>
<h2>Goroutines</h2>
<p>{{.R.Goroutines.Start}} at the start, {{.R.Goroutines.End}} at the end.</p>
<table><tr><th>start</th><th>end</th><th class="l">in</th><th class="l">state</th><th class="l">started by</th></tr>
{{range .R.Goroutines.Groups}}<tr><td>{{.Start}}</td><td>{{.End}}</td><td class="l">{{.Top}}</td><td class="l">{{.State}}</td><td class="l">{{.Root}}</td></tr>
{{end}}</table>
{{range .R.Goroutines.Leaks}}<p>{{.}}</p>{{end}}
{{with .R.Trace}}{{if .File}}<h2>Execution trace</h2>
<p>{{.File}}: {{printf "%.2f" .BusyPs}} of {{.GOMAXPROCS}} Ps busy on average; scheduling latency p99 {{seconds .SchedLatencyP99}}; {{seconds .LockWait}} waiting for locks.</p>
<ul>{{range .Verdicts}}<li>{{.}}</li>{{end}}</ul>
{{if .Timeline}}<p>Timeline: each P's lane fills with the share of time it ran goroutines; orange bands are GC cycles, red ones stop-the-world pauses; the Gs lane is goroutines alive; below, the longest tasks and regions. Wheel to zoom, drag to pan, click a bar to zoom to it.</p>
<canvas id="trace-timeline" style="width: 100%; display: block; border: 1px solid #ddd;"></canvas>{{end}}{{end}}{{end}}
<h2>The whole report as text</h2>
<pre id="text">{{.Text}}</pre>
<footer>Made by perflab. Charts drawn with uPlot (MIT), embedded in this page.</footer>
<script type="application/json" id="perflab-charts">{{.Specs}}</script>
<script>{{.UPlotJS}}</script>
<script>{{.ChartJS}}</script>
{{if .R.Trace.Timeline}}<script>{{.TimelineJS}}</script>
<script>
var perflabTraceTiles = {{.R.Trace.Timeline}};
perflabTraceTiles.bars = {{.R.Trace.Spans}} || [];
window.perflabTraceTimeline = perflabTimeline.render(document.getElementById("trace-timeline"), perflabTraceTiles);
</script>{{end}}
</body>
</html>
`
