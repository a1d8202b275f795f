// perflab call graph: pan and zoom for svg.perflab-graph elements, the one
// implementation used by perflab graph -svg files and by perflab web.
// The wheel (or +, - and 0 on the keyboard) zooms around the pointer,
// dragging pans; a click on a node (without dragging) marks it "selected"
// and dispatches a bubbling "perflab-node" event whose detail is
// {id, dotId, name}; a double click on a node dispatches "perflab-node-focus"
// with the same detail, elsewhere it resets the view. Pages may call
// perflabGraph.attach(svg) for graphs added later; perflabGraph.zoom(factor,
// clientX, clientY), .reset(), .viewBox(), .fit() (the whole drawing) and
// .setHome(x, y, w, h) (the view reset and 0 return to, by default the
// whole drawing) act on the first graph.
(function () {
  "use strict";
  var graphs = [];
  function attach(svg) {
    if (!svg || svg.getAttribute("data-panzoom")) {
      return null;
    }
    svg.setAttribute("data-panzoom", "on");
    var b = svg.viewBox.baseVal;
    var whole = { x: b.x, y: b.y, w: b.width, h: b.height };
    var home = whole;
    var vb = { x: home.x, y: home.y, w: home.w, h: home.h };
    function apply() {
      svg.setAttribute("viewBox", vb.x + " " + vb.y + " " + vb.w + " " + vb.h);
    }
    // toSVG converts client coordinates to the viewBox's, allowing for the
    // margins preserveAspectRatio leaves around the drawing.
    function toSVG(cx, cy) {
      var r = svg.getBoundingClientRect();
      var k = Math.max(vb.w / Math.max(r.width, 1), vb.h / Math.max(r.height, 1));
      var ox = vb.x - (r.width * k - vb.w) / 2, oy = vb.y - (r.height * k - vb.h) / 2;
      return { x: ox + (cx - r.left) * k, y: oy + (cy - r.top) * k, k: k };
    }
    function zoom(factor, cx, cy) {
      var w = Math.min(Math.max(vb.w * factor, whole.w / 100), Math.max(whole.w, home.w) * 4);
      var f = w / vb.w, p = toSVG(cx, cy);
      vb = { x: p.x - (p.x - vb.x) * f, y: p.y - (p.y - vb.y) * f, w: w, h: vb.h * f };
      apply();
    }
    function reset() {
      vb = { x: home.x, y: home.y, w: home.w, h: home.h };
      apply();
    }
    function nodeEvent(type, n) {
      svg.dispatchEvent(new CustomEvent(type, {
        bubbles: true,
        detail: { id: n.getAttribute("id"), dotId: n.getAttribute("data-id"), name: n.getAttribute("data-name") },
      }));
    }
    function nodeOf(evt) {
      return evt.target.closest ? evt.target.closest("g.node") : null;
    }
    svg.addEventListener("wheel", function (evt) {
      evt.preventDefault();
      zoom(Math.exp(Math.sign(evt.deltaY) * 0.15), evt.clientX, evt.clientY);
    }, { passive: false });
    var drag = null;
    svg.addEventListener("pointerdown", function (evt) {
      if (evt.button !== 0) {
        return;
      }
      drag = { x: evt.clientX, y: evt.clientY, vb: vb, k: toSVG(0, 0).k, moved: false, node: nodeOf(evt) };
    });
    svg.addEventListener("pointermove", function (evt) {
      if (!drag) {
        return;
      }
      var dx = evt.clientX - drag.x, dy = evt.clientY - drag.y;
      if (!drag.moved && Math.abs(dx) + Math.abs(dy) < 4) {
        return;
      }
      drag.moved = true;
      vb = { x: drag.vb.x - dx * drag.k, y: drag.vb.y - dy * drag.k, w: drag.vb.w, h: drag.vb.h };
      apply();
    });
    svg.addEventListener("pointerup", function () {
      if (drag && !drag.moved && drag.node) {
        var old = svg.querySelectorAll("g.node.selected");
        for (var i = 0; i < old.length; i++) {
          old[i].classList.remove("selected");
        }
        drag.node.classList.add("selected");
        nodeEvent("perflab-node", drag.node);
      }
      drag = null;
    });
    svg.addEventListener("pointerleave", function () { drag = null; });
    svg.addEventListener("dblclick", function (evt) {
      var n = nodeOf(evt);
      if (n) {
        nodeEvent("perflab-node-focus", n);
      } else {
        reset();
      }
    });
    var g = {
      svg: svg, zoom: zoom, reset: reset,
      viewBox: function () { return { x: vb.x, y: vb.y, width: vb.w, height: vb.h }; },
      fit: function () {
        vb = { x: whole.x, y: whole.y, w: whole.w, h: whole.h };
        apply();
      },
      setHome: function (x, y, w, h) { home = { x: x, y: y, w: w, h: h }; },
    };
    graphs.push(g);
    return g;
  }
  document.addEventListener("keydown", function (evt) {
    var g = graphs[0];
    if (!g || (evt.target.closest && evt.target.closest("input, select, textarea"))) {
      return;
    }
    var r = g.svg.getBoundingClientRect(), cx = r.left + r.width / 2, cy = r.top + r.height / 2;
    if (evt.key === "+" || evt.key === "=") {
      g.zoom(1 / 1.25, cx, cy);
    } else if (evt.key === "-") {
      g.zoom(1.25, cx, cy);
    } else if (evt.key === "0") {
      g.reset();
    }
  });
  var found = document.querySelectorAll("svg.perflab-graph");
  for (var i = 0; i < found.length; i++) {
    attach(found[i]);
  }
  function first(method) {
    return function () {
      return graphs.length ? graphs[0][method].apply(null, arguments) : undefined;
    };
  }
  window.perflabGraph = {
    attach: attach, zoom: first("zoom"), reset: first("reset"), viewBox: first("viewBox"),
    fit: first("fit"), setHome: first("setHome"),
  };
})();
