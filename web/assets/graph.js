// graph.js: the call graph view. Package graph's own script
// (/ui/assets/graph/graph.js, the one perflab graph -svg embeds) pans and zooms
// the SVG and reports clicks; this module makes a click select the node's
// function and a double click focus on it.
import '/ui/assets/graph/graph.js';
import { select, go, regexpQuote } from '/ui/assets/app.js';

const host = document.getElementById('graph');
const svg = host && host.querySelector('svg');

if (svg) {
  svg.removeAttribute('width'); // the SVG fills #graph (style.css)
  svg.removeAttribute('height');
  host.addEventListener('perflab-node', (e) => select(e.detail.name));
  host.addEventListener('perflab-node-focus', (e) => {
    const q = new URLSearchParams(location.search);
    q.set('f', regexpQuote(e.detail.name));
    go('graph', q);
  });
}
