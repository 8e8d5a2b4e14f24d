// The trainer (issue 13 §3): progress and streaks in this browser (localStorage, nothing on the server), and the
// focus of the next question: a pattern answered wrong comes back more often. The page works without this script;
// htmx (hx-boost on .trainer-shell) swaps each question in place.
(function () {
  "use strict";

  const textNode = document.getElementById("trainer-text");
  if (!textNode) return;
  const T = JSON.parse(textNode.textContent);
  const KEY = "mahjong-trainer-v1";
  const MAX_MISS = 6; // a pattern's weight: +2 for each wrong answer, −1 for each right one
  const FOCUS_SHARE = 0.6; // how often the next question asks for a weak pattern, when there is one
  const REMEMBERED = 200; // questions remembered as counted (a reload does not count twice)

  let memory = null; // when localStorage cannot be used (private browsing): this page only

  function fresh() {
    return { total: 0, right: 0, streak: 0, best: 0, topics: {}, counted: [] };
  }

  function load() {
    try {
      const raw = window.localStorage.getItem(KEY);
      const stats = raw ? JSON.parse(raw) : null;
      if (stats && typeof stats === "object" && stats.topics) return stats;
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
    const correct = question.dataset.correct === "true";
    stats.total += 1;
    if (correct) {
      stats.right += 1;
      stats.streak += 1;
      stats.best = Math.max(stats.best, stats.streak);
    } else {
      stats.streak = 0;
    }
    for (const topic of (question.dataset.topics || "").split(" ").filter(Boolean)) {
      const t = stats.topics[topic] || { seen: 0, miss: 0 };
      t.seen += 1;
      t.miss = correct ? Math.max(0, t.miss - 1) : Math.min(MAX_MISS, t.miss + 2);
      stats.topics[topic] = t;
    }
  }

  function weak(stats, game) {
    return Object.entries(stats.topics)
      .filter(([topic, t]) => t.miss > 0 && T.topics[topic] && (!game || topic.startsWith(game + ":")))
      .sort((a, b) => b[1].miss - a[1].miss);
  }

  // ------------------------------------------------------------------ the next question's focus

  function pick(entries) {
    const total = entries.reduce((sum, [, t]) => sum + t.miss, 0);
    let roll = Math.random() * total;
    for (const [topic, t] of entries) {
      roll -= t.miss;
      if (roll < 0) return topic;
    }
    return entries[0][0];
  }

  // After a wrong answer the next question asks for its weakest pattern again; after a right one, now and then
  // for one of the weak patterns, the weaker the likelier.
  function focusAfter(stats, question) {
    const entries = weak(stats, question.dataset.filterGame);
    if (question.dataset.correct === "false") {
      const missed = (question.dataset.topics || "").split(" ");
      const again = entries.find(([topic]) => missed.includes(topic));
      if (again) return again[0];
    }
    if (!entries.length || Math.random() >= FOCUS_SHARE) return null;
    return pick(entries);
  }

  function aimNext(stats, question) {
    const next = document.getElementById("trainer-next");
    if (!next) return;
    const focus = focusAfter(stats, question);
    if (!focus) return;
    const url = new URL(next.getAttribute("href"), location.href);
    url.searchParams.set("focus", focus);
    next.setAttribute("href", url.pathname + url.search);
    if (window.htmx) window.htmx.process(next); // htmx keeps a boosted link's href from when it saw the link
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
      show(cleared, question);
    });
    box.append(reset);
    const names = weak(stats, question.dataset.filterGame)
      .slice(0, 3)
      .map(([topic]) => T.topics[topic]);
    if (names.length) line("practise", fill(T.practise, { names: names.join("、") }));
  }

  function update() {
    const question = document.getElementById("trainer");
    if (!question) return;
    const stats = load();
    if (question.dataset.graded === "true") {
      record(stats, question);
      save(stats);
    }
    show(stats, question);
    aimNext(stats, question);
  }

  update();
  document.body.addEventListener("htmx:afterSettle", update);
})();
