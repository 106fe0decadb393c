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

  // Palettes follow the preset picker when the page has one: bonus jokers only with Twist.
  document.addEventListener("change", function (event) {
    if (!event.target.matches("select[data-preset-picker]")) return;
    const twist = event.target.value === "twist";
    document.querySelectorAll(".palette .bonus-jokers").forEach(function (span) {
      span.hidden = !twist;
    });
  });
})();
