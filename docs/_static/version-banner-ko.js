// Korean text for pydata-sphinx-theme's version banner, which the theme's
// JavaScript writes in English once it has read versions.json
// (src/jaxguide_site/publishing/build_info.py loads this on the Korean site only).
(function () {
  "use strict";
  function translate(banner) {
    var message = banner.querySelector(".sidebar-message");
    if (!message || message.dataset.jaxguideTranslated) {
      return;
    }
    var version = DOCUMENTATION_OPTIONS.VERSION;
    var bold = message.querySelector("strong");
    var button = message.querySelector("a");
    var old = bold && bold.innerText.indexOf("old version") !== -1;
    var text = old
      ? "이 문서는 이전 버전(" + version + ")의 가이드입니다."
      : "이 문서는 개발 중인 버전(" + version + ")의 가이드입니다.";
    message.textContent = "";
    var strong = document.createElement("strong");
    strong.textContent = text;
    message.appendChild(strong);
    if (button) {
      button.textContent = "최신 릴리스로 이동";
      message.appendChild(button);
    }
    var close = banner.querySelector(":scope > a");
    if (close) {
      close.setAttribute("aria-label", "배너 닫기");
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
