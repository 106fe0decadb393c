// Score keeping: one tile palette serves every rack field; it types into the last one focused.
(function () {
  "use strict";
  document.addEventListener("focusin", function (event) {
    if (!event.target.matches("input[data-rack-field]")) return;
    document.querySelectorAll(".palette").forEach(function (palette) {
      palette.dataset.paletteFor = event.target.id;
    });
    document.querySelectorAll(".player-line").forEach(function (line) {
      line.classList.toggle("palette-target", line.contains(event.target));
    });
  });
})();

// When someone went out, their own rack line is greyed: it stays empty.
(function () {
  "use strict";
  function markWinner() {
    const form = document.querySelector(".game-form[data-ending='out']");
    if (!form) return;
    const chosen = form.querySelector("input[name='winner']:checked");
    form.querySelectorAll(".player-line").forEach(function (line) {
      line.classList.toggle("went-out", Boolean(chosen) && line.dataset.player === chosen.value);
    });
  }
  document.addEventListener("change", function (event) {
    if (event.target.matches("input[name='winner']")) markWinner();
  });
  document.addEventListener("DOMContentLoaded", markWinner);
})();

// Buttons that ask first, print, and share links selected on a tap (no inline handlers: the
// Content-Security-Policy forbids them).
(function () {
  "use strict";
  document.addEventListener("submit", function (event) {
    const question = event.target.dataset && event.target.dataset.confirm;
    if (question && !window.confirm(question)) event.preventDefault();
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-print]")) window.print();
    const field = event.target.closest("[data-select-on-click]");
    if (field) field.select();
  });
})();
