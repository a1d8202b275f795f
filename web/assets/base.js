// base.js: choose the diff base in the UI. The menu gets a file input;
// the chosen profile is uploaded to /ui/api/base, which answers its ID,
// and the page reopens with base=ID in the URL: every view then compares
// the loaded profile with that base, as -diff_base would (red grew, blue
// shrank). "Clear base" reopens the view without it.

const menu = document.getElementById('menu');
const q = new URLSearchParams(location.search);
const active = q.get('base') || '';
// carry holds the parameters an embedding server picks the profile by
// (web.Options.Carry): the upload and the description go to that profile.
const carry = document.body.dataset.carry ? '&' + document.body.dataset.carry : '';

// reopen navigates to the current view with the URL's parameters changed
// by edit; the flame graph's zoom path belongs to the old comparison.
function reopen(edit) {
  const u = new URLSearchParams(location.search);
  u.delete('path');
  edit(u);
  location.href = location.pathname + '?' + u.toString();
}

function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

async function upload(file, status) {
  status.className = 'hint';
  status.textContent = 'uploading ' + file.name + '…';
  const r = await fetch('/ui/api/base?name=' + encodeURIComponent(file.name) + carry, {
    method: 'POST', body: file, headers: { 'Content-Type': 'application/octet-stream' },
  });
  const text = await r.text();
  if (!r.ok) {
    status.className = 'error';
    status.setAttribute('role', 'alert');
    status.textContent = text.trim();
    return;
  }
  const b = JSON.parse(text);
  reopen((u) => u.set('base', b.id));
}

async function describe(span) {
  const r = await fetch('/ui/api/base?base=' + encodeURIComponent(active) + carry);
  if (r.ok) {
    const b = await r.json();
    span.textContent = b.name;
    span.title = `${b.samples} samples, id ${b.id}`;
  }
}

function setup() {
  if (!menu) return;
  const box = el('div', { id: 'base-box' });
  const status = el('span', { id: 'base-status', class: 'hint' });
  if (active) {
    const name = el('code', { id: 'base-name' }, active);
    box.append('Diff against base ', name, ' ');
    const clear = el('button', { type: 'button', id: 'base-clear' }, 'Clear base');
    clear.addEventListener('click', () => reopen((u) => { u.delete('base'); u.delete('reverse'); u.delete('normalize'); }));
    box.append(clear, ' ');
    describe(name);
  } else if (document.body.dataset.diff === 'true') {
    return; // compared with -diff_base or -base already
  }
  const label = el('label', { title: 'upload a profile to compare with: red grew, blue shrank' },
    active ? 'Other base ' : 'Compare with base ');
  const input = el('input', { type: 'file', id: 'base-file' });
  input.addEventListener('change', () => {
    if (input.files.length) upload(input.files[0], status).catch((e) => {
      status.className = 'error';
      status.textContent = String(e);
    });
  });
  label.append(input);
  box.append(label, ' ', status);
  menu.append(box);
}

setup();
