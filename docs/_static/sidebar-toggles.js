// The article header's sidebar buttons, and where the sidebar opens.
(function () {
  "use strict";

  // sphinx-book-theme 1.4 shows its own sidebar buttons in the article header,
  // but pydata-sphinx-theme 0.20 and sphinx-book-theme bind their click handlers
  // to the first .primary-toggle / .secondary-toggle of the page: the hidden
  // navbar's. Without this the visible buttons do nothing (the navigation never
  // opens on a phone). Each visible button forwards its click to the bound one.
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

  // The sidebar opens at its top (the logo, the version and its switcher),
  // scrolled only as far as it takes to show the current page's link.
  // pydata-sphinx-theme's scrollToActive scrolled it whenever that link was
  // below the middle of the window, visible or not (260 px and more on a
  // desktop), or back to where the last page left it, which it keeps in
  // sessionStorage and reads on load; it reads this position there instead.
  var SCROLL_KEY = "sidebar-scroll-top"; // pydata-sphinx-theme's key
  var MARGIN = 16; // px kept below the link

  function openSidebarAtTop() {
    var sidebar = document.querySelector("div.bd-sidebar-primary");
    if (sidebar === null) return;
    var active = sidebar.querySelectorAll(".bd-docs-nav .active > a");
    var top = 0;
    if (active.length > 0 && sidebar.clientHeight > 0) {
      sidebar.scrollTop = 0;
      var link = active[active.length - 1].getBoundingClientRect();
      // The part of the sidebar on screen: it may reach below the window.
      var box = sidebar.getBoundingClientRect();
      var shown = Math.min(box.top + sidebar.clientHeight, window.innerHeight);
      top = Math.max(0, Math.ceil(link.bottom + MARGIN - shown));
    }
    sidebar.scrollTop = top;
    try {
      sessionStorage.setItem(SCROLL_KEY, String(top));
    } catch (error) {
      // Storage refused (a private window): the theme then measures again.
    }
  }

  function ready() {
    forward();
    openSidebarAtTop();
  }
  // A deferred script: it runs before the theme's (at the end of the body),
  // which then reads the stored position; if the theme ran first, the
  // scroll set here is the last word.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
