// Installed in the page by the offline tap test (Playwright's add_init_script with this file: no eval): the time
// from a tile key's click to the four nets of the strip in the DOM, each in window.__offlineTaps (ms).
(function () {
  "use strict";
  window.__offlineTaps = [];
  let tappedAt = 0;
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("button[data-tile]")) tappedAt = performance.now();
  }, true);
  new MutationObserver(() => {
    if (!tappedAt) return;
    if (document.querySelectorAll("#strip [data-strip-seat][data-strip-net]").length === 4) {
      window.__offlineTaps.push(performance.now() - tappedAt);
      tappedAt = 0;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
})();
