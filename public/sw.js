// The service worker (issue 14 §4). Served from the site's root (settings.WHITENOISE_ROOT), so that its scope
// covers every page; registered by static/js/boot.js.
//
// After the first visit the calculator's page, the rules page and "my tables" open without a network: the tile
// keyboard, the seats and the flags work there, and the rules page reads as it was. Answers need the server (the
// strip says so when it cannot be reached) unless this phone keeps the offline pack (issue 22, static/js/
// offline.js): its parts live in caches of their own ("mahjong-offline-pack-<version>"), put there by the page
// after their hashes were checked, and are answered from there, with the trainer's page (offline.js keeps a copy
// there: the phone draws its questions). Nothing else is kept: table pages carry edit tokens and live figures.
// Any other page of the site asked for without a network (the trainer without the pack, a table's pages) gets
// the app's own page saying so (no-network/, kept with the pages), not the browser's error page.
"use strict";

const CACHE = "mahjong-offline-v2";
const PACK_CACHES = "mahjong-offline-pack-"; // the offline pack's, kept and dropped by offline.js alone
// The pages kept for offline use, relative to this file (the site's root).
const PAGES = ["./", "./rules/", "./tables/"];
// The pages kept with the offline pack only, by offline.js in the pack's cache: offline, the phone draws their
// content (the trainer's questions); without the pack they need the server.
const PACK_PAGES = ["./trainer/", "./claims/"];
const NO_NETWORK = "./no-network/"; // the app's page for the site's other pages while there is no network

const scoped = (path) => new URL(path, self.registration.scope).href;
const isPage = (url) => PAGES.some((page) => scoped(page) === url.origin + url.pathname);
const isPackPage = (url) => PACK_PAGES.some((page) => scoped(page) === url.origin + url.pathname);
const isStatic = (url) => url.origin === self.location.origin && url.pathname.includes("/static/");
// The pack's parts: the runtime (static files under offline/) and the app (under the site's offline/).
const isPack = (url) =>
  url.origin === self.location.origin && (url.pathname.includes("/static/offline/") || url.pathname.startsWith(scoped("./offline/").slice(url.origin.length)));

// The static files a page links to (scripts, styles, the tile sprite), by their hashed names.
function assetsOf(html, base) {
  const found = new Set();
  for (const match of html.matchAll(/(?:src|href)="([^"#?]+)/g)) {
    const url = new URL(match[1], base);
    if (isStatic(url)) found.add(url.href);
  }
  return Array.from(found);
}

async function keepPage(cache, url) {
  const response = await fetch(url, { credentials: "same-origin" });
  if (!response.ok) return;
  const html = await response.clone().text();
  await cache.put(url, response);
  await cache.addAll(assetsOf(html, url));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE)
      .then((cache) => Promise.all([...PAGES, NO_NETWORK].map((page) => keepPage(cache, scoped(page)))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) =>
        Promise.all(names.filter((name) => name !== CACHE && !name.startsWith(PACK_CACHES)).map((name) => caches.delete(name)))
      )
      .then(() => self.clients.claim())
  );
});

// Static files: from the cache first (their names change with their content). The two pages: from the network
// first (kept fresh), from the cache when offline; a calculator link with a hand opens the kept calculator then,
// which puts the link's hand into its fields (static/js/calculator.js). Other pages: orNoNetwork below.
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (isPack(url) && url.pathname.endsWith("/offline/pack.json")) {
    // the pack's manifest: offline.js asks it to learn whether the server is back (no answer: 204, not an error)
    event.respondWith(fetch(request).catch(() => new Response(null, { status: 204, headers: { "X-Offline": "away" } })));
  } else if (isPack(url)) {
    // from the pack's caches (never copied into this worker's own); a download asks the network ("reload")
    if (request.cache === "reload" || request.cache === "no-store") return;
    event.respondWith(caches.match(request, { ignoreVary: true }).then((kept) => kept || fetch(request)));
  } else if (isStatic(url)) {
    event.respondWith(
      caches.match(request, { ignoreVary: true }).then((kept) => kept || fetch(request).then((response) => keep(request, response)))
    );
  } else if (request.headers.get("HX-Request") === "true" && isPage(url)) {
    // A tap's answer from the server. Offline, a phone that keeps the pack has answered it already (offline.js):
    // "nothing new" (204, which htmx does not swap) instead of a network error; without the pack the error
    // stands and the strip says the answer needs the server.
    event.respondWith(
      fetch(request).catch(async (error) => {
        const names = await caches.keys();
        if (!names.some((name) => name.startsWith(PACK_CACHES))) throw error;
        return new Response(null, { status: 204, headers: { "X-Offline": "answered-in-the-phone" } });
      })
    );
  } else if (request.mode === "navigate" && isPackPage(url)) {
    // from the network; offline, the copy kept with the pack (any question: offline.js draws the link's own; the
    // page of who takes a discard, the copy drawn for the link's game and table size: claims.js puts the rest of
    // the link's fields in)
    event.respondWith(fetch(request).catch((error) => keptCopyOf(url).then((kept) => kept || noNetwork(error))));
  } else if (request.mode === "navigate" && isPage(url)) {
    event.respondWith(
      fetch(request)
        .then((response) => {
          event.waitUntil(keepNoNetworkIn(response.headers.get("Content-Language")));
          return url.search ? response : keep(request, response);
        })
        .catch(() => caches.match(url.origin + url.pathname, { ignoreVary: true }))
    );
  } else if (request.mode === "navigate" && url.origin === self.location.origin) {
    event.respondWith(orNoNetwork(request));
  }
});

// The copy of a pack's page kept for a link: the one kept under the link's game and table size (as a share link
// writes them: the size where the game plays more than one), else under its game, else the page's own (offline.js
// keeps them: the pack manifest's `pages`).
async function keptCopyOf(url) {
  const game = url.searchParams.get("ruleset");
  const size = url.searchParams.get("players");
  const keys = [];
  if (game && size) keys.push("?" + new URLSearchParams({ ruleset: game, players: size }));
  if (game) keys.push("?" + new URLSearchParams({ ruleset: game }));
  keys.push("");
  for (const key of keys) {
    const kept = await caches.match(url.origin + url.pathname + key, { ignoreVary: true });
    if (kept) return kept;
  }
  return undefined;
}

// ------------------------------------------------------------------ the app's page for "no network"
// (issue 21 §10) The trainer, a table's pages and any other page of the site that is not kept: from the network,
// or, without one, the app's own page saying the page needs the network (with links to what works offline)
// instead of the browser's error page. It is kept at install and again whenever a kept page comes in another
// language than the kept copy's (the language switch), so it speaks the language last seen.

function orNoNetwork(request) {
  return fetch(request).catch(noNetwork);
}

function noNetwork(error) {
  return caches.match(scoped(NO_NETWORK), { ignoreVary: true }).then((kept) => kept || Promise.reject(error));
}

async function keepNoNetworkIn(language) {
  if (!language) return;
  const cache = await caches.open(CACHE);
  const kept = await cache.match(scoped(NO_NETWORK), { ignoreVary: true });
  if (!kept || kept.headers.get("Content-Language") !== language) await keepPage(cache, scoped(NO_NETWORK));
}

function keep(request, response) {
  if (response.ok && !response.headers.get("Cache-Control")?.includes("no-store")) {
    const copy = response.clone();
    caches.open(CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}
