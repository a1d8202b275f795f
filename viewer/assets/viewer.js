// viewer.js: perflab server's selection bar and chart, drawn above every
// view of perflab web (which loads this module, web.Options.Script) and
// on the viewer's own page at /, with the profiles in range and the
// scrape targets there. It asks the server's read API (/api/v1/…) and
// /targets, and shows every string it gets as text, never as HTML.

const q = new URLSearchParams(location.search);
const PRESETS = ['15m', '1h', '6h', '24h', '7d', '30d'];
const VIEWS = [['flamegraph', 'Flame graph'], ['top', 'Top'], ['graph', 'Graph'], ['peek', 'Peek'], ['source', 'Source'], ['sandwich', 'Sandwich']];
const OPS = ['=', '!=', '=~', '!~'];
const maxPoints = 240; // as the server's Step
const minStep = 10;

// el makes an element with attributes and children (strings become text).
function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) e.append(k);
  return e;
}

async function getJSON(path, params) {
  const r = await fetch(path + '?' + params.toString());
  if (!r.ok) throw new Error((await r.text()).trim());
  return r.json();
}

// selection returns the read API's parameters of the URL's selection,
// with the server's defaults.
function selection() {
  const p = new URLSearchParams();
  for (const k of ['query', 'type', 'from', 'until']) if (q.get(k)) p.set(k, q.get(k));
  if (!p.has('type')) p.set('type', 'cpu');
  if (!p.has('from')) p.set('from', 'now-1h');
  return p;
}

// carry returns the URL's selection parameters, for links to the views.
function carry() {
  const p = new URLSearchParams();
  for (const k of ['query', 'type', 'from', 'until', 'id', 'base_query', 'base_from', 'base_until']) if (q.get(k)) p.set(k, q.get(k));
  return p;
}

// reopen navigates to this page with the URL changed by edit; a new
// selection drops the flame graph's zoom path and the stored profile.
function reopen(edit) {
  const u = new URLSearchParams(location.search);
  u.delete('path');
  u.delete('id');
  edit(u);
  for (const [k, v] of [...u.entries()]) if (v === '') u.delete(k);
  location.href = location.pathname + '?' + u.toString();
}

const UNITS = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

// seconds reads a duration such as 90s, 1h30m or 7d, in seconds.
function seconds(s) {
  let n = 0;
  for (const m of s.matchAll(/(\d+)([smhdw])/g)) n += Number(m[1]) * UNITS[m[2]];
  return n;
}

// time resolves a from or until parameter as the server does, in Unix
// seconds: now, now-D or -D, Unix seconds, or RFC 3339.
function time(s, now) {
  if (!s || s === 'now') return now;
  if (s.startsWith('now-') || s.startsWith('-')) return now - seconds(s.slice(s.indexOf('-') + 1));
  if (/^\d+$/.test(s)) return Number(s);
  return Date.parse(s) / 1000;
}

// amount formats a total in the unit of the profile type's ID (its last
// part: nanoseconds, bytes, count).
function amount(v, type) {
  const unit = (type || '').split(':').pop();
  const a = Math.abs(v);
  const si = (d, units) => { let i = 0; while (a / d >= 1000 && i < units.length - 1) { d *= 1000; i++; } return +(v / d).toPrecision(3) + ' ' + units[i]; };
  if (unit === 'nanoseconds' || type === 'cpu' || type === 'wall' || type === 'mutex' || type === 'block') return a >= 1e9 ? +(v / 1e9).toPrecision(4) + ' s' : si(1, ['ns', 'µs', 'ms']);
  if (unit === 'bytes' || type === 'heap' || type === 'allocs') return a >= 1024 ? +(v / 1048576).toPrecision(4) + ' MB' : v + ' B';
  return si(1, ['', 'k', 'M', 'G']).trim();
}

function iso(secs) { return new Date(Math.round(secs) * 1000).toISOString().replace('.000Z', 'Z'); }

// step is the chart's step for a range of d seconds.
function step(d) { return Math.max(minStep, Math.ceil(d / maxPoints)); }

