// flame.js draws perflab flame graphs on a canvas. It is a plain ES module,
// embedded in the perflab binary (flame.Assets) and inlined in static pages
// (flame.WriteHTML). It draws the JSON form of flame.View (see
// flame/json.go): frames in preorder with parent, depth, offset and width.
//
// API:
//
//   import { FlameGraph, staticLoader, queryParams } from "./flame.js";
//   const fg = new FlameGraph(element, {
//     load,                 // (query) => Promise<view JSON>: fetches a view
//     query: {},            // the initial query (below)
//     orientation: "icicle",// or "flame" (root at the bottom)
//     onSelect: (name) => {},  // a frame was chosen for the sandwich view
//     onQuery: (query) => {},  // the query changed (zoom, search, ...): sync the URL
//     baseName: "old.pprof",   // a diff's base, named in its legend
//   });
//   fg.setQuery(query)      // => Promise; loads and draws
//   fg.setOrientation("flame")
//
// A query is {path: [frame names from the root], search: "regexp",
// sandwich: "frame name", reverse: bool, normalize: bool}; queryParams(q)
// turns it into URLSearchParams with the names flame.ParseQuery reads
// (path, search, sandwich, reverse, normalize).
//
// Two modes:
//   static: load = staticLoader(data), where data = {view, reverse} holds
//           the whole pruned view (and, for a diff, the base-shaped one);
//           zoom, search and sandwich are computed here from it.
//   server: load fetches "/...?" + queryParams(q) and returns the JSON.
//
// Interaction: click a frame to zoom in, the breadcrumbs to zoom out;
// shift-click (or the Sandwich button after a click) centres the sandwich
// view on a frame; Escape zooms out one level; the search box takes a
// regexp and shows the matched share of the total. A diff shows a legend of
// its colours, naming the base. Frame labels are shortened as pprof's are
// (shortNames): the package path, then the package, then the receiver go
// first, and only the shortest is cut with "…"; hovering shows the full
// name. Profile strings are only ever set as textContent or drawn on the
// canvas, never parsed as HTML.

const ROW = 18; // row height, CSS pixels
const FONT = "12px system-ui, -apple-system, sans-serif";

// format renders value v of unit u as pprof's reports do, roughly.
export function format(v, unit) {
	const a = Math.abs(v);
	const fixed = (x, d) => String(Number(x.toFixed(d)));
	switch (unit) {
	case "nanoseconds":
		if (a >= 1e9) return fixed(v / 1e9, 2) + "s";
		if (a >= 1e6) return fixed(v / 1e6, 2) + "ms";
		if (a >= 1e3) return fixed(v / 1e3, 2) + "µs";
		return v + "ns";
	case "bytes":
		if (a >= 2 ** 30) return fixed(v / 2 ** 30, 2) + "GB";
		if (a >= 2 ** 20) return fixed(v / 2 ** 20, 2) + "MB";
		if (a >= 2 ** 10) return fixed(v / 2 ** 10, 2) + "kB";
		return v + "B";
	}
	return String(v) + (unit && unit !== "count" ? unit : "");
}

