// perflab call graph: pan and zoom for svg.perflab-graph elements.
// The wheel zooms around the pointer, dragging pans, a double click resets
// the view; a click on a node (without dragging) dispatches a bubbling
// "perflab-node" event whose detail is {id, dotId, name}. Pages may call
// perflabGraph.attach(svg) for graphs added later.
(function () {
  "use strict";
  function attach(svg) {
    if (!svg || svg.getAttribute("data-panzoom")) {
      return;
    }
    svg.setAttribute("data-panzoom", "on");
    var b = svg.viewBox.baseVal;
    var home = { x: b.x, y: b.y, w: b.width, h: b.height };
    var vb = { x: home.x, y: home.y, w: home.w, h: home.h };
    function apply() {
      svg.setAttribute("viewBox", vb.x + " " + vb.y + " " + vb.w + " " + vb.h);
    }
    function scale() {
      var r = svg.getBoundingClientRect();
      return { r: r, k: Math.max(vb.w / Math.max(r.width, 1), vb.h / Math.max(r.height, 1)) };
    }
    svg.addEventListener("wheel", function (evt) {
      evt.preventDefault();
      var s = scale();
      var px = vb.x + (evt.clientX - s.r.left) * s.k;
      var py = vb.y + (evt.clientY - s.r.top) * s.k;
      var w = Math.min(Math.max(vb.w * Math.exp(Math.sign(evt.deltaY) * 0.15), home.w / 100), home.w * 4);
      var f = w / vb.w;
      vb = { x: px - (px - vb.x) * f, y: py - (py - vb.y) * f, w: w, h: vb.h * f };
      apply();
    }, { passive: false });
    var drag = null;
    svg.addEventListener("pointerdown", function (evt) {
      if (evt.button !== 0) {
        return;
      }
      var node = evt.target.closest ? evt.target.closest("g.node") : null;
      drag = { x: evt.clientX, y: evt.clientY, vb: vb, k: scale().k, moved: false, node: node };
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
    function end() {
      if (drag && !drag.moved && drag.node) {
        var n = drag.node;
        svg.dispatchEvent(new CustomEvent("perflab-node", {
          bubbles: true,
          detail: { id: n.getAttribute("id"), dotId: n.getAttribute("data-id"), name: n.getAttribute("data-name") },
        }));
      }
      drag = null;
    }
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointerleave", function () { drag = null; });
    svg.addEventListener("dblclick", function () {
      vb = { x: home.x, y: home.y, w: home.w, h: home.h };
      apply();
    });
  }
  var graphs = document.querySelectorAll("svg.perflab-graph");
  for (var i = 0; i < graphs.length; i++) {
    attach(graphs[i]);
  }
  window.perflabGraph = { attach: attach };
})();
