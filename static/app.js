/* scorekeeper: small progressive enhancements. Every page works without this file. */
"use strict";

document.documentElement.classList.add("js");

function $(selector, root) { return (root || document).querySelector(selector); }
function $$(selector, root) { return Array.from((root || document).querySelectorAll(selector)); }
function data(el, name) {
  try { return JSON.parse(el.getAttribute("data-" + name)); } catch (e) { return null; }
}
function radioValue(form, name) {
  const checked = form.querySelector('input[name="' + name + '"]:checked');
  return checked ? checked.value : "";
}
function show(el, visible) {
  if (!el) return;
  el.hidden = !visible;
  // Hidden inputs are not sent, so the server reads only what the scorer sees.
  $$("input, select, textarea", el).forEach(function (input) {
    if (!input.closest("[hidden]") || !visible) input.disabled = !visible;
  });
}

/* -- the page still under a finger ---------------------------------------------------------- */

// A change of the page that no tap asked for (an answer from the server making the bar
// taller and the next question kept clear of it; a follower's page swapped for a newer one)
// waits while a finger is on the screen, and until its tap has landed: the page moved under a
// thumb pressing 6♠ chose 7♠ (with a mouse, nothing), and a bar grown over a button takes its
// tap. The changes waiting run in the order they came (each knows whether it is still news).
// While any waits, the page's root carries data-under-finger. A finger resting on the screen
// longer than LIFT_MAX_MS is not tapping: what waits for it is shown.
const LIFT_MAX_MS = 3000;
const whenLifted = (function () {
  const root = document.documentElement;
  let pressing = false;
  let waiting = [];
  let timer = null;
  function flush() {
    pressing = false;
    timer = null;
    const changes = waiting;
    waiting = [];
    root.removeAttribute("data-under-finger");
    changes.forEach(function (change) { change(); });
  }
  document.addEventListener("pointerdown", function () {
    pressing = true;
    clearTimeout(timer);
    timer = setTimeout(flush, LIFT_MAX_MS);
  }, true);
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () {
      pressing = false;
      clearTimeout(timer);
      // A touch's click comes after the finger lifts, in a task of its own; a finger that
      // scrolled the page or left the button brings none.
      timer = setTimeout(flush, 200);
    }, true);
  });
  // The tap landed: once what it changed has run (the choice's own handlers), the rest.
  document.addEventListener("click", function () {
    if (pressing || !timer) return;
    clearTimeout(timer);
    timer = setTimeout(flush, 0);
  }, true);
  return function (change) {
    if (!pressing && !timer) { change(); return; }
    waiting.push(change);
    root.setAttribute("data-under-finger", "");
  };
})();
// The same as a promise: resolved with `value` once no finger is on the page.
function lifted(value) {
  return new Promise(function (done) { whenLifted(function () { done(value); }); });
}

/* -- the stylesheet, kept for the next pages ----------------------------------------------- */

// A page that brought its stylesheet inside itself (this phone had not cached it yet) fetches
// the file once everything has loaded, and a cookie tells the server it is cached: the next
// pages link it instead of carrying it.
(function keepStyle() {
  const style = $("style[data-keep]");
  if (!style || !window.fetch) return;
  window.addEventListener("load", function () {
    fetch(style.getAttribute("data-keep"), { credentials: "same-origin" }).then(function (r) {
      return r.ok ? r.blob() : null;
    }).then(function (body) {
      if (!body) return;
      document.cookie = "sk_style=" + style.getAttribute("data-version") + "; path=/; max-age=31536000; SameSite=Lax"
        + (location.protocol === "https:" ? "; Secure" : "");
    }).catch(function () {});
  });
})();

/* -- this phone's clock beside the server's ---------------------------------------------- */

// The dates the app proposes (an evening's, a payment's) are the server's today in the
// table's time zone (the server reads the zone from tz.js's cookie), never this phone's
// clock. A phone whose clock differs from the server's by more than a few minutes is told
// once (per such difference), from the Date of an answer the page had anyway (a follower's
// check) or, on a page that proposes a date, of one small HEAD request.
const Clock = (function () {
  const KEY = "scorekeeper.clock";
  const LIMIT = 5 * 60000;
  function heard(r, sent) {
    const server = Date.parse(r.headers.get("Date") || "");
    if (isNaN(server)) return;
    const off = (sent + Date.now()) / 2 - server;  // the Date is whole seconds: 1 s of slack
    if (Math.abs(off) <= LIMIT + 1000) return;
    let told = null;
    try { told = JSON.parse(localStorage.getItem(KEY)); } catch (e) { /* not told */ }
    if (told && Math.abs(told.off - off) < LIMIT) return;
    try { localStorage.setItem(KEY, JSON.stringify({ off: off })); } catch (e) { /* private mode */ }
    tell(server + (Date.now() - sent) / 2);
  }
  function tell(server) {
    const netstate = document.getElementById("netstate");
    if (!netstate || document.getElementById("clock-note")) return;
    const note = document.createElement("p");
    note.id = "clock-note";
    note.className = "card clock-note";
    note.setAttribute("role", "status");
    const lang = document.documentElement.lang || undefined;
    let now = new Date(server).toString();
    try { now = new Date(server).toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" }); } catch (e) { /* old */ }
    note.textContent = (netstate.getAttribute("data-clock") || "").replace("{now}", now);
    netstate.parentNode.insertBefore(note, netstate.nextSibling);
  }
  function ask() {
    const me = $('script[src*="app.js"]');
    if (!me || !window.fetch) return;
    const sent = Date.now();
    fetch(me.src, { method: "HEAD", cache: "no-store", credentials: "same-origin" })
      .then(function (r) { heard(r, sent); }).catch(function () {});
  }
  return { heard: heard, ask: ask };
})();
if ($("input[type=date][data-today]")) Clock.ask();

/* -- copy buttons ------------------------------------------------------------------------ */

function copyButtons(root) {
  $$("[data-copy]", root).forEach(function (button) {
    const source = document.getElementById(button.getAttribute("data-copy"));
    if (!source) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      const done = function () {
        const label = button.textContent;
        button.textContent = "✓";
        setTimeout(function () { button.textContent = label; }, 1500);
      };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(source.value).then(done);
      } else {
        source.select();
        document.execCommand("copy");
        done();
      }
    });
  });
}
copyButtons(document);

/* -- focus kept across a part of the page drawn again ------------------------------------ */

// Where the keyboard is, said by what stays the same when a part of the page is drawn again:
// an id, else the element's own attributes (a deal's ✓ is `li[data-deal="12"]
// button[data-verdict="right"]`), under the nearest part that has such a key. The control
// that had focus and those after it (then those before it) are remembered; after the swap
// focus goes to the first of them still there and shown, never to the page.
const FOCUS_ATTRS = ["data-key", "data-deal", "data-verdict", "data-send", "data-iam", "data-notme",
  "data-seat", "data-n", "data-value", "name", "value", "href", "type", "role"];
const FOCUSABLE = "a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]";
function focusKey(el) {
  if (el.id) return "#" + CSS.escape(el.id);
  const own = el.tagName.toLowerCase() + FOCUS_ATTRS.filter(function (a) { return el.hasAttribute(a); })
    .map(function (a) { return "[" + a + '="' + CSS.escape(el.getAttribute(a)) + '"]'; }).join("");
  const holder = el.parentElement && el.parentElement.closest("[id], [data-deal], [data-key]");
  return holder && holder.tagName !== "MAIN" ? focusKey(holder) + " " + own : own;
}
function shown(el) { return !el.closest("[hidden]") && !el.disabled && el.getClientRects().length > 0; }
function focusPlace() {
  const a = document.activeElement;
  const main = $("main");
  if (!a || a === document.body || !main || !main.contains(a)) return null;
  const all = $$(FOCUSABLE, main).filter(shown);
  const at = all.indexOf(a);
  const around = at < 0 ? [a] : [a].concat(all.slice(at + 1, at + 25), all.slice(Math.max(0, at - 25), at).reverse());
  // A line that took focus to be read (tabindex -1) takes it again.
  return around.map(function (e) { return { key: focusKey(e), tab: e.getAttribute("tabindex") }; });
}
function refocus(place) {
  if (!place) return;
  const main = $("main");
  for (const p of place) {
    let el = null;
    try { el = main.querySelector(p.key); } catch (e) { continue; }
    if (!el || !shown(el)) continue;
    if (p.tab !== null && !el.hasAttribute("tabindex")) el.setAttribute("tabindex", p.tab);
    el.focus({ preventScroll: true });
    if (document.activeElement === el) return;
  }
}

/* -- a page that follows the game -------------------------------------------------------- */

// Every phone with a game (or a tournament) open learns when it changed by one request held
// open until it does (data-wait: every server `scorekeeper` runs holds it). When another phone
// changed it, a page that only shows it swaps in its new version in place, keeping the scroll
// position; a page with a form being filled in keeps what was typed and shows a banner instead.
const FOLLOW_PERIOD = 1000;  // a change the page could not show yet: asked about again after it
const FOLLOW_IDLE_MAX = 4000;  // the longest wait after failures in a row
// The server answers a held request within longpoll.HOLD_SECONDS (50 s); one unanswered 20 s
// beyond that hangs on a stuck connection (a proxy or a network that dropped it unsaid): it
// is given up and asked again, so a follower never stops following without a word.
const HELD_MAX_MS = 70000;

