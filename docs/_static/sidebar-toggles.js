// The article header's sidebar buttons, where the sidebar opens, and whether
// it stays collapsed.
(function () {
  "use strict";

  var WIDE = "(min-width: 992px)"; // sphinx-book-theme's: a sidebar, not a drawer
  var SCROLL_KEY = "sidebar-scroll-top"; // pydata-sphinx-theme's key
  var COLLAPSED_KEY = "jaxguide-sidebar-collapsed";
  // Set on <html> before the page is drawn (layout.html), from COLLAPSED_KEY.
  var COLLAPSED_CLASS = "jaxguide-sidebar-collapsed";
  var HIDDEN_CLASS = "pst-sidebar-hidden"; // sphinx-book-theme's collapse
  var MARGIN = 16; // px kept below the current page's link

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
          if (kind === "primary") afterPrimaryToggle();
        });
      }
    });
  }

  function afterPrimaryToggle() {
    if (window.matchMedia(WIDE).matches) {
      var sidebar = document.getElementById("pst-primary-sidebar");
      var collapsed = sidebar !== null && sidebar.classList.contains(HIDDEN_CLASS);
      store("localStorage", COLLAPSED_KEY, collapsed ? "1" : null);
      return;
    }
    // A phone: the theme has moved the sidebar into its drawer, opened at
    // the top; the current page may be screens below the drawer's fold.
    var drawer = document.getElementById("pst-primary-sidebar-modal");
    if (drawer !== null && drawer.open) showCurrentPage(drawer);
  }

  // Scroll `box` only as far as it takes to show the current page's link
  // (the logo, the version and its switcher stay on screen where they can).
  // pydata-sphinx-theme's scrollToActive scrolled the sidebar whenever that
  // link was below the middle of the window, visible or not (260 px and more
  // on a desktop), or back to where the last page left it, which it keeps in
  // sessionStorage and reads on load; it reads the position set here instead.
  function showCurrentPage(box) {
    var active = box.querySelectorAll(".bd-docs-nav .active > a");
    var top = 0;
    if (active.length > 0 && box.clientHeight > 0) {
      box.scrollTop = 0;
      var link = active[active.length - 1].getBoundingClientRect();
      // The part of the box on screen: it may reach below the window.
      var shown = Math.min(box.getBoundingClientRect().top + box.clientHeight, window.innerHeight);
      top = Math.max(0, Math.ceil(link.bottom + MARGIN - shown));
    }
    box.scrollTop = top;
    return top;
  }

  // Storage may be refused (a private window): then nothing is remembered,
  // and the theme measures the sidebar again.
  function store(storageName, key, value) {
    try {
      var storage = window[storageName]; // reading it may throw too
      if (value === null) storage.removeItem(key);
      else storage.setItem(key, value);
    } catch (error) {
      // Nothing to do: see above.
    }
  }

  function ready() {
    forward();
    var sidebar = document.querySelector("div.bd-sidebar-primary");
    if (sidebar === null) return;
    // The collapse the reader chose on an earlier page: the theme's class from
    // now on, which its button toggles.
    var root = document.documentElement;
    if (root.classList.contains(COLLAPSED_CLASS)) {
      sidebar.classList.add(HIDDEN_CLASS);
      root.classList.remove(COLLAPSED_CLASS);
    }
    // A phone shows no sidebar until its menu opens: nothing to measure,
    // and measuring would lay out the whole page before its first paint
    // (Lighthouse counted 0.7 s of a throttled phone's main thread).
    var top = window.matchMedia(WIDE).matches ? showCurrentPage(sidebar) : 0;
    store("sessionStorage", SCROLL_KEY, String(top));
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
