/* Clabber League's service worker (clabber_league/site/offline.py serves it at /sw.js).
   Precaches the deal page's assets, Pyodide and the packed rules engine; keeps a copy of a
   game's pages and API data whenever they are fetched online, and answers from those
   copies with no network; sends the outbox on Background Sync. */
"use strict";
const VERSION = "{{ version }}";
const SHELL = "clabber-shell-" + VERSION;
const PAGES = "clabber-pages-v1";
const PRECACHE = {{ precache|safe }};
importScripts({{ outbox|safe }});

// A game's deal page, sheet and correction pages, and the API's data of a game: kept when
// fetched online (a correction's page opened online can then be used offline).
const GAME_PAGE = /^\/clubs\/[^/]+\/games\/\d+\/(deal\/|deals\/\d+\/edit\/)?$/;
const GAME_DATA = /^\/api\/clubs\/[^/]+\/games\/\d+\/(deals\/)?$/;
// A table link (/t/<token>/): online it is the server's (it remembers the link and
// redirects); with no network, a redirect to the deal page of the game it opened, which
// the deal page told the worker (a "cache-game" message's aliases).
const TABLE_LINK = /^\/t\/[^/]+\/$/;
// The deal page scripts' words in one language (Django's JavaScript catalog): kept when
// fetched online, so a phone offline still reads its own language.
const CATALOG = /^\/i18n\/js\/[\w-]+\/$/;
const ALIAS_PREFIX = "/__table-link__";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(PRECACHE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys().then((keys) => Promise.all(
    keys.filter((key) => key.startsWith("clabber-shell-") && key !== SHELL).map((key) => caches.delete(key))
  )).then(() => self.clients.claim()));
});

// A hall's Wi-Fi that is connected but carries nothing: a fetch that has not answered in
// this long gives way to the kept copy (the browser's own timeout is minutes). Only reads
// with a kept copy wait this way: a POST (a deal) never passes through this worker, and a
// page never kept waits for the network as long as it takes.
const NETWORK_TIMEOUT_MS = 4000;

// The response, or the kept copy once the network has taken NETWORK_TIMEOUT_MS or failed.
// A late response still lands (in the cache, by the caller's own .then) for next time.
function networkOrKept(event, fetched, kept) {
  event.waitUntil(fetched.catch(() => null));
  const late = new Promise((resolve) => setTimeout(() => resolve(kept), NETWORK_TIMEOUT_MS));
  return Promise.race([fetched, late]).catch(() => kept);
}

async function networkFirst(event) {
  const request = event.request;
  const cache = await caches.open(PAGES);
  if (self.navigator && self.navigator.onLine === false) {
    // No network at all: the kept copy at once, without waiting for a fetch to fail.
    const kept = await cache.match(request.url);
    if (kept) { return kept; }
  }
  const fetched = fetch(request).then(async (response) => {
    if (response.ok && !response.redirected && response.type === "basic") {
      await cache.put(request.url, response.clone());
    }
    return response;
  });
  const kept = await cache.match(request.url);
  return kept ? networkOrKept(event, fetched, kept) : fetched;
}

// The precache, opened once per worker start: a cold start offline asks it for every
// asset of the page at once.
let shell = null;
function shellCache() {
  if (!shell) { shell = caches.open(SHELL); }
  return shell;
}

async function cacheFirst(request, url) {
  // Static files are versioned by their names; a worker's URL carries its settings. The
  // precache holds each under its path without a query: one exact lookup in one cache
  // (a lookup ignoring the query, or across every cache, reads every entry: slow on a
  // cold start).
  const cache = await shellCache();
  const kept = await cache.match(url.origin + url.pathname);
  if (kept) { return kept; }
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(url.origin + url.pathname, response.clone());
  }
  return response;
}

async function tableLink(event, url) {
  const fetched = fetch(event.request);
  const cache = await caches.open(PAGES);
  const alias = await cache.match(ALIAS_PREFIX + url.pathname);
  const to = alias ? new URL(await alias.text(), self.location.origin).href : "";
  if (!to || !(await cache.match(to))) { return fetched; }
  return networkOrKept(event, fetched, Response.redirect(to, 302));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") { return; }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) { return; }
  if (PRECACHE.includes(url.pathname)) {
    event.respondWith(cacheFirst(request, url));
  } else if (GAME_PAGE.test(url.pathname) || GAME_DATA.test(url.pathname) || CATALOG.test(url.pathname)) {
    event.respondWith(networkFirst(event));
  } else if (TABLE_LINK.test(url.pathname) && request.mode === "navigate") {
    event.respondWith(tableLink(event, url));
  }
});

// The deal page asks for its game's pages to be kept (the sheet too, before it is opened).
self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.type === "cache-game") {
    event.waitUntil(caches.open(PAGES).then((cache) => Promise.all((data.urls || []).map((u) =>
      fetch(u, { credentials: "same-origin" }).then((r) => (r.ok && !r.redirected ? cache.put(u, r) : null)).catch(() => null)
    ).concat((data.aliases || []).filter((a) => TABLE_LINK.test(a.from) && GAME_PAGE.test(a.to)).map((a) =>
      cache.put(ALIAS_PREFIX + a.from, new Response(a.to, { headers: { "Content-Type": "text/plain" } }))
    )))));
  }
});

self.addEventListener("sync", (event) => {
  if (event.tag === "clabber-outbox") {
    event.waitUntil(self.ClabberOutbox.flushAll().then(() => self.clients.matchAll()).then((clients) => {
      clients.forEach((client) => client.postMessage({ type: "outbox-sent" }));
    }));
  }
});

// Web push (clabber_league/notify): show what the server sent, in the member's language;
// a tap opens (or focuses) the page it names on this site.
self.addEventListener("push", (event) => {
  let data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = { body: event.data ? event.data.text() : "" }; }
  event.waitUntil(self.registration.showNotification(data.title || "Clabber League", {
    body: data.body || "",
    tag: data.tag || undefined,
    lang: data.lang || undefined,
    data: { url: data.url || "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) { return; }
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((clients) => {
    const open = clients.find((client) => client.url === target.href && "focus" in client);
    return open ? open.focus() : self.clients.openWindow(target.href);
  }));
});
