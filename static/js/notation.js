// Tile notation in the page (the engine's, calculator/engine/notation.py): what the tile keyboards of the
// calculator (calculator.js) and of who takes the discard (claims.js) read from their fields and write back.
// `window.Notation`: the tiles of a notation, a notation of tiles (sorted, grouped by suit), a tile's index.
(function () {
  "use strict";

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

  window.Notation = { HONOURS, indexOf, byIndex, parse, notation };
})();
