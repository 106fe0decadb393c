// Offline: registers the service worker (static/sw.js), says when a page is offline, and keeps
// games recorded without a connection.
//
// A game recorded offline is kept in IndexedDB exactly as typed and sent, when the connection
// returns, to the JSON API (POST /api/v1/sessions/<id>/games) with an Idempotency-Key made here,
// so a retry after a lost answer is still one game. The server scores it: nothing here knows a
// scoring rule; it only reads whole numbers as typed ("+24", "−5") and leaves the rest to the
// server, which refuses bad input with a message shown next to the waiting game.
// If another phone recorded that game number meanwhile (the API's 409 with `recorded`), both
// entries are shown on the sheet and the table chooses. Nothing typed is dropped unless someone at the table says so.
// Markup: base.html (this script, data-service-worker), scores/game.html (data-offline-queue).
(function () {
  "use strict";

  const script = document.currentScript;
  // The site's root, "/" or a path prefix ("/club/"): the service worker is served at its sw.js.
  const SITE_ROOT = script && script.dataset.serviceWorker
    ? script.dataset.serviceWorker.replace(/sw\.js$/, "") : "/";

  function sitePath(url) {
    return url.pathname.startsWith(SITE_ROOT) ? url.pathname.slice(SITE_ROOT.length) : url.pathname;
  }
  const controlledAtLoad = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  const root = document.documentElement;
  const DATABASE = "companion-offline";
  const STORE = "games";
  const RETRY_MS = 15000;

  // The page's sentences in its language (static/say.js), "{name}" filled in.
  const say = window.companionSay;

  // The service worker ---------------------------------------------------------------------

  if ("serviceWorker" in navigator && script && script.dataset.serviceWorker) {
    navigator.serviceWorker.register(script.dataset.serviceWorker)
      .then(function () { return navigator.serviceWorker.ready; })
      .then(function (registration) {
        if (!navigator.serviceWorker.controller && registration.active) {
          registration.active.postMessage("claim");
        }
      })
      .catch(function () { /* not over https, or private browsing: the site works online */ });
  }

  // Saying that the page is offline --------------------------------------------------------

  function savedAt() {
    const stamp = Number(root.dataset.offlineCopy);
    if (!stamp) return "";
    const when = new Date(stamp);
    const locale = (navigator.languages || [navigator.language]).find(function (each) {
      return each && each.split("-")[0] === root.lang;
    }) || root.lang || undefined;
    return say("saved_at", { when: when.toLocaleDateString(locale) + " " +
      when.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit" }) });
  }

  function showOfflineBanner() {
    let banner = document.getElementById("offline-banner");
    const offline = !navigator.onLine || root.hasAttribute("data-offline-copy");
    if (!offline) {
      if (banner) banner.remove();
      return;
    }
    if (!banner) {
      banner = document.createElement("p");
      banner.id = "offline-banner";
      banner.className = "offline-banner";
      banner.setAttribute("role", "status");
      document.body.prepend(banner);
    }
    banner.textContent = root.hasAttribute("data-offline-copy")
      ? say("banner_copy", { saved: savedAt() })
      : say("banner");
  }

  // The queue in IndexedDB -----------------------------------------------------------------

  function openQueue() {
    return new Promise(function (resolve, reject) {
      const request = indexedDB.open(DATABASE, 1);
      request.onupgradeneeded = function () {
        request.result.createObjectStore(STORE, { keyPath: "id" });
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  async function inQueue(mode, work) {
    const database = await openQueue();
    return new Promise(function (resolve, reject) {
      const transaction = database.transaction(STORE, mode);
      const request = work(transaction.objectStore(STORE));
      transaction.oncomplete = function () {
        database.close();
        resolve(request ? request.result : undefined);
      };
      transaction.onerror = function () { reject(transaction.error); };
    });
  }

  function allEntries() {
    return inQueue("readonly", function (store) { return store.getAll(); })
      .then(function (entries) {
        return (entries || []).sort(function (a, b) {
          return a.number - b.number || a.created - b.created;
        });
      });
  }
  function saveEntry(entry) {
    return inQueue("readwrite", function (store) { return store.put(entry); });
  }
  function dropEntry(id) {
    return inQueue("readwrite", function (store) { return store.delete(id); });
  }
  function newKey() {
    return window.crypto && crypto.randomUUID ? crypto.randomUUID()
      : Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // What was typed, and the JSON API's body made from it -------------------------------------

  function typedFields(form) {
    const data = new FormData(form);
    const text = function (name) { return String(data.get(name) || ""); };
    const config = JSON.parse(form.dataset.offlineQueue);
    return {
      ending: text("ending"),
      winner: text("tie_break") || text("winner"),
      lines: config.players.map(function (player, seat) {
        const prefix = "lines-" + seat + "-";
        return { player: player, rack: text(prefix + "rack"), total: text(prefix + "total"),
                 jokers: text(prefix + "jokers"), score: text(prefix + "score") };
      }),
    };
  }

  // "+24", "-5", "−5" as a whole number; anything else goes as typed and the server says why.
  function wholeNumber(typed) {
    const cleaned = typed.trim().replace(/[−–]/g, "-").replace(/\s/g, "");
    return /^[+-]?\d+$/.test(cleaned) ? parseInt(cleaned, 10) : typed;
  }

  function apiBody(entry) {
    const fields = entry.fields;
    const body = { ending: fields.ending, number: entry.number };
    if (fields.winner) body.winner = fields.winner;
    if (fields.ending === "paper") {
      body.scores = {};
      fields.lines.forEach(function (line) { body.scores[line.player] = wholeNumber(line.score); });
      return body;
    }
    body.racks = {};
    fields.lines.forEach(function (line) {
      if (line.rack.trim()) {
        body.racks[line.player] = line.rack;
      } else if (line.total.trim() || line.jokers.trim()) {
        body.racks[line.player] = { points: wholeNumber(line.total.trim() || "0"),
                                    jokers: wholeNumber(line.jokers.trim() || "0") };
      } else {
        body.racks[line.player] = null;
      }
    });
    return body;
  }

  // Sending --------------------------------------------------------------------------------

  function withLock(work) {
    // One tab sends at a time; the Idempotency-Key covers what a lock cannot (a lost answer).
    return navigator.locks ? navigator.locks.request("companion-offline-queue", work) : work();
  }

  async function sessionNow(entry) {
    const response = await fetch(entry.sessionApi, { cache: "no-store",
                                                     headers: { Accept: "application/json" } });
    return response.ok ? response.json() : null;
  }

  async function post(entry) {
    return fetch(entry.api, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept": "application/json",
                 "Authorization": "Bearer " + entry.key, "Idempotency-Key": entry.id },
      body: JSON.stringify(apiBody(entry)),
    });
  }

  async function send(entry) {
    // The game goes with the number this phone means to record. If another phone recorded
    // that number meanwhile, the server answers 409 with `recorded` (that phone's game) and
    // stores nothing; after a try whose answer was lost, the same Idempotency-Key makes the
    // server answer as it did the first time.
    entry.attempts = (entry.attempts || 0) + 1;
    await saveEntry(entry);
    const response = await post(entry);
    if (response.ok) {
      await dropEntry(entry.id);
      return;
    }
    if (response.status >= 500) return; // the server is unwell: try again later
    const answer = await response.json().catch(function () { return {}; });
    if (response.status === 409 && answer.recorded) {
      entry.state = "conflict"; // another phone recorded this number in the meantime
      entry.theirs = answer.recorded;
    } else {
      entry.state = "refused"; // bad input, a complete session, a key that no longer opens it
    }
    entry.message = answer.error || ("the server refused it (" + response.status + ")");
    await saveEntry(entry);
  }

  let flushing = false;
  async function flush() {
    if (!navigator.onLine || flushing) return;
    flushing = true;
    try {
      await withLock(async function () {
        for (const entry of await allEntries()) {
          if (entry.state !== "waiting") continue;
          try {
            await send(entry);
          } catch (error) {
            return; // no connection after all: the entry waits as it was
          }
        }
      });
    } finally {
      flushing = false;
      await showPending();
    }
  }

  // The record form, offline ----------------------------------------------------------------

  // The games of one session kept on this phone, and the number the next one will have:
  // after the last one kept, or the page's own next game when none is kept.
  async function keptFor(session) {
    return (await allEntries()).filter(function (e) { return String(e.session) === String(session); });
  }
  function nextAfter(entries, pageNumber) {
    return entries.reduce(function (n, e) { return Math.max(n, e.number + 1); }, pageNumber);
  }
  function sameTyping(a, b) {
    return JSON.stringify(a.fields) === JSON.stringify(b.fields);
  }

  async function queueGame(form) {
    const config = JSON.parse(form.dataset.offlineQueue);
    const mine = await keptFor(config.session);
    const number = nextAfter(mine, config.number);
    const entry = {
      id: newKey(), session: config.session, number: number,
      players: config.players, endings: config.endings, api: config.api,
      sessionApi: config.session_api, sheet: config.sheet, key: config.key,
      form: window.location.pathname + window.location.search,
      fields: typedFields(form), created: Date.now(), attempts: 0, state: "waiting",
    };
    const last = mine.slice().sort(function (a, b) { return a.created - b.created; }).pop();
    // The same racks typed again (a second tap, the form opened again from its saved copy)
    // would be a second, identical game: the table says whether it really was played twice.
    if (last && sameTyping(last, entry) &&
        !window.confirm(say("same_as_kept", { number: number, kept: last.number }))) {
      return false;
    }
    await saveEntry(entry);
    window.location.href = config.sheet;
    return true;
  }

  // Offline, the record form (as this phone saved it) still names the game it was saved for:
  // it names the game after those kept on this phone.
  async function numberTheForm() {
    const form = document.querySelector("form[data-offline-queue]");
    if (!form || !window.indexedDB || navigator.onLine) return; // online, the server numbers it
    const config = JSON.parse(form.dataset.offlineQueue);
    const number = nextAfter(await keptFor(config.session), config.number);
    if (number === config.number) return;
    const title = document.querySelector("[data-record-title]");
    if (!title) return;
    const label = title.dataset.label.replace("{number}", number);
    title.textContent = label;
    document.querySelectorAll("[data-record-round]").forEach(function (hint) { hint.hidden = true; });
    const button = form.querySelector("button[type=submit]:not([name])");
    if (button) button.textContent = label;
  }

  document.addEventListener("submit", function (event) {
    const form = event.target.closest("form");
    if (!form) return;
    if (form.dataset.offlineQueue && !navigator.onLine) {
      event.preventDefault();
      if (form.dataset.queued) return; // a second tap on the button
      form.dataset.queued = "1";
      queueGame(form).then(function (kept) {
        if (!kept) delete form.dataset.queued;
      }, function (error) {
        delete form.dataset.queued;
        window.alert(say("keep_failed", { error: error }));
      });
    } else if (form.dataset.restoredFrom) {
      dropEntry(form.dataset.restoredFrom); // the form now carries it; a refusal keeps the typing
    } else if (!navigator.onLine && form.method.toLowerCase() === "post") {
      event.preventDefault();
      showOfflineBanner();
      window.alert(say("offline_post"));
    }
  });

  // Opening a refused game in the form, to correct it ("#restore=<id>").
  async function restoreIntoForm() {
    const form = document.querySelector("form[data-offline-queue]");
    const match = /^#restore=(.+)$/.exec(window.location.hash);
    if (!form || !match) return;
    const entry = (await allEntries()).find(function (e) { return e.id === match[1]; });
    if (!entry) return;
    const winner = form.querySelector("input[name='winner'][value='" + CSS.escape(entry.fields.winner) + "']");
    if (winner) winner.checked = true;
    entry.fields.lines.forEach(function (line, seat) {
      ["rack", "total", "jokers", "score"].forEach(function (part) {
        const input = form.elements["lines-" + seat + "-" + part];
        if (input) input.value = line[part];
      });
    });
    form.dataset.restoredFrom = entry.id;
  }

  // The sheet shows the waiting games ---------------------------------------------------------

  function typedLine(entry) {
    const fields = entry.fields;
    const ending = (entry.endings && entry.endings[fields.ending]) || fields.ending;
    const parts = fields.lines.map(function (line) {
      if (fields.ending === "paper") return line.player + " " + (line.score || "?");
      if (line.rack.trim()) return line.player + ": " + line.rack.trim();
      if (line.total.trim() || line.jokers.trim()) {
        return line.player + ": " + say("points", { points: line.total.trim() || "0" }) +
          (line.jokers.trim() ? " " + say("plus_jokers", { jokers: line.jokers.trim() }) : "");
      }
      return line.player + ": —";
    });
    return (fields.winner ? say("won", { name: fields.winner }) + ", " : "") + ending + " · " +
      parts.join(" · ");
  }

  function theirLine(entry) {
    const game = entry.theirs;
    if (!game) return say("not_known");
    const ending = (entry.endings && entry.endings[game.ending]) || game.ending;
    const scores = Object.keys(game.scores).map(function (name) {
      const points = game.scores[name];
      return name + " " + (points > 0 ? "+" + points : points < 0 ? "−" + (-points) : "0");
    });
    return say("won", { name: game.winner }) + ", " + ending + " · " + scores.join(" · ");
  }

  function element(tag, className, text) {
    const made = document.createElement(tag);
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function button(label, action, id, secondary) {
    const made = element("button", secondary ? "secondary" : "", label);
    made.type = "button";
    made.dataset.pendingAction = action;
    made.dataset.pendingId = id;
    return made;
  }

  function describe(entry) {
    const item = element("li", "pending-game pending-" + entry.state);
    item.dataset.pendingGame = String(entry.number);
    const title = {
      waiting: say("waiting", { number: entry.number }),
      conflict: say("conflict", { number: entry.number }),
      refused: say("refused", { number: entry.number, message: entry.message || "" }),
    }[entry.state];
    item.append(element("strong", "", title));
    const mine = element("p", "pending-mine", say("mine", { line: typedLine(entry) }));
    item.append(mine);
    const actions = element("div", "actions");
    if (entry.state === "conflict") {
      item.append(element("p", "pending-theirs", say("theirs", { line: theirLine(entry) })));
      actions.append(
        button(say("keep_theirs", { number: entry.number }), "keep-theirs", entry.id, true),
        button(say("use_mine", { number: entry.number }), "use-mine", entry.id),
        button(say("add_next"), "add-next", entry.id, true));
    } else if (entry.state === "refused") {
      actions.append(button(say("correct"), "correct", entry.id),
                     button(say("discard"), "discard", entry.id, true));
    }
    if (actions.childElementCount) item.append(actions);
    return item;
  }

  // The kept games as rows of the score sheet, and the record button offering the game after
  // them (the sheet as saved offline still offers the game it was saved with).
  function showOnTheSheet(entries) {
    const table = document.querySelector("main table.score-sheet");
    let rows = document.getElementById("pending-rows");
    if (rows) rows.remove();
    if (table && entries.length) {
      rows = element("tbody", "pending-rows");
      rows.id = "pending-rows";
      const columns = table.querySelectorAll("thead th").length;
      entries.forEach(function (entry) {
        const row = element("tr", "game pending-row");
        row.dataset.pendingRow = String(entry.number);
        row.append(element("th", "", String(entry.number) + " ⏳"));
        const cell = element("td", "", say("waiting", { number: entry.number }));
        cell.colSpan = Math.max(1, columns - 1);
        row.append(cell);
        rows.append(row);
      });
      const foot = table.querySelector("tfoot");
      table.insertBefore(rows, foot);
    }
    document.querySelectorAll("main a[data-next-game]").forEach(function (link) {
      const pageNumber = Number(link.dataset.nextGame);
      const number = nextAfter(entries, pageNumber);
      link.textContent = link.dataset.label.replace("{number}", number);
    });
  }

  async function showPending() {
    const sheet = document.querySelector("main .sheet-wrap");
    const meta = document.querySelector("meta[name='companion-live']");
    if (!sheet || !meta || !window.indexedDB) return;
    const entries = (await allEntries()).filter(function (e) {
      return String(e.session) === meta.dataset.session;
    });
    showOnTheSheet(entries);
    let section = document.getElementById("pending-games");
    if (!entries.length) {
      if (section) section.remove();
      return;
    }
    if (!section) {
      section = element("section", "pending no-print");
      section.id = "pending-games";
      section.setAttribute("aria-live", "polite");
    }
    sheet.before(section);
    section.replaceChildren(element("h2", "", say("pending_title")));
    const list = element("ul", "pending-list");
    entries.forEach(function (entry) { list.append(describe(entry)); });
    section.append(list);
  }

  async function choose(action, id) {
    const entry = (await allEntries()).find(function (e) { return e.id === id; });
    if (!entry) return;
    if (action === "keep-theirs" || action === "discard") {
      if (window.confirm(say("drop_confirm", { number: entry.number }))) {
        await dropEntry(id);
      }
    } else if (action === "use-mine") {
      const response = await fetch(entry.api + "/" + entry.number, {
        method: "PUT",
        headers: { "Content-Type": "application/json", "Accept": "application/json",
                   "Authorization": "Bearer " + entry.key,
                   "Idempotency-Key": entry.id + "-use-mine" },
        body: JSON.stringify(apiBody(entry)),
      });
      if (response.ok) {
        await dropEntry(id); // the game it replaced stays in the session's history
      } else {
        const answer = await response.json().catch(function () { return {}; });
        entry.state = "refused";
        entry.message = answer.error || say("server_refused", { status: response.status });
        await saveEntry(entry);
      }
    } else if (action === "add-next") {
      const session = await sessionNow(entry);
      Object.assign(entry, { id: newKey(), state: "waiting", attempts: 0, theirs: null,
                             number: session && session.next_game ? session.next_game.number
                               : entry.number + 1 });
      await dropEntry(id);
      await saveEntry(entry);
      await flush();
    } else if (action === "correct") {
      window.location.href = entry.form + "#restore=" + encodeURIComponent(id);
      return;
    }
    await showPending();
  }

  document.addEventListener("click", function (event) {
    const target = event.target.closest("[data-pending-action]");
    if (!target) return;
    choose(target.dataset.pendingAction, target.dataset.pendingId).catch(function (error) {
      window.alert(say("failed", { error: error }));
    });
  });

  // Saving the pages a table needs offline, and listing them on the offline page ---------------

  async function prefetchForOffline() {
    if (!navigator.onLine || !navigator.serviceWorker || !navigator.serviceWorker.controller) return;
    const wanted = new Set();
    const here = window.location.pathname + window.location.search;
    if (!/\/join$/.test(window.location.pathname) && (!controlledAtLoad ||
        !(window.caches && await caches.match(window.location.href, { ignoreVary: true })))) {
      // This page came before the worker did, or as the answer to a form (a redirect the
      // worker does not see): save it now, so that it too opens offline.
      wanted.add(here);
    }
    const queueForm = document.querySelector("form[data-offline-queue]");
    if (queueForm) {
      // A game recorded offline returns to the sheet: it must open offline too.
      wanted.add(JSON.parse(queueForm.dataset.offlineQueue).sheet);
    }
    document.querySelectorAll("main a[href]").forEach(function (link) {
      const url = new URL(link.href, window.location.href);
      if (url.origin !== window.location.origin || link.hasAttribute("download")) return;
      if (/\/games\/new$/.test(url.pathname)) {
        ["out", "exhausted", "paper"].forEach(function (ending) {
          url.searchParams.set("ending", ending);
          wanted.add(url.pathname + url.search);
        });
      } else if (/^(timer$|scores\/[^/]+\/(view|tv|history)$)/.test(sitePath(url)) &&
                 !url.searchParams.has("edit")) {
        wanted.add(url.pathname + url.search);
      }
    });
    Array.from(wanted).slice(0, 12).forEach(function (url) {
      fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } })
        .catch(function () { /* saved next time */ });
    });
  }

  function savePagesForOffline() {
    prefetchForOffline().catch(function () { /* saved next time */ });
  }

  async function listSavedPages() {
    const list = document.querySelector("[data-offline-pages]");
    if (!list || !window.caches) return;
    const cache = await caches.open("companion-pages");
    const items = [];
    for (const request of await cache.keys()) {
      const url = new URL(request.url);
      if (sitePath(url) === "offline") continue;
      const response = await cache.match(request);
      const title = /<title>([^<]*)<\/title>/.exec(await response.text());
      const item = element("li");
      const link = element("a", "", title ? title[1] : url.pathname);
      link.href = url.pathname + url.search;
      item.append(link);
      items.push(item);
    }
    if (items.length) list.replaceChildren.apply(list, items);
  }

  // When ---------------------------------------------------------------------------------------

  window.addEventListener("online", function () { showOfflineBanner(); flush(); });
  window.addEventListener("offline", function () { showOfflineBanner(); numberTheForm(); });
  document.addEventListener("companion:live-updated", function () {
    showOfflineBanner();
    showPending();
  });
  document.addEventListener("companion:session", function () { flush(); });
  window.setInterval(flush, RETRY_MS);

  showOfflineBanner();
  numberTheForm();
  restoreIntoForm();
  listSavedPages();
  showPending().then(flush);
  if (document.readyState === "complete") {
    savePagesForOffline();
  } else {
    window.addEventListener("load", savePagesForOffline);
  }
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("controllerchange", savePagesForOffline);
  }
})();
