// The page's sentences in its language, for the scripts of the score pages (live.js,
// offline.js, rack_photo.js): templates/live/_text.html puts them in one hidden data block;
// companionSay("key", {name: value}) returns the sentence with its "{name}" filled in.
(function () {
  "use strict";

  window.companionSay = function (key, values) {
    const block = document.getElementById("companion-text");
    let texts = {};
    try { texts = JSON.parse(block ? block.dataset.text : "{}"); } catch (error) { texts = {}; }
    return String(texts[key] || key).replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  };
})();
