// The service worker, served at the site root's sw.js (scope: the whole site) by companion/web/live/views.py,
// which puts `const STATIC_VERSION = "...";` in front of this file: a digest of the static
// files, so a new version of any of them installs a new worker and saves them anew.
//
// - Static files: from the cache first (saved when the worker is installed).
// - Pages: from the network first, and each page saved as it is shown; without a connection
//   the saved copy is shown, marked `data-offline-copy` (static/offline.js says "offline").
//   A page never opened before falls back to /offline.
// - Charts (…/chart.svg): from the network first, each saved as it is shown; offline the saved
//   one, else an empty picture (never a broken image on the sheet).
// - Never touched: the JSON API, the event streams, anything but GET.
"use strict";

const VERSION = typeof STATIC_VERSION === "string" ? STATIC_VERSION : "dev";
const STATIC_CACHE = "companion-static-" + VERSION;
const PAGE_CACHE = "companion-pages";
const MAX_PAGES = 80;
// The site's root: "/" or the path prefix of COMPANION_BASE_URL ("/club/"), since this worker is
// served at the root's /sw.js.
const ROOT = new URL("./", self.location.href).pathname;
const PRECACHE_LIST = ROOT + "offline/precache.json";
const OFFLINE_PAGE = ROOT + "offline";

function stamped(response) {
  const headers = new Headers(response.headers);
  headers.set("X-Companion-Saved-At", String(Date.now()));
  return response.blob().then(function (body) {
    return new Response(body, { status: response.status, statusText: response.statusText,
                                headers: headers });
  });
}

async function savePage(cache, url, response) {
  await cache.put(url, await stamped(response));
  const keys = await cache.keys();
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) {
    await cache.delete(old);
  }
}

self.addEventListener("install", function (event) {
  event.waitUntil((async function () {
    const list = await (await fetch(PRECACHE_LIST, { cache: "no-store" })).json();
    const files = await caches.open(STATIC_CACHE);
    await files.addAll(list.files);
    const pages = await caches.open(PAGE_CACHE);
    await Promise.all(list.pages.map(async function (url) {
      try {
        const response = await fetch(url, { credentials: "same-origin" });
        if (response.ok) await savePage(pages, url, response);
      } catch (error) {
        // A page that cannot be saved now is saved when it is first shown.
      }
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", function (event) {
  event.waitUntil((async function () {
    for (const name of await caches.keys()) {
      if (name.startsWith("companion-static-") && name !== STATIC_CACHE) {
        await caches.delete(name);
      }
    }
    await self.clients.claim();
  })());
});

// A page that was still loading when the worker activated is not claimed by `activate`:
// static/offline.js asks again once the worker is ready.
self.addEventListener("message", function (event) {
  if (event.data === "claim") event.waitUntil(self.clients.claim());
});

async function fromCacheFirst(request) {
  const cache = await caches.open(STATIC_CACHE);
  const saved = await cache.match(request, { ignoreVary: true });
  if (saved) return saved;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

async function offlineCopy(saved) {
  const headers = new Headers(saved.headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  const when = saved.headers.get("X-Companion-Saved-At") || "";
  const text = (await saved.text()).replace("<html", '<html data-offline-copy="' + when + '"');
  return new Response(text, { status: 200, headers: headers });
}

async function fromNetworkFirst(request) {
  const cache = await caches.open(PAGE_CACHE);
  try {
    const response = await fetch(request);
    const type = response.headers.get("Content-Type") || "";
    if (response.ok && response.type === "basic" && type.startsWith("text/html")) {
      await savePage(cache, response.redirected ? response.url : request.url, response.clone());
    }
    return response;
  } catch (error) {
    const saved = await cache.match(request.url, { ignoreVary: true });
    if (saved) return offlineCopy(saved);
    const fallback = await cache.match(OFFLINE_PAGE, { ignoreVary: true });
    if (fallback) return offlineCopy(fallback);
    return new Response("Offline, and this page was never opened on this phone.",
                        { status: 503, headers: { "Content-Type": "text/plain" } });
  }
}

const CHART_CACHE = "companion-charts";
const MAX_CHARTS = 40;
const NO_CHART = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 720 320"></svg>';

async function chartNetworkFirst(request) {
  const cache = await caches.open(CHART_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      await cache.put(request, response.clone());
      const kept = await cache.keys();
      for (const old of kept.slice(0, Math.max(0, kept.length - MAX_CHARTS))) await cache.delete(old);
    }
    return response;
  } catch (error) {
    const saved = await cache.match(request, { ignoreVary: true });
    return saved || new Response(NO_CHART, { status: 200,
                                             headers: { "Content-Type": "image/svg+xml" } });
  }
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  const accept = request.headers.get("Accept") || "";
  if (url.pathname.startsWith(ROOT + "api/") || url.pathname === ROOT + "sw.js" ||
      url.pathname === PRECACHE_LIST || accept.includes("text/event-stream")) {
    return;
  }
  if (url.pathname.startsWith(ROOT + "static/")) {
    event.respondWith(fromCacheFirst(request));
  } else if (url.pathname.endsWith("/chart.svg")) {
    event.respondWith(chartNetworkFirst(request));
  } else if (request.mode === "navigate" || accept.includes("text/html")) {
    event.respondWith(fromNetworkFirst(request));
  }
});
