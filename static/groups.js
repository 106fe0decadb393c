// Share the league's standings picture through the Web Share API where the browser has it;
// the download link stays for every other browser.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    const link = document.getElementById("standings-picture");
    const button = document.getElementById("share-standings");
    if (!link || !button || !navigator.share || !navigator.canShare) return;
    button.hidden = false;
    button.addEventListener("click", async function () {
      try {
        const answer = await fetch(link.href, { credentials: "same-origin" });
        const blob = await answer.blob();
        const file = new File([blob], link.getAttribute("download"), { type: "image/png" });
        const data = { files: [file], title: link.dataset.shareTitle };
        if (navigator.canShare(data)) {
          await navigator.share(data);
        } else {
          link.click();
        }
      } catch (error) {
        if (error.name !== "AbortError") link.click();
      }
    });
  });
})();

// The new session's seat picker (groups/new_session.html): a tap on a member of the group
// seats them in the first free seat, a second tap frees that seat. Each seat stays a text
// field (a new name, or any member picked from its list), so the page works without this.
(function () {
  "use strict";

  function setUp() {
    const picker = document.querySelector("[data-seat-picker]");
    if (!picker) return;
    const seats = Array.from(picker.querySelectorAll("input[type=text], input:not([type])"));
    const buttons = Array.from(picker.querySelectorAll("button[data-member]"));
    if (!seats.length || !buttons.length) return;

    function same(a, b) { return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase(); }
    function seatOf(name) { return seats.find(function (seat) { return same(seat.value, name); }); }
    function refresh() {
      buttons.forEach(function (button) {
        const seat = seatOf(button.dataset.member);
        button.setAttribute("aria-pressed", seat ? "true" : "false");
        button.dataset.seat = seat ? String(seats.indexOf(seat) + 1) : "";
      });
    }

    buttons.forEach(function (button) {
      button.addEventListener("click", function () {
        const seated = seatOf(button.dataset.member);
        if (seated) {
          seated.value = "";
        } else {
          const free = seats.find(function (seat) { return !seat.value.trim(); });
          if (free) free.value = button.dataset.member;
        }
        refresh();
      });
    });
    seats.forEach(function (seat) { seat.addEventListener("input", refresh); });
    picker.querySelectorAll("[hidden]").forEach(function (hidden) {
      if (hidden.tagName !== "DATALIST") hidden.hidden = false;
    });
    refresh();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
