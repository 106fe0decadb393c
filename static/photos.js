// The photo page: name the chosen photo and read it at once (refusing one over the upload
// limit before sending it), show that it is being read (the button disabled, a progress
// bar), and keep the "take the result" links on the typed table.
(function () {
  "use strict";

  const uploadForm = document.querySelector(".upload-form");
  if (uploadForm) {
    const inputs = uploadForm.querySelectorAll("input[type=file]");
    const chosen = document.getElementById("chosen-photo");
    const errors = document.getElementById("photo-errors");
    const maxBytes = Number(uploadForm.dataset.maxBytes);

    function showError(message) {
      errors.textContent = "";
      if (!message) return;
      const line = document.createElement("p");
      line.className = "field-error";
      line.setAttribute("role", "alert");
      line.textContent = message;
      errors.appendChild(line);
    }

    function tooLarge(file) {
      return maxBytes && file.size > maxBytes;
    }

    function megabytes(bytes) {
      return (bytes / (1024 * 1024)).toFixed(1) + " MB";
    }

    inputs.forEach(function (input) {
      input.addEventListener("change", function () {
        const file = input.files[0];
        if (!file) return;
        // One photo at a time: the other picker is emptied so the server sees only this one.
        inputs.forEach(function (other) { if (other !== input) other.value = ""; });
        chosen.textContent = uploadForm.dataset.textChosen.replace("{name}", file.name)
          .replace("{size}", megabytes(file.size));
        showError(tooLarge(file)
          ? uploadForm.dataset.textTooLarge.replace("{size}", megabytes(file.size))
            .replace("{limit}", megabytes(maxBytes))
          : "");
        if (!tooLarge(file) && !uploadForm.classList.contains("is-reading")) {
          uploadForm.requestSubmit();
        }
      });
    });

    uploadForm.addEventListener("submit", function (event) {
      const file = Array.from(inputs).map(function (input) { return input.files[0]; })
        .find(Boolean);
      if (file && tooLarge(file)) {
        event.preventDefault();
        return;
      }
      if (!file) return;  // the server asks for a photo
      uploadForm.classList.add("is-reading");
      const button = uploadForm.querySelector(".read-button");
      if (button) {
        button.textContent = uploadForm.dataset.textReading;
        // disabled after this event has let the form go; the file inputs stay enabled, or
        // the photo would not be sent
        window.setTimeout(function () { button.disabled = true; }, 0);
      }
      const progress = uploadForm.querySelector(".reading-progress");
      if (progress) progress.hidden = false;
    });
  }

  const save = document.getElementById("save-picture");
  const picture = document.getElementById("annotated-photo");
  if (save && picture) {
    save.href = picture.src;
    save.hidden = false;
  }

  const table = document.getElementById("table");
  const preset = document.getElementById("recheck-preset");
  if (preset) {
    preset.addEventListener("change", function () {
      document.querySelectorAll("a[data-carries-table=table]").forEach(function (link) {
        const url = new URL(link.href);
        url.searchParams.set("preset", preset.value);
        link.href = url.toString();
      });
    });
  }
  // The rules' hint: a tap puts the suggested tile in place of the unsure one (never by itself).
  document.querySelectorAll(".use-suggestion").forEach(function (button) {
    button.addEventListener("click", function () {
      if (!table) return;
      const lines = table.value.split("\n");
      const line = Number(button.dataset.suggestSet);
      const tokens = (lines[line] || "").trim().split(/[\s,]+/);
      const position = Number(button.dataset.suggestPosition);
      if (position >= tokens.length) return;
      tokens[position] = button.dataset.suggestTile;
      lines[line] = tokens.join(" ");
      table.value = lines.join("\n");
      table.dispatchEvent(new Event("input", { bubbles: true }));
      button.disabled = true;
      button.textContent = button.dataset.textUsed;
    });
  });

  if (table) {
    table.addEventListener("input", function () {
      const sets = table.value.split("\n").map(function (line) { return line.trim(); })
        .filter(Boolean).join(" | ");
      document.querySelectorAll("a[data-carries-table]").forEach(function (link) {
        const url = new URL(link.href);
        url.searchParams.set(link.dataset.carriesTable, sets);
        link.href = url.toString();
      });
    });
  }
})();