function select(name, options, current, label) {
  const s = el('select', { name, 'aria-label': label });
  for (const o of options) {
    const opt = el('option', { value: o }, o);
    if (o === current) opt.selected = true;
    s.append(opt);
  }
  return s;
}

// bar draws the selection bar: profile type, service, label builder,
// free-text selector, range presets, from and until, the comparison.
function bar() {
  const form = el('form', { id: 'viewer-bar', class: 'viewer-bar' });
  const sel = selection();
  const query = el('input', { name: 'query', size: '40', placeholder: '{service_name="api"}', 'aria-label': 'selector' });
  query.value = q.get('query') || '';
  const type = select('type', [sel.get('type')], sel.get('type'), 'profile type');
  const service = select('service', [''], '', 'service');
  const name = select('label', [''], '', 'label name');
  const op = select('op', OPS, '=', 'operator');
  const value = el('input', { name: 'value', list: 'viewer-values', size: '12', 'aria-label': 'label value' });
  const values = el('datalist', { id: 'viewer-values' });
  const add = el('button', { type: 'button', id: 'viewer-add' }, 'add');
  const from = el('input', { name: 'from', size: '20', 'aria-label': 'from' });
  from.value = sel.get('from');
  const until = el('input', { name: 'until', size: '20', placeholder: 'now', 'aria-label': 'until' });
  until.value = q.get('until') || '';
  const presets = el('span', { class: 'viewer-presets' });
  for (const p of PRESETS) {
    const b = el('button', { type: 'button', 'data-range': p }, p);
    b.addEventListener('click', () => reopen((u) => { u.set('from', 'now-' + p); u.delete('until'); }));
    presets.append(b);
  }
  const base = el('details', { class: 'viewer-compare' }, el('summary', {}, 'compare'));
  const baseFields = {};
  for (const k of ['base_query', 'base_from', 'base_until']) {
    baseFields[k] = el('input', { name: k, size: k === 'base_query' ? '30' : '20', 'aria-label': k });
    baseFields[k].value = q.get(k) || '';
    base.append(el('label', {}, k.replace('base_', 'base ') + ' ', baseFields[k]), ' ');
  }
  const previous = el('button', { type: 'button', id: 'viewer-previous' }, 'previous range');
  previous.addEventListener('click', () => reopen((u) => {
    const now = Date.now() / 1000, f = sel.get('from'), t = q.get('until') || '';
    const rel = /^(now)?-/.test(f) && (t === '' || t === 'now');
    if (rel) {
      const d = seconds(f.slice(f.indexOf('-') + 1));
      u.set('base_from', 'now-' + 2 * d + 's');
      u.set('base_until', 'now-' + d + 's');
    } else {
      const a = time(f, now), b = time(t, now);
      u.set('base_from', iso(a - (b - a)));
      u.set('base_until', iso(a));
    }
  }));
  const clear = el('button', { type: 'button' }, 'clear');
  clear.addEventListener('click', () => reopen((u) => { for (const k in baseFields) u.delete(k); }));
  base.append(previous, ' ', clear);
  if (q.get('base_query') || q.get('base_from') || q.get('base_until')) base.open = true;
  form.append(
    el('a', { href: '/?' + carry().toString(), class: 'viewer-home' }, 'perflab server'), ' ',
    el('label', {}, 'type ', type), ' ', el('label', {}, 'service ', service), ' ',
    el('span', { class: 'viewer-builder' }, name, op, value, values, add), ' ',
    el('label', {}, 'selector ', query), ' ', presets, ' ',
    el('label', {}, 'from ', from), ' ', el('label', {}, 'until ', until), ' ',
    el('button', { type: 'submit' }, 'Apply'), base);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    reopen((u) => {
      for (const f of [query, type, from, until, ...Object.values(baseFields)]) u.set(f.name, f.value.trim());
    });
  });
  type.addEventListener('change', () => form.requestSubmit());
  service.addEventListener('change', () => {
    if (service.value) reopen((u) => u.set('query', '{service_name=' + JSON.stringify(service.value) + '}'));
  });
  name.addEventListener('change', () => fill(values, '/api/v1/label_values', name.value));
  add.addEventListener('click', () => {
    if (!name.value) return;
    const m = name.value + op.value + JSON.stringify(value.value);
    const cur = query.value.trim().replace(/^\{|\}$/g, '').trim();
    query.value = '{' + (cur ? cur + ', ' : '') + m + '}';
  });
  options(type, '/api/v1/profile_types', withType(sel, ''), sel.get('type'));
  options(service, '/api/v1/label_values', withName(new URLSearchParams({ from: sel.get('from') }), 'service_name'), '');
  options(name, '/api/v1/label_names', withType(sel, ''), '');
  return form;
}

