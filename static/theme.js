// Loaded in <head>, before anything is painted: a colour scheme the player chose with the
// switch (localStorage) is set on <html> at once, so a dark page never flashes white.
// Without a choice the system's prefers-color-scheme decides (static/style.css).
(function () {
  "use strict";
  try {
    const chosen = localStorage.getItem("companion.theme");
    if (chosen === "dark" || chosen === "light") document.documentElement.dataset.theme = chosen;
  } catch (e) { /* storage blocked: the system's scheme applies */ }
})();
