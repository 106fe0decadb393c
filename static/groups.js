// Share the league's standings picture through the Web Share API where the browser has it;
// the download link stays for every other browser.
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", function () {
    const link = document.getElementById("standings-picture");
    const button = document.getElementById("share-standings");
    if (!link || !button || !navigator.share || !navigator.canShare) return;
    button.hidden = false;
    button.addEventListener("click", async function () {
      try {
        const answer = await fetch(link.href, { credentials: "same-origin" });
        const blob = await answer.blob();
        const file = new File([blob], link.getAttribute("download"), { type: "image/png" });
        const data = { files: [file], title: link.dataset.shareTitle };
        if (navigator.canShare(data)) {
          await navigator.share(data);
        } else {
          link.click();
        }
      } catch (error) {
        if (error.name !== "AbortError") link.click();
      }
    });
  });
})();
