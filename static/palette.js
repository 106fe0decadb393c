// Tile palette: tapping a tile types its notation into the target field.
// Markup: templates/_palette.html. Any number of palettes per page, one target each.
(function () {
  "use strict";

  function lastLineIsEmpty(text) {
    return /(^|\n)\s*$/.test(text);
  }

  function apply(field, action, tile) {
    let text = field.value;
    if (tile) {
      text = lastLineIsEmpty(text) ? text.replace(/[ \t,]*$/, "") : text.replace(/\s*$/, " ");
      text += tile;
    } else if (action === "new-set") {
      if (!lastLineIsEmpty(text)) text = text.replace(/\s*$/, "") + "\n";
    } else if (action === "backspace") {
      text = text.replace(/\s*$/, "").replace(/\S+$/, "").replace(/[ \t,]*$/, "");
    } else if (action === "clear") {
      text = "";
    }
    field.value = text;
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest(".palette button");
    if (!button) return;
    const palette = button.closest(".palette");
    const field = document.getElementById(palette.dataset.paletteFor);
    if (!field) return;
    apply(field, button.dataset.paletteAction, button.dataset.tile);
  });

  // Palettes follow the preset picker when the page has one: bonus jokers only with the
  // presets the core lists (the palette's data-bonus-presets, written by the server).
  document.addEventListener("change", function (event) {
    if (!event.target.matches("select[data-preset-picker]")) return;
    const preset = event.target.value;
    document.querySelectorAll(".palette").forEach(function (palette) {
      const bonus = (palette.dataset.bonusPresets || "").split(" ").indexOf(preset) >= 0;
      palette.querySelectorAll(".bonus-jokers").forEach(function (span) {
        span.hidden = !bonus;
      });
    });
  });

  // The check page remembers the table it checked, for the turn page's "use the last table".
  const checked = document.querySelector("[data-remember-table]");
  if (checked) {
    try { localStorage.setItem("companion.lastTable", checked.dataset.rememberTable); } catch (e) { /* private mode */ }
  }
})();
