// perflab web, timeline of an execution trace: fetches tiles of the
// visible window from /ui/timeline/tiles and draws them with
// perflabTimeline (package timeline's timeline.js); a click on a P's lane asks
// /ui/timeline/stack for the goroutine it ran. Everything from the trace
// is put in the page as text, never as HTML.
(function () {
  "use strict";
  var ROW = 18, AXIS = 22, GAP = 4, LABEL = 44; // as in timeline.js
  var canvas = document.getElementById("timeline");
  var status = document.getElementById("status");
  var state = window.perflabTrace = {fetches: 0, view: null, tiles: null, stack: null, firstPaintMs: -1, completeMs: -1, errors: [], lanes: []};
  var seq = 0;

  function columns() { return Math.max(100, Math.min(4000, Math.round((canvas.clientWidth || 900) - LABEL))); }

  function fetchTiles(start, end) {
    var q = "width=" + columns();
    if (end > start) q += "&start=" + Math.max(0, Math.floor(start)) + "&end=" + Math.ceil(end);
    if (state.lanes.length) q += "&g=" + state.lanes.join(",");
    var mine = ++seq;
    state.fetches++;
    return fetch("/ui/timeline/tiles?" + q).then(function (r) {
      if (!r.ok) return r.text().then(function (t) { throw new Error(t); });
      return r.json();
    }).then(function (t) {
      if (mine !== seq) return null; // a newer window was asked for
      // Goroutine lanes are drawn as more lanes, after the Ps'.
      (t.goroutine_lanes || []).forEach(function (l) { t.procs.push({proc: -1, label: "G" + l.goroutine, busy: l.busy}); });
      state.tiles = t;
      var fmt = window.perflabTimeline.fmtTime, p = t.progress;
      t.pending = p.pending || [];
      status.textContent = "window " + fmt(t.start_ns) + " to " + fmt(t.end_ns) + " of " + fmt(t.duration_ns) +
        ": " + t.columns + " columns, " + (t.source === "overview" ? "from the overview" : "read " + (t.read_bytes / 1048576).toFixed(1) + " MB of the trace") +
        (p.generations_read < p.generations ? "; reading the trace: " + p.generations_read + " of " + p.generations + " generations" :
          t.summary_pending ? "; reading the summary" : "");
      spans(t.spans || [], t.summary_pending);
      if (p.generations_read === p.generations && state.completeMs < 0) {
        state.completeMs = performance.now(); // the whole trace is drawn
        document.body.dataset.complete = "1";
      }
      if (!t.summary_pending) document.body.dataset.summary = "1";
      // Overview tiles are drawn from what is read so far: ask again. A
      // window's tiles are read from the trace's bytes, complete already.
      if (t.source === "overview" && (p.generations_read < p.generations || t.summary_pending)) setTimeout(function () { refresh(mine); }, 300);
      return t;
    }).catch(function (e) { state.errors.push(String(e)); status.textContent = String(e); return null; });
  }

  // refresh asks again for the window of fetch mine, if no other was
  // asked for since, while the trace is being read.
  function refresh(mine) {
    if (mine !== seq || !view) return;
    var v = view.view();
    fetchTiles(v[0], v[1]).then(function (nt) { if (nt) view.update(nt); });
  }

  function spans(list, pending) {
    var body = document.querySelector("#spans tbody");
    body.textContent = "";
    list.slice(0, 50).forEach(function (s) {
      var tr = document.createElement("tr");
      [["kind", s.kind], ["name", s.name], ["", String(s.count)], ["", window.perflabTimeline.fmtTime(s.total_ns)]].forEach(function (c) {
        var td = document.createElement("td");
        if (c[0]) td.className = c[0];
        td.textContent = c[1];
        tr.appendChild(td);
      });
      body.appendChild(tr);
    });
    if (!list.length) {
      var tr = document.createElement("tr"), td = document.createElement("td");
      td.colSpan = 4;
      td.textContent = pending ? "reading the trace…" : "none";
      tr.appendChild(td);
      body.appendChild(tr);
    }
  }

  // stdlib reports a function of the standard library: its import path
  // begins with an element without a dot, other than main.
  function stdlib(fn) {
    var slash = fn.indexOf("/"), first = slash >= 0 ? fn.slice(0, slash) : fn.split(".")[0];
    return slash >= 0 ? first.indexOf(".") < 0 : first !== "main";
  }

  function showStack(a) {
    var box = document.getElementById("stack");
    box.textContent = "";
    var p = document.createElement("p");
    p.textContent = a.text;
    box.appendChild(p);
    if (a.goroutine && state.lanes.indexOf(a.goroutine) < 0 && state.lanes.length < 16) {
      var btn = document.createElement("button");
      btn.type = "button";
      btn.id = "add-lane";
      btn.textContent = "Show a lane for goroutine " + a.goroutine;
      btn.addEventListener("click", function () {
        state.lanes.push(a.goroutine);
        btn.remove();
        var v = view.view();
        fetchTiles(v[0], v[1]).then(function (nt) { if (nt) { view.update(nt); state.lastFetch = performance.now(); } });
      });
      box.appendChild(btn);
    }
    [["stopped at", a.stopped], ["resumed at", a.resumed]].forEach(function (part) {
      if (!part[1] || !part[1].length) return;
      var h = document.createElement("div");
      h.className = "hint";
      h.textContent = part[0];
      box.appendChild(h);
      var ol = document.createElement("ol");
      part[1].forEach(function (f) {
        var li = document.createElement("li"), fn = document.createElement("span"), file = document.createElement("span");
        fn.textContent = f.func;
        file.className = "file";
        file.textContent = " " + f.file + ":" + f.line;
        if (stdlib(f.func)) li.className = "std";
        li.appendChild(fn);
        li.appendChild(file);
        ol.appendChild(li);
      });
      box.appendChild(ol);
    });
  }

  var view = null, down = null;
  canvas.addEventListener("mousedown", function (e) { down = {x: e.offsetX, y: e.offsetY}; });
  canvas.addEventListener("mouseup", function (e) {
    if (!down || Math.abs(e.offsetX - down.x) > 3 || Math.abs(e.offsetY - down.y) > 3 || !state.tiles) return;
    var row = Math.floor((e.offsetY - AXIS) / (ROW + GAP)) - 1, procs = state.tiles.procs;
    if (row < 0 || row >= procs.length || procs[row].proc < 0 || e.offsetX < LABEL) return;
    var v = view.view(), w = canvas.clientWidth;
    var t = Math.max(0, Math.round(v[0] + (e.offsetX - LABEL) / (w - LABEL) * (v[1] - v[0])));
    document.getElementById("stack").textContent = "asking…";
    fetch("/ui/timeline/stack?t=" + t + "&p=" + procs[row].proc).then(function (r) {
      if (!r.ok) return r.text().then(function (t) { throw new Error(t); });
      return r.json();
    }).then(function (a) { state.stack = a; showStack(a); })
      .catch(function (e) { state.errors.push(String(e)); document.getElementById("stack").textContent = String(e); });
  });

  fetchTiles(0, 0).then(function (t) {
    if (!t) return;
    view = window.perflabTimeline.render(canvas, t, {onWindow: function (s, e) {
      fetchTiles(s, e).then(function (nt) {
        if (!nt) return;
        view.update(nt);
        state.lastFetch = performance.now();
      });
    }});
    state.view = function () { return view.view(); };
    state.bars = function () { return view.bars(); };
    state.firstPaintMs = performance.now();
    document.body.dataset.painted = "1";
  });
})();
