/* Registers the offline shell (static/sw.js, served as /sw.js) where the browser allows a
 * service worker: over HTTPS. Over plain HTTP on the LAN browsers refuse it; nothing changes. */
(function () {
  "use strict";
  const me = document.currentScript;
  if (!me || !("serviceWorker" in navigator) || location.protocol !== "https:") return;
  const worker = me.getAttribute("data-sw");
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker).then(function () {
      return navigator.serviceWorker.ready;
    }).then(function (registration) {
      const urls = [location.href];
      document.querySelectorAll("link[rel=stylesheet][href], script[src], link[rel=icon][href]").forEach(function (el) {
        urls.push(el.href || el.src);
      });
      document.querySelectorAll("style[data-keep]").forEach(function (el) {
        urls.push(new URL(el.getAttribute("data-keep"), location.href).href);
      });
      if (registration.active) registration.active.postMessage({ type: "keep", urls: urls });
    }).catch(function () {});
  });
})();
