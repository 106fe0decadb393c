// "Photo of the rack": choosing or taking a photo reads it at once (POST /api/v1/rack) and
// fills the rack field beside it. Unsure tiles get a button that selects the tile in the
// field, to retype it or tap it on the palette. Nothing is stored until the game is recorded.
(function () {
  "use strict";

  // The page's sentences in its language (static/say.js), "{name}" filled in.
  const say = window.companionSay;

  // The API's refusal in the page's language when its stable code has a sentence here.
  function refusal(answer, status) {
    if (!answer || !answer.error) return say("photo_unreadable", { status: status });
    const key = "photo_error_" + answer.code;
    const said = answer.code ? say(key) : key;
    return said !== key ? said : answer.error;
  }

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
    let words = say("photo_read", { count: answer.tiles.length, value: answer.value });
    if (answer.jokers) words += " (" + say("photo_jokers", { count: answer.jokers }) + ")";
    if (answer.ignored.length) {
      words += "; " + say("photo_ignored", { count: answer.ignored.length });
    }
    words += ". " + say("photo_check");
    if (answer.seen_whole === false) words += " " + say("photo_not_whole");
    return words;
  }

  function showUnsure(box, field, answer) {
    const unsure = box.querySelector(".rack-photo-unsure");
    unsure.replaceChildren();
    const doubtful = answer.tiles
      .map(function (tile, index) { return { tile: tile, index: index }; })
      .filter(function (item) { return item.tile.low_confidence; });
    unsure.hidden = doubtful.length === 0;
    if (!doubtful.length) return;
    unsure.append(say("photo_unsure") + " ");
    doubtful.forEach(function (item) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = item.tile.tile + "?";
      // a tile a rule holds unsure says the rule's reason: its percentage is the rule's cap
      const reason = item.tile.doubt && say("photo_doubt_" + item.tile.doubt);
      button.title = reason && reason !== "photo_doubt_" + item.tile.doubt
        ? say("photo_doubted_tile", { position: item.index + 1, reason: reason })
        : say("photo_unsure_tile", { position: item.index + 1,
          percent: Math.round(item.tile.confidence * 100) + "%" });
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
    status.textContent = say("photo_reading");
    try {
      const response = await fetch(box.dataset.endpoint, { method: "POST", body: body });
      let answer = null;
      try { answer = await response.json(); } catch (ignored) { answer = null; }
      if (!response.ok || !answer || answer.error) {
        throw new Error(refusal(answer, response.status));
      }
      field.value = answer.tiles.map(function (tile) { return tile.tile; }).join(" ");
      box.readPhoto = input.files[0];
      box.querySelector(".rack-photo-keep").hidden = !box.dataset.keepEndpoint;
      box.querySelector(".rack-photo-keep-button").disabled = false;
      field.dispatchEvent(new Event("input", { bubbles: true }));
      status.textContent = describe(answer);
      showUnsure(box, field, answer);
    } catch (error) {
      status.classList.add("error");
      status.textContent = say("photo_not_read", { error: error.message });
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
    body.append("session", box.dataset.session);
    body.append("photo", box.readPhoto);
    body.append("tiles", field.value);
    button.disabled = true;
    try {
      const response = await fetch(box.dataset.keepEndpoint, {
        method: "POST", body: body, headers: { Authorization: "Bearer " + box.dataset.key } });
      const answer = await response.json();
      if (!response.ok) throw new Error(answer.error || say("photo_not_kept_reason"));
      status.classList.remove("error");
      status.textContent = say("photo_kept");
      box.querySelector(".rack-photo-keep").hidden = true;
    } catch (error) {
      status.classList.add("error");
      status.textContent = say("photo_not_kept", { error: error.message });
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
