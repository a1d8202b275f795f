// flamepage.js: the flame graph and sandwich views. The page inlines the
// first view (#flame-data); zooms, searches and toggles fetch
// /ui/api/flame with the page's pprof parameters and the flame query, and
// the URL follows, so every state can be bookmarked.
import { FlameGraph, queryParams, format, shortNames } from '/ui/flame/flame.js';
import { select } from '/ui/assets/app.js';

const FLAME_PARAMS = ['path', 'search', 'sandwich', 'reverse', 'normalize', 'minwidth', 'maxdepth', 'maxframes', 'orient'];

const el = document.getElementById('flame');
const url = new URLSearchParams(location.search);
const initial = JSON.parse(document.getElementById('flame-data').textContent);

// pprofParams are the URL's parameters other than the flame query's.
function pprofParams() {
  const q = new URLSearchParams(location.search);
  for (const k of FLAME_PARAMS) q.delete(k);
  return q;
}

// urlFor is the query string of flame query q over the pprof parameters.
function urlFor(q) {
  const all = pprofParams();
  for (const [k, v] of queryParams(q)) all.append(k, v);
  for (const k of ['minwidth', 'maxdepth', 'maxframes']) if (url.has(k)) all.set(k, url.get(k));
  if (fg && fg.orientation !== 'icicle') all.set('orient', fg.orientation);
  return all.toString();
}

const query = {
  path: url.getAll('path'),
  search: url.get('search') || '',
  sandwich: el.dataset.sandwich || url.get('sandwich') || '',
  reverse: url.get('reverse') === '1' || url.get('reverse') === 'true',
  normalize: url.get('normalize') === '1' || url.get('normalize') === 'true',
};
let first = true;

async function load(q) {
  if (first) { // the page holds the view of the URL's query
    first = false;
    return initial;
  }
  const r = await fetch('/ui/api/flame?' + urlFor(q));
  if (!r.ok) throw new Error((await r.text()).trim());
  return r.json();
}

let fg = null;
fg = new FlameGraph(el, {
  load,
  query,
  orientation: url.get('orient') === 'flame' ? 'flame' : 'icicle',
  onSelect: (name) => select(name),
  baseName: el.dataset.baseName || '',
  onQuery: (q) => {
    const u = urlFor(q);
    if (u !== location.search.slice(1)) history.replaceState(null, '', '?' + u);
    for (const a of document.querySelectorAll('#views a')) a.search = '?' + pprofParams().toString();
  },
});
const setOrientation = fg.setOrientation.bind(fg);
fg.setOrientation = (o) => {
  setOrientation(o);
  history.replaceState(null, '', '?' + urlFor(fg.query));
};
// A click on a frame also selects its function for the Refine buttons.
fg.canvas.addEventListener('click', () => { if (fg.selected) select(fg.selected); });
// formatTable shows the function table's values in the profile's unit,
// with their share of the total.
function formatTable(v) {
  for (const td of document.querySelectorAll('#functions td[data-v]')) {
    const x = +td.dataset.v;
    td.textContent = format(x, v.unit) + (v.total ? ` (${(100 * x / v.total).toFixed(2)}%)` : '');
  }
}
formatTable(initial);
fg.setQuery(query).then(() => { document.body.dataset.ready = '1'; });
window.perflabFlame = fg;
window.perflabFlameShortNames = shortNames; // the labels' rule, for tests
