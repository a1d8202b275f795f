// perflab-chart.js draws perflab chart specs with uPlot. A spec is the JSON
// form of chart.Chart: {title, xLabel, yLabel, xUnit, unit, x: [...],
// series: [{label, style, color, y: [...]}]}; null values are gaps.
// Pages made by chart.Page call renderAll on load; the web UI can call
// perflabChart.render(element, spec) itself.
"use strict";
(function () {
	const palette = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf"];

	// fixed formats v with up to d decimals, dropping trailing zeros.
	function fixed(v, d) {
		return String(Number(v.toFixed(d)));
	}

	// format renders v in the given unit: "bytes", "seconds", "percent" or "".
	function format(unit, v) {
		if (v == null || !isFinite(v)) return "--";
		const a = Math.abs(v);
		switch (unit) {
		case "bytes":
			if (a >= 1 << 30) return fixed(v / (1 << 30), 1) + " GB";
			if (a >= 1 << 20) return fixed(v / (1 << 20), 1) + " MB";
			if (a >= 1 << 10) return fixed(v / (1 << 10), 1) + " KB";
			return v + " B";
		case "seconds":
			if (a === 0) return "0";
			if (a < 1e-3) return fixed(v * 1e6, 0) + " µs";
			if (a < 1) return fixed(v * 1e3, a < 1e-2 ? 2 : 1) + " ms";
			return fixed(v, a < 10 ? 2 : 1) + " s";
		case "percent":
			return fixed(v, a < 10 ? 1 : 0) + "%";
		}
		return fixed(v, 2);
	}

	function seriesOptions(s, i, unit) {
		const o = {
			label: s.label,
			stroke: s.color || palette[i % palette.length],
			width: 1.5,
			value: (u, v) => format(unit, v),
		};
		if (s.style === "points") {
			o.paths = () => null;
			o.points = { show: true, size: 5, fill: o.stroke };
		} else if (s.style === "bars") {
			o.paths = uPlot.paths.bars({ size: [0.8, 40] });
			o.fill = o.stroke;
			o.points = { show: false };
		} else {
			o.points = { show: false };
		}
		return o;
	}

	// render draws one spec into el and returns the uPlot instance, or null
	// when the spec has no data.
	function render(el, spec) {
		if (!spec.x || spec.x.length === 0) {
			const p = document.createElement("p");
			p.className = "perflab-nodata";
			p.textContent = (spec.title || "chart") + ": no data";
			el.appendChild(p);
			return null;
		}
		const series = [{ label: spec.xLabel || "x", value: (u, v) => format(spec.xUnit, v) }];
		spec.series.forEach((s, i) => series.push(seriesOptions(s, i, spec.unit)));
		const opts = {
			title: spec.title,
			width: Math.max(320, Math.min(el.clientWidth || 900, 1200)),
			height: 260,
			scales: { x: { time: false } },
			series: series,
			axes: [
				{ label: spec.xLabel, space: 80, values: (u, vals) => vals.map((v) => format(spec.xUnit, v)) },
				{ label: spec.yLabel, size: 80, values: (u, vals) => vals.map((v) => format(spec.unit, v)) },
			],
		};
		const data = [spec.x].concat(spec.series.map((s) => s.y));
		return new uPlot(opts, data, el);
	}

	// renderAll draws every spec of the page's #perflab-charts data.
	function renderAll(doc) {
		const data = doc.getElementById("perflab-charts");
		const root = doc.getElementById("perflab-chart-root");
		if (!data || !root) return [];
		const specs = JSON.parse(data.textContent);
		return specs.map((spec) => {
			const div = doc.createElement("div");
			div.className = "perflab-chart";
			root.appendChild(div);
			return render(div, spec);
		});
	}

	// charts holds the uPlot instances renderAll made (null for a chart
	// without data), for tests and for pages that update them.
	const api = { render: render, renderAll: renderAll, format: format, charts: [] };
	window.perflabChart = api;
	const draw = () => { api.charts = renderAll(document); };
	if (document.readyState === "loading") {
		document.addEventListener("DOMContentLoaded", draw);
	} else {
		draw();
	}
})();
