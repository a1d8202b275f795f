// app.js: the menu of every view — settings form, refine by selected
// function, sortable tables. Plain ES module, no dependencies.

const params = () => new URLSearchParams(location.search);

// regexpQuote escapes name for a pprof regexp matching exactly it.
export function regexpQuote(name) {
  return '^' + name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$';
}

// go navigates to view path with the query q, dropping empty parameters.
export function go(path, q) {
  for (const [k, v] of [...q.entries()]) if (v === '') q.delete(k);
  location.href = '/ui/' + path + '?' + q.toString();
}

let selected = null;

// select makes name the selected function: the Refine menu can then
// focus on, ignore, hide or show it, or open its sandwich.
export function select(name) {
  selected = name;
  const box = document.getElementById('selection');
  if (!box) return;
  box.hidden = false;
  document.getElementById('selected-name').textContent = name;
}

function setupMenu() {
  const form = document.getElementById('settings');
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const q = params();
    for (const [k, v] of new FormData(form).entries()) q.set(k, v);
    go(document.body.dataset.view, q);
  });
  for (const sel of form.querySelectorAll('select')) {
    sel.addEventListener('change', () => form.requestSubmit());
  }
  for (const b of document.querySelectorAll('#selection button[data-refine]')) {
    b.addEventListener('click', () => {
      if (selected === null) return;
      const q = params();
      q.set(b.dataset.refine, regexpQuote(selected));
      go(document.body.dataset.view, q);
    });
  }
  document.getElementById('sandwich-selected').addEventListener('click', () => {
    if (selected === null) return;
    const q = params();
    q.delete('path');
    q.set('sandwich', selected);
    go('sandwich', q);
  });
}

// sortable lets a click on a column header sort the table by it.
function sortable(table) {
  const heads = table.querySelectorAll('th');
  heads.forEach((th, col) => {
    th.addEventListener('click', () => {
      const desc = th.dataset.dir !== 'desc';
      heads.forEach((h) => delete h.dataset.dir);
      th.dataset.dir = desc ? 'desc' : 'asc';
      const num = th.dataset.sort === 'num';
      const body = table.tBodies[0];
      const key = (tr) => {
        const td = tr.cells[col];
        return num ? parseFloat(td.dataset.v ?? td.textContent) : td.textContent;
      };
      const rows = [...body.rows].sort((a, b) => {
        const x = key(a), y = key(b);
        const c = num ? x - y : String(x).localeCompare(String(y));
        return desc ? -c : c;
      });
      body.append(...rows);
    });
  });
}

function setupTables() {
  for (const t of document.querySelectorAll('table.sortable')) sortable(t);
  document.getElementById('content').addEventListener('click', (e) => {
    const fn = e.target.closest('.fn');
    if (!fn) return;
    if (document.body.dataset.view === 'sandwich') {
      const q = params();
      q.set('sandwich', fn.dataset.name);
      go('sandwich', q);
      return;
    }
    select(fn.dataset.name);
  });
}

setupMenu();
setupTables();
window.perflab = { select, go, regexpQuote };
