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
    // The words come from the page, in its language (templates/base.html, data-text-*).
    button.textContent = dark ? button.dataset.textLight : button.dataset.textDark;
    button.setAttribute("aria-label", dark ? button.dataset.textToLight : button.dataset.textToDark);
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

// A page that refreshes itself (the read-only standings) names its period in
// <meta name="companion-refresh">. Unlike <meta http-equiv="refresh"> it waits while the
// page is hidden or the reader is busy with it (a name opened, a field focused).
(function () {
  "use strict";
  const meta = document.querySelector("meta[name='companion-refresh']");
  const seconds = meta ? parseInt(meta.content, 10) : NaN;
  if (!(seconds > 0)) return;
  function busy() {
    const active = document.activeElement;
    return document.visibilityState !== "visible" ||
      (active && active !== document.body && active.matches("input, textarea, select")) ||
      document.querySelector("[aria-expanded='true']") !== null;
  }
  function tick() {
    if (busy()) window.setTimeout(tick, 5000);
    else window.location.reload();
  }
  window.setTimeout(tick, seconds * 1000);
})();
