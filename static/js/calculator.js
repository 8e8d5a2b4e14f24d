// The tile keyboard: taps become the form's own fields (hand, win_tile, meldN, meldN_tiles, meldN_from),
// so the form stays the single source of truth and works the same without this script.
(function () {
  "use strict";

  // ------------------------------------------------------------------ notation

  const HONOURS = "ESWNCFP";

  function indexOf(tile) {
    if (HONOURS.includes(tile)) return 27 + HONOURS.indexOf(tile);
    return "mps".indexOf(tile[1]) * 9 + Number(tile[0]) - 1;
  }
  const byIndex = (a, b) => indexOf(a) - indexOf(b);

  // The tiles of a notation, or null when it cannot be read (the engine says why, beside the field).
  function parse(text) {
    const tiles = [];
    let pending = [];
    for (const ch of text || "") {
      if (/\s/.test(ch)) continue;
      if ("123456789".includes(ch)) pending.push(ch);
      else if ("mps".includes(ch)) {
        if (!pending.length) return null;
        pending.forEach((d) => tiles.push(d + ch));
        pending = [];
      } else if (ch === "z") {
        for (const d of pending) {
          const h = "ESWNPFC"[Number(d) - 1];
          if (!h) return null;
          tiles.push(h);
        }
        pending = [];
      } else if (HONOURS.includes(ch) && !pending.length) tiles.push(ch);
      else return null;
    }
    return pending.length ? null : tiles;
  }

  function notation(tiles) {
    const sorted = tiles.slice().sort(byIndex);
    let out = "";
    for (const suit of "mps") {
      const ranks = sorted.filter((t) => t[1] === suit).map((t) => t[0]);
      if (ranks.length) out += ranks.join("") + suit;
    }
    return out + sorted.filter((t) => HONOURS.includes(t)).join("");
  }

  window.Notation = { parse, notation };

  const field = (name) => form.elements.namedItem(name);
  const $ = (id) => document.getElementById(id);
  const form = $("calc");
  const textNode = document.getElementById("calc-text");
  if (!form || !textNode) return;
  const T = JSON.parse(textNode.textContent);
  // Each game's declarations (rulesets/<game>/declarations.toml, via json_script): options, flags with their
  // conditions, house rules. The page reads the rules here; it keeps no copy of them.
  const GAMES = {};
  JSON.parse($("calc-rulesets").textContent).forEach((g) => { GAMES[g.id] = g; });
  const FIRST_GAME = Object.keys(GAMES)[0];
  const LANG = (document.documentElement.lang || "").startsWith("en") ? "en" : "zh";

  const KONGS = ["kong_exposed", "kong_added", "kong_concealed"];
  // the form's meld fields (meld1 …): as many as a hand of any game holds (concealed_sizes: 0 melds … the most)
  const MAX_MELDS = Math.max(...Object.values(GAMES).map((g) => g.concealed_sizes.length - 1));

  // The first notation field whose text cannot be read: taps must not write over what was typed there.
  function unreadable() {
    const names = ["hand", "win_tile"];
    for (let n = 1; n <= MAX_MELDS; n++) names.push("meld" + n + "_tiles");
    return names.map(field).find((input) => input && input.value.trim() && parse(input.value) === null) || null;
  }

  // ------------------------------------------------------------------ state <-> fields

  const state = { hand: [], win: null, melds: [], mode: "hand", complete: false };

  function readFields() {
    state.hand = parse(field("hand").value) || [];
    const win = parse(field("win_tile").value);
    state.win = win && win.length === 1 ? win[0] : null;
    state.melds = [];
    for (let n = 1; n <= MAX_MELDS; n++) {
      const type = field("meld" + n).value;
      const tiles = parse(field("meld" + n + "_tiles").value);
      if (type && tiles && tiles.length) state.melds.push({ type, tiles, from: field("meld" + n + "_from").value });
    }
  }

  // Only the fields whose value changed are written: the browser's form tracking (autofill) does its work for every
  // field set, even to the value it has, before the answer can be drawn (docs/PERFORMANCE.md)
  function put(name, value) {
    const input = field(name);
    if (input.value !== value) input.value = value;
  }

  function writeFields() {
    put("hand", notation(state.hand));
    put("win_tile", state.win || "");
    for (let n = 1; n <= MAX_MELDS; n++) {
      const m = state.melds[n - 1];
      put("meld" + n, m ? m.type : "");
      put("meld" + n + "_tiles", m ? notation(m.tiles) : "");
      put("meld" + n + "_from", m && m.type !== "kong_concealed" ? m.from || "" : "");
    }
  }

  const radio = (name) => (form.querySelector('input[name="' + name + '"]:checked') || {}).value || "";
  const ruleset = () => (GAMES[radio("ruleset")] ? radio("ruleset") : FIRST_GAME);
  const game = () => GAMES[ruleset()];
  const tileOptions = () => game().options.filter((o) => o.kind === "tile");
  const isTileOption = (mode) => tileOptions().some((o) => o.id === mode);
  // the tiles of the hand before the win, by the number of melds: the engine's rule, from the game's declarations
  const capacity = () => game().concealed_sizes[state.melds.length];
  // The chosen game's section of options, and the value its option `id` has there (a choice's radio buttons), or
  // "" when none is chosen.
  const gameOptions = () => form.querySelector('.game-options[data-rulesets="' + ruleset() + '"]');
  function optionValue(id) {
    const chosen = gameOptions().querySelector('input[name="' + id + '"]:checked');
    return chosen ? chosen.value : "";
  }
  // The seats of the chosen table, in play order: the game's for the size its option says (the page's
  // declarations: Ruleset.seats of each size the game plays).
  function tableSeats() {
    const table = game().table;
    return table.seats[optionValue(table.option)] || table.seats[table.default];
  }

  function counts() {
    const c = {};
    const add = (t) => (c[t] = (c[t] || 0) + 1);
    state.hand.forEach(add);
    if (state.win) add(state.win);
    state.melds.forEach((m) => m.tiles.forEach(add));
    return c;
  }

  // ------------------------------------------------------------------ taps

  function say(text) {
    $("mode-hint").textContent = text || "";
  }

  let foldAfterPick = false; // the keyboard was folded when a pick of the wild tile opened it

  function setMode(mode) {
    state.mode = mode;
    form.querySelectorAll("[data-mode]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.mode === mode)));
    form.classList.toggle("picking-wild", isTileOption(mode));
    say(T.modeHints[mode] || "");
    updateKeys();
  }

  // 上家: the player before `seat` at the chosen table
  function upperOf(seat) {
    const seats = tableSeats();
    return seats[(seats.indexOf(seat) + seats.length - 1) % seats.length];
  }

  // Who fed a meld of this type that the page adds for the winner: a chow is the 上家's; another meld the
  // discarder's, or the 上家's on a self-draw.
  function feederOf(type, winner) {
    if (type === "kong_concealed") return "";
    const discarder = radio("discarder");
    return type !== "chow" && discarder && discarder !== winner ? discarder : upperOf(winner);
  }

  function need(mode) {
    if (mode === "pung") return 3;
    if (KONGS.includes(mode)) return 4;
    return 1;
  }

  // What the last tap did to the hand, said with the answer in the strip (a screen reader hears the strip: a
  // mis-key must be heard, not only seen), then forgotten.
  let lastTap = "";
  const tapSaid = (word, what) => { lastTap = word.replace("%(tile)s", what); };

  function tap(tile) {
    const c = counts();
    const mode = state.mode;
    if (isTileOption(mode)) {
      field(mode).value = tile;
      // an option that decides another and the one it decides say the same thing: the last one tapped counts
      tileOptions().forEach((o) => {
        if (o.gives === mode || (o.id !== mode && tileOptions().some((p) => p.id === mode && p.gives === o.id))) field(o.id).value = "";
      });
      setMode("hand");
      // said above the keys, where the eye is (the wild tile's own box may be off the screen)
      say(T.wildPicked.replace("%(wild)s", wildWord()).replace("%(tile)s", T.tileNames[wildTile()]));
      if (foldAfterPick) fold(true); // the keyboard was opened for the pick: the answer comes back into view
      foldAfterPick = false;
      return changed();
    }
    if (mode === "hand") {
      if ((c[tile] || 0) >= 4) return say(T.noCopies.replace("%(tile)s", T.tileNames[tile]));
      if (state.hand.length < capacity()) {
        state.hand.push(tile);
        tapSaid(T.added, T.tileNames[tile]);
      } else if (!state.win) {
        state.win = tile;
        tapSaid(T.addedWin, T.tileNames[tile]);
      } else return say(T.full);
      return tapped();
    }
    if (state.melds.length >= game().concealed_sizes.length - 1) return say(T.tooManyMelds);
    let tiles;
    if (mode === "chow") {
      if (HONOURS.includes(tile) || Number(tile[0]) > 7) return;
      tiles = [0, 1, 2].map((k) => Number(tile[0]) + k + tile[1]);
    } else {
      tiles = Array(need(mode)).fill(tile);
    }
    const after = Object.assign({}, c);
    for (const t of tiles) {
      after[t] = (after[t] || 0) + 1;
      if (after[t] > 4) return say(T.noCopies.replace("%(tile)s", T.tileNames[t]));
    }
    const from = feederOf(mode, radio("winner") || tableSeats()[0]);
    state.melds.push({ type: mode, tiles, from });
    tapSaid(T.added, T.meldNames[mode] + " " + tiles.map((t) => T.tileNames[t]).join(" "));
    setMode("hand");
    return tapped();
  }

  // After a tap on the keyboard the hand is in view above it, in the band the strip and the docked keyboard
  // leave (html's scroll-padding): the tap's own tile may have grown it by a row. Asked in the next frame, once
  // the request is out and the tile drawn, so that the tap itself forces no layout (the frame lays out anyway).
  function tapped() {
    changed(true);
    requestAnimationFrame(() => $("hand-view").scrollIntoView({ block: "nearest" }));
  }

  function removeHandTile(tile) {
    const i = state.hand.indexOf(tile);
    if (i >= 0) state.hand.splice(i, 1);
    tapSaid(T.takenOut, T.tileNames[tile]);
    changed(true);
  }

  function undo() {
    if (state.win) {
      tapSaid(T.takenOut, T.tileNames[state.win]);
      state.win = null;
    } else if (state.hand.length) tapSaid(T.takenOut, T.tileNames[state.hand.pop()]);
    else if (state.melds.length) tapSaid(T.takenOut, T.meldNames[state.melds.pop().type]);
    tapped();
  }

  // The strip (a status region) says the tap with the answer: one update, heard as one.
  function sayTap() {
    if (!lastTap) return;
    const said = document.createElement("span");
    said.className = "visually-hidden";
    said.dataset.tapSaid = "";
    said.textContent = lastTap + " ";
    $("strip").prepend(said);
    lastTap = "";
  }

  function clearWild() {
    tileOptions().forEach((o) => { field(o.id).value = ""; });
    say(T.wildCleared.replace("%(wild)s", wildWord()));
    changed();
  }

  function clearAll() {
    state.hand = [];
    state.win = null;
    state.melds = [];
    writeFields(); // "Clear" empties what was typed too
    changed();
  }

  // ------------------------------------------------------------------ drawing

  function fold(folded) {
    const hadFocus = $("keyboard-body").contains(document.activeElement);
    $("keyboard").classList.toggle("is-folded", folded);
    $("key-toggle").setAttribute("aria-expanded", String(!folded));
    // the focused key is folded away: the focus goes to the toggle, in the next frame (focus() now would make the
    // browser work out every style at once, and again after the rest of the tap's changes)
    if (folded && hadFocus) requestAnimationFrame(() => $("key-toggle").focus());
  }

  // A tile is the sprite as a background (app.css .t-8m): painting it costs nothing once the sprite is drawn.
  function tilePicture(tile, small, label) {
    const picture = document.createElement("span");
    picture.className = (small ? "tile tile-s t-" : "tile t-") + tile;
    if (label) {
      picture.setAttribute("role", "img");
      picture.setAttribute("aria-label", label);
    }
    return picture;
  }

  function tileButton(tile, onTap, label) {
    const b = document.createElement("button");
    b.type = "button";
    b.className = "tile-btn";
    b.dataset.handTile = tile;
    b.setAttribute("aria-label", label);
    b.appendChild(tilePicture(tile));
    b.addEventListener("click", onTap);
    return b;
  }

  // The hand's tiles as buttons, sorted: those already drawn stay (a tap adds or removes one tile), so that only
  // what changed is laid out and painted again.
  function renderHandTiles(box, sorted) {
    const drawn = Array.from(box.children);
    let same = 0;
    while (same < drawn.length && same < sorted.length && drawn[same].dataset.handTile === sorted[same]) same++;
    let tail = 0;
    while (
      tail < drawn.length - same && tail < sorted.length - same &&
      drawn[drawn.length - 1 - tail].dataset.handTile === sorted[sorted.length - 1 - tail]
    ) tail++;
    drawn.slice(same, drawn.length - tail).forEach((b) => b.remove());
    const before = drawn[drawn.length - tail] || null;
    sorted.slice(same, sorted.length - tail).forEach((t) =>
      box.insertBefore(tileButton(t, () => removeHandTile(t), T.remove.replace("%(tile)s", T.tileNames[t])), before)
    );
  }

  let drawnWin; // the tile the winning tile's button shows (none drawn yet: undefined)
  let drawnMelds = ""; // the meld chips show these melds (with the winner and the seats of their selects)

  function renderMelds(winner, seats) {
    const meldBox = $("hand-melds");
    meldBox.replaceChildren();
    state.melds.forEach((m, i) => {
      const chip = document.createElement("span");
      chip.className = "meld-chip";
      const name = document.createElement("span");
      name.className = "meld-name";
      name.textContent = T.meldNames[m.type];
      chip.appendChild(name);
      m.tiles.forEach((t) => chip.appendChild(tilePicture(t, true, T.tileNames[t])));
      if (m.type !== "kong_concealed") {
        const sel = document.createElement("select");
        sel.className = "meld-from";
        sel.setAttribute("aria-label", T.meldNames[m.type] + " " + T.from);
        seats.filter((s) => s !== winner).forEach((s) => {
          const o = document.createElement("option");
          o.value = s;
          o.textContent = "← " + T.seats[s];
          o.selected = s === m.from;
          sel.appendChild(o);
        });
        sel.addEventListener("change", () => { m.from = sel.value; changed(false); });
        chip.appendChild(sel);
      }
      const x = document.createElement("button");
      x.type = "button";
      x.className = "meld-x";
      x.textContent = "×";
      x.setAttribute("aria-label", T.removeMeld);
      x.addEventListener("click", () => { state.melds.splice(i, 1); changed(true); });
      chip.appendChild(x);
      meldBox.appendChild(chip);
    });
  }

  function render() {
    const view = $("hand-view");
    const controls = () => Array.from(view.querySelectorAll("button, select"));
    const focused = controls().indexOf(document.activeElement);
    renderHandTiles($("hand-tiles"), state.hand.slice().sort(byIndex));
    const winBox = $("hand-win");
    if (drawnWin !== state.win) {
      winBox.querySelectorAll(".tile, button").forEach((el) => el.remove());
      winBox.classList.toggle("is-empty", !state.win);
      if (state.win) {
        const label = T.remove.replace("%(tile)s", T.tileNames[state.win] + " (" + T.winTile + ")");
        winBox.appendChild(tileButton(state.win, () => {
        tapSaid(T.takenOut, T.tileNames[state.win]);
        state.win = null;
        changed(true);
      }, label));
      }
      drawnWin = state.win;
    }
    const seats = tableSeats();
    const winner = radio("winner") || seats[0];
    if (JSON.stringify([winner, seats, state.melds]) !== drawnMelds) renderMelds(winner, seats);
    drawnMelds = JSON.stringify([winner, seats, state.melds]);
    const have = state.hand.length + (state.win ? 1 : 0);
    $("hand-count").textContent = have + " / " + (capacity() + 1);
    $("hand-hint").hidden = have > 0;
    if (focused >= 0) {
      // the tapped tile is gone: the focus goes to the tile now in its place (or the last one, or the keyboard)
      const now = controls();
      const next = now[Math.min(focused, now.length - 1)] || $("key-toggle");
      next.focus();
    }
    // A complete hand folds the keyboard away so the answer moves up; removing a tile unfolds it.
    const complete = have === capacity() + 1;
    if (complete !== state.complete) {
      state.complete = complete;
      fold(complete);
    }
    renderWild();
    markWild();
  }

  // The game's wild tile as the fields say it (the 财神 chosen, or the tile after the turned one), or "".
  function wildTile() {
    const options = tileOptions();
    const source = options.find((o) => o.gives && field(o.id).value);
    const shown = options.find((o) => !o.gives && field(o.id).value);
    return shown ? field(shown.id).value : source ? source.derived[field(source.id).value] : "";
  }
  // The wild tiles of the concealed part, the winning tile included (flags.py `Situation.wild_copies`): null in a
  // game without a wild tile, or before it is chosen.
  function wildCopies() {
    const wild = wildTile();
    if (!wild) return null;
    return state.hand.filter((t) => t === wild).length + (state.win === wild ? 1 : 0);
  }
  const wildWord = () => (tileOptions().find((o) => !o.gives) || { label: {} }).label[LANG] || "";
  const asWild = (tile) => T.isWild.replace("%(tile)s", T.tileNames[tile]).replace("%(wild)s", wildWord());

  function renderWild() {
    const box = form.querySelector('[data-wild-of="' + ruleset() + '"]');
    if (!box) return;
    box.replaceChildren();
    const options = tileOptions();
    const source = options.find((o) => o.gives && field(o.id).value);
    const shown = options.find((o) => !o.gives && field(o.id).value);
    const tile = wildTile();
    if (tile) box.appendChild(tilePicture(tile, true, T.tileNames[tile]));
    if (source && !shown) {
      const note = document.createElement("span");
      note.className = "hint";
      note.textContent = T.wildFrom.replace("%(tile)s", T.tileNames[field(source.id).value]);
      box.appendChild(note);
    }
    const clear = form.querySelector('[data-wild-clear="' + ruleset() + '"]');
    if (clear) clear.hidden = !tile;
  }

  // The wild tile wherever the hand holds it: marked as in the result card, its button's label saying so.
  function markWild() {
    const wild = wildTile();
    $("hand-view").querySelectorAll(".tile").forEach((picture) => {
      const tile = (picture.className.match(/\bt-(\w+)/) || [])[1];
      const isWild = !!wild && tile === wild;
      if (picture.classList.contains("is-wild") === isWild) return;
      picture.classList.toggle("is-wild", isWild);
      const button = picture.closest(".tile-btn");
      const named = button || (picture.hasAttribute("aria-label") ? picture : null);
      if (!named) return;
      const name = isWild ? asWild(tile) : T.tileNames[tile];
      const win = button && button.parentElement.id === "hand-win" ? " (" + T.winTile + ")" : "";
      named.setAttribute("aria-label", button ? T.remove.replace("%(tile)s", name + win) : name);
    });
  }

  function updateKeys() {
    const c = counts();
    const picking = isTileOption(state.mode);
    form.querySelectorAll("button[data-tile]").forEach((key) => {
      const t = key.dataset.tile;
      let off = false;
      if (!picking) {
        if (state.mode === "hand") off = (c[t] || 0) >= 4;
        else if (state.mode === "chow") off = HONOURS.includes(t) || Number(t[0]) > 7;
        else off = (c[t] || 0) + need(state.mode) > 4;
      }
      key.disabled = off;
      key.classList.toggle("used-up", (c[t] || 0) >= 4);
    });
  }

  // ------------------------------------------------------------------ games, seats and flags

  // One flag condition, as the game declares it (fact, test, value: calculator/engine/flags.toml) and the engine
  // answers it (flags.py `holds`): the tests' meaning only, no rule of a game. `d` holds this page's facts.
  function holds(cond, d) {
    const actual = d[cond.fact];
    switch (cond.test) {
      case "lacks": return !actual.includes(cond.value);
      case "min": return actual === null || actual >= cond.value;
      case "max": return actual === null || actual <= cond.value;
    }
    if (cond.value === null) return (actual === null) === (cond.test === "is");  // absent, or there
    const other = d[cond.value];
    return actual === null || other === null || (actual === other) === (cond.test === "is");
  }

  function blockers(flag, d) {
    const declared = game().flags.find((f) => f.id === flag);
    return declared ? declared.conditions.filter((c) => !holds(c, d)) : [];
  }

  // Elements of another game than the chosen one are hidden, and their fields not sent (the rule card's).
  function showGame(rs) {
    form.dataset.ruleset = rs;
    form.querySelectorAll("[data-rulesets]").forEach((el) => {
      const mine = el.dataset.rulesets.split(" ").includes(rs);
      el.classList.toggle("is-foreign", !mine);
      el.querySelectorAll(".house-fields, .game-option-fields").forEach((f) => { f.disabled = !mine; });
    });
    // each choice of the chosen game has a value (two games may share an option's buttons: one name, one group)
    gameOptions().querySelectorAll("[data-option]").forEach((choice) => {
      if (choice.querySelector("input:checked")) return;
      const declared = GAMES[rs].options.find((o) => o.id === choice.dataset.option);
      const fallback = choice.querySelector('input[value="' + declared.default + '"]');
      if (fallback) fallback.checked = true;
    });
    if (!GAMES[rs].allows_chow && state.mode === "chow") setMode("hand");
  }

  // What the page changed by itself because of another choice, given back when that choice is undone: the
  // discarder reset to self-draw when that seat became the winner, flags unticked when they could no longer apply,
  // a seat the table no longer has (`seats`: by row, the seat and what the row took instead).
  const taken = { discarder: "", flags: new Set(), seats: {} };
  const fill = (text, values) => Object.keys(values).reduce((t, k) => t.replace("%(" + k + ")s", values[k]), text);

  // The chosen table's seats on the page: a seat it lacks (North at a table of three) has no button, no name and
  // is no meld's source. When the table changes (the game, or its size), a row that chose that seat takes its
  // first button (East; self-draw for the discarder), as a new page would have it, and the page says so; the seat
  // is given back when the table has it again, unless the row was changed since. Otherwise (a link that names
  // it) the chosen button stays in view, beside the engine's error about it.
  function fitSeats(byUser, notes) {
    const seats = tableSeats();
    const tableChanged = byUser === "ruleset" || byUser === game().table.option;
    form.querySelectorAll("[data-seat-row]").forEach((row) => {
      const name = row.dataset.seatRow;
      const what = row.querySelector("legend").textContent.trim();
      const word = (input) => input.closest("label").querySelector(".seat-word").textContent;
      if (byUser === name) delete taken.seats[name];
      const back = taken.seats[name];
      if (back && seats.includes(back.seat) && radio(name) === back.instead) {
        row.querySelector('input[value="' + back.seat + '"]').checked = true;
        notes.push(fill(T.seatBack, { row: what, seat: T.seats[back.seat] }));
        delete taken.seats[name];
      }
      const inputs = Array.from(row.querySelectorAll("input"));
      const here = (input) => !input.value || seats.includes(input.value);
      const chosen = inputs.find((input) => input.checked);
      if (chosen && !here(chosen) && tableChanged) {
        const instead = inputs.find(here);
        instead.checked = true;
        taken.seats[name] = { seat: chosen.value, instead: instead.value };
        notes.push(fill(T.seatGone, { seat: T.seats[chosen.value], row: what, other: word(instead) }));
      }
      inputs.forEach((input) => {
        input.closest("label").classList.toggle("is-absent", !here(input) && !input.checked);
      });
    });
    form.querySelectorAll(".name-field[data-table-seat]").forEach((box) => {
      box.classList.toggle("is-absent", !seats.includes(box.dataset.tableSeat));
    });
    // the typed melds' sources (the notation's selects): none, or one of the table's seats (fitMelds moves a
    // meld's source the table lacks)
    for (let n = 1; n <= MAX_MELDS; n++) {
      Array.from(field("meld" + n + "_from").options).forEach((option) => {
        const absent = !!option.value && !seats.includes(option.value) && !option.selected;
        option.hidden = option.disabled = absent;
      });
    }
  }

  // Each meld's source is a seat of the table other than the winner: one that is not (the winner, a seat the table
  // lacks) is the page's choice for a new meld, said when the seat is gone and given back when it returns (unless
  // the meld's source was chosen since).
  function fitMelds(notes) {
    const seats = tableSeats();
    const winner = radio("winner") || seats[0];
    state.melds.forEach((m, i) => {
      if (m.type === "kong_concealed") return;
      const what = T.meldNames[m.type];
      if (m.was && m.from === m.instead && seats.includes(m.was) && m.was !== winner) {
        m.from = m.was;
        notes.push(fill(T.meldBack, { meld: what, seat: T.seats[m.was] }));
      }
      if (m.from !== m.instead) delete m.was;
      if (m.from && !seats.includes(m.from)) {
        m.was = m.from;
        m.from = m.instead = feederOf(m.type, winner);
        notes.push(fill(T.meldGone, { seat: T.seats[m.was], meld: what, other: T.seats[m.from] }));
      } else if (!m.from || m.from === winner) m.from = feederOf(m.type, winner);
      put("meld" + (i + 1) + "_from", m.from);
    });
  }

  const flagLabel = (box) => box.closest("label").textContent.trim();
  const seatName = (seat) => T.seats[seat];

  // `byUser`: the field the user just changed ("winner", "discarder", "flags", "ruleset", ...), or nothing for a
  // change of the tiles.
  function updateSeatsAndFlags(byUser) {
    const rs = ruleset();
    showGame(rs);
    const notes = [];
    fitSeats(byUser, notes);
    const winner = radio("winner");
    if (byUser === "discarder") taken.discarder = "";
    const selfDraw = form.querySelector('input[name="discarder"][value=""]');
    if (taken.discarder && taken.discarder !== winner && selfDraw.checked) {
      form.querySelector('input[name="discarder"][value="' + taken.discarder + '"]').checked = true;
      notes.push(T.discarderBack.replace("%(seat)s", seatName(taken.discarder)));
      taken.discarder = "";
    }
    form.querySelectorAll('input[name="discarder"]').forEach((r) => {
      const blocked = r.value !== "" && r.value === winner;
      r.disabled = blocked;
      if (blocked && r.checked) {
        selfDraw.checked = true;
        taken.discarder = r.value;
        notes.push(T.discarderReset.replace("%(seat)s", seatName(r.value)));
      }
    });
    fitMelds(notes);
    const boxes = Array.from(form.querySelectorAll('input[name="flags"]'));
    const foreign = (b) => b.closest(".flag").classList.contains("is-foreign");
    const c = counts();
    // The facts a flag condition may ask about (flags.py `Situation`); null: not there (yet).
    const situation = () => ({
      winner: winner || null,
      dealer: radio("dealer") || null,
      discarder: radio("discarder") || null,
      kongs: state.melds.filter((m) => KONGS.includes(m.type)).length,
      melds: state.melds.length,
      flags: boxes.filter((b) => b.checked).map((b) => b.value),
      win_tile_copies: state.win ? c[state.win] || 0 : null,
      wild_copies: wildCopies(),
      win_tile_wild: state.win && wildTile() ? Number(state.win === wildTile()) : null,
    });
    // Flags of the other game are dropped; flags taken away before come back once they can apply again.
    boxes.forEach((b) => {
      if (foreign(b) && b.checked) {
        b.checked = false;
        taken.flags.add(b.value);
        notes.push(T.flagOff.replace("%(flag)s", flagLabel(b)).replace("%(why)s", T.notThisGame));
      }
    });
    boxes.forEach((b) => {
      if (!taken.flags.has(b.value) || foreign(b) || b.checked) return;
      if (blockers(b.value, situation()).length === 0) {
        b.checked = true;
        taken.flags.delete(b.value);
        notes.push(T.flagBack.replace("%(flag)s", flagLabel(b)));
      }
    });
    // Blocked flags are unchecked until nothing changes (one flag may exclude another).
    for (let pass = 0; pass < 3; pass++) {
      const d = situation();
      boxes.forEach((b) => {
        const why = blockers(b.value, d);
        b.disabled = why.length > 0;
        if (why.length && b.checked) {
          b.checked = false;
          taken.flags.add(b.value);
          notes.push(T.flagOff.replace("%(flag)s", flagLabel(b)).replace("%(why)s", why[0].reason[LANG]));
        }
        $("why-" + b.value).textContent = why.length ? why[0].reason[LANG] : "";
        b.closest(".flag").classList.toggle("is-off", why.length > 0);
      });
    }
    tell(notes, byUser);
  }

  // The page's own changes, said where the seats are (and, after a tap, above the keyboard too).
  function tell(notes, byUser) {
    const box = $("seat-notice");
    if (notes.length) {
      box.textContent = notes.join(" ");
      box.hidden = false;
      if (!byUser) say(notes.join(" "));
    } else if (byUser) {
      box.textContent = "";
      box.hidden = true;
    }
  }

  // ------------------------------------------------------------------ wiring

  // A tap asks for the answer at once (a newer request replaces one still on its way: the form's hx-sync);
  // typing waits for a pause.
  function fire(typed) {
    form.dispatchEvent(new CustomEvent(typed ? "calc:typed" : "calc:update", { bubbles: true }));
  }

  function changed(fromTaps) {
    if (fromTaps !== undefined) {
      if (unreadable()) {
        // a typed field cannot be read: the tiles are not written over it
        readFields();
        render();
        say(T.fixTyped);
        $("notation").open = true;
        return;
      }
      writeFields();
    }
    updateSeatsAndFlags(); // first: it may untick a flag that no longer applies, which the request must not carry
    fire(); // the request goes out now; the page draws the hand while the server answers
    render();
    updateKeys();
  }

  form.addEventListener("click", (e) => {
    const key = e.target.closest("button[data-tile]");
    if (key) return tap(key.dataset.tile);
    const mode = e.target.closest("button[data-mode], button[data-mode-switch]");
    if (mode) {
      const m = mode.dataset.mode || mode.dataset.modeSwitch;
      setMode(state.mode === m && m !== "hand" ? "hand" : m);
      if (mode.dataset.modeSwitch) {
        if (isTileOption(state.mode)) {
          foldAfterPick = $("keyboard").classList.contains("is-folded");
          fold(false); // the keys, to tap the tile on
        } else if (foldAfterPick) {
          fold(true); // the pick called off: the keyboard as it was
          foldAfterPick = false;
        }
      }
      return;
    }
    if (e.target.closest("#key-toggle")) return fold(!$("keyboard").classList.contains("is-folded"));
    if (e.target.closest("#key-undo")) return undo();
    if (e.target.closest("#key-clear")) return clearAll();
    if (e.target.closest("[data-wild-clear]")) return clearWild();
    const copy = e.target.closest("#copy-link");
    if (copy) return copyLink(copy.dataset.url);
  });

  const NOTATION = /^(hand|win_tile|meld\d(_tiles|_from)?)$/;
  form.addEventListener("input", (e) => {
    const name = e.target.name || "";
    if (e.target.classList.contains("meld-from")) return; // handled by its own listener
    if (NOTATION.test(name)) {
      readFields();
      updateSeatsAndFlags();
      render();
      updateKeys();
      return fire(true);
    }
    if (name === "flags") taken.flags.delete(e.target.value);
    if (isTileOption(name) || name === "ruleset") renderWild();
    if (name.startsWith("house_")) markRuleCard(e.target);
    updateSeatsAndFlags(name);
    if (name === "winner" || name === "ruleset" || name === game().table.option) render(); // the meld chips' seats
    fire();
  });

  // ------------------------------------------------------------------ the rule card

  // A rule changed in the open card is marked at once (its label bold, the count in the card's summary); once the
  // answer is in, the card says what the change did to the hand shown: payments unchanged, or the new nets.
  let ruleChange = null; // the change waiting for its answer: where to say it, the rule, the nets before
  function stripNets() {
    const seats = $("strip").querySelectorAll("[data-strip-seat]");
    if (!seats.length) return null;
    return Array.from(seats, (s) => T.seats[s.dataset.stripSeat] + " " + s.querySelector(".strip-net").textContent)
      .join(" · ");
  }
  function markRuleCard(select) {
    const card = select.closest(".rule-card");
    const field = select.closest(".house-field");
    field.classList.toggle("is-changed", select.selectedIndex !== 0); // the first reading is the default
    const count = card.querySelectorAll(".house-field.is-changed").length;
    const mark = card.querySelector("[data-changed-count]");
    mark.hidden = count === 0;
    mark.textContent = " · " + (count === 1 ? T.rulesChanged.one : T.rulesChanged.other).replace("%(counter)s", count);
    const label = field.querySelector("label").textContent.trim();
    ruleChange = { effect: card.querySelector(".rule-effect"), label, before: stripNets() };
  }
  function sayRuleEffect() {
    if (!ruleChange) return;
    const { effect, label, before } = ruleChange;
    ruleChange = null;
    const after = stripNets();
    let said = "";
    if (before && after) {
      said = after === before ? T.paymentsUnchanged : T.newNets + " " + after + " (" + T.before + " " + before + ")";
    } else if (before) {
      said = $("strip").querySelector(".strip-verdict").textContent; // no win now
    }
    effect.textContent = said && label + ": " + said;
  }

  // ------------------------------------------------------------------ the answer

  // The engine's error about one field is shown beside that field too, and the field marked invalid, as the whole
  // page does it (Django's `<id>_error`, named by the field's aria-describedby).
  function markFieldError() {
    form.querySelectorAll(".invalid-feedback").forEach((el) => el.remove());
    form.querySelectorAll('[aria-invalid="true"]').forEach((el) => {
      el.removeAttribute("aria-invalid");
      el.classList.remove("is-invalid");
      const ids = (el.getAttribute("aria-describedby") || "").split(" ").filter((id) => id && !id.endsWith("_error"));
      if (ids.length) el.setAttribute("aria-describedby", ids.join(" "));
      else el.removeAttribute("aria-describedby");
    });
    const problem = $("result").querySelector("[data-field]");
    const input = problem && field(problem.dataset.field);
    if (!input || !input.id) return;
    const note = document.createElement("div");
    note.className = "invalid-feedback";
    note.id = input.id + "_error";
    note.textContent = problem.querySelector(".problem-message").textContent;
    input.insertAdjacentElement("afterend", note);
    input.setAttribute("aria-invalid", "true");
    input.classList.add("is-invalid");
    input.setAttribute("aria-describedby", [note.id, input.getAttribute("aria-describedby")].filter(Boolean).join(" "));
    const box = input.closest("details");
    if (box) box.open = true;
  }

  function copyLink(url) {
    // The link is selected at once, so the outcome never waits on the clipboard (which may never answer).
    const status = $("copy-status");
    selectShare();
    status.textContent = T.selected;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(() => { status.textContent = T.copied; }, () => {});
    }
  }

  function selectShare() {
    const input = $("share-url");
    if (input) { input.focus(); input.select(); }
  }

  // Offline, or the server did not answer: the strip and the result card say so, the hand entered so far is
  // kept, and it is asked for again once the network is back (the tiles can still be entered meanwhile).
  function unreachable() {
    const strip = $("strip");
    const said = strip.querySelector('[data-strip="offline"]');
    // a retry that failed again changes nothing: the strip (a live region) is not said again
    if (said && !lastTap && waiting() && offlineFor === asked()) return;
    strip.replaceChildren();
    const p = document.createElement("p");
    p.className = "strip-verdict";
    p.dataset.strip = "offline";
    p.textContent = T.offline;
    strip.appendChild(p);
    sayTap();
    offlineCard();
  }

  // The result card while the answer cannot come: a hand entered is kept and waits for the network.
  function offlineCard() {
    const card = document.createElement("div");
    card.className = "card problem";
    card.dataset.offline = "";
    offlineFor = asked();
    if (state.hand.length || state.win) {
      const title = document.createElement("h2");
      title.textContent = T.offlineTitle;
      const hint = document.createElement("p");
      hint.textContent = T.offlineKept;
      card.append(title, hint);
    } else {
      const hint = document.createElement("p");
      hint.textContent = T.offline;
      card.append(hint);
    }
    $("result").replaceChildren(card);
  }
  const asked = () => new URLSearchParams(new FormData(form)).toString();
  let offlineFor = ""; // the fields the offline card waits on
  // The answer it waited for: once the network is back, or once the phone's offline pack is ready (offline.js
  // marks the page data-offline-ready) to answer it here.
  const waiting = () => !!$("result").querySelector("[data-offline]");
  window.addEventListener("online", () => { if (waiting()) fire(); });
  // (a phone does not always say it is online again: asked every few seconds while the card waits)
  window.setInterval(() => { if (waiting() && !document.hidden) fire(); }, 5000);
  new MutationObserver(() => {
    if (document.documentElement.hasAttribute("data-offline-ready") && waiting()) fire();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-offline-ready"] });

  // A link opened without a network: the service worker gave the calculator as it kept it (another address's
  // page: data-query), so this address's fields go into the form here, as the server fills them online: a link
  // that holds the game, a hand or the winner is the whole input (a box it leaves out is unticked), with or
  // without a hand (seats, options, house rules, names). Its hand is then asked for (the phone's offline pack
  // answers it; otherwise the card says it needs the network). True when it holds a hand.
  function fromAddress() {
    const pairs = (query) => Array.from(new URLSearchParams(query)).map((p) => p.join("=")).sort().join("&");
    if (form.dataset.query === undefined || pairs(form.dataset.query) === pairs(location.search)) return false;
    const asked = new URLSearchParams(location.search);
    if (!["ruleset", "hand", "winner"].some((name) => asked.has(name))) return false; // the server's test too
    form.querySelectorAll("input[name], select[name]").forEach((input) => {
      if (input.disabled || input.name === "csrfmiddlewaretoken") return; // a table's (offline.js fixes those)
      const values = asked.getAll(input.name);
      if (input.type === "radio") {
        if (values.length) input.checked = values.includes(input.value);
      } else if (input.type === "checkbox") {
        input.checked = values.includes(input.value);
      } else if (values.length) {
        input.value = values[values.length - 1];
      }
    });
    return !!(asked.get("hand") || asked.get("win_tile"));
  }

  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (e.target.id !== "result") return;
    markFieldError();
    sayRuleEffect();
    sayTap();
    replaceAddress(e.detail.xhr && e.detail.xhr.getResponseHeader("HX-Replace-Url"));
  });

  // The address becomes the answer's share link (the server's HX-Replace-Url) once the answer is on screen. htmx's
  // own history handling is off on this page (here, and hx-history="false" on the form): before every swap it
  // copied the whole page and asked the browser for a history entry twice, the slowest part of a tap's answer
  // (docs/PERFORMANCE.md).
  if (window.htmx) window.htmx.config.historyEnabled = false;
  function replaceAddress(url) {
    if (!url) return;
    requestAnimationFrame(() => setTimeout(() => history.replaceState(history.state, "", url)));
  }
  document.body.addEventListener("htmx:sendError", () => {
    if (!document.documentElement.hasAttribute("data-offline-ready")) unreachable(); // else the phone answered
  });
  form.addEventListener("calc:answered", () => { markFieldError(); sayRuleEffect(); sayTap(); }); // drawn in the phone

  // ------------------------------------------------------------------ the language switch

  // The other language keeps the whole hand: the switch returns to this page with the fields as they are now
  // (the address may still hold an earlier hand while an answer is on its way, or hold none at all).
  const languageForm = document.querySelector("form.lang-switch");
  if (languageForm) {
    languageForm.addEventListener("submit", () => {
      const query = new URLSearchParams();
      for (const [name, value] of new FormData(form)) {
        if (name !== "csrfmiddlewaretoken" && value !== "") query.append(name, value);
      }
      languageForm.elements.namedItem("next").value = form.getAttribute("hx-get") + "?" + query.toString();
    });
  }

  // ------------------------------------------------------------------ where things are on the screen

  // The strip (top) and the keyboard (bottom) cover part of the screen: the page scrolls controls into the
  // band between them (html's scroll-padding).
  // Set on the root element itself, not as custom properties (which every element inherits: setting one restyled
  // the whole page each time the keyboard folded), and only when they changed.
  const measured = {};
  function measure() {
    const root = document.documentElement.style;
    for (const [name, id] of [["scroll-padding-top", "strip"], ["scroll-padding-bottom", "keyboard"]]) {
      const value = $(id).offsetHeight + 8 + "px";
      if (measured[name] !== value) root.setProperty(name, (measured[name] = value));
    }
  }
  if (window.ResizeObserver) {
    const sizes = new ResizeObserver(measure); // after layout, never forcing one
    sizes.observe($("keyboard"));
    sizes.observe($("strip"));
  }

  // A page opened with an answer (a share link, another reading, a wait's breakdown): the answer is in view.
  function showAnswer() {
    const result = $("result");
    const target = result.querySelector(".payout") || result.querySelector("[data-win], [data-waits]");
    if (target && !location.hash) target.scrollIntoView({ block: "start" });
  }

  const fromLink = fromAddress();
  readFields();
  const notationBox = $("notation");
  if (notationBox && !form.querySelector(".notation .is-invalid")) notationBox.open = false;
  updateSeatsAndFlags(); // before the chips are drawn: it may give a meld its source
  render();
  setMode("hand");
  measure();
  showAnswer();
  if (fromLink) {
    // the page's own card and strip were drawn for another address (no hand): they say at once that this hand
    // waits for the network, and it is asked for (the phone's offline pack may answer it)
    unreachable();
    fire();
  }
})();
