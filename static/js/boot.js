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

// The verdict's picture (issue 32): its script (this script's data-picture-src) is loaded at the first tap on a
// picture button ([data-picture]) and draws and shares that button's picture.
(function (src) {
  document.addEventListener("click", (event) => {
    const button = src && event.target.closest("[data-picture]");
    if (!button) return;
    if (window.mahjongPicture) return window.mahjongPicture.share(button);
    const script = document.createElement("script");
    script.src = src;
    script.onload = () => window.mahjongPicture.share(button);
    document.head.appendChild(script);
  });
})(document.currentScript && document.currentScript.dataset.pictureSrc);

// The offline pack (issue 22): its script is loaded only on a page with the offer, once this phone asked for the
// pack (the offer's button) or keeps one (localStorage "offline.pack", written by offline.js).
document.addEventListener("DOMContentLoaded", () => {
  const offer = document.querySelector("[data-offline-pack]");
  if (!offer) return;
  const load = () => {
    if (document.querySelector("script[data-offline-script]")) return;
    const script = document.createElement("script");
    script.src = offer.dataset.script;
    script.dataset.offlineScript = "";
    document.head.appendChild(script);
  };
  let keeps = false;
  try {
    keeps = !!localStorage.getItem("offline.pack");
  } catch (error) {
    // no storage: no pack either
  }
  if (keeps) return load();
  const button = offer.querySelector("[data-offline-install]");
  button.addEventListener("click", () => {
    offer.dataset.asked = "1";
    load();
  }, { once: true });
});

// On an English page each Chinese word of the games (庄, 底, 交, 龙 …) is explained where the page first shows it,
// written in Chinese or in pinyin ("jiao"): the word becomes a <dfn> (with the whole Chinese run it stands in), and
// "(pinyin: what it means)" follows it. A word the text explains itself ("单吊 (a pair wait)", "extra payment
// (交)") counts as explained there. A part of the page shown later (a <details> opened) is explained when it opens.
// The words come from the page (json_script "glossary-data", calculator/presentation/glossary.py); the rules page
// lists them all.
(function () {
  const SKIP = "script, style, button, select, option, textarea, label, legend, summary, nav, code, dfn, .gloss, " +
    ".strip, .keyboard, .compass, .seg, .tiles, .verdict, .badge, .role, .mark, .tag, .balances, .visually-hidden, " +
    "[aria-hidden='true']";
  const HAN = /[\u3400-\u9fff]/;
  const shown = (el) => (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);

  // Where the first word not yet explained starts in a text: [index, length, word, written in pinyin?]
  function firstWord(text, words, done) {
    let best = null;
    for (const word of words) {
      if (done.has(word.term)) continue;
      const han = text.indexOf(word.term);
      if (han >= 0 && (!best || han < best[0])) best = [han, word.term.length, word, false];
      const latin = word.latin ? text.search(new RegExp("\\b" + word.pinyin + "\\b")) : -1;
      if (latin >= 0 && (!best || latin < best[0])) best = [latin, word.pinyin.length, word, true];
    }
    return best;
  }

  // Whether the text explains the Chinese run [start, end) itself: a gloss in brackets follows it ("单吊 (a pair
  // wait)"), or it is the original in brackets after its English ("extra payment (交)").
  function explainedHere(text, start, end) {
    if (/^\s*\([^()]*[A-Za-z]{2}/.test(text.slice(end))) return true;
    return text[start - 1] === "(" && text[end] === ")" && /[A-Za-z]\s*$/.test(text.slice(0, start - 1));
  }

  // The list is read once the page is whole: a <details> parsed open toggles while the rest of the page may still
  // be arriving, the list (at the end of the body) half there. A list that cannot be read explains nothing.
  let glossary = null;
  function words() {
    if (glossary) return glossary;
    const data = document.getElementById("glossary-data");
    if (!data) return null;
    try {
      // the longer word first where two start at one place (底龙 before 底)
      glossary = JSON.parse(data.textContent).sort((a, b) => b.term.length - a.term.length);
    } catch (error) {
      glossary = [];
    }
    return glossary;
  }

  function explain() {
    if (document.readyState === "loading") return; // DOMContentLoaded explains the page
    const main = document.getElementById("main");
    const list = words();
    if (!list || !list.length || !main) return;
    const done = new Set(Array.from(document.querySelectorAll("dfn[data-term]"), (d) => d.dataset.term));
    const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT, {
      acceptNode: (node) => {
        const parent = node.parentElement;
        const fit = parent && /\S/.test(node.data) && !parent.closest(SKIP) && shown(parent);
        return fit ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_REJECT;
      },
    });
    const nodes = [];
    while (walker.nextNode()) nodes.push(walker.currentNode);
    for (let node of nodes) {
      let found = firstWord(node.data, list, done);
      while (found) {
        const [index, length, word, latin] = found;
        // a Chinese word inside a longer Chinese run (可多交, 庄家) is explained after the run, not inside it
        let start = index;
        let end = index + length;
        while (!latin && start > 0 && HAN.test(node.data[start - 1])) start--;
        while (!latin && end < node.data.length && HAN.test(node.data[end])) end++;
        const itself = !latin && explainedHere(node.data, start, end);
        const run = node.splitText(start);
        const rest = run.splitText(end - start);
        const term = document.createElement("dfn");
        term.dataset.term = word.term;
        if (!latin) term.lang = "zh-Hans";
        run.replaceWith(term);
        term.appendChild(run);
        if (!itself) {
          const gloss = document.createElement("span");
          gloss.className = "gloss";
          gloss.textContent = " (" + (latin ? word.term : word.pinyin || word.term) + ": " + word.meaning + ")";
          term.after(gloss);
        }
        done.add(word.term);
        node = rest;
        found = firstWord(node.data, list, done);
      }
    }
  }

  document.addEventListener("DOMContentLoaded", explain);
  document.addEventListener("htmx:afterSettle", explain);
  document.addEventListener("calc:answered", explain); // an answer drawn in the phone (offline.js)
  document.addEventListener("toggle", (event) => { if (event.target.open) explain(); }, true);
})();
