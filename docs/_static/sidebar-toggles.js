// sphinx-book-theme 1.4 shows its own sidebar buttons in the article header,
// but pydata-sphinx-theme 0.20 and sphinx-book-theme bind their click handlers
// to the first .primary-toggle / .secondary-toggle of the page: the hidden
// navbar's. Without this the visible buttons do nothing (the navigation never
// opens on a phone). Each visible button forwards its click to the bound one.
(function () {
  "use strict";
  function forward() {
    ["primary", "secondary"].forEach(function (kind) {
      var buttons = document.querySelectorAll("." + kind + "-toggle");
      var bound = buttons[0];
      for (var i = 1; i < buttons.length; i++) {
        buttons[i].addEventListener("click", function (event) {
          event.preventDefault();
          event.stopPropagation();
          bound.click();
        });
      }
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", forward);
  } else {
    forward();
  }
})();
