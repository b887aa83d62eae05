/* The tournament board: the standings as large as the screen allows (the board works without
   this file: board.css sizes the type from the rows and the width the server counted).

   The style sheet cannot know how many lines the names take at a given size, so it sizes the
   type for the widest case and many boards use a part of their height. Here the page tries
   each number of columns (1 to 4) and, for each, the largest type at which every row is on
   the screen, nothing sticks out sideways and the name column keeps room for a word
   (NAME_EMS); it keeps the largest. A long name wraps onto more lines, never cut. Run again
   when the board swaps in a new state and when the screen changes size. */
"use strict";

(function boardFit() {
  const NAME_EMS = 7;  // the name column's least width, in ems of its type
  const MOST = 80;     // px: the style sheet's largest type
  const READABLE = 16; // px: the standings take width from the cards only while under it

  function section() { return document.querySelector(".board-standings"); }

  // A screen the style sheet lets scroll (portrait, zoomed, a 200-player open) is left alone.
  function fixed(box) {
    return box && !box.classList.contains("scroll") && getComputedStyle(box).containerType === "size";
  }

  // Every row in place order, spread over `cols` tables of as many rows each (the first
  // table's head copied for the others).
  function spread(box, rows, cols, narrow) {
    const tables = Array.from(box.querySelectorAll("table"));
    while (tables.length < cols) {
      const copy = tables[0].cloneNode(false);
      copy.appendChild(tables[0].tHead.cloneNode(true));
      copy.appendChild(document.createElement("tbody"));
      box.appendChild(copy);
      tables.push(copy);
    }
    const per = Math.ceil(rows.length / cols);
    tables.forEach(function (table, i) {
      const part = rows.slice(i * per, (i + 1) * per);
      table.hidden = !part.length;
      part.forEach(function (row) { table.tBodies[0].appendChild(row); });
    });
    box.style.setProperty("--cols", String(cols));
    box.classList.toggle("narrow", !!narrow);
    return tables.filter(function (t) { return !t.hidden; });
  }

  // The rows moved so the columns end about level: each takes rows until it holds its share
  // of the height they take at this size (a long name's rows are taller).
  function balance(rows, tables) {
    const heights = rows.map(function (r) { return r.getBoundingClientRect().height; });
    const share = heights.reduce(function (a, b) { return a + b; }, 0) / tables.length;
    let i = 0;
    tables.forEach(function (table, k) {
      let held = 0;
      while (i < rows.length && (k === tables.length - 1 || held + heights[i] / 2 <= share)) {
        table.tBodies[0].appendChild(rows[i]);
        held += heights[i];
        i++;
      }
    });
  }

  function fits(box, rows, way, size) {
    const tables = spread(box, rows, way.cols, way.narrow);
    tables.forEach(function (t) { t.style.fontSize = size + "px"; });
    if (way.cols > 1) balance(rows, tables);
    if (box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1) return false;
    return tables.every(function (t) {
      if (t.scrollWidth > t.parentElement.clientWidth + 1) return false;
      const name = t.querySelector("td.name");
      return !name || (name.clientWidth >= NAME_EMS * size && name.scrollWidth <= name.clientWidth + 1);
    });
  }

  // The largest whole-pixel type that fits laid out this way (0: none from `least` up),
  // sought among whole pixels: each try is a layout of the whole board.
  function largest(box, rows, way, least) {
    if (least > MOST || !fits(box, rows, way, least)) return 0;
    let lo = least, hi = MOST + 1;  // lo fits; hi does not (or is past the largest)
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (fits(box, rows, way, mid)) lo = mid; else hi = mid;
    }
    return lo;
  }

  // The table cards not whole: [with a title or progress cut, with players outside the card].
  function cardsCut() {
    const cards = Array.from(document.querySelectorAll(".btable"));
    const cut = function (el) { return !!el && el.scrollWidth > el.clientWidth + 1; };
    return [
      cards.filter(function (c) { return cut(c.querySelector("h2")) || cut(c.querySelector(".bprogress")); }).length,
      cards.filter(function (c) { return c.scrollHeight > c.clientHeight + 1 || cut(c); }).length,
    ];
  }

  // The standings' best {cols, size} at a share of the width (null: it would cut a card
  // that the style sheet's share leaves whole).
  // The ways tried: one to four columns, the whists shown while there are one or two.
  const WAYS = [[1, false], [1, true], [2, false], [2, true], [3, true], [4, true]].map(function (w) {
    return { cols: w[0], narrow: w[1] };
  });
  // A way is sought only from a pixel above the best found so far (`beat`, and the ways
  // before it): one that cannot beat it costs one layout, not a search.
  let cutAsDrawn = [0, 0];
  function best(box, rows, body, share, only, beat) {
    if (share) body.style.setProperty("--sw", share + "vw"); else body.style.removeProperty("--sw");
    const cut = cardsCut();
    if (cut[0] > cutAsDrawn[0] || cut[1] > cutAsDrawn[1]) return null;
    let found = { way: null, size: beat || 0, share: share };
    (only ? [only] : WAYS).forEach(function (way) {
      const size = largest(box, rows, way, Math.max(10, found.size + 1));
      if (size > found.size) found = { way: way, size: size, share: share };
    });
    return found;
  }

  let last = null;  // what the last fit chose: a new state of the board tries it first
  function fit(again) {
    const box = section();
    if (!fixed(box)) return;
    const body = box.parentElement;
    const tables = Array.from(box.querySelectorAll("table"));
    const rows = tables.reduce(function (all, t) { return all.concat(Array.from(t.tBodies[0].rows)); }, []);
    // As the server drew it (kept on the section: a resize starts again from there).
    if (!box.hasAttribute("data-cols")) box.setAttribute("data-cols", String(tables.length));
    const drawn = { cols: Number(box.getAttribute("data-cols")), size: 0, share: 0 };
    function asDrawn() {
      spread(box, rows, drawn.cols, drawn.cols >= 3);
      box.style.removeProperty("--cols");
      body.style.removeProperty("--sw");
      tables.forEach(function (t) { t.style.fontSize = ""; });
    }
    asDrawn();
    drawn.size = parseFloat(getComputedStyle(tables[0]).fontSize);
    cutAsDrawn = cardsCut();
    const base = body.getBoundingClientRect().width ? box.getBoundingClientRect().width / innerWidth * 100 : 0;
    let chosen = again && last ? best(box, rows, body, last.share, last.way) : null;
    if (!chosen || chosen.size < drawn.size) {
      chosen = { way: null, size: 0, share: 0 };
      // Type under READABLE: the standings may take up to 16 % more of the width (the cards
      // less), the least that makes it readable, while every card stays whole.
      [0, 4, 8, 12, 16].forEach(function (more) {
        if (chosen.size >= READABLE) return;
        const found = best(box, rows, body, more ? Math.min(base + more, 80) : 0, null, chosen.size);
        if (found && found.way && found.size > chosen.size) chosen = found;
      });
    }
    // Never smaller than the style sheet's own size (nothing found: as the server drew it).
    if (chosen.size < drawn.size) { asDrawn(); last = null; return; }
    if (chosen.share) body.style.setProperty("--sw", chosen.share + "vw"); else body.style.removeProperty("--sw");
    fits(box, rows, chosen.way, chosen.size);
    box.setAttribute("data-fitted", String(chosen.size));
    last = chosen;
  }

  let pending = 0;
  function later() { cancelAnimationFrame(pending); pending = requestAnimationFrame(function () { fit(false); }); }
  document.addEventListener("scorekeeper:page", function () { fit(true); });
  window.addEventListener("resize", later);
  if (document.fonts && document.fonts.ready) document.fonts.ready.then(function () { fit(false); });
  else fit(false);
})();
