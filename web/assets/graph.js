// graph.js: pan and zoom of the call graph's SVG (drag, wheel, +/-/0
// keys) through its viewBox, and click to select a node (its data-name),
// double click to focus on it.
import { select, go, regexpQuote } from '/ui/assets/app.js';

const host = document.getElementById('graph');
const svg = host && host.querySelector('svg');

function setup() {
  const vb0 = svg.viewBox.baseVal;
  if (!vb0 || vb0.width === 0) {
    const b = svg.getBBox();
    svg.setAttribute('viewBox', `${b.x} ${b.y} ${b.width} ${b.height}`);
  }
  svg.removeAttribute('width');
  svg.removeAttribute('height');
  const b0 = svg.viewBox.baseVal; // an SVGRect: its fields are accessors
  const initial = { x: b0.x, y: b0.y, width: b0.width, height: b0.height };
  let vb = { ...initial };
  const apply = () => svg.setAttribute('viewBox', `${vb.x} ${vb.y} ${vb.width} ${vb.height}`);
  // toSVG converts client coordinates to the viewBox's.
  const toSVG = (cx, cy) => {
    const r = svg.getBoundingClientRect();
    const s = Math.max(vb.width / r.width, vb.height / r.height);
    const ox = vb.x - (r.width * s - vb.width) / 2, oy = vb.y - (r.height * s - vb.height) / 2;
    return { x: ox + (cx - r.left) * s, y: oy + (cy - r.top) * s, s };
  };
  const zoom = (factor, cx, cy) => {
    const p = toSVG(cx, cy);
    vb = { x: p.x - (p.x - vb.x) * factor, y: p.y - (p.y - vb.y) * factor,
      width: vb.width * factor, height: vb.height * factor };
    apply();
  };
  host.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoom(e.deltaY > 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
  }, { passive: false });
  let drag = null;
  host.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, vb: { ...vb }, moved: false };
    try { host.setPointerCapture(e.pointerId); } catch { /* a synthetic pointer */ }
  });
  host.addEventListener('pointermove', (e) => {
    if (!drag) return;
    const s = toSVG(0, 0).s;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 3) drag.moved = true;
    vb.x = drag.vb.x - dx * s;
    vb.y = drag.vb.y - dy * s;
    apply();
  });
  host.addEventListener('pointerup', (e) => {
    const moved = drag && drag.moved;
    drag = null;
    if (moved) return;
    const node = document.elementsFromPoint(e.clientX, e.clientY)
      .map((el) => el.closest('[data-name]')).find((el) => el);
    if (!node) return;
    for (const n of svg.querySelectorAll('.selected')) n.classList.remove('selected');
    node.classList.add('selected');
    select(node.dataset.name);
  });
  host.addEventListener('dblclick', (e) => {
    const node = document.elementsFromPoint(e.clientX, e.clientY)
      .map((el) => el.closest('[data-name]')).find((el) => el);
    if (!node) return;
    const q = new URLSearchParams(location.search);
    q.set('f', regexpQuote(node.dataset.name));
    go('graph', q);
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.closest('input, select')) return;
    const r = host.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (e.key === '+' || e.key === '=') zoom(1 / 1.25, cx, cy);
    if (e.key === '-') zoom(1.25, cx, cy);
    if (e.key === '0') { vb = { ...initial }; apply(); }
  });
  window.perflabGraph = { zoom, reset: () => { vb = { ...initial }; apply(); }, viewBox: () => ({ ...vb }) };
}

if (svg) setup();
