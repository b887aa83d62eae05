/* scorekeeper: the table confirms each deal from its own phones (a follower's game page).
 *
 * Say once who you are ("I am Anna": kept in this browser, no account); from then on each new
 * or changed deal asks "✓ right" / "✗ not so" (with a short note). The answer is one small
 * request with the session's CSRF token and a one-time key; the page itself comes back fresh
 * through the game's follow (app.js), which also takes the answer to the scorer's phone.
 */
"use strict";

(function confirmDeals() {
  if (window.scorekeeperConfirm) return;  // the page swapped in again carries this script too
  window.scorekeeperConfirm = true;
  const PREFIX = "scorekeeper.confirm.";
  let ticket = null;  // { csrf_token, request_key } for the next answer
  let sending = false;
  let said = null;  // { text, at }: what the last answer got back, shown on the page swapped in
  let moved = false;  // the person pressed a key or touched the page while an answer was on its way

  function read(name) {
    try { return JSON.parse(localStorage.getItem(PREFIX + name)); } catch (e) { return null; }
  }
  function write(name, value) {
    try {
      if (value === null) localStorage.removeItem(PREFIX + name);
      else localStorage.setItem(PREFIX + name, JSON.stringify(value));
    } catch (e) { /* private mode: this page only */ }
  }
  function list(el, name) {
    try { return JSON.parse(el.getAttribute(name)) || []; } catch (e) { return []; }
  }
  function box() { return document.getElementById("confirm"); }

  // Who this phone answers for at this game: said here, or said at another game of the same
  // players (a rematch, the next evening) and kept.
  function me(b) {
    const game = b.getAttribute("data-game");
    const players = list(b, "data-players");
    const mine = read(game);
    if (mine && players.indexOf(mine.name) >= 0) return mine;
    const last = read("name");
    if (last && players.indexOf(last) >= 0) return say(b, last);
    return null;
  }
  function say(b, name) {
    // Every deal on the card this player has not answered is asked at once, oldest first (a
    // phone that joins after deal 5 confirms deals 1-5 too); every later change as it comes.
    const mine = { name: name, since: 0, sent: {} };
    write(b.getAttribute("data-game"), mine);
    write("name", name);
    return mine;
  }

  function draw() {
    const b = box();
    if (!b) return;
    const mine = me(b);
    b.hidden = false;
    b.querySelector(".confirm-who").hidden = !!mine;
    b.querySelector(".confirm-me").hidden = !mine;
    if (mine) b.querySelector(".confirm-name").textContent = mine.name;
    if (said && Date.now() - said.at < 10000) b.querySelector(".confirm-status").textContent = said.text;
    const sent = (mine && mine.sent) || {};
    let asked = 0;
    b.querySelectorAll("li[data-deal]").forEach(function (li) {
      const revision = Number(li.getAttribute("data-revision"));
      li.hidden = !mine || revision <= mine.since
        || list(li, "data-answered").indexOf(mine.name) >= 0
        || sent[li.getAttribute("data-deal")] === revision;
      if (!li.hidden) asked++;
    });
    // Nothing to ask and nothing to say: the sheet alone.
    b.hidden = !!mine && !asked && !b.querySelector(".confirm-status").textContent;
  }

  // Keep the keyboard's (and a screen reader's) place when what had focus is hidden: the next
  // deal to answer, else the card's status line (which says what just happened).
  function focusNext(b) {
    if (b.hidden) return;
    const next = b.querySelector("li[data-deal]:not([hidden]) [data-verdict=right]");
    const line = b.querySelector(".confirm-status");
    if (next) next.focus();
    else if (line.textContent) { line.tabIndex = -1; line.focus(); }
    else b.querySelector(".confirm-me [data-notme]").focus();
  }

  // The note and its Send in the upper part of the screen, where the phone's keyboard, opening
  // from the bottom, does not cover them, with as much of the deal above them as fits.
  function keepInView(note) {
    const seen = window.visualViewport ? window.visualViewport.height : window.innerHeight;
    const box = note.getBoundingClientRect();
    if (box.top < 0 || box.bottom > seen * 0.45) window.scrollBy(0, box.bottom - seen * 0.45);
  }

  function status(b, text) {
    said = text ? { text: text, at: Date.now() } : null;
    b.querySelector(".confirm-status").textContent = text || "";
  }

  function withTicket(b) {
    if (ticket) return Promise.resolve(ticket);
    return fetch(b.getAttribute("data-key"), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { if (!r.ok) throw new Error("key"); return r.json(); })
      .then(function (t) { ticket = t; return t; });
  }

  function send(b, li, verdict) {
    const mine = me(b);
    if (sending || !mine) return;
    sending = true;
    moved = false;
    status(b, "");
    const input = li.querySelector(".confirm-note input");
    const note = verdict === "wrong" && input ? input.value : "";
    const deal = li.getAttribute("data-deal"), revision = li.getAttribute("data-revision");
    withTicket(b).then(function (t) {
      const body = new URLSearchParams();
      body.set("csrf_token", t.csrf_token);
      body.set("request_key", t.request_key);
      body.set("deal", deal);
      body.set("revision", revision);
      body.set("player", mine.name);
      body.set("verdict", verdict);
      body.set("note", note);
      return fetch(b.getAttribute("data-post"), { method: "POST", body: body, credentials: "same-origin" });
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (d) { return { ok: r.ok, d: d }; });
    }).then(function (a) {
      if (a.d.reason === "csrf") ticket = null;
      else if (a.d.request_key && ticket) ticket.request_key = a.d.request_key;
      if (!a.ok) { status(b, a.d.error || b.getAttribute("data-offline")); return; }
      const kept = read(b.getAttribute("data-game")) || mine;
      kept.sent = kept.sent || {};
      kept.sent[deal] = Number(revision);
      write(b.getAttribute("data-game"), kept);
      // The card may have been swapped in anew meanwhile (the table's answers changed: this
      // one): its own copy of the deal goes too, and focus lost with the old card comes back.
      // Focus a swap put elsewhere meanwhile (the deal gone from the card) is the answer's
      // too; focus the person took outside the card themselves stays where they took it.
      const now = box() || b, active = document.activeElement;
      const had = !moved || !active || active === document.body || li.contains(active) || now.contains(active);
      const copy = now.querySelector('li[data-deal="' + deal + '"]');
      li.hidden = true;
      if (copy) copy.hidden = true;
      status(now, a.d.message);
      draw();  // a card swapped in with nothing left to ask came hidden: it shows the reply
      if (had) focusNext(now);
    }).catch(function () {
      // Not sent, or sent without an answer: the same key again writes it at most once.
      status(b, b.getAttribute("data-offline"));
    }).then(function () { sending = false; });
  }

  document.addEventListener("click", function (event) {
    const b = box();
    if (!b || !b.contains(event.target)) return;
    const iam = event.target.closest("[data-iam]");
    if (iam) { say(b, iam.getAttribute("data-iam")); draw(); focusNext(b); return; }
    if (event.target.closest("[data-notme]")) {
      write(b.getAttribute("data-game"), null);
      write("name", null);
      draw();
      return;
    }
    const button = event.target.closest("[data-verdict]");
    const li = button && button.closest("li[data-deal]");
    if (!li) return;
    const verdict = button.getAttribute("data-verdict");
    if (verdict === "wrong" && !button.hasAttribute("data-send")) {
      // "Not so" asks what is not so (optional), then Send.
      const note = li.querySelector(".confirm-note");
      note.hidden = false;
      note.querySelector("input").focus({ preventScroll: true });
      keepInView(note);
      if (window.visualViewport) {
        // Again once the keyboard is up (it shrinks the visual viewport).
        window.visualViewport.addEventListener("resize", function () { keepInView(note); }, { once: true });
      }
      return;
    }
    send(b, li, verdict);
  });
  ["keydown", "pointerdown"].forEach(function (kind) {
    document.addEventListener(kind, function () { if (sending) moved = true; }, true);
  });
  document.addEventListener("keydown", function (event) {
    const li = event.target.closest && event.target.closest("#confirm li[data-deal]");
    if (li && event.key === "Enter" && event.target.matches("input")) {
      event.preventDefault();
      send(box(), li, "wrong");
    }
  });
  document.addEventListener("scorekeeper:page", draw);
  draw();
})();