function withType(p, t) { const c = new URLSearchParams(p); c.delete('type'); if (t) c.set('type', t); return c; }
function withName(p, n) { const c = new URLSearchParams(p); c.set('name', n); return c; }

// options adds to s the strings path answers.
async function options(s, path, params, current) {
  try {
    for (const v of await getJSON(path, params)) {
      if (v === current) continue;
      s.append(el('option', { value: v }, v));
    }
  } catch (e) { s.title = e.message; }
}

// fill sets the datalist's options to the values of label name.
async function fill(list, path, name) {
  list.replaceChildren();
  if (!name) return;
  try {
    for (const v of await getJSON(path, withName(withType(selection(), ''), name))) list.append(el('option', { value: v }));
  } catch (e) { list.title = e.message; }
}

function load(src, tag) {
  return new Promise((ok, fail) => {
    const e = tag === 'link' ? el('link', { rel: 'stylesheet', href: src }) : el('script', { src });
    e.onload = ok;
    e.onerror = () => fail(new Error('cannot load ' + src));
    document.head.append(e);
  });
}

// totals returns the chart's points: Unix seconds and values.
async function totals(sel, focus) {
  const p = new URLSearchParams(sel);
  const now = Date.now() / 1000;
  p.set('step', step(time(sel.get('until'), now) - time(sel.get('from'), now)) + 's');
  if (focus) p.set('focus', focus);
  const m = new Map();
  for (const s of await getJSON('/api/v1/totals', p)) {
    for (const pt of s.points) {
      const t = Date.parse(pt.time) / 1000;
      m.set(t, (m.get(t) || 0) + pt.value);
    }
  }
  return m;
}

// chart draws the selection's total over time, and the focused or
// searched function's as a second line; a drag selects a range.
async function chart(host, focus) {
  const sel = selection();
  try {
    await Promise.all([load('/ui/viewer/chart/uPlot.iife.min.js'), load('/ui/viewer/chart/uPlot.min.css', 'link')]);
    const [all, part] = await Promise.all([totals(sel, ''), focus ? totals(sel, focus) : null]);
    const xs = [...all.keys()].sort((a, b) => a - b);
    const value = (u, v) => v == null ? '--' : amount(v, sel.get('type'));
    const series = [{}, { label: 'total of ' + (sel.get('query') || '{}') + ' ' + sel.get('type'), stroke: '#1f77b4', width: 1.5, value }];
    const data = [xs, xs.map((x) => all.get(x))];
    if (part) {
      series.push({ label: 'matching ' + focus, stroke: '#d62728', width: 1.5, value });
      data.push(xs.map((x) => part.get(x) ?? 0));
    }
    if (xs.length === 0) {
      host.append(el('p', { class: 'hint', id: 'viewer-nodata' }, 'no profile in range'));
      document.body.dataset.viewerReady = '1';
      return;
    }
    const u = new uPlot({
      width: Math.max(320, Math.min(host.clientWidth || 900, 1400)), height: 180,
      series, cursor: { drag: { x: true, y: false, setScale: false } },
      axes: [{}, { size: 80, values: (u, vals) => vals.map((v) => amount(v, sel.get('type'))) }],
      hooks: {
        setSelect: [(u) => {
          if (u.select.width < 3) return;
          const a = u.posToVal(u.select.left, 'x'), b = u.posToVal(u.select.left + u.select.width, 'x');
          reopen((p) => { p.set('from', iso(Math.floor(a))); p.set('until', iso(Math.ceil(b))); });
        }],
      },
    }, data, host);
    window.perflabViewer = { chart: u };
  } catch (e) {
    host.append(el('p', { class: 'error', role: 'alert' }, 'chart: ' + e.message));
  }
  document.body.dataset.viewerReady = '1';
}

