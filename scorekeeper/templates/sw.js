// Scorekeeper's service worker, served by web.py at /sw.js (scope /): it keeps the app shell, so
// the page opens with no network, even as an installed app started cold. The server writes
// VERSION and SHELL in; a deploy that changes any shell file changes VERSION (app_shell.py), so
// the browser installs this worker again and the page offers to reload.
//
// The page and the shell's files: the kept copy first, so that a network that hangs (rather than
// fails) never keeps the table waiting; a new version comes with a new worker and the update
// prompt. The rulesets: network first, the kept copy when offline. Every other API request (games, rounds,
// tables) is not touched: the page keeps its own game data.

const VERSION = {{ version|tojson }};
const SHELL = {{ urls|tojson }};
const PREFIX = "scorekeeper-shell-";
const CACHE = PREFIX + VERSION;
const PAGE = "/";
const RULESETS = "/api/v1/rulesets";

self.addEventListener("install", (event) => {
  // Past the browser's HTTP cache: this version's files, not copies kept from an older one.
  const requests = SHELL.map((url) => new Request(url, { cache: "reload" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// The page's Reload button: this waiting worker takes over now.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  if (event.data && event.data.type === "version" && event.ports[0]) {
    event.ports[0].postMessage(VERSION);
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && url.pathname === PAGE) {
    event.respondWith(keptFirst(request, PAGE));
  } else if (url.pathname === RULESETS) {
    event.respondWith(networkFirst(request, RULESETS));
  } else if (SHELL.includes(url.pathname)) {
    event.respondWith(keptFirst(request, request));
  }
});

// The network's answer, kept as `key`; the kept copy of `key` when there is no network.
async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    const kept = await cache.match(key, { ignoreVary: true });
    if (kept) return kept;
    throw error;
  }
}

// The kept copy of `key`; the network's answer when this version has none.
async function keptFirst(request, key) {
  const cache = await caches.open(CACHE);
  return (await cache.match(key, { ignoreSearch: true, ignoreVary: true })) || fetch(request);
}
