/* Registers the offline shell (static/sw.js, served as /sw.js) where the browser allows a
 * service worker: over HTTPS. Over plain HTTP on the LAN browsers refuse it; nothing changes. */
(function () {
  "use strict";
  const me = document.currentScript;
  if (!me || !("serviceWorker" in navigator) || location.protocol !== "https:") return;
  const worker = me.getAttribute("data-sw");
  // A registration that fails (a phone starved or its connection lost while the worker's
  // script came) is tried again a little later, a few times: until it is active this page
  // would not be kept for a reload without network. Its last error is on the script element.
  let tries = 0;
  function register() {
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
    }).catch(function (error) {
      me.setAttribute("data-sw-error", String(error));
      if (++tries < 4) setTimeout(register, 5000 * tries);
    });
  }
  window.addEventListener("load", register);
})();