(function follow() {
  let el = null, version = null;
  let busy = false;
  // A form the browser itself sends (not one a script sends and stays): the page is being
  // left, so nothing is swapped in or reloaded under it. A reload then would cancel the
  // form on its way (the tournament's "Seat tour 2" changes what this page follows). A form
  // that left the page where it was (a download) lets it follow again a while later.
  let leaving = false;
  document.addEventListener("submit", function (e) {
    if (e.defaultPrevented) return;
    leaving = true;
    setTimeout(function () { leaving = false; }, 30000);
  });
  // The page's #follow (again after a Save swapped in the game page): what to watch.
  function bind() {
    el = $("#follow");
    if (el && !el.hasAttribute("data-wait")) el = null;  // a server that holds nothing
    version = el && seen(el);
    return !!el;
  }

  // What the page shows: the game's version, and on a page that shows the table's
  // confirmations also their stamp ("12.5"), so an answer from a phone shows up here too.
  function seen(node) { return node.getAttribute("data-seen") || node.getAttribute("data-version"); }
  function typing() {
    const a = document.activeElement;
    return !!(a && a.closest("main") && a.matches("input:not([type=hidden]), select, textarea"));
  }
  function banner() {
    // A refusal on the page says what changed already (the game over, the tour closed…).
    if ($("#follow-banner") || $(".refusal")) return;
    const note = document.createElement("p");
    note.id = "follow-banner";
    note.className = "follow-banner";
    note.setAttribute("role", "alert");
    note.textContent = el.getAttribute("data-changed");
    const main = $("main");
    main.insertBefore(note, main.firstChild);
  }
  // The page as the server sent it with the wait's answer (`ridden`), else fetched.
  function swap(ridden) {
    const got = typeof ridden === "string" ? Promise.resolve(ridden) :
      fetch(location.href, { credentials: "same-origin", cache: "no-store", headers: { "X-Follow": "1" } })
        .then(function (r) {
          if (!r.ok) { location.reload(); return null; }
          return r.text();
        });
    return got
      .then(lifted)  // the page is not swapped under a finger
      .then(function (html) {
        if (html === null) return;
        const fresh = new DOMParser().parseFromString(html, "text/html");
        const main = $("main", fresh);
        const next = main && $("#follow", main);
        if (!next) { location.reload(); return; }
        if (noting()) return;  // asked again a period later
        if (typing()) { banner(); return; }  // a field got focus meanwhile: never swap under a thumb
        unscripted(main);
        const place = focusPlace();
        const x = window.scrollX, y = window.scrollY;
        // The same state of the game (only the table's answers changed): the chart drawn
        // already is the same chart, kept rather than fetched again.
        const drawn = $(".chart-box:not([data-chart])"), empty = $(".chart-box[data-chart]", main);
        if (drawn && empty && el.getAttribute("data-version") === next.getAttribute("data-version")) {
          empty.replaceWith(drawn);
        }
        $("main").replaceWith(document.adoptNode(main));
        charts($("main"), true);
        document.title = fresh.title;
        window.scrollTo(x, y);
        copyButtons($("main"));
        el = next;
        version = seen(el);
        document.dispatchEvent(new Event("scorekeeper:page"));
        refocus(place);  // after the page's scripts drew it (a follower's ask card)
      });
  }
  // Only the table's answers changed (the game's version is the one shown: the wait's
  // answer says "only": "answers", the version's answer names the same version): only the
  // parts that show them are fetched and swapped in (data-answers), not the whole page.
  // Drawn at another version (a deal came meanwhile), or a page whose parts differ: the
  // whole page, so a page never shows less than the server has.
  const ANSWER_PARTS = ["#confirmations, .confirmations-none", "#confirm"];
  function swapAnswers(ridden) {
    const got = typeof ridden === "string" ? Promise.resolve(ridden) :
      fetch(el.getAttribute("data-answers"), { credentials: "same-origin", cache: "no-store" })
        .then(function (r) { return r.ok ? r.text() : null; });
    return got
      .then(lifted)
      .then(function (html) {
        const part = html === null ? null : $("#answers-part", new DOMParser().parseFromString(html, "text/html"));
        if (!part || part.getAttribute("data-version") !== el.getAttribute("data-version")) return swap();
        const pairs = ANSWER_PARTS.map(function (s) { return [$("main").querySelector(s), part.querySelector(s)]; });
        if (pairs.some(function (p) { return !p[0] !== !p[1]; })) return swap();
        if (noting()) return;  // asked again a period later
        if (typing()) { banner(); return; }
        const place = focusPlace();
        const x = window.scrollX, y = window.scrollY;
        pairs.forEach(function (p) { if (p[0]) p[0].replaceWith(document.adoptNode(p[1])); });
        window.scrollTo(x, y);
        el.setAttribute("data-seen", part.getAttribute("data-seen"));
        version = seen(el);
        document.dispatchEvent(new Event("scorekeeper:page"));
        refocus(place);
      });
  }
  // The game is gone from this link (deleted, or the link replaced): what the link opens now
  // says which and what to do, in the place of the page's main part at once, and the page
  // stops asking. A form being filled in keeps its deal (kept on the phone too): the card
  // comes above it, and its Save, which can no longer write, goes.
  function gone() {
    el = null;
    clearTimeout(timer);
    return fetch(location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.text(); })
      .then(function (html) {
        const fresh = new DOMParser().parseFromString(html, "text/html");
        const main = $("main", fresh), card = main && $("section.card", main);
        if (!card || $("#follow", main)) return;
        const form = $("main form[data-draft]");
        if (form) {
          const banner = $("#follow-banner");
          if (banner) banner.remove();
          card.setAttribute("role", "alert");
          form.parentElement.insertBefore(document.adoptNode(card), form);
          $$("button[type=submit]", form).forEach(function (b) { b.hidden = true; b.disabled = true; });
        } else {
          unscripted(main);
          $("main").replaceWith(document.adoptNode(main));
          document.title = fresh.title;
        }
        const title = $("main section.card h1, main section.card h2");
        if (title) { title.tabIndex = -1; title.focus({ preventScroll: true }); }
        window.scrollTo(0, 0);
      })
      .catch(function () {});
  }
  // A follower writing what is not so about a deal: the page waits until it is sent.
  function noting() {
    const a = document.activeElement;
    return !!(a && a.closest("#confirm") && a.matches("input"));
  }
  function changed(now, answersOnly, ridden) {
    if (leaving || noting()) return null;
    if (el.getAttribute("data-follow") === "banner" || typing()) {
      version = now;
      banner();
      return null;
    }
    return answersOnly && el.hasAttribute("data-answers") ? swapAnswers(ridden) : swap(ridden);
  }
  // How the page learns of a change: it holds one request open (data-wait), answered as soon
  // as the game changes (or after a while with no change: then it asks again at once), so a
  // change shows within a second or so and a page left open costs a request every half a
  // minute. A change the page could not show yet (a note being written) is asked about again
  // FOLLOW_PERIOD later. A hidden page does not ask at all, and asks at once when it is shown
  // again (a phone woken up).
  let timer = null;
  let waiting = null;  // the held request's AbortController
  let bound = null, stuck = false;  // its bound; given up after HELD_MAX_MS
  // After a request given up, the next asks as a page that has seen nothing (since=0): the
  // server answers it at once, so the "not connected" notice goes as soon as the connection
  // is back, not after a whole hold with no change.
  let recovering = false;
  let failures = 0;
  function again(delay) {
    clearTimeout(timer);
    if (el && !document.hidden) timer = setTimeout(tick, delay);
  }
  function current(d) {
    return el.hasAttribute("data-seen") ? d.version + "." + (d.seen || 0) : String(d.version);
  }
  // A game's page asks for what it would fetch after a change to ride with the answer: its
  // answers part (answers=) and, on a page that swaps, the page itself (page=). The answer
  // is then that part or page, the wait's JSON in its X-Wait header: one request a change.
  function rides() {
    let more = "";
    if (!/\/v\/[^/]+\/wait$/.test(el.getAttribute("data-wait"))) return more;
    if (el.hasAttribute("data-answers")) more += "&answers=" + encodeURIComponent(el.getAttribute("data-answers"));
    if (el.getAttribute("data-follow") === "swap" && !location.search) more += "&page=" + encodeURIComponent(location.pathname);
    return more;
  }
  function ask() {
    const mine = waiting = new AbortController();
    stuck = false;
    clearTimeout(bound);  // until the answer is read whole (tick's end clears it)
    bound = setTimeout(function () { stuck = true; mine.abort(); }, HELD_MAX_MS);
    const wait = el.getAttribute("data-wait");
    const since = recovering ? "0" : version;
    recovering = false;
    const asked = wait + (wait.indexOf("?") < 0 ? "?" : "&") + "since=" + encodeURIComponent(since) + rides();
    // The answer's Date is when it was answered: now, however long it was held.
    return fetch(asked, { credentials: "same-origin", cache: "no-store", signal: mine.signal })
      .then(function (r) { Clock.heard(r, Date.now()); return r; });
  }
  // The wait's answer: its JSON, with what rode along as `ridden` (the HTML).
  function answered(r) {
    const said = r.headers.get("X-Wait");
    if (!said) return r.json();
    return r.text().then(function (html) { const d = JSON.parse(said); d.ridden = html; return d; });
  }
  function tick() {
    if (busy || document.hidden || !el) return;
    busy = true;
    let settled = true;
    ask()
      .then(function (r) {
        NetState.online();
        if (r.status === 404 || r.status === 410) { gone(); return null; }
        failures = r.ok ? 0 : failures + 1;  // a refusal: asked less often
        return r.ok ? answered(r) : null;
      })
      .then(function (d) {
        const now = d && current(d);
        if (d && now !== version) {
          return Promise.resolve(changed(now, d.only === "answers", d.ridden)).then(function () { settled = version === now; });
        }
        return null;
      })
      .catch(function (e) {
        if (e && e.name === "AbortError" && !stuck) return;  // hidden, or asked again after a wake
        recovering = stuck;
        NetState.offline();
        failures++;
      })
      .then(function () {
        clearTimeout(bound);
        busy = false;
        waiting = null;
        // A held request asks again at once; after a failure it waits a little longer each
        // time (at most FOLLOW_IDLE_MAX), and at once when the connection is back.
        if (failures) again(Math.min(FOLLOW_PERIOD * Math.pow(2, failures - 1), FOLLOW_IDLE_MAX));
        else again(settled ? 0 : FOLLOW_PERIOD);
      });
  }
  function wake() {
    failures = 0;
    if (document.hidden) return;
    if (waiting) { waiting.abort(); return; }  // its end asks again at once
    again(0);
  }
  function sleep() {
    clearTimeout(timer);
    if (waiting) waiting.abort();
  }
  bind();
  again(0);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) wake(); else sleep(); });
  window.addEventListener("online", wake);
})();

// A page parsed by DOMParser (scripting off) holds its <noscript> parts as elements: the
// chart's <img> there would download the chart once more as soon as it is in the page.
function unscripted(root) {
  $$("noscript", root).forEach(function (n) { n.remove(); });
}


