// Tile palette: tapping a tile types its notation into the target field, at the cursor.
// Markup: templates/_palette.html. Any number of palettes per page, one target each.
// While its field has focus the palette docks at the bottom of the screen (the field is
// scrolled above it); a rack palette shows the rack's value, asked of the server.
(function () {
  "use strict";

  const SEPARATOR = /[\s,|;]/;

  function caret(field) {
    // A field the player never put the cursor in is typed into at its end.
    if (field.dataset.caretKnown !== "yes") return [field.value.length, field.value.length];
    return [field.selectionStart, field.selectionEnd];
  }

  function apply(field, action, tile) {
    const text = field.value;
    const [start, end] = caret(field);
    let before = text.slice(0, start);
    let after = text.slice(end);
    if (tile) {
      if (before && !SEPARATOR.test(before.slice(-1))) before += " ";
      before += tile;
      if (after && !SEPARATOR.test(after.charAt(0))) after = " " + after;
    } else if (action === "new-set") {
      before = before.replace(/[ \t,]*$/, "");
      if (before && !/\n$/.test(before)) before += "\n";
      after = after.replace(/^[ \t,]*/, "");
    } else if (action === "backspace") {
      if (start === end) before = before.replace(/\S+\s*$/, "").replace(/[ \t,]*$/, "");
      if (!before) after = after.replace(/^[ \t,]*/, "");
    } else if (action === "clear") {
      before = "";
      after = "";
    } else {
      return;
    }
    field.value = before + after;
    if (field.dataset.caretKnown === "yes") field.setSelectionRange(before.length, before.length);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function fieldOf(palette) {
    return document.getElementById(palette.dataset.paletteFor);
  }

  // A tap on the palette keeps the focus (and the cursor) in the field being typed.
  document.addEventListener("mousedown", function (event) {
    if (event.target.closest(".palette button")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    const button = event.target.closest(".palette button");
    if (!button) return;
    const palette = button.closest(".palette");
    const field = fieldOf(palette);
    if (!field) return;
    if (button.dataset.paletteAction === "done") {
      field.blur();
      undock();
      return;
    }
    apply(field, button.dataset.paletteAction, button.dataset.tile);
  });

  // --- Docking -------------------------------------------------------------------------
  let docked = null;
  let dockedField = null;

  function paletteFor(field) {
    if (!field || !field.id) return null;
    return document.querySelector(".palette[data-palette-for='" + CSS.escape(field.id) + "']");
  }

  // While docked, a placeholder keeps the palette's place in the page: docking and undocking
  // move nothing under the finger (a tap on the button below the field lands where aimed).
  function undock() {
    if (!docked) return;
    const placeholder = docked.previousElementSibling;
    if (placeholder && placeholder.classList.contains("palette-placeholder")) placeholder.remove();
    docked.classList.remove("palette-docked");
    docked = null;
    dockedField = null;
    document.documentElement.classList.remove("has-docked-palette");
    document.documentElement.style.removeProperty("--docked-palette-height");
  }

  function dock(field) {
    const palette = paletteFor(field);
    if (!palette) return;
    if (docked === palette && dockedField === field) return;
    if (docked === palette) {
      dockedField = field;
      keepAbove(field, palette.getBoundingClientRect().height);
      showValue(palette);
      return;
    }
    undock();
    docked = palette;
    dockedField = field;
    const placeholder = document.createElement("div");
    placeholder.className = "palette-placeholder";
    placeholder.style.height = palette.getBoundingClientRect().height + "px";
    palette.before(placeholder);
    palette.classList.add("palette-docked");
    const height = palette.getBoundingClientRect().height;
    document.documentElement.classList.add("has-docked-palette");
    document.documentElement.style.setProperty("--docked-palette-height", height + "px");
    keepAbove(field, height);
    showValue(palette);
  }

  // The field stays in sight above the docked palette.
  function keepAbove(field, paletteHeight) {
    const margin = 8;
    const rect = field.getBoundingClientRect();
    const visibleBottom = window.innerHeight - paletteHeight - margin;
    let shift = 0;
    if (rect.bottom > visibleBottom) shift = rect.bottom - visibleBottom;
    if (rect.top - shift < margin) shift = rect.top - margin;
    if (shift) window.scrollBy(0, shift);
  }

  document.addEventListener("focusin", function (event) {
    const field = event.target;
    if (!field.matches || !field.matches("input, textarea")) return;
    field.dataset.caretKnown = "yes";
    // Dock at once when the field's palette is showing, so that nothing moves after the
    // focus; again once other scripts have had their turn (the score keeper points its
    // palette at the rack focused, the turn page shows the palette of the field in use).
    const palette = paletteFor(field);
    if (palette && palette.getClientRects().length) dock(field);
    window.setTimeout(function () {
      if (document.activeElement === field && paletteFor(field)) dock(field);
    }, 0);
  });

  // A mouse press moves the focus before its release: undocking then would shorten the page
  // under the pointer, and the release (the click on the form's button) would land elsewhere.
  // So while a button is held, undocking waits for the click (or for the release, if the
  // press ends off the button and no click follows).
  let pressed = false;
  let afterPress = [];
  document.addEventListener("pointerdown", function () { pressed = true; }, true);
  function released() {
    if (!pressed) return;
    pressed = false;
    const waiting = afterPress;
    afterPress = [];
    const run = function () { waiting.splice(0).forEach(function (work) { work(); }); };
    document.addEventListener("click", function () { window.setTimeout(run, 0); },
                              { capture: true, once: true });
    window.setTimeout(run, 400);
  }
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);

  function whenPressEnds(work) {
    if (pressed) afterPress.push(work);
    else window.setTimeout(work, 0);
  }

  document.addEventListener("focusout", function () {
    whenPressEnds(function () {
      const active = document.activeElement;
      if (docked && !(active && (docked.contains(active) || paletteFor(active) === docked))) undock();
    });
  });

  // --- Running value of a rack, from the server (the rules live there) ----------------
  const timers = new WeakMap();

  function presetOf(palette) {
    const source = palette.closest("[data-rack-preset]");
    if (source) {
      const penalty = parseInt(source.dataset.rackJokerPenalty || "", 10);
      return { preset: source.dataset.rackPreset, joker_penalty: isNaN(penalty) ? undefined : penalty };
    }
    const form = palette.closest("form");
    const picker = (form || document).querySelector("select[data-preset-picker], select[name=preset]");
    return { preset: picker ? picker.value : undefined };
  }

  // A counted phrase in the page's language: the server hands each plural category's form
  // (templates/_palette.html), the browser knows which category a number falls in.
  function counted(formsJson, count) {
    const forms = JSON.parse(formsJson);
    const category = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
    return (forms[category] || forms.other).replace("{n}", count);
  }

  function showValue(palette) {
    const output = palette.querySelector(".palette-value");
    const field = fieldOf(palette);
    if (!output || !field) return;
    const rack = field.value.trim();
    if (!rack) {
      output.textContent = "";
      return;
    }
    const body = Object.assign({ rack: field.value }, presetOf(palette));
    fetch(output.dataset.url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then(function (response) {
      return response.json();
    }).then(function (answer) {
      if (fieldOf(palette) !== field || field.value !== body.rack) return;  // typed on since
      output.classList.toggle("palette-value-error", Boolean(answer.error));
      if (answer.error) {
        const where = answer.where || {};
        output.textContent = output.dataset.textRackError
          .replace("{token}", where.token || where.tile || "");
      } else {
        const parts = [output.dataset.textRackValue.replace("{value}", answer.value),
          counted(output.dataset.textTiles, answer.tiles)];
        if (answer.jokers) parts.push(counted(output.dataset.textJokers, answer.jokers));
        output.textContent = parts.join(" · ");
      }
    }).catch(function () {
      output.textContent = "";
    });
  }

  document.addEventListener("input", function (event) {
    const palette = paletteFor(event.target);
    if (!palette || !palette.querySelector(".palette-value")) return;
    window.clearTimeout(timers.get(palette));
    timers.set(palette, window.setTimeout(function () { showValue(palette); }, 250));
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
      if (palette.querySelector(".palette-value")) showValue(palette);
    });
  });

  // The check page remembers the table it checked, for the turn page's "use the last table".
  const checked = document.querySelector("[data-remember-table]");
  if (checked) {
    try { localStorage.setItem("companion.lastTable", checked.dataset.rememberTable); } catch (e) { /* private mode */ }
  }
})();
