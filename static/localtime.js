// Times are written by the server in UTC (<time datetime="...Z">07 Mar 19:42:05 UTC</time>) so
// the page reads right without JavaScript; here each is rewritten to the viewer's own clock, in
// the page's language and the browser's time zone. The UTC text stays in the tooltip.
// data-local-format="long" spells the date out (the printed sheet's heading).
(function () {
  "use strict";
  const FORMATS = {
    short: { day: "numeric", month: "short", year: "numeric", hour: "2-digit",
             minute: "2-digit", second: "2-digit", timeZoneName: "short" },
    long: { weekday: "long", day: "numeric", month: "long", year: "numeric", hour: "2-digit",
            minute: "2-digit", timeZoneName: "short" },
  };
  // The page's language, in the browser's own variant of it when it has one (en-GB, de-AT).
  const language = document.documentElement.lang;
  const LOCALE = (navigator.languages || [navigator.language]).find(function (locale) {
    return locale && locale.split("-")[0] === language;
  }) || language || undefined;
  document.querySelectorAll("time[datetime$='Z']").forEach(function (time) {
    const moment = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(moment.getTime())) return;
    if (!time.title) time.title = time.textContent.trim();
    time.textContent = moment.toLocaleString(
      LOCALE, FORMATS[time.dataset.localFormat] || FORMATS.short);
  });
})();