// A chart left out of a page (the page a Save answered with, a follower's refresh) is
// fetched once the page is shown (a follower's: once it scrolls near, so a phone watching the
// sheet does not download the chart at every deal), and drawn in the page (so the page's
// colours, the dark theme too, apply to it).
function charts(root, lazy) {
  $$("[data-chart]:not([data-loading])", root).forEach(function (box) {
    const url = box.getAttribute("data-chart");
    // Its place stays kept (data-chart) until the chart is in it: the sheet under it never
    // moves while a thumb is on its way to a button there.
    function load() {
      if (box.hasAttribute("data-loading")) return;
      box.setAttribute("data-loading", "");
      fetch(url, { credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (svg) {
          if (svg.indexOf("<svg") !== 0) { box.remove(); return; }
          box.innerHTML = svg;
          box.removeAttribute("data-chart");
          box.removeAttribute("data-loading");
        })
        .catch(function () { box.remove(); });
    }
    if (!lazy || !("IntersectionObserver" in window)) { load(); return; }
    const near = new IntersectionObserver(function (seen) {
      if (seen.some(function (e) { return e.isIntersecting; })) { near.disconnect(); load(); }
    }, { rootMargin: "300px" });
    near.observe(box);
  });
}
charts(document);

/* -- the totals: a table while it fits, two lines a player when it does not ------------------ */

// Large text, a long name or a language's long words can make the five columns wider than
// the card: then each player's row is drawn in two lines (the name and the result, then pool,
// hill and whists with their words), never a page that scrolls sideways or a name cut in two.
function fitTotals() {
  $$(".totals").forEach(function (box) {
    const table = $("table", box);
    if (!table) return;
    box.classList.remove("stacked");
    // measured against the card's inside: a table over its padding sticks out of the card
    const style = getComputedStyle(box);
    const inside = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    if (table.getBoundingClientRect().width > inside + 1) box.classList.add("stacked");
  });
  // Any other table wider than its box (the settlement's, at large text): its headings may
  // break where they must, and if it is still too wide it scrolls inside its box.
  $$("main table").forEach(function (table) {
    const box = table.parentElement;
    if (box.classList.contains("totals") || (box.classList.contains("scroll") && !box.hasAttribute("data-fit"))) return;
    table.classList.remove("tight");
    box.classList.remove("scroll");
    // measured against the box's inside: a table over a card's padding sticks out of the card
    const wide = function () {
      const style = getComputedStyle(box);
      const inside = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
      return table.getBoundingClientRect().width > inside + 1;
    };
    if (wide()) table.classList.add("tight");
    if (wide()) { box.classList.add("scroll"); box.setAttribute("data-fit", ""); }
  });
  // A box that scrolls sideways can be scrolled by keyboard too: it takes focus.
  $$("main .scroll, main .pulka-box").forEach(function (box) {
    if (box.scrollWidth > box.clientWidth + 1) box.setAttribute("tabindex", "0");
    else box.removeAttribute("tabindex");
  });
}
fitTotals();
window.addEventListener("resize", fitTotals);
window.addEventListener("load", fitTotals);  // the fonts drawn
// A page swapped in (after a Save, or another phone's change) is measured again.
new MutationObserver(function (changes) {
  if (changes.some(function (c) { return Array.from(c.addedNodes).some(function (n) { return n.querySelector && (n.matches(".totals") || n.querySelector(".totals")); }); })) fitTotals();
}).observe(document.documentElement, { childList: true, subtree: true });

/* -- the pulka on the whole screen ----------------------------------------------------------- */

// One tap on the drawing (or its button) shows it on the whole screen, drawn large enough for
// text of at least 16 px (more with a larger text setting; it scrolls where the screen is
// smaller); turned sideways it fills the screen's width. Escape or Close returns to the
// page, and focus to the button.
(function pulkaFull() {
  function open(section) {
    const svg = $("svg", section);
    const button = $(".pulka-zoom", section);
    if (!svg || !button || !window.HTMLDialogElement) return;
    const dialog = document.createElement("dialog");
    dialog.className = "pulka-full";
    dialog.setAttribute("aria-label", button.getAttribute("data-full"));
    const close = document.createElement("button");
    close.type = "button";
    close.className = "button pulka-close";
    close.textContent = button.getAttribute("data-close");
    const copy = svg.cloneNode(true);
    // One text for the copy too, and no id twice on the page.
    $$("[id]", copy).forEach(function (e) { e.removeAttribute("id"); });
    copy.removeAttribute("aria-labelledby");
    copy.removeAttribute("aria-describedby");
    const desc = $("desc", copy);
    copy.setAttribute("aria-label", desc ? desc.textContent : "");
    dialog.appendChild(close);
    dialog.appendChild(copy);
    section.appendChild(dialog);
    function done() {
      dialog.remove();
      button.focus();
    }
    close.addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("close", done);
    dialog.showModal();
    close.focus();
  }
  document.addEventListener("click", function (event) {
    const section = event.target.closest && event.target.closest("section.pulka");
    if (!section || event.target.closest("dialog")) return;
    if (event.target.closest(".pulka-zoom") || event.target.closest(".pulka-box svg")) open(section);
  });
})();

/* -- keep the screen on while a game is open (where the browser allows it) -------------- */

(function keepAwake() {
  if (!$("#follow") || !("wakeLock" in navigator)) return;
  let lock = null;
  function acquire() {
    if (lock || document.visibilityState !== "visible") return;
    try {
      navigator.wakeLock.request("screen").then(function (l) {
        lock = l;
        l.addEventListener("release", function () { lock = null; });
      }).catch(function () {});
    } catch (e) { /* not allowed here: the screen simply follows its own timeout */ }
  }
  // The browser releases the lock when the page is hidden; take it again when it is back.
  document.addEventListener("visibilitychange", acquire);
  acquire();
})();

/* -- new game: presets, seats, first dealer ---------------------------------------------- */

(function newGame() {
  const form = $("#new-game");
  if (!form) return;
  const presets = data(form, "presets") || {};
  const rendered = form.querySelector('input[name="rendered_preset"]');

  function valueOf(name) {
    const inputs = $$('[name="' + name + '"]', form);
    if (!inputs.length) return undefined;
    const first = inputs[0];
    if (first.type === "checkbox") {
      if (inputs.length > 1 || name === "opt_half_whist") {
        return inputs.filter(function (i) { return i.checked; }).map(function (i) { return i.value; });
      }
      return first.checked;
    }
    return first.value;
  }
  function setValue(name, value) {
    const inputs = $$('[name="' + name + '"]', form);
    inputs.forEach(function (input) {
      if (input.type === "checkbox") {
        input.checked = Array.isArray(value) ? value.indexOf(input.value) >= 0 : !!value;
      } else {
        input.value = value === null || value === undefined ? "" : String(value);
      }
    });
  }
  function same(a, b) {
    if (Array.isArray(a) || Array.isArray(b)) {
      return JSON.stringify((a || []).map(String).sort()) === JSON.stringify((b || []).map(String).sort());
    }
    if (typeof a === "boolean" || typeof b === "boolean") return !!a === !!b;
    return String(a === null || a === undefined ? "" : a).trim() === String(b === null || b === undefined ? "" : b).trim();
  }
  // How many seats the table has: Hussar two, a Balkan partija four, else five.
  function seatCount() {
    if (radioValue(form, "family") === "balkan") return 4;
    return radioValue(form, "convention") === "hussar" ? 2 : 5;
  }
  function seats() {
    const count = seatCount();
    $$("[data-seat]", form).forEach(function (input) {
      const seat = Number(input.getAttribute("data-seat"));
      const wrap = input.closest(".field");
      if (wrap) wrap.hidden = seat >= count;
      // A seat not shown is not sent (the last game's names in it would be read).
      input.disabled = seat >= count;
    });
    dealers();
  }
  function dealers() {
    const count = seatCount();
    $$('input[name="first_dealer"]', form).forEach(function (radio) {
      const seat = Number(radio.value);
      const name = form.querySelector('[data-seat="' + seat + '"]');
      const label = radio.parentElement.querySelector("span");
      const typed = name ? name.value.trim() : "";
      if (typed) label.textContent = typed;
      radio.parentElement.hidden = !typed || seat >= count;
      radio.disabled = seat >= count;
    });
    // The first dealer chosen at a seat no longer shown: the first seat shown deals.
    const chosen = form.querySelector('input[name="first_dealer"]:checked');
    if (chosen && chosen.disabled) {
      const first = $$('input[name="first_dealer"]', form).filter(function (r) { return !r.disabled; })[0];
      if (first) first.checked = true;
    }
  }
  // Only the options that can change a game of this convention and player count are shown.
  function applies() {
    const convention = radioValue(form, "convention");
    const count = $$("[data-seat]", form).filter(function (i) { return i.value.trim() && !i.closest("[hidden]"); }).length;
    $$(".opt[data-not-for]", form).forEach(function (opt) {
      const no = (opt.getAttribute("data-not-for") || "").split(" ").filter(Boolean);
      const only = (opt.getAttribute("data-players") || "").split(" ").filter(Boolean).map(Number);
      opt.hidden = no.indexOf(convention) >= 0 || (only.length > 0 && count > 0 && only.indexOf(count) < 0);
    });
    $$("[data-conventions]", form).forEach(function (p) {
      p.hidden = p.getAttribute("data-conventions").split(" ").indexOf(convention) < 0;
    });
  }
  // What differs from the chosen preset, said plainly before Start.
  const changedBox = $("#changed");
  const labels = changedBox ? data(changedBox, "labels") || {} : {};
  // A number as the page's language writes it: "0,1" in ru/uk/sr/hr, "−2" (the sheet's minus).
  const decimal = changedBox ? changedBox.getAttribute("data-decimal") || "." : ".";
  function numberText(v) {
    const text = String(v).trim();
    if (!/^-?\d+(\.\d+)?$/.test(text)) return text;
    return text.replace("-", "\u2212").replace(".", decimal);
  }
  function changed() {
    if (!changedBox) return;
    const preset = presets[radioValue(form, "convention")] || {};
    const list = $("ul", changedBox);
    list.textContent = "";
    Object.keys(preset).forEach(function (name) {
      const input = form.querySelector('[name="' + name + '"]');
      if (!input || input.closest("[hidden]")) return;
      const now = valueOf(name);
      if (same(now, preset[name])) return;
      const show = function (v) {
        if (Array.isArray(v)) return v.join(", ") || "—";
        if (typeof v === "boolean") return v ? "✓" : "✗";
        if (input.tagName === "SELECT") {
          const o = Array.from(input.options).filter(function (x) { return x.value === String(v); })[0];
          return o ? o.textContent : String(v);
        }
        return v === null || v === undefined || v === "" ? "—" : numberText(v);
      };
      const li = document.createElement("li");
      li.textContent = (labels[name] || name) + ": " + show(now) + " (" + show(preset[name]) + ")";
      list.appendChild(li);
    });
    changedBox.hidden = !list.children.length;
  }
  form.addEventListener("change", function (event) {
    if (event.target.name === "family") seats();
    if (event.target.name === "convention") {
      const named = $("#preset-name");
      if (named) named.textContent = event.target.parentElement.textContent.trim();
      // A new convention: every option is that preset's, nothing kept from before.
      const to = presets[event.target.value];
      if (to) Object.keys(to).forEach(function (name) { setValue(name, to[name]); });
      rendered.value = event.target.value;
      seats();
    }
    applies();
    changed();
  });
  form.addEventListener("input", function (event) {
    if (event.target.hasAttribute("data-seat")) { dealers(); applies(); }
    changed();
  });
  const lot = $("#lot");
  if (lot) lot.addEventListener("click", function () {
    const seated = $$('input[name="first_dealer"]', form).filter(function (r) { return !r.parentElement.hidden; });
    if (!seated.length) return;
    const pick = seated[Math.floor(Math.random() * seated.length)];
    pick.checked = true;
    pick.dispatchEvent(new Event("change", { bubbles: true }));
  });
  seats();
  applies();
  changed();
})();

/* -- the paper's totals: each seat's amounts under its name ------------------------------- */

// The names typed above are the seats' headings and the "whists on …" labels; a seat with no
// name (a table of three) shows no amounts, and nobody writes whists on it.
(function paperTotals() {
  const form = $("form.paper");
  if (!form) return;
  function draw() {
    const names = {};
    $$("[data-seat]", form).forEach(function (input) {
      names[input.getAttribute("data-seat")] = input.disabled ? "" : input.value.trim();
    });
    $$("[data-name-of]", form).forEach(function (span) {
      const name = names[span.getAttribute("data-name-of")];
      if (name) span.textContent = name;
    });
    $$("[data-totals]", form).forEach(function (box) { box.hidden = !names[box.getAttribute("data-totals")]; });
    $$("[data-on]", form).forEach(function (box) { box.hidden = !names[box.getAttribute("data-on")]; });
  }
  form.addEventListener("input", draw);
  form.addEventListener("change", draw);
  draw();
})();

/* -- never lost: deals waiting on this phone, and saying when it is offline -------------- */

const ANSWER_WAIT_MS = 20000;  // the longest a Save or a Check waits for the server's answer

// A bound on a request: its signal aborts the request (and the reading of its answer) after
// ANSWER_WAIT_MS, unless done() was called first. A browser without AbortController: none.
function answerBound() {
  const stop = typeof AbortController === "function" ? new AbortController() : null;
  const timer = stop && setTimeout(function () { stop.abort(); }, ANSWER_WAIT_MS);
  return { signal: stop ? stop.signal : undefined, done: function () { clearTimeout(timer); } };
}

// A Save is kept in localStorage (with its one-time key) from the moment it is sent until
// the server has answered; a dropped connection leaves it there, shown as "not saved yet",
// and it is sent again by itself when the connection is back. The key makes a second
// arrival write nothing.
const Pending = (function () {
  const STORE = "scorekeeper.pending";
  const waiters = {};
  const refusals = {};
  let timer = null;
  function all() {
    try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; }
  }
  function put(items) {
    try { localStorage.setItem(STORE, JSON.stringify(items)); } catch (e) { /* private mode */ }
    NetState.draw();
  }
  function add(item) { put(all().filter(function (i) { return i.key !== item.key; }).concat([item])); }
  function drop(key) { put(all().filter(function (i) { return i.key !== key; })); }
  const inFlight = {};  // key: the answer on its way (a flush and a Save at once send it once)
  function send(item) {
    if (!inFlight[item.key]) {
      inFlight[item.key] = sendOnce(item).then(function (a) { delete inFlight[item.key]; return a; });
    }
    return inFlight[item.key];
  }
  function sendOnce(item) {
    // Sent urlencoded: a quarter of the bytes of multipart (no boundary per field) on a
    // phone that uploads slowly. The answer is small JSON: {saved, deal, next} or, when
    // nothing was written, the problems by field (and why it was refused).
    const body = new URLSearchParams(item.body);
    const headers = { "X-Save": "json" };
    // An answer that never comes (a connection stuck between two networks, a frozen host)
    // is given up after ANSWER_WAIT_MS: the deal waits as "not saved yet" and is sent again,
    // its one-time key writing it once should the first have arrived after all.
    const bound = answerBound();
    return fetch(item.url, {
      method: "POST", body: body, credentials: "same-origin", headers: headers, signal: bound.signal,
    }).then(function (r) {
      if (r.status >= 500) throw new Error("server " + r.status);
      return r.json().catch(function () {
        // A refusal that is not the Save's answer (a page of another kind): sent again it
        // would be refused again, so it is final too. Anything else is not the server's
        // answer at all (a Wi-Fi's login page): the deal waits.
        if (r.status >= 400) return { saved: false, final: "refused", refused: Refusals.said("generic") };
        throw new Error("not an answer");
      }).then(function (d) {
        drop(item.key);
        NetState.online();
        if (d.saved) {
          if (waiters[item.key]) waiters[item.key](d.next);
          return { saved: true, url: d.next };
        }
        // A refusal no resend can fix (the game over, the tour closed, the link replaced…):
        // off the queue, and said on this phone with the deal as it was entered.
        if (d.final) Refusals.add(item, d);
        return { saved: false, final: !!d.final, body: d };
      });
    }).catch(function () {
      NetState.offline();
      schedule();
      return { offline: true };
    }).then(function (a) { bound.done(); return a; });
  }
  function flush() {
    timer = null;
    all().forEach(function (item) {
      send(item).then(function (a) {
        // Refused on a resend while its form is still open: the form says why.
        if (!a.saved && !a.offline && refusals[item.key]) { refusals[item.key](a); return; }
        // Refused on a resend (another phone changed the game meanwhile): the form is
        // opened again with the deal in it, so nothing is dropped silently. A final
        // refusal is said where the phone is (Refusals), its form would not open.
        if (!a.saved && !a.offline && !a.final && item.back && !waiters[item.key]) {
          // With the server's answer: the form says why, as it would have had it been open.
          const back = Object.assign({ answer: a.body || null }, item);
          try { sessionStorage.setItem("scorekeeper.refused", JSON.stringify(back)); } catch (e) { /* ignore */ }
          location.assign(item.back);
        } else if (a.saved && !waiters[item.key] && document.querySelector("#follow")) {
          location.reload();
        }
      });
    });
  }
  function schedule() { if (!timer) timer = setTimeout(flush, 3000); }
  window.addEventListener("online", flush);
  return {
    all: all, add: add, send: send, flush: flush,
    whenSent: function (key, fn, refused) { waiters[key] = fn; refusals[key] = refused; schedule(); },
  };
})();

