// Score keeping: one tile palette serves every rack field; it types into the last one focused.
(function () {
  "use strict";
  document.addEventListener("focusin", function (event) {
    if (!event.target.matches("[data-rack-field]")) return;
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

// Switching how the game ended ("went out", "the pool ran out", "copy from paper") loads the
// page of that ending; what was typed goes along (this tab's sessionStorage) and is put back,
// racks kept while on the paper page and scores while on the racks. The server still decides.
(function () {
  "use strict";
  const key = "companion.typed:" + location.pathname;

  function read() {
    try { return JSON.parse(sessionStorage.getItem(key) || "null"); } catch (e) { return null; }
  }
  function write(value) {
    try { sessionStorage.setItem(key, JSON.stringify(value)); } catch (e) { /* private mode */ }
  }

  document.addEventListener("click", function (event) {
    const link = event.target.closest("[data-ending-switch] a");
    const form = document.querySelector("form[data-keep-typed]");
    if (!link || !form) return;
    const kept = (read() || {}).fields || {};
    form.querySelectorAll("input[name^='lines-']:not([type=hidden]), textarea[name^='lines-']").forEach(function (input) {
      kept[input.name] = input.value;
    });
    const winner = form.querySelector("input[name='winner']:checked");
    if (winner) kept.winner = winner.value;
    write({ pending: true, fields: kept });
  });

  document.addEventListener("submit", function (event) {
    if (event.target.matches("form[data-keep-typed]")) {
      try { sessionStorage.removeItem(key); } catch (e) { /* private mode */ }
    }
  });

  function restore() {
    const form = document.querySelector("form[data-keep-typed]");
    const stored = read();
    if (!form || !stored) return;
    if (!stored.pending) {  // left over from a page not reached by the switch
      try { sessionStorage.removeItem(key); } catch (e) { /* private mode */ }
      return;
    }
    const fields = stored.fields || {};
    form.querySelectorAll("input[name^='lines-']:not([type=hidden]), textarea[name^='lines-']").forEach(function (input) {
      if (Object.prototype.hasOwnProperty.call(fields, input.name)) input.value = fields[input.name];
    });
    if (fields.winner !== undefined) {
      form.querySelectorAll("input[name='winner']").forEach(function (radio) {
        if (radio.value === fields.winner) {
          radio.checked = true;
          radio.dispatchEvent(new Event("change", { bubbles: true }));
        }
      });
    }
    write({ pending: false, fields: fields });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", restore);
  else restore();
})();

// The sheet shortens long names on a phone (static/scores.css); a tap on a name shows it whole.
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    const name = event.target.closest("button[data-full-name]");
    if (!name) return;
    const expanded = name.getAttribute("aria-expanded") !== "true";
    name.setAttribute("aria-expanded", expanded ? "true" : "false");
  });
})();
