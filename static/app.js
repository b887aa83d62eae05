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

/* -- a page that follows the game -------------------------------------------------------- */

// Every phone with the game open asks for its version each second (a 304 while nothing
// changed). When another phone changed the game, a page that only shows it swaps in its new
// version in place, keeping the scroll position; a page with a form being filled in keeps
// what was typed and shows a banner instead.
const FOLLOW_PERIOD = 1000;

(function follow() {
  let el = $("#follow");
  if (!el) return;
  const url = el.getAttribute("data-watch");
  let version = el.getAttribute("data-version");
  let busy = false;

  function typing() {
    const a = document.activeElement;
    return !!(a && a.closest("main") && a.matches("input:not([type=hidden]), select, textarea"));
  }
  function banner() {
    if ($("#follow-banner")) return;
    const note = document.createElement("p");
    note.id = "follow-banner";
    note.className = "follow-banner";
    note.setAttribute("role", "alert");
    note.textContent = el.getAttribute("data-changed");
    const main = $("main");
    main.insertBefore(note, main.firstChild);
  }
  function swap() {
    return fetch(location.href, { credentials: "same-origin", cache: "no-store", headers: { "X-Follow": "1" } })
      .then(function (r) {
        if (!r.ok) { location.reload(); return null; }
        return r.text();
      })
      .then(function (html) {
        if (html === null) return;
        const fresh = new DOMParser().parseFromString(html, "text/html");
        const main = $("main", fresh);
        const next = main && $("#follow", main);
        if (!next) { location.reload(); return; }
        if (typing()) { banner(); return; }  // a field got focus meanwhile: never swap under a thumb
        const focused = document.activeElement && document.activeElement.id;
        const x = window.scrollX, y = window.scrollY;
        $("main").replaceWith(document.adoptNode(main));
        document.title = fresh.title;
        window.scrollTo(x, y);
        if (focused && document.getElementById(focused)) document.getElementById(focused).focus({ preventScroll: true });
        copyButtons($("main"));
        el = next;
        version = el.getAttribute("data-version");
      });
  }
  function changed(now) {
    if (el.getAttribute("data-follow") === "banner" || typing()) {
      version = now;
      banner();
      return null;
    }
    return swap();
  }
  function tick() {
    if (busy || document.hidden) return;
    busy = true;
    fetch(url, { credentials: "same-origin", cache: "no-cache" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (d) { if (d && String(d.version) !== version) return changed(String(d.version)); })
      .catch(function () {})
      .then(function () { busy = false; });
  }
  setInterval(tick, FOLLOW_PERIOD);
  document.addEventListener("visibilitychange", function () { if (!document.hidden) tick(); });
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
  function seats() {
    const hussar = radioValue(form, "convention") === "hussar";
    $$("[data-seat]", form).forEach(function (input) {
      const seat = Number(input.getAttribute("data-seat"));
      const wrap = input.closest(".field");
      if (wrap) wrap.hidden = hussar && seat >= 2;
    });
    dealers();
  }
  function dealers() {
    const hussar = radioValue(form, "convention") === "hussar";
    $$('input[name="first_dealer"]', form).forEach(function (radio) {
      const seat = Number(radio.value);
      const name = form.querySelector('[data-seat="' + seat + '"]');
      const label = radio.parentElement.querySelector("span");
      const typed = name ? name.value.trim() : "";
      if (typed) label.textContent = typed;
      radio.parentElement.hidden = !typed || (hussar && seat >= 2);
    });
  }
  form.addEventListener("change", function (event) {
    if (event.target.name !== "convention") return;
    const from = presets[rendered.value];
    const to = presets[event.target.value];
    if (!to) return;
    Object.keys(to).forEach(function (name) {
      if (!from || same(valueOf(name), from[name])) setValue(name, to[name]);
    });
    rendered.value = event.target.value;
    seats();
  });
  form.addEventListener("input", function (event) {
    if (event.target.hasAttribute("data-seat")) dealers();
  });
  seats();
})();

/* -- a deal: tap by tap, with a live preview --------------------------------------------- */

(function dealForm() {
  const form = $("#deal-form");
  if (!form) return;
  const defendersOf = data(form, "defenders") || {};
  const halfWhist = (data(form, "half-whist") || []).map(String);
  const checkUrl = form.getAttribute("data-check-url");
  const preview = $("#preview");
  const save = $("#save-button");
  const checked = form.querySelector('input[name="checked"]');
  const checkButton = $("#check-button");
  const answersBox = $(".answers", form);
  let timer = null;
  let sent = 0;

  function answerBox(seat) { return document.getElementById("answer_" + seat); }
  function trickBox(seat) { return form.querySelector('.trick[data-seat="' + seat + '"]'); }
  function allSeats(prefix) {
    return $$('[id^="' + prefix + '"]', form)
      .map(function (el) { return el.id.slice(prefix.length); })
      .filter(function (s) { return /^\d+$/.test(s); });
  }

  function layout() {
    const kind = radioValue(form, "kind");
    $$(".part", form).forEach(function (part) {
      const kinds = part.getAttribute("data-kinds").split(" ");
      show(part, kinds.indexOf(kind) >= 0);
    });
    const declarer = radioValue(form, "declarer");
    const level = radioValue(form, "level");
    const defenders = defendersOf[declarer] || [];
    // Answers: only the defenders, in their order; half-whist only for the second one,
    // after the first passed, on a level that allows it.
    allSeats("answer_").forEach(function (seat) {
      show(answerBox(seat), kind === "contract" && defenders.indexOf(Number(seat)) >= 0);
    });
    answersBox.hidden = kind !== "contract" || !defenders.length;
    defenders.forEach(function (seat) {
      const box = answerBox(seat);
      if (box) answersBox.insertBefore(box, answersBox.querySelector(".errors") || null);
    });
    const first = defenders.length ? radioValue(form, "answer_" + defenders[0]) : "";
    defenders.forEach(function (seat, i) {
      const half = answerBox(seat) && answerBox(seat).querySelector('.tap[data-value="half-whist"]');
      if (!half) return;
      const allowed = i === defenders.length - 1 && first === "pass" && halfWhist.indexOf(level) >= 0;
      half.hidden = !allowed;
      const input = half.querySelector("input");
      if (!allowed && input.checked) input.checked = false;
      // show() left it disabled if it was hidden when its box was shown: a tap must work.
      input.disabled = !!half.closest("[hidden]");
    });
    // Tricks: who has to say how many.
    let needed = [];
    const active = Object.keys(defendersOf);
    if (kind === "allpass") needed = active;
    else if (kind === "misere" && declarer) needed = [declarer];
    else if (kind === "contract" && declarer) {
      const whisters = defenders.filter(function (seat) {
        const a = radioValue(form, "answer_" + seat);
        return a === "whist" || a === "whist-talon";
      });
      if (whisters.length) needed = [declarer].concat(whisters.map(String));
    }
    allSeats("tricks_").forEach(function (seat) {
      show(trickBox(seat), needed.indexOf(seat) >= 0);
    });
    const tricksPart = $(".tricks", form);
    if (tricksPart && kind !== "correction") show(tricksPart, needed.length > 0);
    // Whatever is shown now can be tapped, whatever is hidden is not sent: show() alone
    // leaves a field disabled when it was shown before its container was.
    $$("input, select, textarea", form).forEach(function (input) {
      if (input.type !== "hidden") input.disabled = !!input.closest("[hidden]");
    });
    corrections();
  }

  function corrections() {
    // Rows: the filled ones and one empty; whists need the player written on.
    let emptyShown = false;
    $$(".corr-row", form).forEach(function (row) {
      const player = row.querySelector('select[name^="corr_player_"]');
      const column = row.querySelector('select[name^="corr_column_"]');
      const on = row.querySelector('select[name^="corr_on_"]');
      const amount = row.querySelector('input[name^="corr_amount_"]');
      const filled = player.value !== "" || amount.value.trim() !== "";
      const visible = filled || !emptyShown;
      if (!filled) emptyShown = true;
      if (radioValue(form, "kind") === "correction") {
        show(row, visible);
        if (visible) on.disabled = column.value !== "whists";
        on.hidden = column.value !== "whists";
      }
    });
  }

  function fillLast(changed) {
    if (changed && changed.dataset) delete changed.dataset.auto;
    const inputs = $$(".trick:not([hidden]) input", form);
    if (inputs.length < 2) return;
    inputs.forEach(function (i) { if (i.dataset.auto) { i.value = ""; delete i.dataset.auto; } });
    const empty = inputs.filter(function (i) { return i.value === ""; });
    if (empty.length !== 1) return;
    let sum = 0;
    inputs.forEach(function (i) { if (i.value !== "") sum += Number(i.value); });
    if (sum >= 0 && sum <= 10) {
      empty[0].value = String(10 - sum);
      empty[0].dataset.auto = "1";
    }
  }

  function check() {
    clearTimeout(timer);
    timer = setTimeout(function () {
      const body = new FormData(form);
      body.set("action", "check");
      const mine = ++sent;
      fetch(checkUrl, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) { if (d && mine === sent) render(d); })
        .catch(function () {});
    }, 250);
  }

  function list(items, cls) {
    const ul = document.createElement("ul");
    if (cls) ul.className = cls;
    items.forEach(function (text) {
      const li = document.createElement("li");
      li.textContent = text;
      ul.appendChild(li);
    });
    return ul;
  }
  function heading(text) {
    const h = document.createElement("h2");
    h.textContent = text;
    return h;
  }

  function render(d) {
    preview.textContent = "";
    const labels = preview.dataset;
    if (d.ok) {
      preview.appendChild(heading(labels.will || "It will write"));
      preview.appendChild(list(d.entries.length ? d.entries : [labels.nothing || "nothing"], "entries"));
    } else {
      let messages = d.top.slice();
      Object.keys(d.errors).forEach(function (k) { messages = messages.concat(d.errors[k]); });
      messages = messages.concat(d.later);
      if (messages.length) {
        preview.appendChild(heading(labels.missing || "Still to fix"));
        preview.appendChild(list(messages, "errors"));
      }
    }
    checked.value = d.checked || "";
    save.hidden = !d.ok;
    if (checkButton) checkButton.classList.toggle("primary", !d.ok);
  }

  form.addEventListener("change", function (event) {
    if (event.target.type === "radio" || event.target.tagName === "SELECT") layout();
    check();
  });
  form.addEventListener("input", function (event) {
    if (event.target.type === "number") fillLast(event.target);
    if (event.target.name && event.target.name.indexOf("corr_") === 0) corrections();
    check();
  });
  layout();
  if (!save.hidden || form.querySelector("input:checked[name='declarer']")) check();
})();