// Saves the server refused for good (Pending): each is said at the top of whatever page this
// phone shows, with the deal as it was entered (to be written down or given to the
// director), until the scorer taps "Got it".
const Refusals = (function () {
  const STORE = "scorekeeper.refusals";
  function all() {
    try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return []; }
  }
  function put(items) {
    try { localStorage.setItem(STORE, JSON.stringify(items)); } catch (e) { /* private mode */ }
  }
  function said(name) {
    const el = document.getElementById("netstate");
    return (el && el.getAttribute("data-refused-" + name)) || "";
  }
  function add(item, d) {
    const kept = all().filter(function (r) { return r.key !== item.key; });
    kept.push({ key: item.key, what: item.what || item.title || "", words: item.words || [],
                why: d.refused || said("generic"), reason: String(d.final) });
    put(kept.slice(-10));
    draw();
  }
  function draw() {
    const netstate = document.getElementById("netstate");
    if (!netstate) return;
    $$(".refusal").forEach(function (n) { n.remove(); });
    // "Another phone changed this game" says the same less clearly: the card says why.
    const banner = document.getElementById("follow-banner");
    if (banner && all().length) banner.remove();
    all().forEach(function (r) {
      const card = document.createElement("section");
      card.className = "card problems refusal";
      card.setAttribute("role", "alert");
      card.setAttribute("data-reason", r.reason);
      const h = document.createElement("h2");
      h.textContent = said("title").replace("{}", r.what);
      card.appendChild(h);
      const why = document.createElement("p");
      why.className = "refusal-why";
      why.textContent = r.why;
      card.appendChild(why);
      if (r.words.length) {
        const head = document.createElement("p");
        head.textContent = said("entered");
        card.appendChild(head);
        const list = document.createElement("ul");
        list.className = "refusal-deal";
        r.words.forEach(function (w) {
          const li = document.createElement("li");
          li.textContent = w;
          list.appendChild(li);
        });
        card.appendChild(list);
      }
      const ok = document.createElement("button");
      ok.type = "button";
      ok.className = "button";
      ok.textContent = said("ok");
      ok.addEventListener("click", function () {
        put(all().filter(function (x) { return x.key !== r.key; }));
        card.remove();
      });
      card.appendChild(ok);
      netstate.parentNode.insertBefore(card, netstate.nextSibling);
    });
  }
  document.addEventListener("scorekeeper:page", draw);
  return { add: add, draw: draw, said: said };
})();
Refusals.draw();

const NetState = (function () {
  let el = null;  // looked up each time: a swapped-in page brings its own
  let off = false;
  let since = new Date();
  function hhmm(d) { return d.toTimeString().slice(0, 5); }
  function draw() {
    el = document.getElementById("netstate");
    if (!el) return;
    const waiting = Pending.all().length;
    let text = "";
    if (off) {
      text = el.getAttribute("data-offline").replace("{time}", hhmm(since));
      if (waiting) text += "; " + el.getAttribute("data-waiting").replace("{n}", waiting);
    } else if (waiting) {
      text = el.getAttribute("data-waiting").replace("{n}", waiting);
    } else if (el.getAttribute("data-was-off")) {
      text = el.getAttribute("data-back");
    }
    el.textContent = text;
    el.hidden = !text;
    el.classList.toggle("off", off);
  }
  function offline() { if (!off) { off = true; draw(); } }
  function online() {
    if (off) {
      off = false;
      el && el.setAttribute("data-was-off", "1");
      draw();
      setTimeout(function () { if (el) { el.removeAttribute("data-was-off"); draw(); } }, 4000);
    }
    since = new Date();
  }
  window.addEventListener("offline", offline);
  window.addEventListener("online", function () { online(); });
  if (navigator.onLine === false) off = true;
  return { draw: draw, offline: offline, online: online };
})();
NetState.draw();
if (Pending.all().length) Pending.flush();

/* -- a deal form, whatever its family: kept until Save, and a Save that waits ----------- */