// shortNames returns the names a frame may be labelled with, longest
// first, as pprof's flame graph does (internal/report's shortNameList):
// the name without its package path ("encoding/json.(*encodeState).marshal"
// is "json.(*encodeState).marshal"; a /vN major version is dropped too),
// then every suffix after a "." or "::".
export function shortNames(name) {
	let n = name.replace(/^\(anonymous namespace\)::/, "");
	n = n.replace(/^(.*?)\/v(?:[2-9]|[1-9][0-9]+)([./].*)$/, "$1$2");
	for (const rx of [/^(?:[\w\-.]+\/)+([^.]+\..+)/, // Go: the package path
		/^(?:[a-z]\w*\.)*([A-Z][\w$]*\.(?:<init>|[a-z][\w$]*(?:\$\d+)?))(?:\(|$)/, // Java: the package
		/^(?:[_a-zA-Z]\w*::)+(_*[A-Z]\w*::~?[_a-zA-Z]\w*(?:<.*>)?)/]) { // C++: the namespaces
		const m = rx.exec(n);
		if (m) { n = m.slice(1).join(""); break; }
	}
	const out = [n];
	const sep = /::|\./g;
	let x;
	while ((x = sep.exec(n)) !== null) {
		const end = x.index + x[0].length;
		if (end < n.length) out.push(n.slice(end));
	}
	return out;
}

function pct(v, total) {
	if (!total) return "";
	return (100 * v / total).toFixed(2) + "%";
}

// queryParams returns the URL parameters of query q.
export function queryParams(q) {
	const p = new URLSearchParams();
	for (const name of q.path || []) p.append("path", name);
	if (q.search) p.set("search", q.search);
	if (q.sandwich) p.set("sandwich", q.sandwich);
	if (q.reverse) p.set("reverse", "1");
	if (q.normalize) p.set("normalize", "1");
	return p;
}

// decode turns a view's JSON into arrays the drawing code indexes.
export function decode(v) {
	const f = v.frames, s = v.strings;
	const n = f.n;
	const d = {
		raw: v, n, strings: s,
		name: f.name, file: f.file, line: f.line, pkg: f.pkg, parent: f.parent, depth: f.depth,
		offset: f.offset, width: f.width, cum: f.cum, self: f.self,
		base: f.base || null, baseSelf: f.baseSelf || null,
		matched: new Uint8Array(n), minDepth: 0, maxDepth: 0,
	};
	for (const i of f.matched) d.matched[i] = 1;
	for (let i = 0; i < n; i++) {
		d.minDepth = Math.min(d.minDepth, f.depth[i]);
		d.maxDepth = Math.max(d.maxDepth, f.depth[i]);
	}
	return d;
}

// staticLoader answers queries from the views of a static page: data.view
// (the whole tree, pruned) and data.reverse (the base's shape, in a diff).
export function staticLoader(data) {
	return (q) => new Promise((resolve) => resolve(localView(q.reverse && data.reverse ? data.reverse : data.view, q)));
}

// children lists each frame's children, in order.
function children(v) {
	const kids = Array.from({ length: v.frames.n }, () => []);
	const p = v.frames.parent;
	for (let i = 1; i < v.frames.n; i++) if (p[i] >= 0) kids[p[i]].push(i);
	return kids;
}

// localView computes the view q asks for from the pruned view v.
function localView(v, q) {
	const f = v.frames, s = v.strings, kids = children(v);
	let root = 0;
	const path = [];
	for (const name of q.path || []) {
		const next = kids[root].find((c) => s[f.name[c]] === name);
		if (next === undefined) break;
		root = next;
		path.push(name);
	}
	let out;
	if (q.sandwich) out = sandwich(v, kids, q.sandwich);
	else out = subtree(v, kids, root);
	out.path = q.sandwich ? [] : path;
	out.sandwich = q.sandwich || "";
	out.baseScale = q.normalize && v.rootBase ? v.rootValue / v.rootBase : 1;
	searchView(out, v, kids, q.search || "");
	return out;
}

// builder collects frames of a new view in preorder.
function builder(v) {
	const cols = ["name", "file", "line", "pkg", "parent", "depth", "offset", "width", "cum", "self"];
	if (v.diff) cols.push("base", "baseSelf");
	const fr = { n: 0, matched: [] };
	for (const c of cols) fr[c] = [];
	const out = Object.assign({}, v, { frames: fr });
	const add = (src, i, parent, depth, offset, vals) => {
		for (const c of cols) fr[c].push(src[c][i]);
		const k = fr.n++;
		fr.parent[k] = parent; fr.depth[k] = depth; fr.offset[k] = offset;
		if (vals) for (const c in vals) fr[c][k] = vals[c];
		return k;
	};
	return { out, add };
}

// subtree is v's subtree of frame r, re-rooted.
function subtree(v, kids, r) {
	const f = v.frames, { out, add } = builder(v);
	const walk = (i, parent) => {
		const k = add(f, i, parent, f.depth[i] - f.depth[r], f.offset[i] - f.offset[r]);
		for (const c of kids[i]) walk(c, k);
	};
	walk(r, -1);
	return out;
}

// sandwich merges, from the pruned view, the callers (above) and callees
// (below) of every outermost frame named name.
function sandwich(v, kids, name) {
	const f = v.frames, s = v.strings, { out, add } = builder(v);
	const diff = !!f.base, w = (i) => f.width[i];
	const hits = [];
	const find = (i, inside) => {
		const is = s[f.name[i]] === name;
		if (is && !inside) hits.push(i);
		for (const c of kids[i]) find(c, inside || is);
	};
	find(0, false);
	if (hits.length === 0) return subtree(v, kids, 0);
	// A merge tree: node = {src, vals, kids: Map(name -> node)}.
	const node = (src) => ({ src, cum: 0, self: 0, base: 0, baseSelf: 0, width: 0, kids: new Map() });
	const addVals = (n, i, full) => {
		n.cum += f.cum[i]; n.width += w(i);
		if (diff) n.base += f.base[i];
		if (full) { n.self += f.self[i]; if (diff) n.baseSelf += f.baseSelf[i]; }
	};
	const center = node(hits[0]), up = node(hits[0]);
	const mergeDown = (into, i) => {
		for (const c of kids[i]) {
			const key = s[f.name[c]];
			if (!into.kids.has(key)) into.kids.set(key, node(c));
			const n = into.kids.get(key);
			addVals(n, c, true);
			mergeDown(n, c);
		}
	};
	for (const h of hits) {
		addVals(center, h, true);
		mergeDown(center, h);
		let n = up;
		for (let a = f.parent[h]; a > 0; a = f.parent[a]) {
			const key = s[f.name[a]];
			if (!n.kids.has(key)) n.kids.set(key, node(a));
			n = n.kids.get(key);
			addVals(n, h, false);
		}
	}
	const emit = (n, parent, depth, offset, step) => {
		const vals = { cum: n.cum, self: n.self, width: n.width };
		if (diff) Object.assign(vals, { base: n.base, baseSelf: n.baseSelf });
		const k = parent === -2 ? 0 : add(f, n.src, parent, depth, offset, vals);
		let off = offset;
		const ks = [...n.kids.values()].sort((a, b) => b.width - a.width);
		for (const c of ks) { emit(c, k, depth + step, off, step); off += c.width; }
	};
	emit(center, -1, 0, 0, 1);
	emit(up, -2, 0, 0, -1);
	return out;
}

// searchView marks the frames of out that re matches and sums the
// outermost matches of the whole view v.
function searchView(out, v, kids, re) {
	out.search = re;
	out.searchValue = 0;
	out.frames.matched = [];
	if (!re) return;
	let rx;
	try { rx = new RegExp(re); } catch (e) { out.error = "search: " + e.message; return; }
	const s = out.strings;
	for (let i = 0; i < out.frames.n; i++) if (rx.test(s[out.frames.name[i]])) out.frames.matched.push(i);
	const f = v.frames;
	const walk = (i) => {
		if (i > 0 && rx.test(v.strings[f.name[i]])) { out.searchValue += f.width[i]; return; }
		for (const c of kids[i]) walk(c);
	};
	walk(0);
}

// textWidth measures strings once per character and caches the result.
class TextMeasure {
	constructor(ctx) { this.ctx = ctx; this.chars = new Map(); }
	char(c) {
		let w = this.chars.get(c);
		if (w === undefined) { w = this.ctx.measureText(c).width; this.chars.set(c, w); }
		return w;
	}
	// width returns the width of s in pixels.
	width(s) {
		let w = 0;
		for (let i = 0; i < s.length; i++) w += this.char(s[i]);
		return w;
	}
	// label returns the first of names (longest first, see shortNames)
	// that fits in max pixels, else the last cut to fit (with "…"), or "".
	label(names, max) {
		for (const n of names) if (this.width(n) <= max) return n;
		return this.fit(names[names.length - 1], max);
	}
	// fit returns the longest prefix of s (with "…") that fits in max pixels.
	fit(s, max) {
		let w = 0;
		const ell = this.char("…");
		for (let i = 0; i < s.length; i++) {
			w += this.char(s[i]);
			if (w > max) {
				let j = i;
				while (j > 0 && w - this.char(s[j]) + ell > max) { w -= this.char(s[j]); j--; }
				return j >= 3 ? s.slice(0, j) + "…" : "";
			}
		}
		return s;
	}
}

// hash returns a stable hash of a string (FNV-1a).
function hash(s) {
	let h = 2166136261;
	for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 16777619); }
	return h >>> 0;
}

