// "Referee a turn": fill the table before from the last table checked on the check page
// (it stores it under companion.lastTable), or start the table after from the table before.
(function () {
  "use strict";
  const LAST_TABLE_KEY = "companion.lastTable";

  function readLastTable() {
    try { return window.localStorage.getItem(LAST_TABLE_KEY); } catch (e) { return null; }
  }

  function fill(field, text) {
    field.value = text;
    field.dispatchEvent(new Event("input", { bubbles: true }));
    field.focus();
  }

  const before = document.getElementById("before");
  const after = document.getElementById("after");
  const useLast = document.getElementById("use-last-table");
  const copyBefore = document.getElementById("copy-before");
  if (!before || !after) return;

  const lastTable = readLastTable();
  if (useLast && lastTable) {
    useLast.hidden = false;
    useLast.title = lastTable;
    useLast.addEventListener("click", function () { fill(before, readLastTable() || ""); });
  }
  if (copyBefore) {
    copyBefore.addEventListener("click", function () { fill(after, before.value); });
  }

  // One palette at a time keeps the page short on a phone: the palette of the field in use.
  // Only a field or its own palette switches palettes, and the element that switched them
  // keeps its place on the screen: a palette collapsing above a button while the button is
  // being pressed would move the button away under the finger, and the tap would land on
  // whatever slid into its place (the next palette's "New set").
  const form = before.closest("form");
  const fieldsets = Array.from(form.querySelectorAll(".turn-field"));
  function activate(fieldset, keepInPlace) {
    if (fieldset.classList.contains("active")) return;
    const topBefore = keepInPlace ? keepInPlace.getBoundingClientRect().top : 0;
    fieldsets.forEach(function (each) { each.classList.toggle("active", each === fieldset); });
    if (keepInPlace) window.scrollBy(0, keepInPlace.getBoundingClientRect().top - topBefore);
  }
  form.classList.add("one-palette");
  activate((before.value.trim() ? after : before).closest(".turn-field"));
  form.addEventListener("focusin", function (event) {
    if (!event.target.matches(".tiles-input, .palette button")) return;
    const fieldset = event.target.closest(".turn-field");
    if (fieldset) activate(fieldset, event.target);
  });
})();
