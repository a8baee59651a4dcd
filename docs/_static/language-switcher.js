// The language switcher's links (language-switcher.html) are plain, computed
// when the page was built: the same page in the other language, in the
// version that was built. Where the reader is makes two things better known
// here: the copy they are reading (stable/ is a copy of a release, whose
// links name the release) and the place in the page (#anchor: a Korean
// section carries its English section's anchor) or search (?q=). So each
// link takes the current version folder, query and anchor
// (src/jaxguide_site/language_links.py adds this script).
(function () {
  "use strict";
  function update() {
    var here = location.pathname.split("/");
    document.querySelectorAll("a.jaxguide-language").forEach(function (link) {
      var target = new URL(link.getAttribute("href"), location.href);
      var path = target.pathname.split("/");
      // The links differ from this page in the language folder, and the
      // version folder right after it.
      var k = 0;
      while (k < here.length && here[k] === path[k]) {
        k += 1;
      }
      if (k + 1 < here.length - 1 && k + 1 < path.length - 1) {
        path[k + 1] = here[k + 1];
        target.pathname = path.join("/");
      }
      if (!link.dataset.fallback) {
        target.search = location.search;
        target.hash = location.hash;
      }
      link.href = target.href;
    });
  }
  window.addEventListener("hashchange", update);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", update);
  } else {
    update();
  }
})();
