// Runs before first paint: marks the page as scripted so the tile keyboard shows and the no-JS fields fold away.
document.documentElement.classList.add("js");

// After the first visit the calculator and the rules page open offline: the service worker (public/sw.js) is
// served at the site's root; this script's data-sw names it.
(function (worker) {
  if (!worker || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register(worker).catch(() => {});
  });
})(document.currentScript && document.currentScript.dataset.sw);
