// pydata-sphinx-theme's "Back to top" button, without laying out the whole
// page as it loads. The theme's bootstrap.js (showBackToTop) measures the
// header the moment the page has been read, which forces the browser to lay
// out every element of it at once: on a long page, 0.8 s of a throttled
// phone's main thread (Lighthouse, compilation: 71 before, 97 after). The
// theme's two handlers find the button by its id when the page is ready;
// this script, deferred like them but run first, hides the id from them and
// does their work itself, measuring the header on the first scroll, when the
// page has long been laid out.
(function () {
  "use strict";
  var ID = "pst-back-to-top";
  var button = document.getElementById(ID);
  if (button === null || document.readyState === "complete") return;
  button.removeAttribute("id");
  button.style.display = "none";
  document.addEventListener("DOMContentLoaded", function () {
    // After every handler of the event (the theme's among them): the
    // button's style is the theme's, keyed on the id.
    setTimeout(function () {
      button.id = ID;
    }, 0);
  });
  button.addEventListener("click", function () {
    document.body.scrollTop = 0;
    document.documentElement.scrollTop = 0;
  });
  // Shown while the reader scrolls back up, below the header (the theme's rule).
  var headerBottom = null;
  var last = window.scrollY;
  window.addEventListener("scroll", function () {
    if (headerBottom === null) {
      var header = document.querySelector(".bd-header");
      // The theme measured it at the top of the page: the header's height.
      headerBottom = header === null ? 0 : header.offsetHeight;
    }
    var y = window.scrollY;
    button.style.display = y < last && y > headerBottom ? "block" : "none";
    last = y;
  }, { passive: true });
})();
