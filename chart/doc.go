// Package chart draws line, point and bar charts into self-contained HTML
// pages: one file that opens offline in any browser, with the charting
// library (uPlot, vendored and pinned under assets/) embedded in it.
//
// A Chart is plain data: an x axis shared by one or more series, with
// units that decide how ticks and legend values read. Page.Render writes
// charts into a page; everything taken from the input, titles and labels
// included, is escaped (html/template for the page, JSON for the data).
//
// The same assets serve a web UI: Assets holds uPlot and perflab-chart.js,
// whose perflabChart.render(element, spec) draws the JSON form of a Chart.
package chart