// packageColor returns the colour of a package's frames: warm tones, as
// classic flame graphs, one per package, so that the search highlight
// (purple) and diffs (red and blue) stand apart.
function packageColor(pkg, dim) {
	const h = hash(pkg);
	const hue = 8 + (h % 52), sat = 70 + ((h >>> 8) % 25), light = 58 + ((h >>> 16) % 14);
	return dim ? `hsl(${hue},${sat - 40}%,${Math.min(light + 16, 90)}%)` : `hsl(${hue},${sat}%,${light}%)`;
}

const MATCH = "#b03cf0"; // search matches

export class FlameGraph {
	constructor(el, opts) {
		this.el = el;
		this.opts = opts;
		this.load = opts.load;
		this.query = Object.assign({ path: [] }, opts.query || {});
		this.orientation = opts.orientation || "icicle";
		this.view = null;
		el.classList.add("perflab-flame");
		this.bar = this.node("div", "pf-bar", el);
		this.legend = this.node("div", "pf-legend", el);
		this.crumbs = this.node("div", "pf-crumbs", el);
		this.status = this.node("div", "pf-status", el);
		this.wrap = this.node("div", "pf-wrap", el);
		this.canvas = this.node("canvas", "pf-canvas", this.wrap);
		this.tip = this.node("div", "pf-tip", document.body);
		this.tip.style.display = "none";
		this.ctx = this.canvas.getContext("2d");
		this.measure = new TextMeasure(this.ctx);
		this.toolbar();
		this.canvas.addEventListener("mousemove", (e) => this.hover(e));
		this.canvas.addEventListener("mouseleave", () => { this.tip.style.display = "none"; });
		this.canvas.addEventListener("click", (e) => this.click(e));
		// Escape zooms out one level, or leaves the sandwich view.
		document.addEventListener("keydown", (e) => {
			if (e.key !== "Escape" || !this.view || e.target === this.searchBox) return;
			const q = this.query;
			if (q.sandwich) this.setQuery(Object.assign({}, q, { sandwich: "" }));
			else if ((q.path || []).length) this.setQuery(Object.assign({}, q, { path: q.path.slice(0, -1) }));
		});
		const redraw = () => { if (!this.pending) { this.pending = true; requestAnimationFrame(() => { this.pending = false; this.draw(); }); } };
		// Rows outside the window are not drawn: redraw on any scroll, of
		// the page or of a scrolling element around the graph.
		document.addEventListener("scroll", redraw, { passive: true, capture: true });
		window.addEventListener("resize", redraw);
	}

