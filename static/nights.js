// A club night's pages: the print button, and the TV view following the room live.
// The stream (GET /api/v1/nights/<id>/events) says only that the night changed; the page then
// fetches itself again and swaps the room in: no standings rule is written here.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
  });
  var meta = document.querySelector('meta[name="companion-night-live"]');
  if (!meta || !window.EventSource) return;
  var shown = meta.dataset.version;
  function refresh() {
    fetch(window.location.href, {headers: {"Accept": "text/html"}}).then(function (answer) {
      return answer.ok ? answer.text() : null;
    }).then(function (html) {
      if (!html) return;
      var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("night-room");
      var room = document.getElementById("night-room");
      if (fresh && room) room.replaceWith(fresh);
    }).catch(function () { /* offline: the stream reconnects and tries again */ });
  }
  var stream = new EventSource(meta.content);
  stream.addEventListener("night", function (event) {
    var version = JSON.parse(event.data).version;
    if (version !== shown) { shown = version; refresh(); }
  });
  stream.addEventListener("gone", function () { stream.close(); });
})();
