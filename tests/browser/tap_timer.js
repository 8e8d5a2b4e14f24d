// Installed in the page by the offline tap test and scripts/offline_speed.py (Playwright's add_init_script with this
// file: no eval): the time from a tile key's click to the four nets of the strip in the DOM, each in
// window.__offlineTaps (ms), and where it went in window.__offlineTapParts, from the performance marks
// static/js/offline.js sets on an answer drawn in the phone:
//   before  the click to the question sent to the worker (the page's own work: calculator.js, offline.js)
//   there   the question's way to the worker (postMessage; the worker's thread waiting for a core, or busy)
//   python  the phone's answer inside the worker (engine, presenter, Jinja2)
//   back    the answer's way back until this thread takes it (the page's thread busy, or waiting for a core)
//   await   the answer taken to offline.js's code after `await` (promise jobs)
//   swap    the answer read and drawn (JSON.parse, the card's and the strip's innerHTML)
//   after   the answer drawn to the nets seen here (listeners of calc:answered, before the observer runs)
(function () {
  "use strict";
  window.__offlineTaps = [];
  window.__offlineTapParts = [];
  let tappedAt = 0;
  const last = (name) => {
    const marks = performance.getEntriesByName(name, "mark");
    return marks.length ? marks[marks.length - 1].startTime : NaN;
  };
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("button[data-tile]")) tappedAt = performance.now();
  }, true);
  new MutationObserver(() => {
    if (!tappedAt) return;
    if (document.querySelectorAll("#strip [data-strip-seat][data-strip-net]").length === 4) {
      const now = performance.now();
      window.__offlineTaps.push(now - tappedAt);
      const names = ["ask", "worker-received", "worker-begun", "worker-done", "got", "replied", "drawn"];
      const [ask, received, begun, done, got, replied, drawn] = names.map((name) => last("offline:" + name));
      window.__offlineTapParts.push({
        at: tappedAt, // the click and the nets seen, on the page's clock (a trace of the tap is cut at these)
        seen: now,
        total: now - tappedAt,
        before: ask - tappedAt,
        there: received - ask,
        python: done - begun,
        back: got - done,
        await: replied - got,
        swap: drawn - replied,
        after: now - drawn,
      });
      tappedAt = 0;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
})();
