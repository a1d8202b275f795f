// perflab timeline: draws exectrace.Tiles (per-P busy lanes, GC and
// stop-the-world bands, goroutines alive) and the tasks and regions in
// view as bars on a canvas, with zoom (wheel), pan (drag) and a click on a
// bar to zoom to it. Plain JavaScript, no dependencies.
//
//   perflabTimeline.render(canvas, tiles, {onWindow: function (startNs, endNs) {...}})
//
// tiles is the JSON form of exectrace.Tiles, with, if given, pending, the
// stretches of time not read yet, drawn hatched, and bars, the
// exectrace.Spans to draw. When the view changes, the
// view is redrawn from the tiles it has (columns get wider than a pixel
// when zoomed in) and onWindow, if given, is told the visible window so a
// server can send finer tiles: call the returned object's update(tiles).
(function (global) {
  "use strict";
  var ROW = 18, AXIS = 22, LABEL = 44, GAP = 4, SPANROWS = 4;

  // fmtTime formats a time; with step, the spacing of the axis's ticks,
  // with enough digits to tell neighbouring ticks apart.
  function fmtTime(ns, step) {
    var a = Math.abs(ns);
    if (step > 0) {
      var u = a >= 1e9 ? [1e9, "s"] : a >= 1e6 ? [1e6, "ms"] : a >= 1e3 ? [1e3, "µs"] : [1, "ns"];
      var d = Math.max(0, Math.min(9, Math.ceil(-Math.log10(step / u[0]) - 1e-9)));
      return (ns / u[0]).toFixed(d) + u[1];
    }
    if (a >= 1e9) return (ns / 1e9).toPrecision(3) + "s";
    if (a >= 1e6) return (ns / 1e6).toPrecision(3) + "ms";
    if (a >= 1e3) return (ns / 1e3).toPrecision(3) + "µs";
    return Math.round(ns) + "ns";
  }

  function niceStep(span, n) {
    var raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw)));
    var m = raw / p;
    return p * (m < 2 ? 2 : m < 5 ? 5 : 10);
  }

  function render(canvas, tiles, opts) {
    opts = opts || {};
    var state = {tiles: tiles, vs: tiles.start_ns, ve: tiles.end_ns, drag: null, hover: -1, hoverY: -1, rects: []};
    var ctx = canvas.getContext("2d");
    var timer = null;

    function layout(extra) {
      var rows = state.tiles.procs.length + 2 + extra; // GC row, P rows, goroutines row, span rows
      var cssW = canvas.clientWidth || 900;
      var cssH = AXIS + rows * (ROW + GAP) + 30;
      var dpr = global.devicePixelRatio || 1;
      canvas.width = Math.round(cssW * dpr);
      canvas.height = Math.round(cssH * dpr);
      canvas.style.height = cssH + "px";
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      return {w: cssW, h: cssH};
    }

    function x(ns, w) { return LABEL + (ns - state.vs) / (state.ve - state.vs) * (w - LABEL); }

    // columns calls f(x0, x1, i) for every tile column in view.
    function columns(w, f) {
      var t = state.tiles, width = (t.end_ns - t.start_ns) / t.columns;
      var first = Math.max(0, Math.floor((state.vs - t.start_ns) / width));
      var last = Math.min(t.columns - 1, Math.ceil((state.ve - t.start_ns) / width));
      for (var i = first; i <= last; i++) {
        var x0 = x(t.start_ns + i * width, w), x1 = x(t.start_ns + (i + 1) * width, w);
        f(Math.max(LABEL, x0), Math.max(x1, x0 + 0.5), i);
      }
    }

    function draw() {
      var packed = pack(canvas.clientWidth || 900);
      var size = layout(packed.rows), w = size.w, t = state.tiles;
      ctx.clearRect(0, 0, w, size.h);
      ctx.font = "11px sans-serif";
      ctx.fillStyle = "#333";
      var step = niceStep(state.ve - state.vs, 8);
      for (var s = Math.ceil(state.vs / step) * step; s <= state.ve; s += step) {
        var xs = x(s, w);
        ctx.fillRect(xs, AXIS - 6, 1, 6);
        ctx.fillText(fmtTime(s, step), xs + 2, AXIS - 8);
      }
      var y = AXIS;
      ctx.fillText("GC", 4, y + 13);
      function bands(list, color) {
        ctx.fillStyle = color;
        (list || []).forEach(function (b) {
          if (b.end_ns < state.vs || b.start_ns > state.ve) return;
          var x0 = Math.max(LABEL, x(b.start_ns, w)), x1 = Math.min(w, x(b.end_ns, w));
          ctx.fillRect(x0, y, Math.max(1, x1 - x0), ROW);
        });
      }
      bands(t.gc, "rgba(255,127,14,0.55)");
      bands(t.stw, "rgba(214,39,40,0.9)");
      y += ROW + GAP;
      t.procs.forEach(function (lane) {
        ctx.fillStyle = "#333";
        ctx.fillText(lane.label || "P" + lane.proc, 4, y + 13);
        ctx.fillStyle = "#eef";
        ctx.fillRect(LABEL, y, w - LABEL, ROW);
        ctx.fillStyle = "#1f77b4";
        columns(w, function (x0, x1, i) {
          var b = lane.busy[i] || 0;
          if (b > 0) ctx.fillRect(x0, y + ROW * (1 - b), x1 - x0, ROW * b);
        });
        y += ROW + GAP;
      });
      var most = 1;
      (t.goroutines || []).forEach(function (g) { most = Math.max(most, g); });
      ctx.fillStyle = "#333";
      ctx.fillText("Gs", 4, y + 13);
      ctx.fillStyle = "#2ca02c";
      columns(w, function (x0, x1, i) {
        var g = (t.goroutines[i] || 0) / most;
        ctx.fillRect(x0, y + ROW * (1 - g), x1 - x0, ROW * g);
      });
      y += ROW + GAP;
      y = drawSpans(packed, y, w);
      (t.pending || []).forEach(function (b) { // not read yet: hatched
        if (b.end_ns < state.vs || b.start_ns > state.ve) return;
        var x0 = Math.max(LABEL, x(b.start_ns, w)), x1 = Math.min(w, x(b.end_ns, w));
        ctx.fillStyle = "rgba(200,200,200,0.6)";
        ctx.fillRect(x0, AXIS, x1 - x0, y - AXIS - GAP);
        ctx.fillStyle = "#555";
        if (x1 - x0 > 80) ctx.fillText("reading…", x0 + 4, AXIS + 13);
      });
      ctx.fillStyle = "#333";
      ctx.fillText(hoverText(w), LABEL, y + 14);
    }

    // pack places the spans (tasks and regions) in view in rows, each kind
    // in at most SPANROWS rows: a span goes in the first row free at its
    // start, or the kind's last row, over the others.
    function pack(w) {
      var out = {rows: 0, kinds: []};
      ["task", "region"].forEach(function (kind) {
        var ends = [], bars = [];
        (state.tiles.bars || []).forEach(function (b) {
          if (b.kind !== kind || b.end_ns < state.vs || b.start_ns > state.ve) return;
          var x0 = Math.max(LABEL, x(b.start_ns, w)), x1 = Math.min(w, Math.max(x0 + 1, x(b.end_ns, w)));
          var r = 0;
          while (r < ends.length && ends[r] > x0 + 0.5) r++;
          if (r === SPANROWS) r = SPANROWS - 1;
          ends[r] = Math.max(ends[r] || 0, x1);
          bars.push({span: b, x0: x0, x1: x1, row: r});
        });
        if (bars.length) {
          out.kinds.push({kind: kind, rows: ends.length, bars: bars});
          out.rows += ends.length;
        }
      });
      return out;
    }

    // hue gives a name its colour.
    function hue(name) {
      var h = 0;
      for (var i = 0; i < name.length; i++) h = (h * 31 + name.charCodeAt(i)) >>> 0;
      return h % 360;
    }

    function spanName(b) { return b.name || (b.kind === "task" ? "task " + b.task : "region"); }

    // drawSpans draws the packed spans from y and returns the y after them.
    function drawSpans(packed, y, w) {
      state.rects = [];
      packed.kinds.forEach(function (k) {
        ctx.fillStyle = "#333";
        ctx.fillText(k.kind === "task" ? "Tasks" : "Regions", 4, y + 13);
        k.bars.forEach(function (b) {
          var top = y + b.row * (ROW + GAP);
          ctx.fillStyle = "hsl(" + hue(spanName(b.span)) + ",55%," + (k.kind === "task" ? "55%" : "70%") + ")";
          ctx.fillRect(b.x0, top, b.x1 - b.x0 > 3 ? b.x1 - b.x0 - 1 : b.x1 - b.x0, ROW); // a gap between neighbours
          if (b.x1 - b.x0 > 30) {
            ctx.save();
            ctx.beginPath();
            ctx.rect(b.x0, top, b.x1 - b.x0, ROW);
            ctx.clip();
            ctx.fillStyle = "#111";
            ctx.fillText(spanName(b.span), b.x0 + 3, top + 13);
            ctx.restore();
          }
          state.rects.push({x0: b.x0, x1: b.x1, y0: top, y1: top + ROW, span: b.span});
        });
        y += k.rows * (ROW + GAP);
      });
      return y;
    }

    // spanAt returns the span drawn at (px, py), if any.
    function spanAt(px, py) {
      for (var i = state.rects.length - 1; i >= 0; i--) {
        var r = state.rects[i];
        if (px >= r.x0 && px <= r.x1 && py >= r.y0 && py <= r.y1) return r.span;
      }
      return null;
    }

    function hoverText(w) {
      var t = state.tiles;
      var sp = spanAt(state.hover, state.hoverY);
      if (sp) {
        return sp.kind + " " + spanName(sp) + (sp.g ? " on goroutine " + sp.g : "") + ": " +
          (sp.open_start ? "before " : "") + fmtTime(sp.start_ns) + " to " + fmtTime(sp.end_ns) + (sp.open_end ? " or later" : "") +
          ", " + fmtTime(sp.end_ns - sp.start_ns) + " (click: zoom to it)";
      }
      if (state.hover < LABEL) return "window " + fmtTime(state.vs) + " to " + fmtTime(state.ve) + " (wheel: zoom, drag: pan)";
      var ns = state.vs + (state.hover - LABEL) / (w - LABEL) * (state.ve - state.vs);
      var i = Math.floor((ns - t.start_ns) / ((t.end_ns - t.start_ns) / t.columns));
      var busy = 0;
      t.procs.forEach(function (l) { if (l.proc >= 0) busy += l.busy[i] || 0; });
      return fmtTime(ns) + ": " + busy.toFixed(2) + " Ps busy, " + (t.goroutines[i] || 0).toFixed(1) + " goroutines alive";
    }

    function changed() {
      draw();
      if (!opts.onWindow) return;
      clearTimeout(timer);
      timer = setTimeout(function () { opts.onWindow(state.vs, state.ve); }, 150);
    }

    canvas.addEventListener("wheel", function (e) {
      e.preventDefault();
      var w = canvas.clientWidth, f = Math.pow(1.2, e.deltaY > 0 ? 1 : -1);
      var at = state.vs + Math.max(0, e.offsetX - LABEL) / (w - LABEL) * (state.ve - state.vs);
      var span = Math.max(1000, (state.ve - state.vs) * f); // down to a microsecond
      var full = state.tiles.end_ns - state.tiles.start_ns;
      if (!opts.onWindow) full = Math.max(full, 1);
      span = Math.min(span, opts.onWindow ? Infinity : full);
      state.vs = at - (at - state.vs) * span / (state.ve - state.vs);
      state.ve = state.vs + span;
      changed();
    }, {passive: false});
    canvas.addEventListener("mousedown", function (e) { state.drag = {x: e.offsetX, y: e.offsetY, vs: state.vs, ve: state.ve}; });
    global.addEventListener("mouseup", function (e) {
      var d = state.drag;
      state.drag = null;
      if (!d || e.target !== canvas || Math.abs(e.offsetX - d.x) > 3 || Math.abs(e.offsetY - d.y) > 3) return;
      var sp = spanAt(e.offsetX, e.offsetY);
      if (!sp) return;
      var pad = Math.max(500, (sp.end_ns - sp.start_ns) * 0.05); // a click on a bar zooms to it
      state.vs = sp.start_ns - pad;
      state.ve = sp.end_ns + pad;
      changed();
    });
    canvas.addEventListener("mousemove", function (e) {
      state.hover = e.offsetX;
      state.hoverY = e.offsetY;
      if (state.drag) {
        var d = (e.offsetX - state.drag.x) / (canvas.clientWidth - LABEL) * (state.drag.ve - state.drag.vs);
        state.vs = state.drag.vs - d;
        state.ve = state.drag.ve - d;
        changed();
      } else {
        draw();
      }
    });
    global.addEventListener("resize", draw);
    draw();
    return {
      update: function (tiles) { state.tiles = tiles; draw(); },
      view: function () { return [state.vs, state.ve]; },
      bars: function () { return state.rects.slice(); } // drawn: {x0, x1, y0, y1, span}
    };
  }

  global.perflabTimeline = {render: render, fmtTime: fmtTime};
})(typeof window !== "undefined" ? window : this);
