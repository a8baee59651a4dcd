// The guide's own text for pydata-sphinx-theme's version banner, which the
// theme's JavaScript writes once it has read versions.json. The text, in the
// page's language, comes from the jaxguide messages: jaxguide-version.html
// writes it into .jaxguide-banner-text (src/jaxguide_site/publishing/build_info.py
// loads this script).
(function () {
  "use strict";
  function translate(banner) {
    var message = banner.querySelector(".sidebar-message");
    if (!message || message.dataset.jaxguideTranslated) {
      return;
    }
    var source = document.querySelector(".jaxguide-banner-text");
    if (!source) {
      return;
    }
    var bold = message.querySelector("strong");
    var button = message.querySelector("a");
    var old = bold && bold.innerText.indexOf("old version") !== -1;
    var text = old ? source.dataset.old : source.dataset.dev;
    message.textContent = "";
    var strong = document.createElement("strong");
    strong.textContent = text;
    message.appendChild(strong);
    if (button) {
      button.textContent = source.dataset.latest;
      message.appendChild(button);
    }
    // The theme's close control is an <a> without href: neither a link nor
    // reachable by keyboard, and a name on it is not allowed (axe's
    // aria-prohibited-attr). Made a button that Enter and Space press.
    var close = banner.querySelector(":scope > a");
    if (close) {
      close.setAttribute("role", "button");
      close.setAttribute("tabindex", "0");
      close.setAttribute("aria-label", source.dataset.close);
      close.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          close.click();
        }
      });
    }
    message.dataset.jaxguideTranslated = "yes";
  }
  function watch() {
    var banner = document.getElementById("bd-header-version-warning");
    if (!banner) {
      return;
    }
    translate(banner);
    new MutationObserver(function () {
      translate(banner);
    }).observe(banner, { childList: true, subtree: true });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", watch);
  } else {
    watch();
  }
})();
