/* The deal form of a Balkan partija (templates/balkan/deal.html): the parts of the kind
   chosen shown, the live preview in words from the server (deals.check), and the deal kept
   on this phone until it is saved, under the same key and stamp as the Russian form's
   (app.js, Draft: data-draft, data-draft-stamp), so a reload, Back or a language puts it
   back and a deal kept for another state of the game is never put in. */
(function balkanDealForm() {
  "use strict";
  const form = document.getElementById("deal-form");
  if (!form || form.getAttribute("data-family") !== "balkan") return;
  const key = "scorekeeper.draft." + (form.getAttribute("data-draft") || "");
  const stamp = form.getAttribute("data-draft-stamp") || "";
  const SKIP = ["csrf_token", "request_key", "base_version", "checked", "action", "dalje"];
  const preview = document.getElementById("preview");
  const checkUrl = form.getAttribute("data-check-url");
  let timer = null;
  let sent = 0;

  function fields() {
    return Array.from(new FormData(form).entries()).filter(function (p) {
      return typeof p[1] === "string" && SKIP.indexOf(p[0]) < 0;
    });
  }
  function read() {
    try { return JSON.parse(localStorage.getItem(key)); } catch (e) { return null; }
  }
  function write(value) {
    try {
      if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, JSON.stringify(value));
    } catch (e) { /* private mode: nothing kept */ }
  }
  let baseline = null;
  function keep() {
    const now = fields();
    if (JSON.stringify(now) === baseline) { write(null); return; }
    write({ stamp: stamp, fields: now, words: [], at: Date.now() });
  }
  // The kept values into the form, by name: a radio or checkbox by its value, any other
  // field by its place among those of its name.
  function apply(pairs) {
    const values = {};
    pairs.forEach(function (p) { (values[p[0]] = values[p[0]] || []).push(p[1]); });
    const at = {};
    Array.from(form.elements).forEach(function (el) {
      const name = el.name;
      if (!name || SKIP.indexOf(name) >= 0 || el.type === "hidden") return;
      if (el.type === "radio" || el.type === "checkbox") { el.checked = (values[name] || []).indexOf(el.value) >= 0; return; }
      if (!values[name]) return;
      at[name] = (at[name] || 0) + 1;
      if (values[name][at[name] - 1] !== undefined) el.value = values[name][at[name] - 1];
    });
  }
  function kind() {
    const chosen = form.querySelector('input[name="type"]:checked');
    return chosen ? chosen.value : "played";
  }
  function parts() {
    const now = kind();
    form.querySelectorAll(".bk-part").forEach(function (part) {
      const on = part.getAttribute("data-kinds") === now;
      part.hidden = !on;
      part.querySelectorAll("input, select").forEach(function (i) { i.disabled = !on; });
    });
  }
  // The declarer neither follows, nor is invited, nor gives kontra: his chip goes there.
  function others() {
    const chosen = form.querySelector('input[name="declarer"]:checked');
    const declarer = chosen ? chosen.value : null;
    ["followers", "invited", "kontra_by"].forEach(function (group) {
      form.querySelectorAll("#" + group + " .tap").forEach(function (tap) {
        tap.hidden = tap.getAttribute("data-value") === declarer;
      });
    });
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
      let messages = [];
      Object.keys(d.errors).forEach(function (k) { messages = messages.concat(d.errors[k]); });
      p.textContent = messages.join(" · ");
    }
    preview.appendChild(p);
  }
  function check() {
    keep();
    clearTimeout(timer);
    timer = setTimeout(function () {
      const body = new URLSearchParams(new FormData(form));
      body.set("action", "check");
      const mine = ++sent;
      fetch(checkUrl, { method: "POST", body: body, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (d) { if (d && mine === sent) render(d); })
        .catch(function () { /* no connection: the preview waits; Save still sends */ });
    }, 150);
  }

  const check_button = document.getElementById("check-button");
  if (check_button) check_button.hidden = true;
  parts();
  others();
  baseline = JSON.stringify(fields());
  const kept = read();
  if (kept && kept.stamp === stamp && kept.fields) { apply(kept.fields); parts(); others(); check(); }
  form.addEventListener("change", function () { parts(); others(); check(); });
  form.addEventListener("input", keep);
  form.addEventListener("submit", function (event) {
    const by = event.submitter;
    if (by && (by.value === "save" || by.name === "dalje")) write(null);
  });
})();
