// source.js: the source view (pprof's weblist). A click on a line shows
// or hides its instructions and inlined calls; the "compiler notes" box
// fetches /ui/api/notes once (the server builds the packages, which takes
// a while) and shows each line's notes under it. Plain ES module.

const view = document.getElementById('source-view');
const toggle = document.getElementById('notes-toggle');
const status = document.getElementById('notes-status');

view.addEventListener('click', (e) => {
  if (e.target.closest('.fn')) return; // app.js selects functions
  const tr = e.target.closest('tr.line.expandable');
  if (!tr) return;
  const asm = tr.nextElementSibling;
  asm.hidden = !asm.hidden;
  tr.classList.toggle('open', !asm.hidden);
});

// expand-all shows or hides every line's instructions at once.
const all = document.getElementById('expand-all');
all.addEventListener('click', () => {
  const open = all.getAttribute('aria-pressed') !== 'true';
  all.setAttribute('aria-pressed', String(open));
  all.textContent = open ? 'collapse all' : 'expand all';
  for (const tr of view.querySelectorAll('tr.line.expandable')) {
    tr.nextElementSibling.hidden = !open;
    tr.classList.toggle('open', open);
  }
});

let notes = null; // the fetch of the notes, once

function showNotes(on) {
  view.classList.toggle('with-notes', on);
  for (const tr of view.querySelectorAll('tr.notes')) tr.hidden = !on;
}

async function loadNotes() {
  status.textContent = 'building the packages with the compiler\u2019s diagnostics\u2026';
  status.className = 'busy';
  let ans;
  try {
    const r = await fetch('/ui/api/notes' + location.search);
    if (!r.ok) throw new Error((await r.text()).trim());
    ans = await r.json();
  } catch (err) {
    status.textContent = String(err.message || err);
    status.className = 'error-line';
    notes = null;
    return;
  }
  if (ans.error) {
    status.textContent = ans.error;
    status.className = 'error-line';
    return;
  }
  let n = 0;
  for (const ln of ans.notes) {
    const sec = view.querySelector(`section.routine[data-func="${ln.func}"]`);
    const tr = sec && sec.querySelector(`tr.line[data-line="${ln.line}"]`);
    if (!tr) continue;
    const row = document.createElement('tr');
    row.className = 'notes';
    row.innerHTML = '<td></td><td></td><td></td><td><pre></pre></td>';
    row.querySelector('pre').textContent = ln.text.join('\n');
    let after = tr;
    if (after.nextElementSibling && after.nextElementSibling.classList.contains('asm')) after = after.nextElementSibling;
    after.after(row);
    n += ln.text.length;
  }
  status.textContent = n + ' compiler notes';
  status.className = '';
  showNotes(toggle.checked);
}

toggle.addEventListener('change', () => {
  if (toggle.checked && notes === null) notes = loadNotes();
  showNotes(toggle.checked);
});