	node(tag, cls, parent) {
		const n = document.createElement(tag);
		if (cls) n.className = cls;
		parent.appendChild(n);
		return n;
	}

	button(label, title, fn) {
		const b = this.node("button", "pf-btn", this.bar);
		b.type = "button";
		b.textContent = label;
		b.title = title;
		b.addEventListener("click", fn);
		return b;
	}

	toolbar() {
		this.searchBox = this.node("input", "pf-search", this.bar);
		this.searchBox.type = "search";
		this.searchBox.placeholder = "Search (regexp)";
		this.searchBox.value = this.query.search || "";
		let timer;
		this.searchBox.addEventListener("input", () => {
			clearTimeout(timer);
			timer = setTimeout(() => this.setQuery(Object.assign({}, this.query, { search: this.searchBox.value })), 150);
		});
		this.matchInfo = this.node("span", "pf-match", this.bar);
		this.orientBtn = this.button("Flame", "Root at the bottom (flame) or the top (icicle)", () =>
			this.setOrientation(this.orientation === "flame" ? "icicle" : "flame"));
		this.sandBtn = this.button("Sandwich", "Callers above, callees below the selected frame", () => {
			const name = this.selected || (this.query.path || []).slice(-1)[0];
			if (name) this.sandwich(name);
		});
		this.revBtn = this.button("Reverse", "Diff: draw the base's shape (what shrank or disappeared)", () =>
			this.setQuery(Object.assign({}, this.query, { reverse: !this.query.reverse })));
		this.normBtn = this.button("Normalize", "Diff: scale the base to the new total", () =>
			this.setQuery(Object.assign({}, this.query, { normalize: !this.query.normalize })));
	}

