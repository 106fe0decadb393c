// Every page: the dark/light switch, and a verdict brought into view after "Check".
(function () {
  "use strict";
  const root = document.documentElement;
  const systemDark = window.matchMedia("(prefers-color-scheme: dark)");

  function isDark() {
    return root.dataset.theme ? root.dataset.theme === "dark" : systemDark.matches;
  }
  function showSwitch(button) {
    const dark = isDark();
    button.setAttribute("aria-pressed", dark ? "true" : "false");
    button.textContent = dark ? "☀ Light" : "☾ Dark";
    button.setAttribute("aria-label", dark ? "Switch to light colours" : "Switch to dark colours");
  }

  const button = document.querySelector("[data-theme-switch]");
  if (button) {
    button.hidden = false;
    showSwitch(button);
    button.addEventListener("click", function () {
      const next = isDark() ? "light" : "dark";
      root.dataset.theme = next;
      try { localStorage.setItem("companion.theme", next); } catch (e) { /* private mode */ }
      showSwitch(button);
    });
    systemDark.addEventListener("change", function () { showSwitch(button); });
  }

  // A page answering "Check" marks its verdict: bring it into sight, the form stays above.
  const verdict = document.querySelector("[data-scroll-into-view]");
  if (verdict) verdict.scrollIntoView({ block: "start", behavior: "auto" });
})();
