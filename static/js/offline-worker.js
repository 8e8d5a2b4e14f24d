// The engine in the phone (issue 22): Pyodide runs the app's own Python (the offline pack, built by
// `manage.py build_offline_pack`) in this Web Worker, so the page stays responsive while it loads and while it
// scores. Started by static/js/offline.js; every file it reads was checked against the pack's SHA-256 when it was
// kept (offline.js) and comes from the service worker's cache when there is no network.
//
// Messages (page -> worker, each with an `id` the answer repeats):
//   {type: "load", id, runtime, lock, app, snapshot}  -> {type: "ready", id, how: "snapshot" | "fresh", ms}
//   {type: "score", id, request, lang}                -> {type: "scored", id, json}      (API.md, sorted keys)
//   {type: "answer", id, query, lang, context}        -> {type: "answered", id, json}    (card, strip, share_query)
//   {type: "table", id, action, table, hand, lang}    -> {type: "tabled", id, json}      (calculator/offline/table.py)
//   {type: "trainer", id, query, lang}                -> {type: "trained", id, json}     (html, link: the trainer)
//   {type: "claims", id, query, lang, context}        -> {type: "settled", id, json}     (html, share_query: claims)
//   {type: "picture", id, query, lang, origin}        -> {type: "pictured", id, svg}     (the verdict's picture)
// and {type: "failed", id, message} when something went wrong.
//
// Loading the interpreter and importing the app takes seconds on a phone; what it leaves in memory is kept as a
// snapshot of the WebAssembly memory (Pyodide's memory snapshots), made here in the phone the first time and kept
// beside the pack (never downloaded): the next start restores it in a fraction of that time. A snapshot that
// cannot be restored (another runtime, a damaged copy) is dropped and made again.
"use strict";

let phone = null; // the Python side: calculator.offline.phone.Phone
let loading = null;

async function bytesOf(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) throw new Error("cannot read " + url + ": " + response.status);
  return new Uint8Array(await response.arrayBuffer());
}

async function keptSnapshot(url) {
  const kept = await caches.match(url);
  if (!kept) return null;
  const stream = kept.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function keepSnapshot(cacheName, url, bytes) {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  const cache = await caches.open(cacheName);
  await cache.put(url, new Response(stream, { headers: { "Content-Type": "application/octet-stream" } }));
}

async function start(py, app) {
  py.unpackArchive(app, "zip", { extractDir: "/app" });
  py.runPython("import sys\nif '/app' not in sys.path: sys.path.insert(0, '/app')");
}

async function load(message) {
  const begun = performance.now();
  const { loadPyodide } = await import(message.runtime + "pyodide.mjs");
  const options = { indexURL: message.runtime, lockFileContents: { info: message.lock, packages: {} } };
  const app = await bytesOf(message.app);
  const snapshot = await keptSnapshot(message.snapshot.url).catch(() => null);
  if (snapshot) {
    try {
      const py = await loadPyodide({ ...options, _loadSnapshot: snapshot });
      await start(py, app);
      phone = py.globals.get("phone");
      phone.warm(); // proves the restored interpreter answers, and compiles what a tap runs
      return { how: "snapshot", ms: performance.now() - begun };
    } catch (error) {
      console.warn("offline pack: the kept snapshot did not start (" + error + "); loading afresh");
      phone = null;
      const cache = await caches.open(message.snapshot.cache);
      await cache.delete(message.snapshot.url);
    }
  }
  const py = await loadPyodide({ ...options, _makeSnapshot: true });
  await start(py, app);
  py.runPython("from calculator.offline.start import started\nphone = started('/app')");
  const memory = py.makeMemorySnapshot();
  phone = py.globals.get("phone");
  await keepSnapshot(message.snapshot.cache, message.snapshot.url, memory).catch(() => {});
  return { how: "fresh", ms: performance.now() - begun };
}

const now = () => performance.timeOrigin + performance.now(); // the page's clock too (for its performance marks)

self.addEventListener("message", async (event) => {
  const message = event.data;
  const received = now();
  try {
    if (message.type === "load") {
      loading = loading || load(message);
      const done = await loading;
      self.postMessage({ type: "ready", id: message.id, ...done });
    } else if (message.type === "score") {
      self.postMessage({ type: "scored", id: message.id, json: phone.score(message.request, message.lang) });
    } else if (message.type === "table") {
      const json = phone.table(message.action, message.table, message.hand, message.lang);
      self.postMessage({ type: "tabled", id: message.id, json });
    } else if (message.type === "claims") {
      self.postMessage({ type: "settled", id: message.id, json: phone.claims(message.query, message.lang, message.context) });
    } else if (message.type === "picture") {
      self.postMessage({ type: "pictured", id: message.id, svg: phone.picture(message.query, message.lang, message.origin) });
    } else if (message.type === "trainer") {
      self.postMessage({ type: "trained", id: message.id, json: phone.trainer(message.query, message.lang) });
    } else if (message.type === "answer") {
      const begun = now();
      const json = phone.answer(message.query, message.lang, message.context);
      const done = now();
      self.postMessage({ type: "answered", id: message.id, json, ms: done - begun, at: [received, begun, done] });
    }
  } catch (error) {
    if (message.type === "load") loading = null;
    self.postMessage({ type: "failed", id: message.id, message: String(error && error.message ? error.message : error) });
  }
});
