/* The offline shell (service worker), active where the app is served over HTTPS.
 *
 * Pages (the game, its log, the deal form, home) are fetched from the network first; every
 * page that arrives is kept, so a reload with no network shows the page as last seen, and
 * the pending-deal queue that app.js keeps in localStorage with it. The static files have
 * versioned URLs (?v=<hash>) and are taken from the cache first. Everything else (saves,
 * checks, version polls, PDFs) goes to the network untouched.
 *
 * Secrets: the page of a game's links (and its delete page) is never kept: it shows the edit
 * link. When a link is replaced, a game forgotten on this phone or deleted, the server names
 * the pages to drop in the X-Drop-Pages header of the next page ("/g/<token> /v/<token>"):
 * every kept page under those addresses goes at once, so the old link opens nothing offline.
 */
"use strict";

// A new name drops every page the earlier worker kept (it kept links pages too).
const CACHE = "pulka-shell-2";
const PAGES_KEPT = 40; // the most recently seen pages; older ones are dropped

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys()
      .then(function (names) {
        return Promise.all(names.filter(function (n) { return n !== CACHE; }).map(function (n) { return caches.delete(n); }));
      })
      .then(function () { return self.clients.claim(); })
  );
});

function isStatic(url) {
  return url.pathname.indexOf("/static/") !== -1;
}

function isPage(request) {
  if (request.mode === "navigate") return true;
  // The game page refreshing itself for a follower (app.js sends X-Follow).
  return request.headers.get("X-Follow") === "1";
}

function isSecret(url) {
  // The links page shows the edit link; the delete page is reached only from it.
  return /^\/g\/[^/]+\/(links|delete)(\/|$)/.test(url.pathname);
}

function dropPages(header) {
  const prefixes = (header || "").split(/\s+/).filter(function (p) { return /^\/[gv]\/[^/]+$/.test(p); });
  if (!prefixes.length) return Promise.resolve();
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.filter(function (r) {
        const path = new URL(r.url).pathname;
        return prefixes.some(function (p) {
          return path === p || path.indexOf(p + "/") === 0 || path.indexOf(p + ".") === 0;
        });
      }).map(function (r) { return cache.delete(r); }));
    });
  }).catch(function () {});
}

function pageKey(url) {
  // A follower's refresh and a reload are the same page: key by the address, no fragment.
  // The deal form's one-time key (?k=) names no other page: one copy of the form is kept.
  const search = new URLSearchParams(url.search);
  search.delete("k");
  const rest = search.toString();
  return url.origin + url.pathname + (rest ? "?" + rest : "");
}

function keep(key, response) {
  if (!response || response.status !== 200 || response.type !== "basic") return;
  const type = response.headers.get("Content-Type") || "";
  if (type.indexOf("text/html") !== 0 && type.indexOf("text/css") !== 0 &&
      type.indexOf("text/javascript") !== 0 && type.indexOf("image/") !== 0 &&
      type.indexOf("application/manifest+json") !== 0) return;
  // put() replaces an entry in one step and moves it to the end of the list (a delete
  // first would leave a moment with no copy at all), so trim() drops the pages seen
  // longest ago.
  return caches.open(CACHE).then(function (cache) {
    return cache.put(key, response).then(function () { return trim(cache); });
  }).catch(function () {});
}

function trim(cache) {
  return cache.keys().then(function (requests) {
    const pages = requests.filter(function (r) { return !isStatic(new URL(r.url)); });
    const extra = pages.length - PAGES_KEPT;
    return Promise.all(pages.slice(0, Math.max(0, extra)).map(function (r) { return cache.delete(r); }));
  });
}

function fromNetworkFirst(request, key, secret) {
  return fetch(request)
    .then(function (response) {
      const drops = response.headers.get("X-Drop-Pages");
      const copy = secret ? null : response.clone();
      dropPages(drops).then(function () { if (copy) return keep(key, copy); });
      return response;
    }, function () {
      if (secret) return Response.error();
      return caches.open(CACHE).then(function (cache) {
        return cache.match(key).then(function (hit) { return hit || Response.error(); });
      });
    });
}

function fromCacheFirst(request) {
  return caches.open(CACHE).then(function (cache) {
    return cache.match(request).then(function (hit) {
      if (hit) return hit;
      return fetch(request).then(function (response) {
        keep(request.url, response.clone());
        return response;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (isPage(request)) {
    event.respondWith(fromNetworkFirst(request, pageKey(url), isSecret(url)));
  } else if (isStatic(url) || url.pathname.endsWith("/manifest.webmanifest")) {
    event.respondWith(fromCacheFirst(request));
  }
});

// A file the page asked to keep that did not come (the connection lost, the server too busy
// to answer) is asked for again a little later, a few times: the shell is whole sooner than
// the next page would make it.
function fetchAgain(href, tries) {
  return fetch(href, { credentials: "same-origin" }).catch(function (error) {
    if (tries <= 1) throw error;
    return new Promise(function (done) { setTimeout(done, 2000); }).then(function () {
      return fetchAgain(href, tries - 1);
    });
  });
}

/* The page that registered this worker asks it to keep itself and its files right away:
 * that page was loaded before the worker controlled it, so nothing of it was kept yet. */
self.addEventListener("message", function (event) {
  const data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(
    Promise.all(data.urls.map(function (u) {
      const url = new URL(u, self.location.origin);
      if (url.origin !== self.location.origin || isSecret(url)) return null;
      return caches.open(CACHE).then(function (cache) {
        return cache.match(isStatic(url) ? url.href : pageKey(url)).then(function (hit) {
          if (hit && isStatic(url)) return null;
          return fetchAgain(url.href, 3).then(function (response) {
            return keep(isStatic(url) ? url.href : pageKey(url), response);
          });
        });
      }).catch(function () {});
    }))
  );
});
