// The language switcher's links (language-switcher.html) are plain, computed
// when the page was built: the same page in the other language, in the
// version that was built. Where the reader is makes two things better known
// here: the copy they are reading (stable/ is a copy of a release, whose
// links name the release) and the place in the page (#anchor: a Korean
// section carries its English section's anchor) or search (?q=). So each
// link takes the current version folder, query and anchor
// (src/jaxguide_site/language_links.py adds this script). A reader who
// scrolled without clicking a heading has no anchor: the link takes the
// section on screen, the last one started above a third of the window.
// That is measured only when the reader reaches for the switcher (points
// at it, focuses it, clicks it): measuring where the sections are forces
// the browser to lay out the whole page, and done as the page loaded it
// was 0.6 s of a throttled phone's main thread on a long page (Lighthouse).
(function () {
  "use strict";
  function sectionOnScreen() {
    var sections = document.querySelectorAll("article.bd-article section[id]");
    var line = window.innerHeight / 3;
    var found = null;
    for (var i = 1; i < sections.length; i++) { // [0]: the page's own title
      if (sections[i].getBoundingClientRect().top > line) break;
      found = sections[i];
    }
    return found;
  }
  // The anchor the reader followed, while its section is on screen.
  function anchorOnScreen() {
    var id = decodeURIComponent(location.hash.slice(1));
    var element = id === "" ? null : document.getElementById(id);
    if (element === null) return false;
    var box = element.getBoundingClientRect();
    return box.top < window.innerHeight && box.bottom > 0;
  }
  function update(measure) {
    var section = !measure || anchorOnScreen() ? null : sectionOnScreen();
    var hash = section === null ? location.hash : "#" + section.id;
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
        target.hash = hash;
      }
      link.href = target.href;
    });
  }
  function ready() {
    update(false);
    document.querySelectorAll("nav.jaxguide-language-switcher").forEach(function (nav) {
      // Capture: before the link's own click follows its address.
      ["pointerdown", "focusin", "contextmenu", "click"].forEach(function (kind) {
        nav.addEventListener(kind, function () {
          update(true);
        }, true);
      });
    });
  }
  window.addEventListener("hashchange", function () {
    update(false);
  });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