	sandwich(name) {
		this.selected = name;
		if (this.opts.onSelect) this.opts.onSelect(name);
		return this.setQuery(Object.assign({}, this.query, { sandwich: name, path: [] }));
	}

	setOrientation(o) {
		this.orientation = o;
		this.draw();
	}

	// setQuery loads the view of q and draws it.
	async setQuery(q) {
		const seq = (this.seq = (this.seq || 0) + 1);
		let raw;
		try {
			raw = await this.load(q);
		} catch (e) {
			this.status.textContent = "Error: " + (e && e.message ? e.message : e);
			return;
		}
		if (seq !== this.seq) return; // a later query won
		this.query = q;
		this.status.textContent = raw.error || "";
		this.view = decode(raw);
		if (this.opts.onQuery) this.opts.onQuery(q);
		this.draw();
	}

	crumbsUpdate() {
		const c = this.crumbs, v = this.view.raw;
		c.textContent = "";
		const link = (label, q) => {
			const a = this.node("button", "pf-crumb", c);
			a.type = "button";
			a.textContent = label;
			a.addEventListener("click", () => this.setQuery(q));
		};
		const base = Object.assign({}, this.query, { sandwich: "" });
		link("root", Object.assign({}, base, { path: [] }));
		(v.path || []).forEach((name, i) => {
			c.appendChild(document.createTextNode(" › "));
			link(name, Object.assign({}, base, { path: v.path.slice(0, i + 1) }));
		});
		if (v.sandwich) {
			c.appendChild(document.createTextNode(" · sandwich: "));
			const b = this.node("b", "", c);
			b.textContent = v.sandwich;
		}
	}

	// names returns shortNames of the view's string k, computed once.
	names(k) {
		const d = this.view;
		if (!d.names) d.names = new Map();
		let n = d.names.get(k);
		if (!n) { n = shortNames(d.strings[k]); d.names.set(k, n); }
		return n;
	}

	// legendUpdate shows, in a diff, what the colours and widths mean and
	// which profile is the base.
	legendUpdate() {
		const v = this.view.raw, L = this.legend;
		L.textContent = "";
		L.style.display = this.view.base ? "" : "none";
		if (!this.view.base) return;
		const swatch = (color, text) => {
			const s = this.node("span", "pf-swatch", L);
			s.style.background = color;
			L.appendChild(document.createTextNode(" " + text + "  "));
		};
		const base = this.opts.baseName ? "the base, " + this.opts.baseName : "the base";
		L.appendChild(document.createTextNode("Diff against " + base + ": "));
		swatch("hsl(0,85%,55%)", "grew");
		swatch("hsl(220,85%,55%)", "shrank");
		swatch("hsl(0,0%,88%)", "unchanged");
		L.appendChild(document.createTextNode("(deeper colour, larger change); widths are " +
			(v.reverse ? "the base's values" : "the new profile's values") +
			(v.baseScale && v.baseScale !== 1 ? "; the base is scaled to the new total (×" + v.baseScale.toFixed(3) + ")" : "") + "."));
	}

