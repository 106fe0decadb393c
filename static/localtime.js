// Times are written by the server in UTC (<time datetime="...Z">07 Mar 19:42:05 UTC</time>) so
// the page reads right without JavaScript; here each is rewritten to the viewer's own clock, in
// the browser's language and time zone. The UTC text stays in the tooltip.
(function () {
  "use strict";
  const FORMAT = { day: "numeric", month: "short", year: "numeric", hour: "2-digit",
                   minute: "2-digit", second: "2-digit", timeZoneName: "short" };
  document.querySelectorAll("time[datetime$='Z']").forEach(function (time) {
    const moment = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(moment.getTime())) return;
    if (!time.title) time.title = time.textContent.trim();
    time.textContent = moment.toLocaleString(undefined, FORMAT);
  });
})();
