// Boxes that scroll sideways say so: code, outputs, formulas and tables
// wider than the screen fade at the edge that hides more (jaxguide.css,
// .jaxguide-more-left/-right). On a phone a cut-off timing table or
// traceback looked complete.
(function () {
  "use strict";

  var BOXES =
    ".bd-article pre, .bd-article div.output.text_html, " +
    ".bd-article div.math, .bd-article .pst-scrollable-table-container";

  // All widths are read before any class is set: reading after each change
  // forced a layout per box (Lighthouse's blocking time on long pages).
  function mark(boxes) {
    var states = boxes.map(function (box) {
      var hidden = box.scrollWidth - box.clientWidth;
      return [box.scrollLeft < hidden - 1, hidden > 1 && box.scrollLeft > 1];
    });
    boxes.forEach(function (box, i) {
      box.classList.toggle("jaxguide-more-right", states[i][0]);
      box.classList.toggle("jaxguide-more-left", states[i][1]);
    });
  }

  function markAll() {
    var boxes = Array.prototype.slice.call(document.querySelectorAll(BOXES));
    var resized = new ResizeObserver(function (entries) {
      mark(entries.map(function (entry) {
        return entry.target;
      }));
    });
    boxes.forEach(function (box) {
      box.addEventListener("scroll", function () {
        mark([box]);
      }, { passive: true });
      resized.observe(box);
    });
    // A web font that arrives late widens the text, not the box: the
    // observer says nothing then. Measured at the next frame, whose layout
    // the widths then come from, rather than in a layout of their own.
    var pending = false;
    function markSoon() {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () {
        pending = false;
        mark(boxes);
      });
    }
    document.fonts.ready.then(markSoon);
    window.addEventListener("load", markSoon);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markAll);
  } else {
    markAll();
  }
})();
