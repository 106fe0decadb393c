// "Photo of the rack": choosing or taking a photo reads it at once (POST /api/v1/rack) and
// fills the rack field beside it. Unsure tiles get a button that selects the tile in the
// field, to retype it or tap it on the palette. Nothing is stored until the game is recorded.
(function () {
  "use strict";

  function tokenSpans(text) {
    const spans = [];
    const pattern = /[^\s,]+/g;
    let match;
    while ((match = pattern.exec(text)) !== null) {
      spans.push([match.index, match.index + match[0].length]);
    }
    return spans;
  }

  function describe(answer) {
    const count = answer.tiles.length;
    let words = "Read " + count + " tile" + (count === 1 ? "" : "s") + ": rack value " + answer.value;
    if (answer.jokers) {
      words += " (" + answer.jokers + " joker" + (answer.jokers === 1 ? "" : "s") + " included)";
    }
    if (answer.ignored.length) {
      words += "; " + answer.ignored.length + " tile" + (answer.ignored.length === 1 ? "" : "s") +
        " off the rack left out";
    }
    return words + ". Check the tiles, then record the game.";
  }

  function showUnsure(box, field, answer) {
    const unsure = box.querySelector(".rack-photo-unsure");
    unsure.replaceChildren();
    const doubtful = answer.tiles
      .map(function (tile, index) { return { tile: tile, index: index }; })
      .filter(function (item) { return item.tile.low_confidence; });
    unsure.hidden = doubtful.length === 0;
    if (!doubtful.length) return;
    unsure.append("Not sure of: ");
    doubtful.forEach(function (item) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = item.tile.tile + "?";
      button.title = "Tile " + (item.index + 1) + ", " + Math.round(item.tile.confidence * 100) +
        "% sure: tap to select it in the rack field";
      button.addEventListener("click", function () {
        const span = tokenSpans(field.value)[item.index];
        field.focus();
        if (span) field.setSelectionRange(span[0], span[1]);
      });
      unsure.append(button);
    });
  }

  async function readRack(box, input) {
    const field = document.getElementById(box.dataset.rackPhotoFor);
    const status = box.querySelector(".rack-photo-status");
    const progress = box.querySelector(".rack-photo-progress");
    if (!field || !input.files.length) return;
    const body = new FormData();
    body.append("photo", input.files[0]);
    body.append("preset", box.dataset.preset);
    body.append("joker_penalty", box.dataset.jokerPenalty);
    box.classList.add("reading");
    input.disabled = true;
    progress.hidden = false;
    status.classList.remove("error");
    status.textContent = "Reading the photo…";
    try {
      const response = await fetch(box.dataset.endpoint, { method: "POST", body: body });
      let answer = null;
      try { answer = await response.json(); } catch (ignored) { answer = null; }
      if (!response.ok || !answer || answer.error) {
        throw new Error(answer && answer.error ? answer.error : "the photo could not be read (" + response.status + ")");
      }
      field.value = answer.tiles.map(function (tile) { return tile.tile; }).join(" ");
      box.readPhoto = input.files[0];
      box.querySelector(".rack-photo-keep").hidden = false;
      box.querySelector(".rack-photo-keep-button").disabled = false;
      field.dispatchEvent(new Event("input", { bubbles: true }));
      status.textContent = describe(answer);
      showUnsure(box, field, answer);
    } catch (error) {
      status.classList.add("error");
      status.textContent = "Photo not read: " + error.message;
    } finally {
      box.classList.remove("reading");
      input.disabled = false;
      input.value = "";
      progress.hidden = true;
    }
  }

  async function keepSample(box, button) {
    const field = document.getElementById(box.dataset.rackPhotoFor);
    const status = box.querySelector(".rack-photo-status");
    if (!field || !box.readPhoto) return;
    const body = new FormData();
    body.append("photo", box.readPhoto);
    body.append("tiles", field.value);
    button.disabled = true;
    try {
      const response = await fetch(box.dataset.keepEndpoint, { method: "POST", body: body });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || "not kept");
      status.classList.remove("error");
      status.textContent = "Kept: this photo and your corrected tiles will help train the reader. Thank you.";
      box.querySelector(".rack-photo-keep").hidden = true;
    } catch (error) {
      status.classList.add("error");
      status.textContent = "Not kept: " + error.message;
      button.disabled = false;
    }
  }

  document.addEventListener("click", function (event) {
    if (!event.target.matches(".rack-photo-keep-button")) return;
    const box = event.target.closest(".rack-photo");
    if (box) keepSample(box, event.target);
  });

  document.addEventListener("change", function (event) {
    if (!event.target.matches(".rack-photo-input")) return;
    const box = event.target.closest(".rack-photo");
    if (box) readRack(box, event.target);
  });
})();
