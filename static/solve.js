// "What can I play?": one palette open at a time on a phone; tapping a field opens its palette.
(function () {
  "use strict";
  const form = document.querySelector(".solve-form");
  if (!form) return;
  const fields = form.querySelectorAll(".solve-field");
  function activate(fieldset) {
    fields.forEach(function (f) { f.classList.toggle("active", f === fieldset); });
  }
  form.classList.add("one-palette");
  activate(fields[fields.length - 1]);
  fields.forEach(function (fieldset) {
    fieldset.addEventListener("focusin", function () { activate(fieldset); });
    fieldset.addEventListener("click", function () { activate(fieldset); });
  });
})();
