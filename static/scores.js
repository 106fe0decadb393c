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