// profiles lists the profiles in range, each opened in the views or
// downloaded.
async function profiles(host) {
  const p = selection();
  p.set('limit', '200');
  try {
    const list = await getJSON('/api/v1/profiles', p);
    const body = el('tbody');
    for (const info of list) {
      const labels = Object.entries(info.labels).map(([k, v]) => k + '=' + v).join(', ');
      const open = new URLSearchParams({ id: info.id });
      body.append(el('tr', {},
        el('td', {}, info.time), el('td', { 'data-v': String(info.total) }, amount(info.total, p.get('type'))), el('td', { class: 'labels' }, labels),
        el('td', {}, el('a', { href: '/ui/flamegraph?' + open.toString(), class: 'open' }, 'open'), ' ',
          el('a', { href: '/api/v1/profile?' + open.toString(), download: 'profile.pb.gz' }, 'download'))));
    }
    host.replaceChildren(list.length ? el('table', { id: 'profiles' },
      el('thead', {}, el('tr', {}, el('th', {}, 'time'), el('th', {}, 'total'), el('th', {}, 'labels'), el('th', {}, ''))), body)
      : el('p', { class: 'hint' }, 'no profile in range'));
  } catch (e) {
    host.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
  }
}

// targets shows the scrape targets' health.
async function targets(host) {
  try {
    const r = await fetch('/targets');
    const t = await r.json();
    const body = el('tbody');
    for (const h of t.targets) {
      body.append(el('tr', { class: h.up ? 'up' : 'down' },
        el('td', {}, h.job), el('td', {}, h.instance), el('td', {}, h.up ? 'up' : 'down'),
        el('td', {}, h.lastSuccess || ''), el('td', {}, h.lastError || '')));
    }
    host.replaceChildren(t.targets.length ? el('table', { id: 'targets' },
      el('thead', {}, el('tr', {}, ...['job', 'instance', 'health', 'last success', 'last error'].map((s) => el('th', {}, s)))), body)
      : el('p', { class: 'hint' }, 'no scrape target (profiles may still be pushed)'));
  } catch (e) {
    host.replaceChildren(el('p', { class: 'error', role: 'alert' }, e.message));
  }
}

function views(host) {
  for (const [path, title] of VIEWS) host.append(el('a', { href: '/ui/' + path + '?' + carry().toString() }, title), ' ');
}

load('/ui/viewer/viewer.css', 'link');
// focusOf is the function the chart's second line counts: the view's
// focus, else the flame graph's search.
function focusOf(search) {
  const p = new URLSearchParams(search);
  return p.get('f') || p.get('search') || '';
}

const top = el('div', { id: 'viewer-top' });
const chartHost = el('div', { id: 'viewer-chart' });
top.append(bar(), chartHost);
document.body.prepend(top);
let focus = focusOf(location.search);
chart(chartHost, focus);
// The flame graph's search changes the URL in place (history.replaceState):
// the chart's second line follows it.
const replaceState = history.replaceState.bind(history);
history.replaceState = (state, title, url) => {
  replaceState(state, title, url);
  const f = focusOf(location.search);
  if (f === focus) return;
  focus = f;
  delete document.body.dataset.viewerReady;
  if (window.perflabViewer) window.perflabViewer.chart.destroy();
  chartHost.replaceChildren();
  chart(chartHost, focus);
};
if (document.body.dataset.page === 'home') {
  views(document.getElementById('viewer-views'));
  profiles(document.getElementById('viewer-profiles'));
  targets(document.getElementById('viewer-targets'));
}
