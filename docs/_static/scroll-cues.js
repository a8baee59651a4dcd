// Boxes that scroll sideways say so: code, outputs, formulas and tables
// wider than the screen fade at the edge that hides more (jaxguide.css,
// .jaxguide-more-left/-right). On a phone a cut-off timing table or
// traceback looked complete.
(function () {
  "use strict";

  var BOXES =
    ".bd-article pre, .bd-article div.output.text_html, " +
    ".bd-article div.math, .bd-article .pst-scrollable-table-container";

  function mark(box) {
    var hidden = box.scrollWidth - box.clientWidth;
    box.classList.toggle("jaxguide-more-right", box.scrollLeft < hidden - 1);
    box.classList.toggle("jaxguide-more-left", hidden > 1 && box.scrollLeft > 1);
  }

  function markAll() {
    var boxes = document.querySelectorAll(BOXES);
    var resized = new ResizeObserver(function (entries) {
      entries.forEach(function (entry) {
        mark(entry.target);
      });
    });
    boxes.forEach(function (box) {
      box.addEventListener("scroll", function () {
        mark(box);
      }, { passive: true });
      resized.observe(box);
    });
    // A web font that arrives late widens the text, not the box: the
    // observer says nothing then.
    document.fonts.ready.then(function () {
      boxes.forEach(mark);
    });
    window.addEventListener("load", function () {
      boxes.forEach(mark);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", markAll);
  } else {
    markAll();
  }
})();
