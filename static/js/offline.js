// The offline pack on the page (issue 22). Loaded by boot.js only on a page with the offer ([data-offline-pack])
// once this phone asked for the pack (its button) or keeps one: nobody else downloads any of it.
// - Install: the pack's parts (the pinned Pyodide and the app's zip, calculator/offline/pack.py) are downloaded
//   once with a progress bar, each checked against its SHA-256 in the manifest, and kept in the service worker's
//   cache (public/sw.js answers from there); a newer pack on the server replaces the kept one when online.
// - The engine: static/js/offline-worker.js runs the app's Python in a Web Worker; <html data-offline-ready>
//   once it answers.
// - Answers: with the pack ready, a change of the calculator's hand is answered in the phone at once (the same
//   presenter and templates as the server); online, the server's answer follows and replaces it; if the two ever
//   differ, the server's stays and the page says so in the console (tests/browser/test_offline.py proves they
//   do not). Offline, the phone's answer is the answer.
(function () {
  "use strict";

  const STORE = "offline.pack"; // localStorage: the kept pack's manifest
  const CACHE_PREFIX = "mahjong-offline-pack-"; // + version: public/sw.js keeps these caches
  const root = document.documentElement;

  function kept() {
    try {
      return JSON.parse(localStorage.getItem(STORE) || "null");
    } catch (error) {
      return null;
    }
  }

  function keep(manifest) {
    if (manifest) localStorage.setItem(STORE, JSON.stringify(manifest));
    else localStorage.removeItem(STORE);
  }

  const cacheName = (version) => CACHE_PREFIX + version;
  const snapshotOf = (manifest) => ({
    cache: cacheName(manifest.version),
    url: new URL(manifest.app_url.replace(/app\.zip$/, "snapshot.bin.gz"), location.href).href,
  });

  async function sha256(buffer) {
    const digest = await crypto.subtle.digest("SHA-256", buffer);
    return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  // ------------------------------------------------------------------ the offer

  const offer = document.querySelector("[data-offline-pack]");
  const part = (name) => offer && offer.querySelector("[data-offline-" + name + "]");
  const textNode = document.getElementById("offline-text");
  const words = textNode ? JSON.parse(textNode.textContent) : {};
  const fill = (text, values) => Object.keys(values).reduce((t, k) => t.replace("%(" + k + ")s", values[k]), text || "");

  function say(text) {
    const status = part("status");
    if (status) status.textContent = text || "";
  }

  function showInstalled(installed) {
    if (!offer) return;
    part("install").hidden = installed;
    part("remove").hidden = !installed;
    part("howto").hidden = !installed;
  }

  function progress(done, total) {
    const bar = part("progress");
    if (!bar) return;
    bar.hidden = total === 0 || done >= total;
    bar.max = total || 1;
    bar.value = done;
  }

  // Each part downloaded with `cache: "reload"` (the service worker and the HTTP cache are passed by), checked
  // against its SHA-256, and only then kept.
  // A part this phone keeps already is copied, not downloaded: under its own URL (the runtime's do not change with
  // the app), or under another URL of the pack it replaces with the same SHA-256 (the worker's script is named
  // after the pack's version, and rarely changes).
  async function keptCopy(item, url) {
    const before = kept();
    const same = before && (before.parts || []).find((old) => old.sha256 === item.sha256);
    return (await caches.match(url)) || (same ? await caches.match(new URL(same.url, location.href).href) : undefined);
  }

  async function download(manifest, cache, onBytes) {
    for (const item of manifest.parts) {
      const url = new URL(item.url, location.href).href;
      const have = await keptCopy(item, url);
      if (have) {
        const body = await have.arrayBuffer();
        if ((await sha256(body)) === item.sha256) {
          await cache.put(url, new Response(body, { headers: have.headers }));
          onBytes(item.size);
          continue;
        }
      }
      const response = await fetch(url, { cache: "reload", credentials: "same-origin" });
      if (!response.ok) throw new Error(url + ": " + response.status);
      const reader = response.body.getReader();
      const chunks = [];
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        onBytes(value.length);
      }
      const body = new Blob(chunks);
      if ((await sha256(await body.arrayBuffer())) !== item.sha256) throw new Error(words.damaged || "damaged");
      // kept with the server's headers (the worker's script keeps its policy), the body as it was decoded
      const headers = new Headers(response.headers);
      headers.delete("Content-Encoding");
      headers.delete("Content-Length");
      await cache.put(url, new Response(body, { headers }));
    }
  }

  async function install(manifest) {
    const total = manifest.parts.reduce((sum, item) => sum + item.size, 0);
    let done = 0;
    progress(0, total);
    const cache = await caches.open(cacheName(manifest.version));
    await download(manifest, cache, (n) => {
      done += n;
      progress(done, total);
      say((words.downloading || "%(percent)s%").replace("%(percent)s", Math.floor((100 * done) / total)));
    });
    // the trainer and the page of who takes a discard offline are a convenience: the pack stands without them
    await keepTrainerPage(cache).catch(() => {});
    await keepClaimsPages(cache, manifest.pages).catch(() => {});
    progress(0, 0);
    const before = kept();
    keep(manifest);
    await dropOthers(manifest.version);
    if (before && before.version !== manifest.version) stopEngine();
  }

  // The trainer's page, kept in the pack's cache under its path (public/sw.js answers a trainer link from there
  // while offline): its questions are drawn in the phone, so any kept copy will do; it goes with the pack. A
  // copy of the answer, not the answer itself: /trainer/ is sent on to a question's link, and a navigation is
  // never answered with a redirected response.
  async function keepTrainerPage(cache, from) {
    const path = offer && offer.dataset.trainer;
    if (path) await keepPackPage(cache, path, from);
  }

  // The page of who takes a discard, kept for each game and table size (its inputs are drawn for one: the
  // manifest's `pages`); offline, public/sw.js answers a link with the copy of its game and size, claims.js puts
  // the link's other fields in, and the phone draws the answer.
  async function keepClaimsPages(cache, paths) {
    for (const path of paths || []) await keepPackPage(cache, path);
  }

  // A page kept in the pack's cache under `path` (a copy of what `from`, or the path itself, answers now), with
  // its scripts and styles.
  async function keepPackPage(cache, path, from) {
    const response = await fetch(from || path, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) return;
    const html = await response.text();
    const headers = new Headers(response.headers);
    headers.delete("Content-Encoding");
    headers.delete("Content-Length");
    await cache.put(new URL(path, location.href).href, new Response(html, { headers }));
    // and its scripts and styles (the calculator's page links others), in the pack's cache with it: asked through
    // the service worker, which answers from its cache what it keeps already
    const assets = Array.from(html.matchAll(/(?:src|href)="([^"#?]*\/static\/[^"#?]+)/g), (m) => new URL(m[1], location.href).href);
    await cache.addAll(Array.from(new Set(assets)));
  }

  async function dropOthers(version) {
    const names = await caches.keys();
    await Promise.all(
      names.filter((n) => n.startsWith(CACHE_PREFIX) && n !== cacheName(version)).map((n) => caches.delete(n))
    );
  }

  async function fetchManifest() {
    const response = await fetch(offer.dataset.manifest, { cache: "no-store", credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    return response.json();
  }

  async function installFromServer() {
    part("install").disabled = true;
    say(words.starting);
    try {
      await install(await fetchManifest());
      showInstalled(true);
      say(words.preparing);
      await startEngine();
    } catch (error) {
      progress(0, 0);
      say((words.failed || "%(why)s").replace("%(why)s", error.message || String(error)));
    } finally {
      part("install").disabled = false;
    }
  }

  async function remove() {
    stopEngine();
    keep(null);
    await dropOthers("");
    showInstalled(false);
    say(words.removed);
  }

  // Online, a page served with another pack's version (the server's) replaces the kept one.
  async function refresh(manifest) {
    if (!offer || !navigator.onLine || offer.dataset.version === manifest.version) return manifest;
    try {
      const fresh = await fetchManifest();
      if (fresh.version === manifest.version) return manifest;
      say(words.updating);
      await install(fresh);
      say("");
      return fresh;
    } catch (error) {
      return manifest; // the kept pack still answers
    }
  }

  // ------------------------------------------------------------------ the engine (a Web Worker)

  let worker = null;
  let ready = null;
  let nextId = 1;
  const waiting = new Map();

  function ask(message) {
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  function started(manifest) {
    worker = new Worker(manifest.worker_url, { type: "module" });
    worker.addEventListener("message", (event) => {
      const reply = event.data;
      reply.got = performance.now(); // the answer's arrival in this thread (its wait for it included)
      const pending = waiting.get(reply.id);
      if (!pending) return;
      waiting.delete(reply.id);
      if (reply.type === "failed") pending.reject(new Error(reply.message));
      else pending.resolve(reply);
    });
    return ask({
      type: "load",
      runtime: new URL(manifest.runtime_url, location.href).href,
      lock: manifest.lock_info,
      app: new URL(manifest.app_url, location.href).href,
      snapshot: snapshotOf(manifest),
    });
  }

  async function startEngine() {
    const manifest = await refresh(kept());
    if (!manifest) return null;
    ready = ready || started(manifest);
    const done = await ready;
    root.dataset.offlineReady = done.how;
    root.dataset.offlineVersion = manifest.version; // the pack this phone answers with
    root.dataset.offlineReadyMs = String(Math.round(done.ms)); // the worker's load
    root.dataset.offlineReadyAt = String(Math.round(performance.now())); // since the page was opened
    showInstalled(true);
    say(words.ready);
    document.dispatchEvent(new CustomEvent("offline:ready"));
    answerNow();
    return done;
  }

  function stopEngine() {
    if (worker) worker.terminate();
    worker = null;
    ready = null;
    waiting.forEach((pending) => pending.reject(new Error("stopped")));
    waiting.clear();
    delete root.dataset.offlineReady;
  }

  const isReady = () => root.hasAttribute("data-offline-ready") && worker !== null;
  const pageLang = () => (root.lang.startsWith("en") ? "en" : "zh"); // the engine's language of the page

  // ------------------------------------------------------------------ answers on the calculator

  const form = document.getElementById("calc");
  let asked = 0; // the latest question to the phone
  let serverAnswered = ""; // the query whose server answer was swapped in last
  let phoneAnswer = null; // {query, nets} of the last answer drawn from the phone
  // Whether the server is out of reach: until it answered once (the page may have opened from the service
  // worker's cache) and after a request it did not answer. Asked at once, every 15 s, and when the browser says
  // it is online again.
  let serverAway = true;

  async function probe() {
    if (!serverAway || !offer) return;
    try {
      const response = await fetch(offer.dataset.manifest, { cache: "no-store", credentials: "same-origin" });
      if (response.status === 200) {
        serverAway = false;
        syncAll();
        refreshTrainerPage();
        refreshClaimsPage();
      }
    } catch (error) {
      // still away
    }
  }
  window.setInterval(probe, 15000); // a network back without an "online" event (a phone that kept its wifi)
  window.addEventListener("online", probe);
  probe();

  // The fields as htmx sends them (hx-params="not csrfmiddlewaretoken"; disabled fields are not sent).
  function formQuery(of = form) {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(of)) {
      if (name !== "csrfmiddlewaretoken") query.append(name, value);
    }
    return query.toString();
  }

  const stripNets = () =>
    Array.from(document.querySelectorAll("#strip [data-strip-seat]"), (s) => s.dataset.stripSeat + s.dataset.stripNet).join(" ");

  function context() {
    return JSON.stringify({
      page: form.getAttribute("hx-get"),
      origin: location.origin,
      table: window.offlineTable ? window.offlineTable.binding() : null, // a table kept in this phone
    });
  }

  async function answerNow() {
    // a calculator bound to a table this phone does not keep is answered by the server alone
    if (!form || !isReady() || (tableId && !boundEntry())) return;
    const query = formQuery();
    const mine = ++asked;
    performance.mark("offline:ask");
    let reply;
    try {
      const answered = await ask({ type: "answer", query, lang: pageLang(), context: context() });
      root.dataset.offlineAnswerMs = String(Math.round(answered.ms * 10) / 10); // the worker's own time
      // where the time went (tests/browser/tap_timer.js): the worker's moments on this page's clock
      const [received, begun, done] = answered.at.map((t) => t - performance.timeOrigin);
      performance.mark("offline:worker-received", { startTime: received });
      performance.mark("offline:worker-begun", { startTime: begun });
      performance.mark("offline:worker-done", { startTime: done });
      performance.mark("offline:got", { startTime: answered.got });
      performance.mark("offline:replied");
      reply = JSON.parse(answered.json);
    } catch (error) {
      return; // the server's answer (or its "no connection") stands
    }
    if (mine !== asked || serverAnswered === query) return; // a newer tap, or the server was quicker
    document.getElementById("result").innerHTML = reply.card;
    document.getElementById("strip").innerHTML = reply.strip;
    phoneAnswer = { query, nets: stripNets() };
    performance.mark("offline:drawn");
    form.dispatchEvent(new CustomEvent("calc:answered", { bubbles: true, detail: { from: "phone" } }));
    // the address becomes the hand's share link, as the server's answer makes it (HX-Replace-Url); after the
    // answer is on screen: the browser takes its time over a history entry
    if (!tableId) setTimeout(() => history.replaceState(history.state, "", form.getAttribute("hx-get") + "?" + reply.share_query));
  }

  if (form) {
    // before htmx's own listener (at the form, capture first): the phone is asked before htmx builds a request
    // that offline it then drops
    const question = () => {
      serverAnswered = ""; // a new question: the server has not answered it yet
      answerNow();
    };
    form.addEventListener("calc:update", question, true);
    form.addEventListener("calc:typed", question, true);
    // While the server is out of reach (the service worker said so, or it has not answered yet), taps are not
    // sent to it: nothing else competes with the phone's answer for the phone's time.
    document.body.addEventListener("htmx:afterRequest", (event) => {
      const xhr = event.detail.xhr;
      if (event.detail.elt === form && xhr && xhr.getResponseHeader("X-Offline")) serverAway = true;
    });
    document.body.addEventListener("htmx:beforeRequest", (event) => {
      if (serverAway && isReady() && event.detail.elt === form) event.preventDefault();
    });
    document.body.addEventListener("htmx:beforeSwap", (event) => {
      // the server's answer (not its "nothing new" while offline: the service worker's 204)
      if (event.detail.target && event.detail.target.id === "result" && event.detail.shouldSwap) serverAnswered = formQuery();
    });
    document.body.addEventListener("htmx:afterSwap", (event) => {
      if (!event.detail.target || event.detail.target.id !== "result" || !phoneAnswer) return;
      if (phoneAnswer.query !== serverAnswered) return;
      if (phoneAnswer.nets !== stripNets()) {
        root.dataset.offlineDiffers = phoneAnswer.query;
        console.error("offline pack: the phone answered " + phoneAnswer.nets + ", the server " + stripNets());
      } else {
        root.dataset.offlineChecked = phoneAnswer.query; // the server's answer is the phone's
      }
      phoneAnswer = null;
    });

  }

  // ------------------------------------------------------------------ who takes a discard, offline
  //
  // While the server is out of reach, the page's answer (#claims-answer) is drawn in the phone by the server's own
  // Python (calculator/presentation/claims/, jinja2/claims.html), and the address becomes its share link; online,
  // the server answers as before. The page opened offline is a kept copy (public/sw.js), in the language seen
  // last: the copy of the game and size this phone sees online is kept again each time.

  const claimsForm = document.getElementById("claims");
  let claimsAsked = 0;

  async function answerClaims() {
    if (!claimsForm || !serverAway || !isReady()) return;
    const mine = ++claimsAsked;
    let reply;
    try {
      const where = JSON.stringify({ origin: location.origin });
      reply = JSON.parse((await ask({ type: "claims", query: formQuery(claimsForm), lang: pageLang(), context: where })).json);
    } catch (error) {
      return; // the page says the answer needs the network
    }
    if (mine !== claimsAsked) return; // a newer change
    document.getElementById("claims-answer").innerHTML = reply.html;
    root.dataset.offlineClaims = reply.share_query; // the fields the phone answered last
    setTimeout(() => history.replaceState(history.state, "", claimsForm.getAttribute("action") + "?" + reply.share_query));
  }

  if (claimsForm) {
    claimsForm.addEventListener("claims:update", answerClaims, true);
    claimsForm.addEventListener("claims:typed", answerClaims, true);
    claimsForm.addEventListener("htmx:beforeRequest", (event) => {
      if (serverAway && isReady()) event.preventDefault(); // the phone answers
    });
    claimsForm.addEventListener("htmx:sendError", () => {
      serverAway = true;
      answerClaims();
    });
    document.addEventListener("offline:ready", answerClaims);
  }

  function refreshClaimsPage() {
    const current = kept();
    const path = claimsForm && claimsForm.dataset.keptAs;
    if (!current || !path) return;
    // the page of this game and size as it opens (no claims entered: a link's are put in from its address)
    caches.open(cacheName(current.version))
      .then((cache) => keepPackPage(cache, path))
      .then(() => { root.dataset.offlineClaimsKept = root.lang; }) // in the language seen last, as the other pages
      .catch(() => {});
  }

  // ------------------------------------------------------------------ a table kept in this phone
  //
  // ledger.js keeps each table this phone opened with its edit link ("ledger.offline": its state as the API
  // answers it, the token, the hands waiting to send). Offline, the table's calculator link opens the kept
  // calculator page (the service worker never keeps a page with a token); it is bound here, the table's fields
  // fixed as the server fixes them (calculator/offline/table.py). A hand recorded here is booked by the ledger
  // in the phone (the next hand is scored after it: the dealer moves) and queued with its idempotency key and
  // the table version it was scored against. Online, the queue is sent in order; a 409 `stale` (the table moved
  // on) is scored again against the table as it is now: the same payments are sent again with the new version,
  // other payments wait for the referee, who sees both and confirms or drops the hand. Nothing is sent twice
  // (the key), nothing is dropped without the referee.

  const KEPT = "ledger.offline";
  const params = new URLSearchParams(location.search);
  const tableId = params.get("table");

  function keptTables() {
    try {
      return JSON.parse(localStorage.getItem(KEPT) || "{}") || {};
    } catch (error) {
      return {};
    }
  }

  function changeTable(id, change) {
    const all = keptTables();
    if (!all[id]) return null;
    change(all[id]);
    localStorage.setItem(KEPT, JSON.stringify(all));
    return all[id];
  }

  const entryOf = (id) => keptTables()[id] || null;
  const nextTable = (entry) => entry.local || entry.table; // the table the next hand is scored against
  // The kept table this calculator is bound to (by its link: table and token), or null.
  const boundEntry = () => {
    const entry = tableId && entryOf(tableId);
    return entry && entry.token === params.get("token") ? entry : null;
  };
  // Bound here, in the phone: the page came from the service worker's cache (the server binds its own pages).
  const offlineBound = () => !!boundEntry() && !document.getElementById("table-banner");
  const table = (action, kept, hand) =>
    ask({ type: "table", action, table: JSON.stringify(kept), hand: hand || "", lang: pageLang() })
      .then((reply) => JSON.parse(reply.json));

  window.offlineTable = {
    // what the result card's template reads of a bound table (jinja2/result.html)
    binding() {
      if (!boundEntry()) return null;
      const kept = nextTable(boundEntry());
      const query = new URLSearchParams({ table: tableId, token: params.get("token"), at: String(kept.version) });
      return { id: tableId, version: kept.version, playing: kept.status === "playing", query: query.toString(), kept };
    },
  };

  const signed = (n) => (n > 0 ? "+" + n : n < 0 ? "−" + -n : "0");
  // The table's seats, in play order, as the phone's ledger booked the hand (a hand queued by an older page:
  // the seats its nets hold, in play order).
  const seatsOf = (item) => item.seats || ["E", "S", "W", "N"].filter((s) => s in item.net);
  // a hand's nets, each of the table's seats' kept on one line
  function seatNets(net, seats) {
    const nets = element("span", { class: "queue-nets" });
    seats.forEach((s, n) => {
      if (n) nets.append(" · ");
      nets.append(element("span", { class: "queue-net" }, words.seats[s] + " " + signed(net[s])));
    });
    return nets;
  }

  function element(tag, attributes, ...children) {
    const el = document.createElement(tag);
    Object.entries(attributes || {}).forEach(([k, v]) => el.setAttribute(k, v));
    children.forEach((child) => el.append(child));
    return el;
  }

  function drawQueue() {
    const list = document.getElementById("offline-queue");
    if (!list || !tableId) return;
    const entry = entryOf(tableId);
    list.replaceChildren();
    (entry ? entry.queue : []).forEach((item, n) => {
      const said = { waiting: words.waiting, sending: words.sending, sent: words.sent, dropped: words.dropped };
      const li = element("li", { "data-queue-key": item.key, "data-queue-state": item.state });
      li.append(element("strong", {}, fill(words.hand, { n: n + 1 })));
      if (item.state === "refused") li.append(" · ", fill(words.refused, { why: item.why || "" }));
      else if (item.state !== "confirm") li.append(" · ", element("span", { class: "queue-state" }, said[item.state] || item.state));
      if (item.state !== "confirm") li.append(seatNets(item.net, seatsOf(item)));
      if (item.state === "confirm") {
        li.append(
          element("p", {}, words.changed),
          element("p", { "data-before": "" }, fill(words.when, { when: words.before }), " ", seatNets(item.net, seatsOf(item))),
          element("p", { "data-now": "" }, fill(words.when, { when: words.now }), " ", seatNets(item.offer.net, seatsOf(item)))
        );
        const yes = element("button", { type: "button", class: "btn-small", "data-queue-confirm": "" }, words.confirm);
        const no = element("button", { type: "button", class: "btn-small", "data-queue-drop": "" }, words.drop);
        yes.addEventListener("click", () => decide(item.key, true));
        no.addEventListener("click", () => decide(item.key, false));
        li.append(yes, " ", no);
      }
      if (item.state === "refused") {
        const no = element("button", { type: "button", class: "btn-small", "data-queue-drop": "" }, words.drop);
        no.addEventListener("click", () => decide(item.key, false));
        li.append(" ", no);
      }
      list.append(li);
    });
    list.hidden = list.children.length === 0;
    list.dataset.syncRounds = String(rounds.get(tableId) || 0); // how many of this table's rounds have ended
  }

  function setItem(id, key, change) {
    changeTable(id, (entry) => {
      const item = entry.queue.find((i) => i.key === key);
      if (item) change(item, entry);
    });
    drawQueue();
  }

  function decide(key, record) {
    setItem(tableId, key, (item) => {
      if (record) {
        Object.assign(item, item.offer, { state: "waiting" });
        delete item.offer;
      } else {
        item.state = "dropped";
        delete item.offer;
      }
    });
    sync(tableId);
  }

  // The table's fields on the calculator, as the server's bound calculator shows them: set and not editable.
  async function fixForm() {
    const fixed = await table("fixed", nextTable(entryOf(tableId)));
    Object.entries(fixed).forEach(([name, value]) => {
      form.querySelectorAll('[name="' + name + '"]').forEach((input) => {
        if (input.type === "radio") input.checked = input.value === String(value);
        else if (input.type === "checkbox") input.checked = !!value;
        else input.value = String(value);
        input.disabled = true;
      });
    });
    const game = form.querySelector('input[name="ruleset"]:checked');
    if (game) game.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function drawBanner() {
    const entry = entryOf(tableId);
    const kept = nextTable(entry);
    let banner = document.getElementById("offline-table");
    if (!banner) {
      banner = element("section", { class: "table-banner", id: "offline-table", "aria-labelledby": "h-offline-table" });
      form.before(banner);
    }
    banner.replaceChildren(
      element("h1", { id: "h-offline-table" }, fill(words.tableTitle, { title: entry.title || "" })),
      element("p", {}, words.dealer + " ", element("strong", {}, kept.players[kept.dealer])),
      element("p", { class: "hint" }, words.tableOffline),
      element("h2", {}, words.queueTitle),
      element("ol", { id: "offline-queue", class: "offline-queue" })
    );
    drawQueue();
  }

  async function bindTable() {
    if (!offlineBound()) return;
    drawBanner();
    await fixForm();
    answerNow();
  }

  async function recordHere() {
    const entry = entryOf(tableId);
    const kept = nextTable(entry);
    const hand = await table("hand", kept, formQuery());
    const booked = await table("record", kept, JSON.stringify(hand));
    if (booked.error) return say(fill(words.refused, { why: booked.error.message }));
    const pending = entry.queue.filter((i) => i.state !== "sent" && i.state !== "dropped").length;
    const item = {
      key: crypto.randomUUID(),
      hand,
      request: booked.request,
      payments: booked.payments,
      net: booked.net,
      seats: booked.seats,
      version: entry.table.version + pending,
      state: "waiting",
    };
    changeTable(tableId, (e) => {
      e.queue.push(item);
      e.local = booked.table;
    });
    drawBanner();
    await fixForm();
    document.getElementById("key-clear").click(); // the next hand
    sync(tableId);
  }

  // "Record this hand": kept in the phone on a calculator bound here, or on the server's bound page while the
  // server is out of reach; otherwise the page's own form sends it.
  document.addEventListener("click", (event) => {
    if (event.target.closest("#record-hand") && boundEntry() && (offlineBound() || serverAway)) {
      event.preventDefault();
      recordHere();
    }
  });

  const samePayments = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const syncing = new Set();
  // Table id -> how many of its rounds (the queue went out, and stopped) have ended: written on its queue when one
  // ends, so that a look at the page knows a round is over (another table's round is none of its business).
  const rounds = new Map();
  // Table id -> {tries, timer}: its next round after a refusal that passes by itself (503 `busy`, 429, a table that
  // could not be read); `tries` counts such rounds in a row.
  const retries = new Map();
  const RETRY_LONGEST_S = 300; // a Retry-After longer than this (a clock gone wrong) is not waited out

  async function send(entry, item) {
    const body = { ...item.request, version: item.version, idempotency_key: item.key };
    return fetch(entry.api + "/hands", {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer " + entry.token },
      body: JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
    });
  }

  const stateOf = (body) => {
    const state = { ...body };
    delete state.hands;
    delete state.events;
    return state;
  };

  // The table as the server holds it now, {table}; or {refusal}: the answer that did not hold it (a 503, a body cut
  // short), whose Retry-After says when to ask again. Throws when the network failed.
  async function tableNow(entry) {
    const response = await fetch(entry.api + "?limit=1", { cache: "no-store", credentials: "same-origin" });
    const fresh = response.ok ? await response.json().catch(() => null) : null;
    return fresh ? { table: stateOf(fresh) } : { refusal: response };
  }

  // How long until the queue goes out again after `refusal`: the server's Retry-After (seconds or a date, API.md),
  // or without one 1, 2, 4 … 60 s; never less than a second (no round after round without a pause).
  function retryDelay(refusal, tries) {
    const said = refusal.headers.get("Retry-After");
    let seconds = NaN;
    if (said !== null) seconds = /^\s*\d+\s*$/.test(said) ? Number(said) : (Date.parse(said) - Date.now()) / 1000;
    if (!Number.isFinite(seconds)) seconds = Math.min(2 ** tries, 60);
    return 1000 * Math.min(Math.max(seconds, 1), RETRY_LONGEST_S);
  }

  // After a round the server stopped with a refusal that passes, the next one once it said to ask again: nothing
  // else would send the queue (the server answered, so it is not away: no probe, no "online" event).
  function retryLater(id, refusal) {
    const before = retries.get(id);
    if (before) clearTimeout(before.timer);
    if (!refusal) {
      retries.delete(id);
      return;
    }
    const tries = before ? before.tries + 1 : 0;
    retries.set(id, { tries, timer: setTimeout(() => sync(id), retryDelay(refusal, tries)) });
  }

  // The hands waiting to send, in order; it stops at one the referee must look at, when the network fails (then
  // probe() starts the next round) or when the server refuses for a while (then its Retry-After does).
  async function sync(id) {
    if (syncing.has(id) || serverAway || !isReady()) return;
    syncing.add(id);
    const pending = retries.get(id);
    if (pending) clearTimeout(pending.timer); // this round is the one it waited for
    let refusal = null; // the answer of a refusal that passes, which stopped this round
    try {
      for (;;) {
        const entry = entryOf(id);
        const open = entry ? entry.queue.filter((i) => !["sent", "dropped"].includes(i.state)) : [];
        const item = open[0];
        if (!item || item.state === "confirm" || item.state === "refused") break;
        setItem(id, item.key, (i) => { i.state = "sending"; });
        let response;
        let body = {};
        try {
          response = await send(entry, item);
          body = await response.json().catch(() => ({}));
        } catch (error) {
          setItem(id, item.key, (i) => { i.state = "waiting"; });
          serverAway = true; // asked again by probe()
          break;
        }
        const code = body.error && body.error.code;
        if (response.ok) {
          // Recorded. An answer cut short or empty (a connection dropped after the server answered) holds no
          // table: the table is asked for again; without it the kept table and the phone's booking stay as they are.
          const now = body.version !== undefined ? stateOf(body) : (await tableNow(entry).catch(() => ({}))).table;
          setItem(id, item.key, (i, e) => {
            i.state = "sent";
            if (!now) return;
            e.table = now;
            if (!e.queue.some((other) => ["waiting", "sending", "confirm", "refused"].includes(other.state))) e.local = null;
          });
          continue;
        }
        if (response.status === 409 && code === "stale") {
          let now;
          try {
            now = await tableNow(entry);
          } catch (error) {
            setItem(id, item.key, (i) => { i.state = "waiting"; });
            serverAway = true; // asked again by probe()
            break;
          }
          if (!now.table) {
            setItem(id, item.key, (i) => { i.state = "waiting"; });
            refusal = now.refusal;
            break;
          }
          const fresh = now.table;
          changeTable(id, (e) => { e.table = fresh; });
          const again = await table("record", fresh, JSON.stringify(item.hand));
          if (again.error) {
            setItem(id, item.key, (i) => { i.state = "refused"; i.why = again.error.message; });
            break;
          }
          const rescored = { request: again.request, payments: again.payments, net: again.net, version: fresh.version };
          if (samePayments(again.payments, item.payments)) {
            setItem(id, item.key, (i) => { Object.assign(i, rescored, { state: "waiting" }); });
            continue;
          }
          setItem(id, item.key, (i) => { i.state = "confirm"; i.offer = rescored; });
          break;
        }
        if (response.status >= 500 || response.status === 429) {
          setItem(id, item.key, (i) => { i.state = "waiting"; });
          refusal = response;
          break;
        }
        setItem(id, item.key, (i) => { i.state = "refused"; i.why = (body.error && body.error.message) || String(response.status); });
        break;
      }
    } finally {
      syncing.delete(id);
      rounds.set(id, (rounds.get(id) || 0) + 1);
      retryLater(id, refusal);
      if (id === tableId && offlineBound()) {
        drawBanner();
        fixForm();
      }
    }
  }

  function syncAll() {
    Object.keys(keptTables()).forEach((id) => sync(id));
  }

  window.addEventListener("online", syncAll);
  document.addEventListener("offline:ready", () => {
    bindTable();
    syncAll();
  });

  // ------------------------------------------------------------------ the trainer offline
  //
  // While the server is out of reach, the trainer's links and its answer form are answered in the phone: the
  // question dealt from the link, graded and drawn by the server's own Python (calculator/presentation/trainer/,
  // jinja2/trainer.html), swapped in as htmx swaps the server's (#trainer, so trainer.js counts it), the address
  // the link's. Online, the server answers as before. A trainer page opened offline comes from the pack's cache
  // with the question it was kept with: until the phone has drawn the page's own link it is dimmed and inert. It
  // is kept at install and again each time the trainer opens online: offline, it speaks the language seen last.

  const trainerShell = document.querySelector(".trainer-shell");
  const trainerSection = () => document.getElementById("trainer");
  const linkOf = (path) => new URL(path, location.href).search.replace(/^\?/, "");

  async function drawTrainer(link, how) {
    const reply = await ask({ type: "trainer", query: link, lang: pageLang() });
    const drawn = JSON.parse(reply.json);
    const address = location.pathname + "?" + drawn.link;
    if (how === "push") history.pushState({ offlineTrainer: true }, "", address);
    else history.replaceState({ offlineTrainer: true }, "", address);
    window.htmx.swap(trainerSection(), drawn.html, { swapStyle: "outerHTML" });
    if (how === "push") window.scrollTo(0, 0);
    root.dataset.offlineTrainer = drawn.link; // the link the phone drew last
  }

  function drawnHere(link) {
    const section = trainerSection();
    return section && section.dataset.link === link;
  }

  async function trainerReady() {
    const section = trainerSection();
    if (!trainerShell || !section) return;
    if (!drawnHere(linkOf(location.href))) {
      try {
        await drawTrainer(linkOf(location.href), "replace");
      } finally {
        const now = trainerSection();
        if (now) now.inert = false;
        if (now) now.classList.remove("is-stale");
      }
    }
  }

  function refreshTrainerPage() {
    const current = kept();
    if (!trainerShell || !current || !drawnHere(linkOf(location.href))) return;
    caches.open(cacheName(current.version))
      .then((cache) => keepTrainerPage(cache, location.href))
      .then(() => { root.dataset.offlineTrainerKept = root.lang; }) // in the language seen last, as the other pages
      .catch(() => {});
  }

  if (trainerShell) {
    // a kept page of another question: not to be answered until the phone has drawn this link's
    const section = trainerSection();
    if (section && !drawnHere(linkOf(location.href))) {
      section.inert = true;
      section.classList.add("is-stale");
    }
    trainerShell.addEventListener("htmx:beforeRequest", (event) => {
      if (!serverAway || !isReady()) return;
      event.preventDefault();
      drawTrainer(linkOf(event.detail.pathInfo.finalRequestPath), "push");
    });
    // the network went away since the server last answered: the phone answers that link
    trainerShell.addEventListener("htmx:sendError", (event) => {
      serverAway = true;
      if (isReady()) drawTrainer(linkOf(event.detail.pathInfo.finalRequestPath), "push");
    });
    window.addEventListener("popstate", (event) => {
      if (!event.state || !event.state.offlineTrainer) return;
      if (serverAway && isReady()) drawTrainer(linkOf(location.href), "replace");
      else location.reload(); // an address the phone drew, back online: the server's page of it
    });
    document.addEventListener("offline:ready", trainerReady);
  }

  // ------------------------------------------------------------------ wiring

  window.offlinePack = {
    // the engine's answer to an API.md request, as the text the phone wrote (sorted keys), or parsed
    scoreText: (request, lang) => ask({ type: "score", request: JSON.stringify(request), lang }).then((r) => r.json),
    score: (request, lang) => window.offlinePack.scoreText(request, lang).then(JSON.parse),
    // the strip and the card the phone draws for the calculator's fields (JSON text: card, strip, share_query)
    draw: (query, lang, where) => ask({ type: "answer", query, lang, context: where }).then((r) => r.json),
    // the answer the phone draws for the fields of the page of who takes a discard (JSON text: html, share_query)
    claims: (query, lang, where) => ask({ type: "claims", query, lang, context: where }).then((r) => r.json),
    // the verdict's picture the phone draws for a share link's query (SVG text: static/js/picture.js)
    picture: (query, lang, origin) => ask({ type: "picture", query, lang, origin }).then((r) => r.svg),
    // the trainer's question the phone draws for a trainer link (JSON text: html, link)
    trainer: (link, lang) => ask({ type: "trainer", query: link, lang }).then((r) => r.json),
    answer: answerNow,
    ready: () => ready,
    state: () => ({ serverAway, syncing: Array.from(syncing), rounds: Object.fromEntries(rounds), retrying: Array.from(retries.keys()) }), // for a look from the console
    start: startEngine,
  };

  if (offer) {
    part("install").addEventListener("click", installFromServer);
    part("remove").addEventListener("click", remove);
  }
  if (kept()) {
    startEngine().catch((error) => {
      say((words.failed || "%(why)s").replace("%(why)s", error.message));
      const section = trainerSection();
      if (section) section.inert = false; // what the page shows is all there is
    });
  }
  else if (offer && offer.dataset.asked) installFromServer();
})();
