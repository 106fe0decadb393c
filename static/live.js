// Live score pages: the sheet, the read-only view and the TV view follow the session's event
// stream (Server-Sent Events, GET /api/v1/sessions/<id>/events). On each `game` event the page
// is fetched again and its <main> replaced, so what every phone shows is rendered by the server
// exactly as on a reload: no score, total or standing is computed here. Scripts that act on
// elements inside <main> must listen on the document (the elements are replaced).
// Markup: templates/live/_head.html (the meta tag), templates/live/_share.html (share buttons).
(function () {
  "use strict";

  // The page's sentences in its language (static/say.js), "{name}" filled in.
  const say = window.companionSay;

  // Editing a game older than the last asks first: later games were scored after it.
  document.addEventListener("click", function (event) {
    const link = event.target.closest("a.edit-game");
    if (!link) return;
    const row = link.closest("tr[data-game]");
    if (!row) return;
    const numbers = Array.from(document.querySelectorAll("tr[data-game]"),
      function (each) { return Number(each.dataset.game); });
    const number = Number(row.dataset.game);
    const last = Math.max.apply(null, numbers);
    if (number < last && !window.confirm(say("edit_older", { number: number, last: last }))) {
      event.preventDefault();
    }
  });

  // The Web Share API where the browser has it (phones); the QR codes and links elsewhere.
  function showShareButtons() {
    if (!navigator.share) return;
    document.querySelectorAll("[data-web-share]").forEach(function (button) {
      button.hidden = false;
    });
  }
  document.addEventListener("click", function (event) {
    const button = event.target.closest("[data-web-share]");
    if (!button || !navigator.share) return;
    navigator.share({ title: button.dataset.shareTitle, url: button.dataset.webShare })
      .catch(function () { /* the person closed the share sheet */ });
  });
  showShareButtons();
  document.addEventListener("companion:live-updated", showShareButtons);

  const meta = document.querySelector("meta[name='companion-live']");
  if (!meta || !window.EventSource) return;
  const root = document.documentElement;
  let version = meta.dataset.version || "";
  let source = null;
  let fetching = false;
  let fetchAgain = false;

  function setState(state) {
    root.dataset.liveState = state;
  }

  async function refresh() {
    if (fetching) {
      fetchAgain = true;
      return;
    }
    fetching = true;
    try {
      const response = await fetch(window.location.href, {
        cache: "no-store", credentials: "same-origin", headers: { Accept: "text/html" } });
      if (response.ok) {
        const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
        const freshMain = fresh.querySelector("main");
        const main = document.querySelector("main");
        if (freshMain && main) {
          main.replaceChildren.apply(main, Array.from(freshMain.childNodes));
          document.title = fresh.title;
          root.dataset.liveVersion = version;
          root.removeAttribute("data-offline-copy"); // fresh from the server now
          document.dispatchEvent(new CustomEvent("companion:live-updated"));
        }
      }
    } catch (error) {
      // Offline or the server is restarting: the stream reconnects and says so again.
    } finally {
      fetching = false;
      if (fetchAgain) {
        fetchAgain = false;
        refresh();
      }
    }
  }

  function connect() {
    const url = meta.content + (version ? "?since=" + encodeURIComponent(version) : "");
    source = new EventSource(url);
    source.addEventListener("open", function () { setState("connected"); });
    source.addEventListener("game", function (event) {
      version = event.lastEventId || version;
      document.dispatchEvent(new CustomEvent("companion:session", {
        detail: JSON.parse(event.data) }));
      refresh();
    });
    source.addEventListener("gone", function () {
      source.close();
      setState("gone");
      refresh();
    });
    source.addEventListener("error", function () {
      // The browser retries by itself while the stream is CONNECTING; a CLOSED stream
      // (the server refused it, or it never answered) is opened again a little later.
      setState("reconnecting");
      if (source.readyState === EventSource.CLOSED && root.dataset.liveState !== "gone") {
        window.setTimeout(connect, 5000);
      }
    });
  }

  // A phone that slept, or comes back online, asks again at once rather than after a back-off.
  function wake() {
    if (source && source.readyState === EventSource.CLOSED && root.dataset.liveState !== "gone") {
      connect();
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") wake();
  });
  window.addEventListener("online", wake);

  root.dataset.liveVersion = version;
  connect();
})();