// Every field the form sends, by its name (whatever fields the form has), is kept in
// localStorage as it is tapped, per game and per deal (data-draft), with the stamp of what
// the form was drawn from (data-draft-stamp: the game's version for a new deal, the deal's
// last change for an edit). A reload, a language, Back and Forward or a tab closed and
// opened again put it back; onto another stamp it is never put, but said and kept (as
// this deal's stale draft) until thrown away.
// `entered()` says the deal in the page's words (kept with the draft, to say a stale one).
function keptDraft(form, entered) {
  const PREFIX = "scorekeeper.draft.";
  const key = PREFIX + (form.getAttribute("data-draft") || "");
  const stamp = form.getAttribute("data-draft-stamp") || "";
  const SKIP = ["csrf_token", "request_key", "base_version", "checked", "action"];
  const WEEK = 7 * 86400000;
  let baseline = null;
  function read(k) {
    try { return JSON.parse(localStorage.getItem(k)); } catch (e) { return null; }
  }
  function write(k, value) {
    try {
      if (value === null) localStorage.removeItem(k); else localStorage.setItem(k, JSON.stringify(value));
    } catch (e) { /* private mode: nothing kept */ }
  }
  function fields() {
    return Array.from(new FormData(form).entries()).filter(function (p) {
      return typeof p[1] === "string" && SKIP.indexOf(p[0]) < 0;
    });
  }
  // Drafts of games not opened for a week go (a replaced link's among them).
  function prune() {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const k = localStorage.key(i);
      if (k && k.indexOf(PREFIX) === 0 && !((read(k) || {}).at > Date.now() - WEEK)) write(k, null);
    }
  }
  function keep() {
    if (baseline === null || !form.getAttribute("data-draft")) return;
    const now = fields();
    if (JSON.stringify(now) === baseline) { write(key, null); return; }
    write(key, { stamp: stamp, fields: now, words: entered(), at: Date.now() });
  }
  // The draft's values into the form, by name: a radio or checkbox by its value, any other
  // field by its place among those of its name. Names the draft has not are left alone.
  function apply(pairs) {
    const values = {};
    pairs.forEach(function (p) { (values[p[0]] = values[p[0]] || []).push(p[1]); });
    const at = {};
    Array.from(form.elements).forEach(function (el) {
      const name = el.name;
      if (!name || SKIP.indexOf(name) >= 0 || el.type === "hidden" || !values[name]) return;
      if (el.type === "radio" || el.type === "checkbox") { el.checked = values[name].indexOf(el.value) >= 0; return; }
      at[name] = (at[name] || 0) + 1;
      if (values[name][at[name] - 1] !== undefined) el.value = values[name][at[name] - 1];
    });
  }
  function card(which, words) {
    const template = document.getElementById("draft-card");
    if (!template) return;
    const old = document.getElementById("draft");
    if (old) old.remove();
    const box = template.content.firstElementChild.cloneNode(true);
    const said = $(".draft-said", box);
    said.textContent = said.getAttribute("data-" + which);
    const list = $(".draft-words", box);
    (which === "stale" ? words : []).forEach(function (w) {
      const li = document.createElement("li");
      li.textContent = w;
      list.appendChild(li);
    });
    list.hidden = !list.children.length;
    $("#draft-drop", box).addEventListener("click", function () {
      write(which === "stale" ? key + "~" : key, null);
      // The form as it was drawn: opened again, in this page's place in the history.
      if (which === "stale") box.remove(); else location.replace(location.href);
    });
    form.parentElement.insertBefore(box, form);
  }
  // After the page's own first layout: put back the draft drawn from the same stamp, or
  // say that the one kept was drawn from another and keep it aside.
  function restore(put) {
    baseline = JSON.stringify(fields());
    let kept = read(key);
    if (kept && kept.stamp !== stamp) {
      write(key + "~", kept);
      write(key, null);
      kept = null;
    }
    const stale = read(key + "~");
    if (stale) card("stale", stale.words || []);
    if (kept && kept.fields) {
      apply(kept.fields);
      put(kept.fields);
      card("back", []);
    }
    prune();
  }
  function drop() { write(key, null); }
  return { keep: keep, restore: restore, drop: drop, apply: apply };
}

// Save: one request that checks and writes, kept in the queue of waiting deals (Pending)
// with its one-time key from the moment it is sent; on a dropped connection the deal waits
// on this phone and is sent again by itself (the key lands it once). Saved, the page the
// answer names replaces the form in the history, so Back leads to the sheet before it,
// never to this form again (which would become a new deal). `on` is the form's own part:
// saves(submitter) (this button saves), sending() (false: one is on its way already),
// words() (the deal in words), settled(), waiting() (kept on the phone), refused(answer)
// (nothing written: the input stays). The submitter's name and value go with the form's
// fields ("action=save", a Balkan refa's "dalje=1").
function queuedSaves(form, draft, on) {
  // A form opened with no connection is the copy the phone kept: it gets a one-time key of
  // its own, so the deal entered in it is never taken for the one saved from that copy.
  if (navigator.onLine === false && window.crypto && crypto.randomUUID) {
    form.querySelector('input[name="request_key"]').value = crypto.randomUUID().replace(/-/g, "");
  }
  form.addEventListener("submit", function (event) {
    const submitter = event.submitter;
    if (!submitter || !submitter.name || !on.saves(submitter) || !window.fetch) return;
    event.preventDefault();
    if (on.sending() === false) return;  // a second tap while the first is on its way
    const body = Array.from(new FormData(form).entries()).filter(function (p) { return typeof p[1] === "string"; });
    body.push([submitter.name, submitter.value]);
    const item = {
      key: form.querySelector('input[name="request_key"]').value,
      url: submitter.getAttribute("formaction") || form.getAttribute("action") || location.pathname,
      game: form.getAttribute("data-game"),
      title: form.getAttribute("data-title"),
      back: location.pathname,
      body: body,
      what: document.title,
      words: on.words(),
    };
    Pending.add(item);
    Pending.send(item).then(function (answer) {
      on.settled();
      if (answer.saved) { draft.drop(); location.replace(answer.url); return; }
      if (answer.offline) {
        draft.drop();  // kept in the queue of waiting deals now
        on.waiting();
        Pending.whenSent(item.key, function (url) { location.replace(url); }, on.refused);
        return;
      }
      on.refused(answer);
    });
  });
}

/* -- a deal: tap by tap, with a live preview --------------------------------------------- */

