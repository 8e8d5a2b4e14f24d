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
  const words = offer ? offer.dataset : {};

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
  async function download(manifest, cache, onBytes) {
    for (const item of manifest.parts) {
      const url = new URL(item.url, location.href).href;
      const have = await cache.match(url);
      if (have && (await sha256(await have.clone().arrayBuffer())) === item.sha256) {
        onBytes(item.size);
        continue;
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
      if ((await sha256(await body.arrayBuffer())) !== item.sha256) throw new Error(words.textDamaged || "damaged");
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
      say((words.textDownloading || "%(percent)s%").replace("%(percent)s", Math.floor((100 * done) / total)));
    });
    progress(0, 0);
    const before = kept();
    keep(manifest);
    await dropOthers(manifest.version);
    if (before && before.version !== manifest.version) stopEngine();
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
    say(words.textStarting);
    try {
      await install(await fetchManifest());
      showInstalled(true);
      say(words.textPreparing);
      await startEngine();
    } catch (error) {
      progress(0, 0);
      say((words.textFailed || "%(why)s").replace("%(why)s", error.message || String(error)));
    } finally {
      part("install").disabled = false;
    }
  }

  async function remove() {
    stopEngine();
    keep(null);
    await dropOthers("");
    showInstalled(false);
    say(words.textRemoved);
  }

  // Online, a page served with another pack's version (the server's) replaces the kept one.
  async function refresh(manifest) {
    if (!offer || !navigator.onLine || offer.dataset.version === manifest.version) return manifest;
    try {
      const fresh = await fetchManifest();
      if (fresh.version === manifest.version) return manifest;
      say(words.textUpdating);
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
    root.dataset.offlineReadyMs = String(Math.round(done.ms));
    showInstalled(true);
    say(words.textReady);
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

  // ------------------------------------------------------------------ answers on the calculator

  const form = document.getElementById("calc");
  let asked = 0; // the latest question to the phone
  let serverAnswered = ""; // the query whose server answer was swapped in last
  let phoneAnswer = null; // {query, nets} of the last answer drawn from the phone

  // The fields as htmx sends them (hx-params="not csrfmiddlewaretoken"; disabled fields are not sent).
  function formQuery() {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) {
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
      table: window.offlineTable ? window.offlineTable.binding() : null,
    });
  }

  async function answerNow() {
    if (!form || !isReady()) return;
    const query = formQuery();
    const mine = ++asked;
    let reply;
    try {
      reply = JSON.parse((await ask({ type: "answer", query, lang: root.lang.startsWith("en") ? "en" : "zh", context: context() })).json);
    } catch (error) {
      return; // the server's answer (or its "no connection") stands
    }
    if (mine !== asked || serverAnswered === query) return; // a newer tap, or the server was quicker
    document.getElementById("result").innerHTML = reply.card;
    document.getElementById("strip").innerHTML = reply.strip;
    phoneAnswer = { query, nets: stripNets() };
    if (reply.share_query !== undefined) history.replaceState(history.state, "", reply.page + reply.share_query);
    form.dispatchEvent(new CustomEvent("calc:answered", { bubbles: true, detail: { from: "phone" } }));
  }

  if (form) {
    form.addEventListener("calc:update", answerNow);
    form.addEventListener("calc:typed", answerNow);
    // Offline (as the browser knows it) the server is not asked: the phone answers.
    document.body.addEventListener("htmx:beforeRequest", (event) => {
      if (isReady() && !navigator.onLine && event.detail.elt === form) event.preventDefault();
    });
    document.body.addEventListener("htmx:beforeSwap", (event) => {
      if (event.detail.target && event.detail.target.id === "result") serverAnswered = formQuery();
    });
    document.body.addEventListener("htmx:afterSwap", (event) => {
      if (!event.detail.target || event.detail.target.id !== "result" || !phoneAnswer) return;
      if (phoneAnswer.query === serverAnswered && phoneAnswer.nets !== stripNets()) {
        root.dataset.offlineDiffers = phoneAnswer.query;
        console.error("offline pack: the phone answered " + phoneAnswer.nets + ", the server " + stripNets());
      }
      phoneAnswer = null;
    });
    form.addEventListener("calc:update", () => { serverAnswered = ""; }, true);
    form.addEventListener("calc:typed", () => { serverAnswered = ""; }, true);
  }

  // ------------------------------------------------------------------ wiring

  window.offlinePack = {
    // the engine's answer to an API.md request, as the text the phone wrote (sorted keys), or parsed
    scoreText: (request, lang) => ask({ type: "score", request: JSON.stringify(request), lang }).then((r) => r.json),
    score: (request, lang) => window.offlinePack.scoreText(request, lang).then(JSON.parse),
    answer: answerNow,
    ready: () => ready,
    start: startEngine,
  };

  if (offer) {
    part("install").addEventListener("click", installFromServer);
    part("remove").addEventListener("click", remove);
  }
  if (kept()) startEngine().catch((error) => say((words.textFailed || "%(why)s").replace("%(why)s", error.message)));
  else if (offer && offer.dataset.asked) installFromServer();
})();
