// graph.js: the call graph view. Package graph's own script
// (/ui/assets/graph/graph.js, the one perflab graph -svg embeds) pans and zooms
// the SVG and reports clicks; this module makes a click select the node's
// function and a double click focus on it.
//
// A graph of pprof's 80 nodes fitted to the window has unreadable labels:
// the view starts at a scale where they can be read (fitting the width
// when that is enough), at the top of the graph, centred on its topmost
// node; drag and wheel move from there, 0 comes back, and the buttons
// show the whole graph or the readable start.
import '/ui/assets/graph/graph.js';
import { select, go, regexpQuote } from '/ui/assets/app.js';

// READABLE is the smallest scale, in CSS pixels per SVG unit, at which
// the nodes' labels (8 units high for the lightest nodes) can be read.
const READABLE = 1;

const host = document.getElementById('graph');
const svg = host && host.querySelector('svg');

// readableStart sets the graph's home to a readable view and goes there.
function readableStart(g) {
  const r = svg.getBoundingClientRect();
  const all = g.viewBox();
  if (!r.width || !r.height || !all.width) return;
  const fit = Math.min(r.width / all.width, r.height / all.height);
  if (fit >= READABLE) return; // the whole graph is readable
  const k = Math.max(r.width / all.width, READABLE);
  const w = r.width / k, h = r.height / k;
  let cx = all.x + all.width / 2;
  let top = Infinity;
  for (const n of svg.querySelectorAll('g.node')) {
    const b = n.getBBox();
    if (b.y < top) { top = b.y; cx = b.x + b.width / 2; }
  }
  const x = Math.min(Math.max(cx - w / 2, all.x), all.x + all.width - w);
  g.setHome(w >= all.width ? all.x : x, all.y, w, h);
  g.reset();
}

if (svg) {
  svg.removeAttribute('width'); // the SVG fills #graph (style.css)
  svg.removeAttribute('height');
  const g = window.perflabGraph;
  readableStart(g);
  const bar = document.createElement('div');
  bar.id = 'graph-tools';
  for (const [label, title, fn] of [
    ['Whole graph', 'fit the whole graph in the window', () => g.fit()],
    ['Readable', 'back to the readable start (0)', () => g.reset()],
  ]) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.title = title;
    b.addEventListener('click', fn);
    bar.appendChild(b);
  }
  host.before(bar);
  host.addEventListener('perflab-node', (e) => select(e.detail.name));
  host.addEventListener('perflab-node-focus', (e) => {
    const q = new URLSearchParams(location.search);
    q.set('f', regexpQuote(e.detail.name));
    go('graph', q);
  });
}