	rowOf(depth) {
		const d = this.view;
		if (this.orientation === "flame" && !d.raw.sandwich) return d.maxDepth - depth;
		return depth - d.minDepth;
	}

	// maxDelta is the largest change of any frame but the root, which
	// scales the diff colours.
	maxDelta() {
		const d = this.view, scale = d.raw.baseScale || 1;
		let m = 0;
		for (let i = 1; i < d.n; i++) m = Math.max(m, Math.abs(d.cum[i] - d.base[i] * scale));
		return m || 1;
	}

	// color returns the fill of frame i: purple if the search matches it;
	// in a diff red if it grew, blue if it shrank, more saturated the
	// larger the change against the largest one (square root, so that
	// small changes still show); else its package's colour.
	color(i) {
		const d = this.view;
		if (d.matched[i]) return MATCH;
		if (d.base) {
			const delta = d.cum[i] - d.base[i] * (d.raw.baseScale || 1);
			if (delta === 0) return "hsl(0,0%,88%)";
			const r = Math.min(1, Math.sqrt(Math.abs(delta) / this.deltaScale));
			const l = Math.round(94 - 44 * r);
			return delta > 0 ? `hsl(0,85%,${l}%)` : `hsl(220,85%,${l}%)`;
		}
		return packageColor(d.strings[d.pkg[i]] || "", !!d.raw.search);
	}

	draw() {
		if (!this.view) return;
		const d = this.view, v = d.raw;
		this.crumbsUpdate();
		this.legendUpdate();
		const diff = !!d.base;
		this.revBtn.style.display = this.normBtn.style.display = diff ? "" : "none";
		this.revBtn.classList.toggle("pf-on", !!this.query.reverse);
		this.normBtn.classList.toggle("pf-on", !!this.query.normalize);
		this.orientBtn.textContent = this.orientation === "flame" ? "Icicle" : "Flame";
		const denom = v.reverse ? v.rootBase : v.rootValue;
		this.matchInfo.textContent = v.search && !v.error ? `matched ${pct(v.searchValue, denom) || "0%"} of total (${format(v.searchValue, v.unit)})` : "";
		const dpr = window.devicePixelRatio || 1;
		const width = this.wrap.clientWidth || 800;
		const rows = d.maxDepth - d.minDepth + 1;
		const height = Math.min(rows * ROW, 30000);
		if (this.canvas.width !== Math.round(width * dpr) || this.canvas.height !== Math.round(height * dpr)) {
			this.canvas.width = Math.round(width * dpr);
			this.canvas.height = Math.round(height * dpr);
			this.canvas.style.width = width + "px";
			this.canvas.style.height = height + "px";
		}
		const ctx = this.ctx;
		ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
		ctx.clearRect(0, 0, width, height);
		ctx.font = FONT;
		ctx.textBaseline = "middle";
		const rootW = d.width[0] || 1, k = width / rootW;
		if (d.base) this.deltaScale = this.maxDelta();
		// Only rows inside the window are drawn.
		const rect = this.canvas.getBoundingClientRect();
		const top = Math.max(0, -rect.top - ROW), bottom = Math.min(height, window.innerHeight - rect.top + ROW);
		this.boxes = [];
		this.labels = new Map(); // frame index → label drawn, for tests
		for (let i = 0; i < d.n; i++) {
			const w = d.width[i] * k;
			if (w < 0.5) continue;
			const y = this.rowOf(d.depth[i]) * ROW;
			if (y + ROW < top || y > bottom) continue;
			const x = d.offset[i] * k;
			ctx.fillStyle = this.color(i);
			ctx.fillRect(x, y, Math.max(w - 0.5, 0.5), ROW - 1);
			if (w > 24) {
				const label = this.measure.label(this.names(d.name[i]), w - 6);
				if (label) {
					ctx.fillStyle = "#111";
					ctx.fillText(label, x + 3, y + ROW / 2);
					this.labels.set(i, label);
				}
			}
		}
		this.scale = k;
	}

