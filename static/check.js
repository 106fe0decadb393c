// The turn referee offers "use the last checked table as before": remember the table just checked.
(function () {
  "use strict";
  const table = document.currentScript && document.currentScript.dataset.lastTable;
  if (!table) return;
  try { localStorage.setItem("companion.lastTable", table); } catch (e) { /* storage off */ }
})();
