// Who takes the discard (issue 29): the tile keyboard fills one claimant's fields at a time (S_hand, S_meld1,
// S_meld1_tiles, S_meld1_from …), the discarded tile (`tile`) and the wild tile, so the form stays the single
// source of truth and works the same without this script; every change asks the server for the answer
// (#claims-answer, htmx), and the address becomes its share link. The tile notation is calculator.js's (loaded before
// this script: window.Notation).
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const form = $("claims");
  const textNode = $("claims-text");
  if (!form || !textNode) return;
  const T = JSON.parse(textNode.textContent);
  const { parse, notation } = window.Notation;
  const HONOURS = "ESWNCFP"; // no chow of them
  const field = (name) => form.elements.namedItem(name);
  const radio = (name) => (form.querySelector('input[name="' + name + '"]:checked') || {}).value || "";
  const KONGS = ["kong_exposed", "kong_added", "kong_concealed"];
  const MAX_MELDS = T.concealedSizes.length - 1; // the meld slots of a claimant
  const panels = {};
  form.querySelectorAll("[data-claim-panel]").forEach((p) => { panels[p.dataset.claimPanel] = p; });
  const SEATS = Object.keys(panels); // the table's, in play order

  // ------------------------------------------------------------------ each claimant's tiles <-> its fields

  const hands = {}; // seat -> {hand: [tiles], melds: [{type, tiles, from}]}
  const own = (seat, name) => field(seat + "_" + name);

  function read(seat) {
    const melds = [];
    for (let n = 1; n <= MAX_MELDS; n++) {
      const type = own(seat, "meld" + n).value;
      const tiles = parse(own(seat, "meld" + n + "_tiles").value);
      if (type && tiles && tiles.length) melds.push({ type, tiles, from: own(seat, "meld" + n + "_from").value });
    }
    hands[seat] = { hand: parse(own(seat, "hand").value) || [], melds };
  }

  function put(input, value) {
    if (input.value !== value) input.value = value;
  }

  function write(seat) {
    const h = hands[seat];
    put(own(seat, "hand"), notation(h.hand));
    for (let n = 1; n <= MAX_MELDS; n++) {
      const m = h.melds[n - 1];
      put(own(seat, "meld" + n), m ? m.type : "");
      put(own(seat, "meld" + n + "_tiles"), m ? notation(m.tiles) : "");
      put(own(seat, "meld" + n + "_from"), m && m.type !== "kong_concealed" ? m.from || "" : "");
    }
  }

  // every tile on the table so far: the claimants' hands and melds and the discard (at most four of a kind)
  function counts() {
    const c = {};
    const add = (t) => (c[t] = (c[t] || 0) + 1);
    SEATS.forEach((seat) => {
      hands[seat].hand.forEach(add);
      hands[seat].melds.forEach((m) => m.tiles.forEach(add));
    });
    if (field("tile").value) add(field("tile").value);
    return c;
  }
  const capacity = (seat) => T.concealedSizes[hands[seat].melds.length];

  // ------------------------------------------------------------------ taps

  let active = null; // the claimant the keyboard fills
  let mode = "hand";

  function say(text) {
    $("mode-hint").textContent = text || "";
  }

  function setMode(next) {
    mode = next;
    form.querySelectorAll("[data-mode]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === next)));
    if (next === "tile") say(T.discardFirst);
    updateKeys();
  }

  function pick(seat) {
    active = seat;
    SEATS.forEach((s) => {
      panels[s].classList.toggle("is-active", s === seat);
      const button = panels[s].querySelector("[data-pick]");
      if (button) button.setAttribute("aria-pressed", String(s === seat));
    });
    if (seat && mode !== "tile") say(T.editing.replace("%(seat)s", T.seats[seat]));
    sayCount();
    updateKeys();
  }

  const discarder = () => radio("discarder");
  const upperOf = (seat) => SEATS[(SEATS.indexOf(seat) + SEATS.length - 1) % SEATS.length];

  function tap(tile) {
    if (mode === "tile") {
      field("tile").value = tile;
      setMode("hand");
      pick(active);
      return changed();
    }
    const option = T.tileOptions.find((o) => o.id === mode);
    if (option) {
      field(option.id).value = tile;
      // an option that decides another and the one it decides say the same thing: the last one tapped counts
      T.tileOptions.forEach((o) => { if (o.id !== option.id && (o.gives === option.id || option.gives === o.id)) field(o.id).value = ""; });
      setMode("hand");
      return changed();
    }
    if (!active) return;
    const h = hands[active];
    const c = counts();
    if (mode === "hand") {
      if ((c[tile] || 0) >= 4) return say(T.noCopies.replace("%(tile)s", T.tileNames[tile]));
      if (h.hand.length >= capacity(active)) return say(T.full);
      h.hand.push(tile);
      return changed(active);
    }
    if (h.melds.length >= MAX_MELDS) return say(T.tooManyMelds);
    let tiles;
    if (mode === "chow") {
      if (HONOURS.includes(tile) || Number(tile[0]) > 7) return;
      tiles = [0, 1, 2].map((k) => Number(tile[0]) + k + tile[1]);
    } else {
      tiles = Array(KONGS.includes(mode) ? 4 : 3).fill(tile);
    }
    for (const t of tiles) {
      if ((c[t] || 0) + tiles.filter((x) => x === t).length > 4) return say(T.noCopies.replace("%(tile)s", T.tileNames[t]));
    }
    // who fed it: a chow the 上家; another exposed meld the discarder, or the 上家
    const from = mode === "kong_concealed" ? "" : mode !== "chow" && discarder() && discarder() !== active ? discarder() : upperOf(active);
    h.melds.push({ type: mode, tiles, from });
    setMode("hand");
    return changed(active);
  }

  function undo() {
    if (!active) return;
    const h = hands[active];
    if (h.hand.length) h.hand.pop();
    else h.melds.pop();
    changed(active);
  }

  function clearSeat() {
    if (!active) return;
    hands[active] = { hand: [], melds: [] };
    changed(active);
  }

  // ------------------------------------------------------------------ drawing

  function picture(tile, small) {
    const span = document.createElement("span");
    span.className = (small ? "tile tile-s t-" : "tile t-") + tile;
    span.setAttribute("role", "img");
    span.setAttribute("aria-label", T.tileNames[tile]);
    return span;
  }

  function render(seat) {
    const panel = panels[seat];
    const h = hands[seat];
    const tiles = panel.querySelector("[data-hand-tiles]");
    tiles.replaceChildren(...parse(notation(h.hand)).map((t) => { // sorted as the notation sorts them
      const b = document.createElement("button");
      b.type = "button";
      b.className = "tile-btn";
      b.setAttribute("aria-label", T.remove.replace("%(tile)s", T.tileNames[t]));
      b.append(picture(t));
      b.addEventListener("click", () => {
        h.hand.splice(h.hand.indexOf(t), 1);
        pick(seat);
        changed(seat);
      });
      return b;
    }));
    panel.querySelector("[data-hand-melds]").replaceChildren(...h.melds.map((m, i) => {
      const chip = document.createElement("span");
      chip.className = "meld-chip";
      const name = document.createElement("span");
      name.className = "meld-name";
      name.textContent = T.meldNames[m.type];
      const x = document.createElement("button");
      x.type = "button";
      x.className = "meld-x";
      x.textContent = "×";
      x.setAttribute("aria-label", T.remove.replace("%(tile)s", T.meldNames[m.type]));
      x.addEventListener("click", () => { h.melds.splice(i, 1); changed(seat); });
      chip.append(name, ...m.tiles.map((t) => picture(t, true)), x);
      return chip;
    }));
    const have = h.hand.length;
    panel.querySelector("[data-count]").textContent = have || h.melds.length ? have + " / " + capacity(seat) : "";
    if (seat === active) sayCount();
  }

  // the bar over the keys: whose hand the taps fill, and how far it is
  function sayCount() {
    $("hand-count").textContent = active ? T.seats[active] + " " + hands[active].hand.length + " / " + capacity(active) : "";
  }

  function fold(folded) {
    $("keyboard").classList.toggle("is-folded", folded);
    $("key-toggle").setAttribute("aria-expanded", String(!folded));
  }

  function renderDiscard() {
    const tile = field("tile").value;
    $("discard-shown").replaceChildren(...(tile ? [picture(tile)] : []));
  }

  function updateKeys() {
    const c = counts();
    form.querySelectorAll("button[data-tile]").forEach((key) => {
      const t = key.dataset.tile;
      let off = false;
      if (mode === "hand" || mode === "tile") off = (c[t] || 0) >= 4;
      else if (mode === "chow") off = HONOURS.includes(t) || Number(t[0]) > 7;
      else if (!T.tileOptions.some((o) => o.id === mode)) off = (c[t] || 0) + (KONGS.includes(mode) ? 4 : 3) > 4;
      key.disabled = off;
    });
  }

  // The discarder claims nothing: its panel says so, and the keyboard fills the next claimant.
  function showDiscarder() {
    const d = discarder();
    SEATS.forEach((s) => panels[s].classList.toggle("is-discarder", s === d));
    if (!active || active === d) pick(SEATS.find((s) => s !== d && hands[s].hand.length) || SEATS.find((s) => s !== d) || null);
  }

  // ------------------------------------------------------------------ asking for the answer

  function fire(typed) {
    form.dispatchEvent(new CustomEvent(typed ? "claims:typed" : "claims:update", { bubbles: true }));
  }

  function changed(seat) {
    if (seat) {
      write(seat);
      render(seat);
    }
    renderDiscard();
    showDiscarder();
    updateKeys();
    fire();
  }

  // The game or the table's size changes the seats, the keys and the options: the page is drawn again for it.
  function reload() {
    const query = new URLSearchParams();
    for (const [name, value] of new FormData(form)) if (value !== "") query.append(name, value);
    window.location.assign(form.getAttribute("action") + "?" + query.toString());
  }

  function copyLink(button) {
    $("share-url").select();
    $("copy-status").textContent = T.selected;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(button.dataset.url).then(() => { $("copy-status").textContent = T.copied; }, () => {});
    }
  }

  // What a tap on the page does, by what it tapped (the first that matches).
  const TAPS = [
    ["button[data-tile]", (b) => tap(b.dataset.tile)],
    ["button[data-mode], button[data-mode-switch]", (b) => {
      const m = b.dataset.mode || b.dataset.modeSwitch;
      setMode(mode === m && m !== "hand" ? "hand" : m);
    }],
    ["[data-pick]", (b) => { fold(false); pick(b.dataset.pick); }],
    ["#key-toggle", () => fold(!$("keyboard").classList.contains("is-folded"))],
    ["#key-undo", undo],
    ["#key-clear", clearSeat],
    ["#copy-link", copyLink],
  ];
  form.addEventListener("click", (e) => {
    for (const [selector, act] of TAPS) {
      const target = e.target.closest(selector);
      if (target) return act(target);
    }
  });

  const OWN = /^([ESWN])_(hand|meld\d(_tiles|_from)?)$/;
  form.addEventListener("input", (e) => {
    const name = e.target.name || "";
    if (T.reloads.includes(name)) return reload();
    const typed = name.match(OWN);
    if (typed) {
      read(typed[1]);
      render(typed[1]);
      updateKeys();
      return fire(true);
    }
    if (name === "tile") renderDiscard();
    if (name === "discarder") showDiscarder();
    updateKeys();
    fire();
  });

  // ------------------------------------------------------------------ the answer

  // The address becomes the answer's share link (the server's HX-Replace-Url) once the answer is on screen.
  if (window.htmx) window.htmx.config.historyEnabled = false;
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (e.target.id !== "claims-answer") return;
    const url = e.detail.xhr && e.detail.xhr.getResponseHeader("HX-Replace-Url");
    if (url) requestAnimationFrame(() => setTimeout(() => history.replaceState(history.state, "", url)));
  });
  // Offline, or the server did not answer: said where the answer goes (unless this phone answers: offline.js)
  document.body.addEventListener("htmx:sendError", () => {
    if (document.documentElement.hasAttribute("data-offline-ready")) return;
    const note = document.createElement("p");
    note.className = "card problem";
    note.dataset.offline = "";
    note.textContent = T.offline;
    $("claims-answer").replaceChildren(note);
  });
  // The other language keeps the claims: the switch returns to the address as it is now.
  document.querySelectorAll("form.lang-switch").forEach((switcher) =>
    switcher.addEventListener("submit", () => { switcher.elements.namedItem("next").value = location.pathname + location.search; })
  );

  // A link opened without a network: the service worker gave the page kept for its game and table size (drawn for
  // another address: data-query), so the link's fields go into the form here, as the server fills them online;
  // the answer is then asked for (the phone's offline pack draws it).
  function fromAddress() {
    const pairs = (query) => Array.from(new URLSearchParams(query)).map((p) => p.join("=")).sort().join("&");
    if (form.dataset.query === undefined || pairs(form.dataset.query) === pairs(location.search)) return false;
    const asked = new URLSearchParams(location.search);
    form.querySelectorAll("input[name], select[name]").forEach((input) => {
      if (input.disabled) return;
      const values = asked.getAll(input.name);
      if (input.type === "radio") {
        if (values.length) input.checked = values.includes(input.value);
      } else if (input.type === "checkbox") input.checked = values.includes(input.value);
      else input.value = values.length ? values[values.length - 1] : "";
    });
    return true;
  }

  const fromLink = fromAddress();
  form.querySelectorAll(".claim-notation").forEach((box) => { box.open = false; }); // the keyboard enters the hands
  SEATS.forEach((seat) => { read(seat); render(seat); });
  renderDiscard();
  setMode(field("tile").value ? "hand" : "tile");
  showDiscarder();
  // A link opened with its answer (every claim entered): the keyboard folded to its bar, the answer in view.
  const answer = $("claims-answer").querySelector("[data-claims='answer']");
  if (answer) fold(true);
  if (answer && !location.hash) answer.scrollIntoView({ block: "start" });
  if (fromLink) fire(); // the link's own answer (its fields are not the page's)
})();