	// frameAt returns the index of the frame under the mouse, or -1.
	frameAt(e) {
		const d = this.view;
		if (!d) return -1;
		const r = this.canvas.getBoundingClientRect();
		const x = e.clientX - r.left, y = e.clientY - r.top;
		for (let i = 0; i < d.n; i++) {
			const y0 = this.rowOf(d.depth[i]) * ROW;
			if (y < y0 || y >= y0 + ROW) continue;
			const x0 = d.offset[i] * this.scale, w = d.width[i] * this.scale;
			if (w >= 0.5 && x >= x0 && x < x0 + w) return i;
		}
		return -1;
	}

	hover(e) {
		const i = this.frameAt(e);
		if (i < 0) { this.tip.style.display = "none"; return; }
		const d = this.view, v = d.raw, u = v.unit, total = v.total || v.rootValue;
		const lines = [d.strings[d.name[i]]];
		const file = d.strings[d.file[i]];
		if (file) lines.push(file + (d.line[i] ? ":" + d.line[i] : ""));
		if (d.base) {
			// What top -diff_base shows: the change, as a share of its total.
			const s = v.baseScale || 1, b = Math.round(d.base[i] * s), bs = Math.round(d.baseSelf[i] * s);
			const delta = d.cum[i] - b, flat = d.self[i] - bs, sign = (x) => (x >= 0 ? "+" : "");
			lines.push(`change: cum ${sign(delta)}${format(delta, u)} (${sign(delta)}${pct(delta, total)}), flat ${sign(flat)}${format(flat, u)} (${sign(flat)}${pct(flat, total)})`);
			lines.push(`new: cum ${format(d.cum[i], u)}, flat ${format(d.self[i], u)}; base${s !== 1 ? " (normalized)" : ""}: cum ${format(b, u)}, flat ${format(bs, u)}`);
		} else {
			lines.push(`cum ${format(d.cum[i], u)} (${pct(d.cum[i], total)}), flat ${format(d.self[i], u)} (${pct(d.self[i], total)})`);
		}
		lines.push("click: zoom · shift-click: sandwich");
		this.tip.textContent = "";
		for (const l of lines) {
			const div = this.node("div", "", this.tip);
			div.textContent = l;
		}
		this.tip.style.display = "block";
		this.tip.style.left = Math.min(e.clientX + 12, window.innerWidth - this.tip.offsetWidth - 4) + "px";
		this.tip.style.top = (e.clientY + 14) + "px";
	}

	click(e) {
		const i = this.frameAt(e);
		if (i < 0) return;
		const d = this.view, name = d.strings[d.name[i]];
		this.selected = name;
		if (e.shiftKey) { this.sandwich(name); return; }
		if (d.raw.sandwich) { this.sandwich(name); return; }
		const path = [];
		for (let j = i; j > 0; j = d.parent[j]) path.push(d.strings[d.name[j]]);
		path.reverse();
		this.setQuery(Object.assign({}, this.query, { path: (d.raw.path || []).concat(path), sandwich: "" }));
	}
}

// mountStatic starts the flame graph of a static page: the JSON in the
// script element #id holds {view, reverse}; el receives the graph.
export function mountStatic(el, id, opts) {
	const data = JSON.parse(document.getElementById(id).textContent);
	const fg = new FlameGraph(el, Object.assign({ load: staticLoader(data) }, opts || {}));
	fg.setQuery(fg.query);
	return fg;
}