// The rules decide who answers, which answers and levels are allowed and whose tricks are
// asked: the page gets their answer as JSON (data-table, see scorekeeper/rules/table.py) and
// only looks it up. The preview and every score come from the server.
(function dealForm() {
  const form = $("#deal-form");
  if (!form || form.getAttribute("data-family")) return;  // another family's form: its own script
  const T = data(form, "table") || {};
  const players = T.players || [];
  const checkUrl = form.getAttribute("data-check-url");
  const preview = $("#preview");
  const save = $("#save-button");
  const checked = form.querySelector('input[name="checked"]');
  const answersBox = $(".answers", form);
  const chip = $("#contract-chip");
  const grid = $("#contract");
  const pad = $("#trickpad");
  let timer = null;
  let sent = 0;
  let previewOk = !save.hidden;
  let saving = false;
  let current = null;          // the seat whose tricks the pad sets
  const userSet = {};          // trick rows the scorer tapped, seat → time of the tap
  const auto = {};             // trick rows filled by the page (made exactly, the complement)
  let gridOpen = !radioValue(form, "contract");

  $$(".nojs-check", form).forEach(function (b) { b.hidden = true; });

  function seatOf(name) { return String(players.indexOf(name)); }
  function nameOf(seat) { return seat === "" || seat === null ? undefined : players[Number(seat)]; }
  function answerBox(seat) { return document.getElementById("answer_" + seat); }
  function trickBox(seat) { return document.getElementById("tricks_" + seat); }
  function setRadio(name, value) {
    $$('input[name="' + name + '"]', form).forEach(function (i) { i.checked = i.value === String(value); });
  }
  function tricksOf(seat) { return radioValue(form, "tricks_" + seat); }
  function level() {
    const c = radioValue(form, "contract");
    return c ? String(parseInt(c, 10)) : "";
  }

  function defenders() {
    const declarer = nameOf(radioValue(form, "declarer"));
    return declarer && T.declarers ? (T.declarers[declarer] || []) : [];
  }

  // Whose tricks the rules ask for, looked up in the table the server sent.
  function needed() {
    const kind = radioValue(form, "kind");
    const declarer = nameOf(radioValue(form, "declarer"));
    const tricks = T.tricks || {};
    if (kind === "allpass") return tricks.allpass || [];
    if (!declarer) return [];
    if (kind === "misere") return (tricks.misere || {})[declarer] || [];
    if (kind !== "contract" || !level()) return [];
    const answers = defenders().map(function (d) { return radioValue(form, "answer_" + seatOf(d)); });
    if (answers.indexOf("") >= 0) return [];
    // The dealer's whist (after pass – half-whist, where the rules allow it) comes last.
    const dealerSaid = T.dealer ? radioValue(form, "answer_" + seatOf(T.dealer)) : "";
    if (dealerSaid && dealerMay()) answers.push(dealerSaid);
    return ((tricks.contract || {})[declarer] || {})[answers.join(",")] || [];
  }

  // May the dealer whist now: the contract allows it and the defenders said pass – half-whist.
  function dealerMay() {
    const defs = defenders();
    if (defs.length !== 2 || (T.dealer_whist || []).indexOf(radioValue(form, "contract")) < 0) return false;
    return radioValue(form, "answer_" + seatOf(defs[0])) === "pass"
      && radioValue(form, "answer_" + seatOf(defs[1])) === "half-whist";
  }

  // The dealer's row: shown only when the dealer may whist, with the one answer "whist";
  // a second tap on it takes it back (a radio alone cannot be emptied).
  function dealerRow(kind) {
    const box = (T.dealer_whist || []).length ? answerBox(seatOf(T.dealer)) : null;
    if (!box) return;
    const may = kind === "contract" && dealerMay();
    box.hidden = !may;
    if (may) answersBox.insertBefore(box, answersBox.querySelector(".errors") || null);
    $$(".tap", box).forEach(function (tap) {
      const ok = tap.getAttribute("data-value") === "whist";
      tap.hidden = !ok;
      const input = tap.querySelector("input");
      if ((!ok || !may) && input.checked) input.checked = false;
    });
  }
  (function dealerUntap() {
    const box = (T.dealer_whist || []).length ? answerBox(seatOf(T.dealer)) : null;
    if (!box) return;
    let was = false;
    box.addEventListener("pointerdown", function (e) {
      const tap = e.target.closest(".tap");
      was = !!(tap && tap.querySelector("input").checked);
    });
    box.addEventListener("click", function (e) {
      if (!was || e.target.tagName !== "INPUT") return;
      was = false;
      e.target.checked = false;
      e.target.dispatchEvent(new Event("change", { bubbles: true }));
    });
  })();

  const heading = $("#deal-title");
  const dealTitle = heading ? heading.textContent : "";
  function layout() {
    const kind = radioValue(form, "kind");
    // A correction is not a deal at the table: its title says so.
    // A correction or a penalty is not a deal at the table: its title says so (an edit too).
    if (heading && heading.getAttribute("data-correction")) {
      const off = kind === "correction" || kind === "penalty" ? heading.getAttribute("data-" + kind) : null;
      heading.textContent = off || heading.getAttribute("data-deal") || dealTitle;
    }
    $$(".part", form).forEach(function (part) {
      const kinds = part.getAttribute("data-kinds").split(" ");
      show(part, kinds.indexOf(kind) >= 0);
    });
    const declarer = nameOf(radioValue(form, "declarer"));
    const defs = defenders();
    // The contract: the grid until one is chosen, then one button to change it.
    if (chip && grid) {
      const c = $('#contract input:checked', form);
      chip.hidden = gridOpen || !c;
      // Folded, not hidden: its choice is still sent.
      grid.classList.toggle("folded", !gridOpen && !!c);
      if (c) {
        chip.textContent = chip.getAttribute("data-label").replace("{}", c.parentElement.textContent.trim());
        // Said in words too (what it shows first, as a voice control user reads it):
        // «Игра: 8♥ — изменить (восемь червей)».
        const spoken = c.getAttribute("data-spoken");
        if (spoken) chip.setAttribute("aria-label", chip.textContent + " (" + spoken + ")");
      }
    }
    // Answers: the defenders only, in the order they answer; the answers the rules allow.
    $$(".answer", form).forEach(function (box) {
      const name = nameOf(box.id.slice("answer_".length));
      box.hidden = kind !== "contract" || defs.indexOf(name) < 0;
    });
    answersBox.hidden = kind !== "contract" || !defs.length;
    // Before the contract is chosen, the answers any level allows (the first defender's).
    const contracts = declarer ? (T.answers || {})[declarer] || {} : {};
    const anyContract = contracts[Object.keys(contracts)[0]];
    const code = radioValue(form, "contract");
    const byLevel = code ? contracts[code] : anyContract ? { first: anyContract.first } : null;
    if (kind === "contract") presetAnswers();
    defs.forEach(function (name, i) {
      const box = answerBox(seatOf(name));
      if (!box) return;
      answersBox.insertBefore(box, answersBox.querySelector(".errors") || null);
      if (!byLevel) return;
      const first = i === 0 ? null : radioValue(form, "answer_" + seatOf(defs[0]));
      let allowed = !byLevel ? [] : i === 0 ? byLevel.first : (byLevel[first] || byLevel.first);
      // The returned whist is offered once the second half-whisted (pass – half-whist, then
      // the first's whist): the first's row keeps two taps until then.
      if (i === 0 && defs.length > 1 && radioValue(form, "answer_" + seatOf(defs[1])) !== "half-whist"
          && radioValue(form, "answer_" + seatOf(name)) !== "whist-returned") {
        allowed = allowed.filter(function (a) { return a !== "whist-returned"; });
      }
      $$(".tap", box).forEach(function (tap) {
        const ok = allowed.indexOf(tap.getAttribute("data-value")) >= 0;
        tap.hidden = !ok;
        const input = tap.querySelector("input");
        if (!ok && input.checked) input.checked = false;
      });
    });
    dealerRow(kind);
    // Tricks: the rows the rules ask for, the made-exactly default and the complement.
    const need = needed();
    $$(".trickrow", form).forEach(function (box) {
      box.hidden = need.indexOf(nameOf(box.id.slice("tricks_".length))) < 0;
    });
    $(".tricks", form).hidden = !need.length;
    fillTricks(need);
    drawPad(need);
    $$("input, select, textarea", form).forEach(function (input) {
      if (input.type !== "hidden") input.disabled = !!input.closest("[hidden]");
    });
    corrections();
    if (!$(".preview-error", preview)) previewStale();
  }

  // Defaults that are usually right and always visible before Save: the declarer made the
  // contract exactly; when every player's tricks are asked, the last one adds up to 10.
  function fillTricks(need) {
    Object.keys(auto).forEach(function (seat) {
      if (!userSet[seat]) setRadio("tricks_" + seat, "");
      delete auto[seat];
    });
    const kind = radioValue(form, "kind");
    const declarer = nameOf(radioValue(form, "declarer"));
    const dseat = declarer ? seatOf(declarer) : null;
    if (dseat && need.indexOf(declarer) >= 0 && !userSet[dseat] && !tricksOf(dseat)) {
      if (kind === "contract" && level()) { setRadio("tricks_" + dseat, level()); auto[dseat] = 1; }
      if (kind === "misere") { setRadio("tricks_" + dseat, 0); auto[dseat] = 1; }
    }
    complement(need);
  }

  function complement(need) {
    // Every player's tricks asked: the active players' (and the dealer's all-pass talon).
    const all = radioValue(form, "kind") === "allpass" ? (T.tricks || {}).allpass || [] : T.active || [];
    if (need.length < 2 || need.length !== all.length) return;
    const seats = need.map(seatOf);
    const open = seats.filter(function (s) { return tricksOf(s) === "" || auto[s]; });
    // A count nobody has given yet follows before one the page guessed (made exactly): the
    // declarer made it and one whister is tapped, so the other whister's count is the rest.
    const empty = open.filter(function (s) { return tricksOf(s) === ""; });
    let target = null;
    if (open.length === 1) target = open[0];
    else if (empty.length === 1) target = empty[0];
    else if (open.length === 0) {
      // Every count given (an edit): the one touched longest ago follows the others.
      const sum = seats.reduce(function (a, s) { return a + Number(tricksOf(s)); }, 0);
      if (sum === T.tricks_total) return;
      const order = seats.slice().reverse().sort(function (a, b) { return (userSet[a] || 0) - (userSet[b] || 0); });
      target = order[0];
    }
    if (target === null) return;
    const rest = seats.filter(function (s) { return s !== target; })
      .reduce(function (a, s) { return a + Number(tricksOf(s) || 0); }, 0);
    const value = T.tricks_total - rest;
    if (value >= 0 && value <= 10) {
      setRadio("tricks_" + target, value);
      if (!userSet[target]) auto[target] = 1;
    }
  }

  function drawPad(need) {
    if (!pad) return;
    const seats = need.map(seatOf);
    if (seats.indexOf(current) < 0) current = null;
    if (current === null) {
      current = seats.filter(function (s) { return tricksOf(s) === ""; })[0] || seats[0] || null;
    }
    const counts = data(pad, "counts") || [];
    function said(seat, n) {
      const name = nameOf(seat) || "";
      return n === "" ? pad.getAttribute("data-unset").replace("{name}", name)
        : (counts[Number(n)] || "{name}: " + n).replace("{name}", name);
    }
    $$(".chip", pad).forEach(function (c) {
      const seat = c.getAttribute("data-seat");
      c.hidden = seats.indexOf(seat) < 0;
      c.setAttribute("aria-pressed", seat === current ? "true" : "false");
      c.querySelector("b").textContent = tricksOf(seat) === "" ? "–" : tricksOf(seat);
      c.setAttribute("aria-label", said(seat, tricksOf(seat)));
    });
    const value = current === null ? "" : tricksOf(current);
    // One stop for Tab on the keys and one on the names (the arrows move within each).
    const keyStop = $('.num[data-n="' + (value === "" ? "0" : value) + '"]', pad);
    $$(".num", pad).forEach(function (b) { b.tabIndex = b === keyStop ? 0 : -1; });
    const chipStop = $$(".chip", pad).filter(function (c) { return !c.hidden && c.getAttribute("data-seat") === current; })[0];
    $$(".chip", pad).forEach(function (c) { c.tabIndex = c === chipStop ? 0 : -1; });
    $$(".num", pad).forEach(function (b) {
      b.setAttribute("aria-pressed", b.getAttribute("data-n") === value ? "true" : "false");
      // Each key says whose tricks it sets: «Вера: 2 взятки».
      if (current !== null) b.setAttribute("aria-label", said(current, b.getAttribute("data-n")));
    });
    const whose = $("#pad-whose");
    const now = current === null ? "" : pad.getAttribute("data-whose").replace("{name}", nameOf(current) || "");
    // The pressed chip moved on: said once, politely.
    if (whose && whose.getAttribute("data-now") !== now) {
      whose.setAttribute("data-now", now);
      whose.textContent = now;
    }
  }

  if (pad) {
    pad.addEventListener("click", function (event) {
      const c = event.target.closest(".chip");
      if (c) { current = c.getAttribute("data-seat"); drawPad(needed()); return; }
      const b = event.target.closest(".num");
      if (!b || current === null) return;
      setRadio("tricks_" + current, b.getAttribute("data-n"));
      userSet[current] = Date.now();
      delete auto[current];
      const seats = needed().map(seatOf);
      const next = seats.filter(function (s) { return s !== current && tricksOf(s) === "" ; })[0];
      complement(needed());
      if (next !== undefined && tricksOf(next) === "") current = next;
      drawPad(needed());
      check();
    });
  }
  if (pad) {
    // The arrows move between the keys (up and down by a row of the pad as it is drawn) and
    // between the names; Enter or Space presses, and focus stays for the next count.
    pad.addEventListener("keydown", function (event) {
      const t = event.target;
      const step = STEPS[event.key];
      if (step === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
      const group = t.closest(".pad") ? $$(".num", pad) : t.closest(".chips") ? $$(".chip", pad).filter(function (c) { return !c.hidden; }) : null;
      if (!group) return;
      event.preventDefault();
      const cols = t.closest(".pad") ? getComputedStyle($(".pad", pad)).gridTemplateColumns.split(" ").length : 1;
      const at = group.indexOf(t);
      const to = step === "home" ? 0 : step === "end" ? group.length - 1
        : step === "down" ? at + cols : step === "up" ? at - cols : at + step;
      if (group[to]) group[to].focus();
    });
  }
  // Reopened, the grid puts focus on the chosen contract (the first one only when none is).
  if (chip) chip.addEventListener("click", function () {
    gridOpen = true;
    layout();
    (grid.querySelector("input:checked") || grid.querySelector("input")).focus();
  });
  // The minus key: the amount's sign, and the amount's field ready for the digits (one tap
  // for both, where a phone's decimal keypad has no minus).
  $$("[data-minus]", form).forEach(function (b) {
    b.addEventListener("click", function () {
      const input = document.getElementById(b.getAttribute("data-minus"));
      const v = input.value.trim();
      input.value = /^[-−]/.test(v) ? v.replace(/^[-−]\s*/, "") : "-" + v;
      input.focus();
      const end = input.value.length;
      try { input.setSelectionRange(end, end); } catch (e) { /* not a text field */ }
      corrections();
      check();
    });
  });
  $$("[data-reason]", form).forEach(function (b) {
    b.addEventListener("click", function () { $("#reason").value = b.getAttribute("data-reason"); check(); });
  });

  let moreRows = 0;  // rows asked for with "+ Another amount"
  const moreButton = $("#more-rows");
  if (moreButton) moreButton.addEventListener("click", function () {
    moreRows = $$(".corr-row", form).filter(function (r) { return !r.hidden; }).length + 1;
    corrections();
    const row = $$(".corr-row", form).filter(function (r) { return !r.hidden; }).pop();
    if (row) { const first = $("input[type=radio]", row); if (first) first.focus(); }
  });
  function corrections() {
    // Rows: the filled ones and one empty; whists need the player written on.
    // An empty row is shown while none is filled, or when asked for ("+ Another amount"): a
    // second row waiting under the thumb would push the bar over what is being entered.
    let emptyShown = false;
    let filledRows = 0;
    const rows = $$(".corr-row", form);
    rows.forEach(function (row) {
      const j = row.getAttribute("data-row");
      if (radioValue(form, "corr_player_" + j) !== "" || row.querySelector('input[name^="corr_amount_"]').value.trim() !== "") filledRows++;
    });
    if (filledRows === 0 || moreRows > filledRows) emptyShown = false; else emptyShown = true;
    const moreButton = $("#more-rows");
    if (moreButton) moreButton.hidden = !emptyShown || filledRows >= rows.length;
    rows.forEach(function (row) {
      const j = row.getAttribute("data-row");
      const player = radioValue(form, "corr_player_" + j);
      const column = radioValue(form, "corr_column_" + j);
      const on = document.getElementById("corr_on_" + j);
      const amount = row.querySelector('input[name^="corr_amount_"]');
      const filled = player !== "" || amount.value.trim() !== "";
      const visible = filled || !emptyShown;
      if (!filled) emptyShown = true;
      if (radioValue(form, "kind") === "correction") {
        show(row, visible);
        on.hidden = column !== "whists";
        if (visible) $$("input", on).forEach(function (i) { i.disabled = column !== "whists"; });
      }
    });
  }

  function previewStale() {
    save.disabled = true;
  }

  let lastAsked = null;
  function formText() {
    return JSON.stringify(Array.from(new FormData(form).entries()).filter(function (p) { return p[0] !== "checked"; }));
  }
  function check() {
    Draft.keep();
    const text = formText();
    if (text === lastAsked) return;  // nothing changed since the last preview
    lastAsked = text;
    clearTimeout(timer);
    previewStale();
    // Until this change's Check is answered the preview is out of date: busy, so a screen
    // reader waits for the new words (and a test for the page to settle before it looks).
    preview.setAttribute("aria-busy", "true");
    // From this change on, an answer still on its way is about the form before it: it must
    // not show (nor enable Save) in the 120 ms before this form's own Check goes out.
    const mine = ++sent;
    timer = setTimeout(function () {
      const body = new URLSearchParams(new FormData(form));
      body.set("action", "check");
      // An answer that never comes is given up: the preview says it cannot be checked now,
      // and Save (which waits on the phone if it must) is not held back by it.
      const bound = answerBound();
      fetch(checkUrl, { method: "POST", body: body, credentials: "same-origin", signal: bound.signal })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) {
          bound.done();
          // The answer may make the bar taller: not under a finger (whenLifted).
          whenLifted(function () {
            if (mine !== sent) return;
            preview.removeAttribute("aria-busy");
            if (d && !saving) render(d);  // a Save on its way says what became of it
          });
        })
        .catch(function () {
          bound.done();
          whenLifted(function () {
            if (mine !== sent) return;
            preview.removeAttribute("aria-busy");
            lastAsked = null;
            if (!saving) offlinePreview();
          });
        });
    }, 120);
  }

  function line(label, items, cls) {
    const p = document.createElement("p");
    if (cls) p.className = cls;
    const b = document.createElement("strong");
    b.textContent = label + ": ";
    p.appendChild(b);
    if (cls !== "errors") {
      p.appendChild(document.createTextNode(items.join("; ")));
      return p;
    }
    // What is still missing: each a sentence of its own, on its own line (a capital never
    // follows a colon or a semicolon inside one line).
    items.forEach(function (item) {
      p.appendChild(document.createElement("br"));
      p.appendChild(document.createTextNode(item));
    });
    return p;
  }
  function note(text, cls) {
    const p = document.createElement("p");
    p.className = cls;
    p.textContent = text;
    return p;
  }

  // What is said of several names is said once: "укажите взятки: Борис, Вера", not the
  // same words twice (wording.Words.merged does the same on the server).
  function merged(messages) {
    const out = [];
    const at = {};
    messages.forEach(function (m) {
      const i = m.lastIndexOf(": ");
      const head = i > 0 ? m.slice(0, i) : null;
      if (head !== null && Object.prototype.hasOwnProperty.call(at, head)) {
        const tail = m.slice(i + 2);
        const said = out[at[head]];
        const p = tail.indexOf(" (");
        const why = p >= 0 ? tail.slice(p) : null;
        if (why !== null && said.slice(-why.length) === why) {
          out[at[head]] = said.slice(0, -why.length) + ", " + tail.slice(0, p) + why;
        } else {
          out[at[head]] = said + ", " + tail;
        }
        return;
      }
      if (head !== null) at[head] = out.length;
      out.push(m);
    });
    return out;
  }

  function render(d) {
    preview.textContent = "";
    const labels = preview.dataset;
    if (d.ok) {
      preview.appendChild(line(labels.will, d.entries.length ? d.entries : [labels.nothing]));
    } else {
      let messages = d.top.slice();
      Object.keys(d.errors).forEach(function (k) { messages = messages.concat(d.errors[k]); });
      messages = merged(messages.concat(d.later));
      if (messages.length) preview.appendChild(line(labels.missing, messages, "errors"));
    }
    // What the server marked next to a field belongs to an older state of the form.
    $$(".errors", form).forEach(function (ul) { if (!ul.closest(".deal-bar")) ul.remove(); });
    $$(".invalid", form).forEach(function (el) { el.classList.remove("invalid"); });
    // The fields the preview finds fault with say so to a screen reader, and where: the bar.
    $$("[aria-invalid]", form).forEach(function (i) { i.removeAttribute("aria-invalid"); i.removeAttribute("aria-describedby"); });
    if (!d.ok) Object.keys(d.errors || {}).forEach(function (name) {
      const box = document.getElementById(name);
      if (!box || !form.contains(box)) return;
      (box.matches("input, textarea, select") ? [box] : $$("input, textarea, select", box)).forEach(function (i) {
        i.setAttribute("aria-invalid", "true");
        i.setAttribute("aria-describedby", "preview");
      });
    });
    const top = $("#top-problems");
    if (top && !saving) top.remove();
    checked.value = d.checked || "";
    previewOk = !!d.ok;
    save.hidden = false;
    save.disabled = !d.ok;
    if (!saving) keepRevealed();
    if (saveWhenReady && d.ok) {
      saveWhenReady = false;
      const a = document.activeElement;
      if (!a || a === document.body || a === chip) save.focus();
    }
  }

  function offlinePreview() {
    preview.textContent = "";
    preview.appendChild(note(preview.dataset.offline, "preview-error"));
    // Without a preview the scorer may still save: the deal waits on the phone until the
    // server has checked and written it.
    save.hidden = false;
    save.disabled = false;
  }

  // The deal kept on this phone until Save (keptDraft), and Save: one request that checks
  // and writes; on a dropped connection the deal waits on this phone (queuedSaves). Both the
  // same for every family's form.
  const Draft = keptDraft(form, entered);
  queuedSaves(form, Draft, {
    saves: function (submitter) { return submitter.value === "save"; },
    sending: function () {
      if (saving) return false;
      saving = true;
      const same = document.getElementById("same-deal");
      if (same) same.remove();
      save.disabled = true;
      preview.textContent = "";
      preview.appendChild(note(preview.dataset.sending, "sending"));
    },
    words: entered,
    settled: function () { saving = false; },
    waiting: function () {
      preview.textContent = "";
      preview.appendChild(note(preview.dataset.pending, "preview-error pending"));
    },
    refused: refused,
  });

  // The deal as the scorer entered it, in the page's words: each question that has an
  // answer on the form ("Declarer: Anna", "Contract: 7♠", "Vera: whist", "Anna (tricks): 7"),
  // and what was typed. Kept with a Save, so a refusal can show it on any page.
  function entered() {
    const out = [];
    const tricks = $(".tricks > legend", form);
    $$("fieldset.taps", form).forEach(function (fs) {
      if (fs.closest("[hidden]")) return;
      const c = $("input[type=radio]:checked", fs);
      const legend = $("legend", fs);
      if (!c || !legend || c.disabled) return;
      const label = c.parentElement.textContent.trim();
      const head = legend.textContent.trim() + (fs.classList.contains("trickrow") && tricks ? " (" + tricks.textContent.trim() + ")" : "");
      out.push(head + ": " + label);
    });
    $$("textarea, input[type=text], input[inputmode]", form).forEach(function (i) {
      if (i.closest("[hidden]") || i.disabled || !i.value.trim()) return;
      const label = i.closest("label") || (i.id && form.querySelector('label[for="' + i.id + '"]'));
      const name = i.getAttribute("aria-label") || (label ? label.textContent.replace(i.value, "").trim() : "");
      out.push((name ? name + ": " : "") + i.value.trim());
    });
    return out;
  }

  // Another phone saved meanwhile: this form's deal is the next one now (its number moved on).
  function renumber(headings) {
    if (!heading) return;
    ["deal", "correction", "penalty"].forEach(function (k) {
      if (headings[k]) heading.setAttribute("data-" + k, headings[k]);
    });
    const kind = radioValue(form, "kind");
    heading.textContent = heading.getAttribute("data-" + (kind === "correction" || kind === "penalty" ? kind : "deal"));
    const note = document.getElementById("deal-note");
    if (note && headings.note) note.textContent = headings.note;
  }
  // …and may have saved this very deal: what it saved, beside what this form holds, and
  // the choice: the same deal (nothing to write; back to the sheet) or save as the next.
  function sameDeal(d) {
    const template = document.getElementById("same-deal-template");
    const old = document.getElementById("same-deal");
    if (old) old.remove();
    if (!template) return;
    const card = template.content.firstElementChild.cloneNode(true);
    $(".same-name", card).textContent = d.latest.name;
    $(".same-colon", card).textContent = ":";
    $(".same-title", card).textContent = d.latest.title + (d.latest.details ? " · " + d.latest.details : "");
    function fill(list, items) {
      items.forEach(function (t) { const li = document.createElement("li"); li.textContent = t; list.appendChild(li); });
    }
    fill($(".same-entries", card), d.latest.entries || []);
    fill($(".same-mine", card), (d.ok && d.entries && d.entries.length) ? d.entries : entered());
    $("#same-deal-discard", card).addEventListener("click", function (event) {
      event.preventDefault();
      Draft.drop();
      location.replace(this.href);  // Back leads to the sheet before, not to this form
    });
    form.parentElement.insertBefore(card, form);
    const banner = $("#follow-banner");
    if (banner) banner.remove();
    window.scrollTo(0, 0);
    $("#same-deal-save", card).focus({ preventScroll: true });
  }

  // Refused (already saved, another phone, a problem, or for good): the input stays.
  function refused(answer) {
    const d = answer.body || {};
    if (d.request_key) form.querySelector('input[name="request_key"]').value = d.request_key;
    if (d.base_version !== undefined) form.querySelector('input[name="base_version"]').value = d.base_version;
    render(d);
    const why = d.refused;
    if (why) {
      preview.insertBefore(note(why, "preview-error errors"), preview.firstChild);
      if (d.edit_url) {
        const b = document.createElement("button");
        b.type = "submit"; b.name = "action"; b.value = "save";
        b.className = "button"; b.id = "change-saved";
        b.setAttribute("formaction", d.edit_url);
        b.textContent = (document.getElementById("change-saved-label") || {}).textContent || "✎";
        const old = $("#change-saved"); if (old) old.remove();
        $(".submit", form).appendChild(b);
      }
    }
    if (d.headings) renumber(d.headings);
    if (d.latest) sameDeal(d);
    // For good (the game over, the tour closed, the link gone…): said at the top with the
    // deal (Refusals); what was typed stays in the form, Save is of no use any more.
    save.disabled = !!answer.final;
    if (answer.final) {
      form.setAttribute("data-refused", d.final);
      // "Another phone changed this game" said the same less clearly: the card says why.
      const banner = $("#follow-banner");
      if (banner) banner.remove();
      window.scrollTo(0, 0);
    }
  }

  // -- by keyboard and screen reader ---------------------------------------------------------
  // In a group of taps (the contract grid above all) the arrows move between the choices
  // without choosing; Enter or Space chooses, and focus goes on to the next question. A
  // choice that folds or hides its group (the grid) never leaves focus on the page.
  function visible(el) { return !!el && !el.closest("[hidden]") && el.getClientRects().length > 0; }
  let saveWhenReady = false;
  function focusIn(el, quiet) {
    if (!el) return false;
    let target = el;
    if (el.matches(".taps")) {
      const inputs = $$("input[type=radio]", el).filter(function (i) { return visible(i.parentElement) && !i.disabled; });
      target = inputs.filter(function (i) { return i.checked; })[0] || inputs[0];
    } else if (el.id === "trickpad") {
      target = $('.num[aria-pressed="true"]', el) || $(".num", el);
    } else if (el.classList.contains("corr-row")) {
      target = $("input[type=radio]:checked, input[type=radio]", el);
    }
    if (!target || target.disabled) return false;
    target.focus({ preventScroll: !!quiet });
    return document.activeElement === target;
  }
  function nextQuestion(after, quiet) {
    const all = $$(".taps, #trickpad, #reason, .corr-row, #save-button", form).filter(function (el) {
      return !el.closest(".trickrows") && visible(el) && (after.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)
        && !after.contains(el);
    });
    for (const el of all) {
      if (el === save && save.disabled) {
        // Save is enabled once the preview is back: focus waits on the contract's button.
        saveWhenReady = true;
        if (chip && visible(chip)) chip.focus({ preventScroll: !!quiet });
        return;
      }
      if (focusIn(el, quiet)) return;
    }
  }
  const STEPS = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: "down", ArrowUp: "up", Home: "home", End: "end" };
  form.addEventListener("keydown", function (event) {
    const input = event.target;
    if (input.type !== "radio" || !input.closest(".taps") || event.altKey || event.ctrlKey || event.metaKey) return;
    const group = input.closest(".taps");
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (!input.checked) {
        input.checked = true;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      }
      nextQuestion(group);
      return;
    }
    const step = STEPS[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const inputs = $$("input[type=radio]", group).filter(function (i) { return visible(i.parentElement) && !i.disabled; });
    const at = inputs.indexOf(input);
    const cols = group.classList.contains("contracts") ? 5 : 1;
    const to = step === "home" ? 0 : step === "end" ? inputs.length - 1
      : step === "down" ? at + cols : step === "up" ? at - cols : at + step;
    if (inputs[to]) inputs[to].focus();
  });
  // Space chooses on its release in a browser's own radios: that is done above already.
  form.addEventListener("keyup", function (event) {
    if (event.key === " " && event.target.type === "radio") event.preventDefault();
  });
  // Escape in the reopened grid folds it again, focus back on its button.
  if (chip) form.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !gridOpen || !radioValue(form, "contract")) return;
    if (event.target !== chip && !grid.contains(event.target)) return;
    gridOpen = false;
    layout();
    chip.focus();
  });

  // -- the preview: one line, the whole of it one tap away -------------------------------------
  const more = $("#preview-more");
  function fitPreview() {
    if (!more) return;
    const open = preview.classList.contains("open");
    preview.classList.remove("open");
    const long = preview.scrollHeight > preview.clientHeight + 1 || $$("p", preview).some(function (p) { return p.scrollHeight > p.clientHeight + 1; });
    preview.classList.toggle("open", open && long);
    more.hidden = !long;
    more.setAttribute("aria-expanded", open && long ? "true" : "false");
  }
  if (more) {
    more.addEventListener("click", function () {
      const open = !preview.classList.contains("open");
      preview.classList.toggle("open", open);
      more.setAttribute("aria-expanded", open ? "true" : "false");
    });
    new MutationObserver(fitPreview).observe(preview, { childList: true, subtree: true, characterData: true });
    // A tap on the folded lines unfolds them too (the key is there for the keyboard).
    preview.addEventListener("click", function () { if (!more.hidden && !preview.classList.contains("open")) more.click(); });
    window.addEventListener("resize", fitPreview);
  }

  form.addEventListener("change", function (event) {
    const t = event.target;
    if (t.name === "contract") gridOpen = false;
    if (t.name && t.name.indexOf("tricks_") === 0) {
      const seat = t.name.slice("tricks_".length);
      userSet[seat] = Date.now(); delete auto[seat]; current = seat;
    }
    if (t.name && t.name.indexOf("answer_") === 0) t.closest(".answer").setAttribute("data-user", "1");
    if (t.type === "radio" || t.tagName === "SELECT") layout();
    if (t.type === "radio" || t.tagName === "SELECT") check();
    // A choice that folded its group (the contract grid) or hid it: on to the next question,
    // without scrolling under a thumb.
    const a = document.activeElement;
    if (t.type === "radio" && (!a || a === document.body || (form.contains(a) && !visible(a)))) {
      nextQuestion(t.closest(".taps") || t, true);
    }
    if (t.type === "radio") revealAfter(t.closest(".taps") || t);
  });
  form.addEventListener("input", function (event) {
    if (event.target.name && event.target.name.indexOf("corr_") === 0) corrections();
    if (event.target.type !== "radio") check();
    if (event.target.name && event.target.name.indexOf("corr_amount_") === 0) revealAfter(event.target.closest(".corr-amount"));
  });
  $$("[data-reason]", form).forEach(function (b) {
    b.addEventListener("click", function () { revealAfter($("#reason")); });
  });
  $$("[data-minus]", form).forEach(function (b) {
    b.addEventListener("click", function () { reveal(b.closest(".corr-amount")); });
  });
  if (moreButton) moreButton.addEventListener("click", function () {
    const row = $$(".corr-row", form).filter(function (r) { return !r.hidden; }).pop();
    if (row) reveal(row);
  });

  // -- the next question in reach ---------------------------------------------------------
  // Large text or a small screen cannot show every question at once: after each answer the
  // page brings the next question into view, clear of the bar with the preview and Save, so
  // the scorer never scrolls to reach it (nor taps what the bar covers).
  let revealed = null;
  // The next question in view, and as far as the one after it that has no answer yet when
  // both fit (the defenders' answers are preset: the tricks are what is tapped next).
  function reveal(el, last) {
    if (!el || !visible(el)) return;
    revealed = [el, last];
    const bar = $("#deal-bar");
    const sticky = bar && getComputedStyle(bar).position === "sticky";
    // Where the bar will stand once the page is scrolled: at the screen's bottom.
    const limit = sticky ? innerHeight - bar.getBoundingClientRect().height : innerHeight;
    const margin = 6;
    const top = el.getBoundingClientRect().top;
    let bottom = el.getBoundingClientRect().bottom;
    if (last && visible(last)) {
      const end = last.getBoundingClientRect().bottom;
      if (end - top <= limit - 2 * margin) bottom = Math.max(bottom, end);
    }
    if (bottom > limit + 0.5) {
      window.scrollBy(0, Math.min(bottom - limit + margin, Math.max(0, top - margin)));
    } else if (top < 0) {
      window.scrollBy(0, top - margin);
    }
  }
  const QUESTIONS = ".taps, #trickpad, #reason, .corr-amount, #more-rows";
  function unanswered(el) {
    if (el.matches(".taps")) return !$("input:checked", el);
    if (el.id === "reason") return !el.value.trim();
    if (el.matches(".corr-amount")) return !$("input", el).value.trim();
    return true;
  }
  function revealAfter(after) {
    if (!after) return;
    const next = $$(QUESTIONS, form).filter(function (el) {
      return !el.closest(".trickrows") && visible(el) && !after.contains(el) && !el.contains(after)
        && (after.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    if (!next.length) return;
    const open = next.filter(unanswered)[0];
    reveal(next[0], open && open !== next[0] ? open : null);
  }
  // The preview's answer may make the bar taller: what was brought into view stays clear of it.
  function keepRevealed() { if (revealed) reveal(revealed[0], revealed[1]); }

  // Both defenders whist unless the scorer says otherwise (the usual case, and visible); in
  // Hussar the way this game's latest whist was given (data-whist: alone or with the talon).
  function presetAnswers() {
    const usual = form.getAttribute("data-whist") || "whist";
    defenders().forEach(function (name) {
      const box = answerBox(seatOf(name));
      if (box && !box.getAttribute("data-user") && !radioValue(form, "answer_" + seatOf(name))) {
        const offered = $('input[value="' + usual + '"]', box);
        setRadio("answer_" + seatOf(name), offered ? usual : "whist");
      }
    });
  }


  // A waiting deal the server refused on its resend comes back into its form.
  let refusedIn = false;
  (function refusedBack() {
    let item = null;
    try { item = JSON.parse(sessionStorage.getItem("scorekeeper.refused")); } catch (e) { return; }
    if (!item || item.back !== location.pathname) return;
    refusedIn = true;
    sessionStorage.removeItem("scorekeeper.refused");
    const skip = ["csrf_token", "request_key", "base_version", "action", "checked"];
    item.body.forEach(function (p) {
      if (skip.indexOf(p[0]) >= 0) return;
      $$('[name="' + p[0] + '"]', form).forEach(function (i) {
        if (i.type === "radio") i.checked = i.value === p[1]; else i.value = p[1];
      });
    });
    // Why, as the open form says it (another phone's deal beside this one, the server's
    // words); said in general only when the answer is not known.
    const answer = item.answer;
    if (answer && (answer.refused || answer.latest)) { refused({ body: answer }); return; }
    const top = document.createElement("section");
    top.className = "card problems";
    top.setAttribute("role", "alert");
    top.textContent = $("#refused-label").textContent;
    form.parentElement.insertBefore(top, form);
  })();

  // Values the page was opened with (an edit, or a form sent back) are the scorer's own.
  $$('.trickrow input:checked', form).forEach(function (i) { userSet[i.name.slice(7)] = 1; });
  $$('.answer input:checked', form).forEach(function (i) { i.closest(".answer").setAttribute("data-user", "1"); });
  if (!$$('.answer input:checked', form).length) presetAnswers();
  layout();
  // The deal kept on this phone (a reload, a language, Back, a tab opened again): its values
  // are the scorer's own, as an edit's are.
  let drafted = false;
  if (!refusedIn) Draft.restore(function (pairs) {
    drafted = true;
    pairs.forEach(function (p) {
      if (p[0].indexOf("tricks_") === 0) userSet[p[0].slice(7)] = 1;
      if (p[0].indexOf("answer_") === 0 && answerBox(p[0].slice(7))) answerBox(p[0].slice(7)).setAttribute("data-user", "1");
    });
    gridOpen = !radioValue(form, "contract");
    layout();
  });
  if (drafted) check();
  else if (previewOk) { save.hidden = false; save.disabled = false; }
  // An edit (or a form sent back) opens with its preview: a deal, a penalty or a correction.
  else if (form.querySelector("input:checked[name='declarer'], input:checked[name='kind'][value='allpass'],"
                              + " input:checked[name='offender']")
           || (radioValue(form, "kind") === "correction" && $("#reason") && $("#reason").value.trim())) check();
  else { save.hidden = false; save.disabled = true; }
})();
