// The table's time zone: the browser's, kept in a cookie so that the server writes the
// times of the history and the PDF as the clock on the wall shows them.
(function () {
  "use strict";
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (!zone || !/^[A-Za-z0-9_+\-]+(\/[A-Za-z0-9_+\-]+)*$/.test(zone)) return;
    var now = document.cookie.match(/(?:^|; )tz=([^;]*)/);
    if (now && decodeURIComponent(now[1]) === zone) return;
    document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  } catch (e) {
    // An old browser without Intl: the server's own zone is used.
  }
})();
