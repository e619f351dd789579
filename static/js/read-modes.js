/* The reader's modes (docs/reader.md, "Modes"): what differs between them, in one table. The rest
 * of the reader asks the current mode's entry (R.m) and never compares mode names, so a new mode
 * is one entry here plus its boxes function in read-layout.js.
 *
 *   name     the key: R.mode, the saved startMode/lastMode, data-mode on #reader and its button
 *   label    the mode button's text; the buttons come in table order
 *   scrolls  every page one under the other, read by scrolling instead of page turns; the end card
 *            closes the flow instead of being a position of its own
 *   spreads  shows the spreads of layout.pair() and turns a spread at a time; ⇄ Shift applies
 *   ttb      suits a top-to-bottom chapter (a webtoon)
 *   upright  suits a phone held upright: narrower than 600 px and taller than wide
 *   fits     lays a page out by the page fit (pageFit: screen, width, height, original; the Fit
 *            button, W)
 *   splits   shows a double page as its two halves, one after the other, when the split setting
 *            asks for it (split: off, phone, always)
 *   default  opens when no valid mode is saved, and is the first choice when adapting
 *   hint     the one-time "bring the menu back" hint it shares (localStorage mc.reader.hint.<hint>)
 *   boxes    its layout, (R, vw, vh, zoom) → {boxes, cw, ch, end}, from read-layout.js
 * The zoom is saved per mode name (a webtoon's Flow as "strip").
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});
  // The page's catalog, or the English as written where there is none (node reads this table alone
  // in tests/reader/test_reader_modes.py).
  const pgettext = typeof window.pgettext === "function" ? window.pgettext : (context, text) => text;

  // read-layout.js loads after this file, so each entry looks its boxes function up when asked.
  MCR.modes = {
    flow: { name: "flow", label: pgettext("reading mode", "Flow"), scrolls: true, spreads: false, ttb: true, upright: true,
      hint: "flow", fits: false, splits: true,
      get boxes() { return MCR.layout.flowBoxes; } },
    page: { name: "page", label: pgettext("reading mode", "Page"), scrolls: false, spreads: false, ttb: false, upright: true,
      hint: "paged", fits: true, splits: true,
      default: true, get boxes() { return MCR.layout.pageBoxes; } },
    book: { name: "book", label: pgettext("reading mode", "Book"), scrolls: false, spreads: true, ttb: false, upright: false,
      hint: "paged", fits: false, splits: false,
      get boxes() { return MCR.layout.bookBoxes; } },
  };
})();
