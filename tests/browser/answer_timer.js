// Installed in the page before its own scripts (Playwright's add_init_script with this file: no eval) by the tap
// speed test and scripts/tap_speed.py: from a tile key's click to the four nets of the result card and of the
// strip in the DOM (issue 21 §14), with where the time went: the click's own work until htmx sends the request,
// the request (network and server), and the page's work from the answer to the nets in the DOM. One entry per
// answered tap in window.__answers: {total, send, server, swap} (ms); window.__historySaves counts the copies of
// the page htmx made for its history.
(function () {
  "use strict";
  window.__answers = [];
  let tap = null;
  // each moment is a performance mark too, for a profile's timeline (scripts/tap_speed.py --profile)
  const mark = (name) => performance.mark(name).startTime;
  const nets = (where) => document.querySelectorAll(where + " [data-seat][data-net], " + where + " [data-strip-seat][data-strip-net]").length;
  document.addEventListener("click", (event) => {
    if (event.target.closest && event.target.closest("button[data-tile]")) tap = { at: mark("tap") };
  }, true);
  // a copy of the page htmx kept for its history before a swap (the calculator turns that off: window.__historySaves)
  window.__historySaves = 0;
  document.addEventListener("htmx:beforeHistorySave", () => { window.__historySaves += 1; });
  // htmx's events bubble to the document: the request sent, its answer arrived (before htmx swaps it in)
  document.addEventListener("htmx:beforeSend", () => { if (tap) tap.sent = mark("tap:sent"); });
  document.addEventListener("htmx:beforeSwap", () => { if (tap) tap.answered = mark("tap:answered"); });
  new MutationObserver(() => {
    if (!tap || !tap.answered) return;
    if (nets("#result") === 4 && nets("#strip") === 4) {
      const now = mark("tap:nets");
      window.__answers.push({
        total: now - tap.at,
        send: tap.sent - tap.at,
        server: tap.answered - tap.sent,
        swap: now - tap.answered,
      });
      tap = null;
    }
  }).observe(document, { subtree: true, childList: true, attributes: true });
})();
