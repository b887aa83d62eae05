/* The deal form of a Balkan partija (templates/balkan/deal.html): the parts of the kind
   chosen shown, only the questions the deal asks (the invited player beside a lone follower,
   who gave the kontra once there is one, the tricks of those who play, one pad at a time and
   not the one the server fills in), what is chosen folded to one line so the next question
   comes up without scrolling, and the live preview in words from the server (deals.check).
   The deal is kept on this phone until it is saved and a Save with no connection waits on it,
   through app.js's keptDraft and queuedSaves, as the Russian form's. */
(function balkanDealForm() {
  "use strict";
  const form = document.getElementById("deal-form");
  if (!form || form.getAttribute("data-family") !== "balkan") return;
  const preview = document.getElementById("preview");
  const save = document.getElementById("save-button");
  const checkUrl = form.getAttribute("data-check-url");
  const opened = {};  // folds the scorer opened again: fieldset id → true
  let timer = null;
  let sent = 0;
  let saving = false;
  let revealing = false;  // a tap moved on to the next question: kept in view as the bar grows

  function value(name) {
    const chosen = form.querySelector('input[name="' + name + '"]:checked:not(:disabled)');
    return chosen ? chosen.value : "";
  }
  function kind() { return value("type") || "played"; }
  const heading = document.getElementById("deal-title");
  function parts() {
    const now = kind();
    // A correction is counted among the corrections (as the history): its title says so.
    if (heading && heading.getAttribute("data-correction")) {
      heading.textContent = heading.getAttribute(now === "correction" ? "data-correction" : "data-deal");
    }
    form.querySelectorAll(".bk-part").forEach(function (part) {
      const on = part.getAttribute("data-kinds") === now;
      part.hidden = !on;
      part.querySelectorAll("input, select").forEach(function (i) { i.disabled = !on; });
    });
  }
  // The declarer neither follows, nor is invited, nor gives kontra: his chip goes there.
  function others() {
    const declarer = value("declarer");
    ["followers", "invited", "kontra_by"].forEach(function (group) {
      form.querySelectorAll("#" + group + " .tap").forEach(function (tap) {
        tap.hidden = tap.getAttribute("data-value") === declarer;
      });
    });
  }
  function followers() {
    const declarer = value("declarer");
    return Array.from(form.querySelectorAll('#followers input:checked')).map(function (i) { return i.value; })
      .filter(function (name) { return name !== declarer; });
  }
  // Who plays, as the server reads it (web/balkan._played): betl the declarer alone; nobody
  // following, nobody; else the declarer, the followers and the invited player.
  function playing() {
    const declarer = value("declarer");
    if (!declarer) return [];
    if (value("contract") === "betl") return [declarer];
    const invited = value("invited");
    const with_ = followers().concat(invited && invited !== "-" ? [invited] : []);
    return with_.length ? [declarer].concat(with_) : [];
  }
  // A question not asked is not sent either (its inputs off), except the followers of a betl
  // (both follow, the server reads them).
  function show(el, on, send) {
    if (!el) return;
    el.hidden = !on;
    if (!send && !el.closest(".bk-part[hidden]")) el.querySelectorAll("input").forEach(function (i) { i.disabled = !on; });
  }
  // Only the questions this deal asks.
  function questions() {
    const betl = value("contract") === "betl";
    const lone = followers().length === 1;
    show(document.getElementById("followers"), !betl, true);
    show(document.getElementById("invited"), !betl && lone);
    show(document.getElementById("kontra_by"), Number(value("kontra") || 0) > 0);
    const dalje = form.querySelector(".bk-dalje");
    show(dalje, !value("declarer"), true);
    pads();
  }
  // The tricks: a pad for each who plays, the declarer's first; a count given folds to one
  // line; the next pad opens; the last one is left to the server (the complement).
  function pads() {
    const who = playing();
    const declarer = value("declarer");
    const order = who.filter(function (p) { return p === declarer; }).concat(who.filter(function (p) { return p !== declarer; }));
    let open = null;
    const missing = order.filter(function (p) { return !value("tricks." + p); });
    form.querySelectorAll(".bk-pad").forEach(function (pad) {
      const name = pad.getAttribute("data-player");
      const given = value("tricks." + name);
      const asked = order.indexOf(name) >= 0;
      const filled = !given && missing.length === 1 && order.length > 1;
      pad.hidden = !asked || filled || (!given && open !== null);
      if (asked && !given && !filled && open === null) open = pad;
      fold(pad, !!given && !opened[pad.id], given);
    });
    show(document.getElementById("tricks"), order.length > 0, true);
  }
  // A question answered folds to one button ("Declarer: Ana — change"); tapped, it opens.
  function fold(box, folded, shown) {
    let chip = box.querySelector(".bk-chip");
    if (!chip) {
      chip = document.createElement("button");
      chip.type = "button";
      chip.className = "button bk-chip";
      chip.addEventListener("click", function () {
        opened[box.id] = true;
        draw();
        const checked = box.querySelector("input:checked") || box.querySelector("input");
        if (checked) checked.focus();
      });
      const legend = box.querySelector("legend");  // a fieldset's legend stays its first child
      box.insertBefore(chip, legend ? legend.nextSibling : box.firstChild);
    }
    box.classList.toggle("folded", folded);
    chip.hidden = !folded;
    if (folded) chip.textContent = box.getAttribute("data-fold").replace("{}", shown);
  }
  function folds() {
    ["declarer", "contract"].forEach(function (name) {
      const box = document.getElementById(name);
      const chosen = box.querySelector("input:checked");
      const label = chosen ? chosen.parentElement.textContent.trim() : "";
      fold(box, !!chosen && !opened[name], label);
    });
  }
  function draw() { parts(); others(); folds(); questions(); }

  // The next question in view, clear of the bar at the bottom (the page scrolls, not the
  // scorer): the first one not answered yet, else Save.
  function reveal() {
    const next = Array.from(form.querySelectorAll("#declarer, #contract, .bk-pad")).find(function (box) {
      return !box.closest("[hidden]") && !box.querySelector("input:checked");
    }) || save;
    const bar = document.getElementById("deal-bar");
    const bottom = bar ? bar.getBoundingClientRect().top : window.innerHeight;
    const r = next.getBoundingClientRect();
    if (r.bottom > bottom) window.scrollBy(0, Math.min(r.bottom - bottom + 8, r.top - 8));
    else if (r.top < 0) window.scrollBy(0, r.top - 8);
  }

  function render(d) {
    preview.textContent = "";
    const p = document.createElement("p");
    if (d.ok) {
      const b = document.createElement("strong");
      b.textContent = preview.getAttribute("data-will") + ": ";
      p.appendChild(b);
      p.appendChild(document.createTextNode(d.said.join("; ")));
    } else {
      p.className = "errors";
      let messages = d.refused ? [d.refused] : [];
      Object.keys(d.errors || {}).forEach(function (k) { messages = messages.concat(d.errors[k]); });
      p.textContent = messages.join(" · ");
    }
    preview.appendChild(p);
  }
  function note(text, cls) {
    preview.textContent = "";
    const p = document.createElement("p");
    p.className = cls;
    p.textContent = text;
    preview.appendChild(p);
  }
  function check() {
    Draft.keep();
    clearTimeout(timer);
    const mine = ++sent;  // an answer still on its way is about the form before this change
    preview.setAttribute("aria-busy", "true");  // until this change's Check is answered
    timer = setTimeout(function () {
      const body = new URLSearchParams(new FormData(form));
      body.set("action", "check");
      const bound = answerBound();  // app.js: an answer that never comes is given up
      fetch(checkUrl, { method: "POST", body: body, credentials: "same-origin", signal: bound.signal })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) {
          bound.done();
          // The answer may make the bar taller: not under a finger (app.js, whenLifted).
          whenLifted(function () {
            if (mine === sent) preview.removeAttribute("aria-busy");
            if (!d || mine !== sent || saving) return;
            render(d);
            if (revealing) reveal();  // kept clear of the bar, taller now
            revealing = false;
          });
        })
        .catch(function () {
          bound.done();
          whenLifted(function () {
            if (mine !== sent) return;  // a newer Check's answer says what is so now
            preview.removeAttribute("aria-busy");
            if (!saving) note(preview.getAttribute("data-offline"), "errors");
          });
        });
    }, 150);
  }

  // The deal in the page's words ("Declarer: Ana", "Who follows: Boža, Ceca", "Ana: 6"): kept
  // with the draft and with a Save, so a refusal on any page can show what was entered.
  function entered() {
    const out = [];
    form.querySelectorAll("fieldset.taps").forEach(function (box) {
      if (box.closest("[hidden]")) return;
      const chosen = Array.from(box.querySelectorAll("input:checked")).filter(function (i) { return !i.closest("[hidden]"); });
      const legend = box.querySelector("legend");
      if (!chosen.length || !legend) return;
      out.push(legend.textContent.trim() + ": " + chosen.map(function (i) { return i.parentElement.textContent.trim(); }).join(", "));
    });
    form.querySelectorAll(".bk-pad").forEach(function (pad) {
      const given = pad.querySelector("input:checked:not(:disabled)");
      if (given) out.push(pad.getAttribute("data-player") + ": " + given.value);
    });
    const reason = document.getElementById("reason");
    if (reason && !reason.disabled && reason.value.trim()) out.push(reason.value.trim());
    return out;
  }

  const Draft = keptDraft(form, entered);
  queuedSaves(form, Draft, {
    saves: function (submitter) { return submitter.value === "save" || submitter.name === "dalje"; },
    sending: function () {
      if (saving) return false;
      saving = true;
      save.disabled = true;
      note(preview.getAttribute("data-sending"), "sending");
    },
    words: entered,
    settled: function () { saving = false; },
    waiting: function () { note(preview.getAttribute("data-pending"), "errors pending"); },
    refused: function (answer) {
      const d = answer.body || {};
      if (d.request_key) form.querySelector('input[name="request_key"]').value = d.request_key;
      if (d.base_version !== undefined) form.querySelector('input[name="base_version"]').value = d.base_version;
      save.disabled = false;
      render(d);
    },
  });

  // A Save that waited on this phone and was refused on its resend (another phone changed the
  // game meanwhile: app.js, Pending) comes back into its form, said above it.
  function refusedBack() {
    let item = null;
    try { item = JSON.parse(sessionStorage.getItem("scorekeeper.refused")); } catch (e) { return; }
    if (!item || item.back !== location.pathname) return;
    sessionStorage.removeItem("scorekeeper.refused");
    Draft.apply(item.body);
    const top = document.createElement("section");
    top.className = "card problems";
    top.setAttribute("role", "alert");
    top.textContent = document.getElementById("refused-label").textContent;
    form.parentElement.insertBefore(top, form);
    draw();
    check();
  }

  const checkButton = document.getElementById("check-button");
  if (checkButton) checkButton.hidden = true;
  draw();
  // The deal kept on this phone put back: its next question in view, as after a tap.
  refusedBack();
  Draft.restore(function () { draw(); check(); reveal(); revealing = true; });
  form.addEventListener("change", function (event) {
    const box = event.target.closest("[data-fold]");
    if (box) delete opened[box.id];  // answered again: folded again
    draw();
    check();
    reveal();
    revealing = true;
  });
  form.addEventListener("input", function () { Draft.keep(); });
})();

