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
})();
