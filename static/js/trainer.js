// The trainer (issue 13 §3, issue 21 §9): progress and streaks in this browser (localStorage, nothing on the
// server), with the level chosen and the patterns under review. Which question comes next is the server's (the
// review travels in the links: calculator/presentation/trainer/practice.py); this script only keeps the level and the
// review between visits: a trainer link that names neither is opened again with the ones kept here. The page works
// without this script; htmx (hx-boost on .trainer-shell) swaps each question in place.
(function () {
  "use strict";

  const textNode = document.getElementById("trainer-text");
  if (!textNode) return;
  const T = JSON.parse(textNode.textContent);
  const KEY = "mahjong-trainer-v1";
  const REMEMBERED = 200; // questions remembered as counted (a reload does not count twice)
  const KEPT = ["level", "review"]; // what a trainer link says that this browser keeps between visits

  let memory = null; // when localStorage cannot be used (private browsing): this page only

  function fresh() {
    return { total: 0, right: 0, streak: 0, best: 0, counted: [], level: "", review: "" };
  }

  function load() {
    try {
      const raw = window.localStorage.getItem(KEY);
      const stats = raw ? JSON.parse(raw) : null;
      if (stats && typeof stats === "object" && Array.isArray(stats.counted)) return Object.assign(fresh(), stats);
    } catch (e) {
      if (memory) return memory;
    }
    return memory || fresh();
  }

  function save(stats) {
    memory = stats;
    try {
      window.localStorage.setItem(KEY, JSON.stringify(stats));
    } catch (e) {
      /* kept in memory for this page */
    }
  }

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, (_, name) => String(values[name]));
  }

  // ------------------------------------------------------------------ counting an answer

  function record(stats, question) {
    const id = question.dataset.question;
    if (stats.counted.includes(id)) return;
    stats.counted.push(id);
    if (stats.counted.length > REMEMBERED) stats.counted.shift();
    stats.total += 1;
    if (question.dataset.correct === "true") {
      stats.right += 1;
      stats.streak += 1;
      stats.best = Math.max(stats.best, stats.streak);
    } else {
      stats.streak = 0;
    }
  }

  // The patterns under review, as the link writes them: "<game>:<pattern>.3.0,…" (topic, wait, right in a row).
  function reviewed(review, game) {
    return (review || "")
      .split(",")
      .filter(Boolean)
      .map((part) => part.split("."))
      .filter(([topic]) => T.topics[topic] && (!game || topic.startsWith(game + ":")));
  }

  // ------------------------------------------------------------------ the level and review kept between visits

  // A question opened from a link that names no level and no review (the menu's link, a fresh visit): the same
  // link with the ones this browser kept, to open instead before it is answered (null: none).
  function resumed(stats, question) {
    const url = new URL(location.href);
    if (question.dataset.graded === "true" || KEPT.some((name) => url.searchParams.has(name))) return null;
    const kept = KEPT.filter((name) => stats[name]);
    if (!kept.length) return null;
    kept.forEach((name) => url.searchParams.set(name, stats[name]));
    return url.pathname + url.search;
  }

  // Once the page has loaded (leaving earlier would cut its pictures off half-way), unless the learner has
  // answered or moved on meanwhile.
  function openWhenLoaded(target) {
    const from = location.href;
    const go = () => {
      const question = document.getElementById("trainer");
      if (location.href === from && question && question.dataset.graded !== "true") location.replace(target);
    };
    if (document.readyState === "complete") go();
    else window.addEventListener("load", go, { once: true });
  }

  function keep(stats, question) {
    if (question.dataset.level) stats.level = question.dataset.level;
    stats.review = question.dataset.review || "";
  }

  // Reset: the links of this page forget the review too.
  function forget() {
    document.querySelectorAll("#trainer a[href*='review='], #trainer-answer input[name='review']").forEach((el) => {
      if (el.tagName === "INPUT") {
        el.remove();
        return;
      }
      const url = new URL(el.getAttribute("href"), location.href);
      url.searchParams.delete("review");
      url.searchParams.delete("focus");
      el.setAttribute("href", url.pathname + url.search);
    });
    const question = document.getElementById("trainer");
    if (question) question.dataset.review = "";
    if (window.htmx) window.htmx.process(document.getElementById("trainer"));
  }

  // ------------------------------------------------------------------ the progress card

  function show(stats, question) {
    const box = document.getElementById("trainer-progress");
    if (!box) return;
    box.replaceChildren();
    const line = (cls, text) => {
      const span = document.createElement("span");
      span.className = cls;
      span.textContent = text;
      box.append(span);
    };
    if (!stats.total) {
      line("hint", T.empty);
      return;
    }
    line("streak", fill(T.streak, { n: stats.streak }));
    line("best", fill(T.best, { n: stats.best }));
    line("score", fill(T.score, { right: stats.right, total: stats.total }));
    const reset = document.createElement("button");
    reset.type = "button";
    reset.className = "btn-small";
    reset.id = "trainer-reset";
    reset.textContent = T.reset;
    reset.addEventListener("click", () => {
      const cleared = fresh();
      save(cleared);
      forget();
      show(cleared, question);
    });
    box.append(reset);
    const names = reviewed(stats.review, question.dataset.filterGame).map(([topic, , right]) =>
      fill(T.reviewing, { name: T.topics[topic], right: right, need: T.retire }),
    );
    if (names.length) line("practise", fill(T.practise, { names: names.join("、") }));
  }

  function update(first) {
    const question = document.getElementById("trainer");
    if (!question) return;
    const stats = load();
    const target = first ? resumed(stats, question) : null;
    if (target) {
      show(stats, question); // what was kept stays kept until the question at the kept level is open
      openWhenLoaded(target);
      return;
    }
    if (question.dataset.graded === "true") record(stats, question);
    keep(stats, question);
    save(stats);
    show(stats, question);
  }

  update(true);
  document.body.addEventListener("htmx:afterSettle", () => update(false));
})();