/* The sheet's refa in one tap ("Refa (dalje)", templates/balkan/game.html): saved through the
   queue of waiting deals as the deal form's Save is, so with no connection it waits on the
   phone and is sent by itself when the connection is back (its one-time key writes it once).
   Bound again to the form a follow swapped in. */
(function balkanSheetRefa() {
  "use strict";
  const NONE = { drop: function () {} };  // nothing is kept of a refa but its Save
  function bind() {
    const form = document.getElementById("bk-next");
    if (!form || form.hasAttribute("data-bound")) return;
    form.setAttribute("data-bound", "1");
    const button = document.getElementById("dalje");
    const said = document.getElementById("bk-next-said");
    function say(text) { said.textContent = text || ""; said.hidden = !text; }
    queuedSaves(form, NONE, {
      saves: function (submitter) { return submitter.name === "dalje"; },
      sending: function () {
        if (button.disabled) return false;
        button.disabled = true;
        say("");
      },
      words: function () { return [button.textContent.trim()]; },
      settled: function () { button.disabled = false; },
      waiting: function () { button.disabled = true; say(said.getAttribute("data-pending")); },
      refused: function (answer) {
        const d = answer.body || {};
        let messages = d.refused ? [d.refused] : [];
        Object.keys(d.errors || {}).forEach(function (k) { messages = messages.concat(d.errors[k]); });
        if (d.request_key) form.querySelector('input[name="request_key"]').value = d.request_key;
        if (d.base_version !== undefined) form.querySelector('input[name="base_version"]').value = d.base_version;
        say(messages.join(" · "));
      },
    });
  }
  bind();
  document.addEventListener("scorekeeper:page", bind);
})();
