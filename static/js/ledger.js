// The table ledger's pages (templates/ledger). Everything here is an improvement: the pages work without it.
// - The table page keeps itself up to date: every second it asks for its live part (the edit page's with its
//   controls), naming the part it shows in If-None-Match; the answer is 304 while nothing changed, else the new
//   part, which is swapped in, keeping a form the user is filling in.
// - Every table page opened on this phone is remembered in localStorage for "my tables" (/tables/).
// - With the offline pack on this phone (issue 22, offline.js), a table opened with its edit link is kept for
//   scoring without network: its state as the API answers it (card, players, dealer, books, version) and the
//   token, beside "my tables" ("ledger.offline"); the list links its calculator, which then opens offline too.
// - The new-table page shows the rule card of the chosen game only, and a name for each seat of the chosen size.
(function () {
  "use strict";

  var STORE = "ledger.tables";
  var KEPT = "ledger.offline"; // {table id: {table, token, title, kept}}: read by offline.js
  var KEEP = 50; // tables remembered

  // ------------------------------------------------------------------ my tables (localStorage)

  function remembered() {
    try {
      var list = JSON.parse(window.localStorage.getItem(STORE) || "[]");
      return Array.isArray(list) ? list : [];
    } catch (error) {
      return [];
    }
  }

  function keep(list) {
    try {
      window.localStorage.setItem(STORE, JSON.stringify(list.slice(0, KEEP)));
    } catch (error) {
      // private mode or full: "my tables" is a convenience
    }
  }

  function remember(ledger) {
    var edit = ledger.dataset.mode === "edit";
    var list = remembered();
    var old = list.filter(function (t) { return t.id === ledger.dataset.table; })[0] || {};
    var entry = {
      id: ledger.dataset.table,
      title: ledger.dataset.title,
      players: ledger.dataset.players,
      view: location.origin + "/tables/" + encodeURIComponent(ledger.dataset.table) + "/",
      edit: edit ? location.origin + location.pathname : old.edit || "",
      seen: Date.now()
    };
    keep([entry].concat(list.filter(function (t) { return t.id !== entry.id; })));
  }

  // ------------------------------------------------------------------ tables kept for offline scoring

  function keptTables() {
    try {
      return JSON.parse(window.localStorage.getItem(KEPT) || "{}") || {};
    } catch (error) {
      return {};
    }
  }

  function keepForOffline(ledger) {
    var pack = null;
    try {
      pack = window.localStorage.getItem("offline.pack");
    } catch (error) {
      return;
    }
    if (!pack || ledger.dataset.mode !== "edit" || !ledger.dataset.apiUrl) return;
    var token = decodeURIComponent((location.pathname.split("/edit/")[1] || "").split("/")[0]);
    fetch(ledger.dataset.apiUrl + "?limit=1", { cache: "no-store", credentials: "same-origin" })
      .then(function (answer) { return answer.ok ? answer.json() : null; })
      .then(function (table) {
        if (!table) return;
        delete table.hands;
        delete table.events;
        var kept = keptTables();
        var entry = kept[table.id] || { queue: [] }; // hands waiting to send stay (offline.js sends them)
        entry.table = table;
        entry.token = token;
        entry.api = ledger.dataset.apiUrl;
        entry.title = ledger.dataset.title;
        entry.kept = Date.now();
        kept[table.id] = entry;
        window.localStorage.setItem(KEPT, JSON.stringify(kept));
        ledger.dataset.offlineKept = String(table.version); // kept for scoring without network
      })
      .catch(function () { /* offline: the table kept before stays */ });
  }

  function link(href, text) {
    var a = document.createElement("a");
    a.href = href;
    a.textContent = text;
    return a;
  }

  // When this phone last opened a table, in the page's language (not the phone's: a Chinese page on a phone set
  // to English said "12/5/2026, 4:46:54 PM"), to the minute.
  function seenAt(time) {
    var minute = { dateStyle: "medium", timeStyle: "short" };
    return new Date(time).toLocaleString(document.documentElement.lang || undefined, minute);
  }

  function listMine(list) {
    var tables = remembered();
    document.getElementById("mine-nojs").hidden = true;
    document.getElementById("mine-empty").hidden = tables.length > 0;
    list.textContent = "";
    tables.forEach(function (t) {
      var item = document.createElement("li");
      item.dataset.table = t.id;
      var title = document.createElement("strong");
      title.textContent = t.title;
      var who = document.createElement("span");
      who.textContent = " " + t.players + " · " + seenAt(t.seen) + " ";
      item.append(title, who, link(t.edit || t.view, t.edit ? list.dataset.editWord : list.dataset.viewWord));
      var offline = keptTables()[t.id];
      if (t.edit && offline) {
        var brand = document.querySelector("a.brand");
        var calculator = new URL(brand ? brand.getAttribute("href") : "/", location.href);
        calculator.search = new URLSearchParams({ table: t.id, token: offline.token, at: offline.table.version });
        item.append(" · ", link(calculator.pathname + calculator.search, list.dataset.scoreWord));
      }
      var forget = document.createElement("button");
      forget.type = "button";
      forget.textContent = list.dataset.forgetWord;
      forget.addEventListener("click", function () {
        keep(remembered().filter(function (other) { return other.id !== t.id; }));
        var kept = keptTables();
        if (kept[t.id] && !(kept[t.id].queue || []).length) {
          delete kept[t.id]; // a table with hands waiting to send stays kept until they are sent
          window.localStorage.setItem(KEPT, JSON.stringify(kept));
        }
        listMine(list);
      });
      item.append(" ", forget);
      list.append(item);
    });
  }

  // ------------------------------------------------------------------ live updates

  function dirty(form) {
    return Array.prototype.some.call(form.elements, function (el) {
      if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
      if (el.tagName === "SELECT") {
        return Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; });
      }
      if (el.type === "hidden" || el.tagName === "BUTTON") return false;
      return el.value !== el.defaultValue;
    });
  }

  function swap(html, note) {
    var parsed = new DOMParser().parseFromString(html, "text/html").getElementById("live");
    var old = document.getElementById("live");
    if (!parsed || !old || parsed.dataset.version === old.dataset.version) return;
    var fresh = document.importNode(parsed, true);
    // A form the user is filling in (or has the focus in) stays as it is, with the new page's hidden values.
    old.querySelectorAll("form[id]").forEach(function (form) {
      var twin = fresh.querySelector("#" + CSS.escape(form.id));
      if (!twin || !(dirty(form) || form.contains(document.activeElement))) return;
      twin.querySelectorAll("input[type=hidden]").forEach(function (hidden) {
        var mine = form.querySelector('input[type=hidden][name="' + hidden.name + '"]');
        if (mine) mine.value = hidden.value;
      });
      twin.replaceWith(form);
    });
    // Folded parts stay as the user left them.
    old.querySelectorAll("details[id]").forEach(function (details) {
      var twin = fresh.querySelector("#" + CSS.escape(details.id));
      if (twin && !twin.contains(details)) twin.open = details.open;
    });
    old.querySelectorAll("li[data-seq] > details[open]").forEach(function (details) {
      var twin = fresh.querySelector('li[data-seq="' + details.parentNode.dataset.seq + '"] > details');
      if (twin) twin.open = true;
    });
    old.replaceWith(fresh);
    keepForOffline(document.getElementById("ledger"));
    if (note) {
      note.hidden = false;
      window.setTimeout(function () { note.hidden = true; }, 4000);
    }
  }

  function live(ledger) {
    var every = Number(ledger.dataset.poll) || 1000;
    var busy = false;
    var note = document.getElementById("live-note");

    function tick() {
      var current = document.getElementById("live");
      if (busy || document.hidden || !current) return;
      busy = true;
      var params = new URLSearchParams(location.search); // the page of history shown (?from=)
      params.delete("created");
      params.delete("repeat");
      var query = params.toString();
      var headers = current.dataset.etag ? { "If-None-Match": current.dataset.etag } : {};
      fetch(ledger.dataset.liveUrl + (query ? "?" + query : ""), {
        cache: "no-store",
        credentials: "same-origin",
        headers: headers
      })
        .then(function (answer) { return answer.status === 200 ? answer.text() : null; }) // 304: nothing changed
        .then(function (html) { if (html) swap(html, note); })
        .catch(function () { /* offline for a moment: the next tick tries again */ })
        .finally(function () { busy = false; });
    }

    window.setInterval(tick, every);
    document.addEventListener("visibilitychange", function () { if (!document.hidden) tick(); });
  }

  // ------------------------------------------------------------------ the new-table page

  // The chosen game's card and table-size question; the names and first dealers of the seats that size sits
  // (each game's and each size's label says them: data-seats), the others hidden and not sent.
  function chooseGame(form) {
    function show() {
      var chosen = form.querySelector("input[name=ruleset]:checked");
      var game = chosen ? chosen.value : "";
      form.querySelectorAll("fieldset.game-card, .sizes").forEach(function (part) {
        part.hidden = part.dataset.ruleset !== game;
      });
      var size = form.querySelector('.sizes[data-ruleset="' + game + '"] input:checked');
      var said = (size || chosen || form).closest("[data-seats]");
      if (!said) return;
      var seats = said.dataset.seats.split(" ");
      form.querySelectorAll(".names [data-seat]").forEach(function (label) {
        var sits = seats.indexOf(label.dataset.seat) >= 0;
        label.hidden = !sits;
        label.querySelector("input").disabled = !sits;
      });
      var dealer = form.querySelector("select[name=dealer]");
      Array.prototype.forEach.call(dealer.options, function (option) {
        option.hidden = option.disabled = seats.indexOf(option.value) < 0;
      });
      if (dealer.selectedOptions[0] && dealer.selectedOptions[0].disabled) dealer.value = seats[0];
    }
    form.addEventListener("change", show);
    show();
  }

  // ------------------------------------------------------------------ questions before a change

  // A question that opens (undo, a drawn hand, the next game) brings its answer button into view: on a phone it
  // opened below the fold. (A toggle event does not bubble: listened to on its way down.)
  function showAnswerOf(event) {
    var box = event.target;
    if (!box.open || !box.matches || !box.matches("details.undo, details.confirm")) return;
    box.scrollIntoView({ block: "nearest" });
    var answer = box.querySelector("button[type=submit]");
    if (answer) answer.scrollIntoView({ block: "nearest" }); // a question taller than the screen: its button
  }
  document.addEventListener("toggle", showAnswerOf, true);

  var ledger = document.getElementById("ledger");
  if (ledger && ledger.dataset.liveUrl) {
    remember(ledger);
    keepForOffline(ledger);
    live(ledger);
  }
  var mine = document.getElementById("mine-list");
  if (mine) listMine(mine);
  var newTable = document.getElementById("new-table");
  if (newTable) chooseGame(newTable);
})();
