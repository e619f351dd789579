/* The page overview (docs/reader.md, "Page overview"): a grid of the chapter's pages as small
 * thumbnails (/lib-thumb/…, made by the server on first request) to jump to a page.
 *
 * Opened from the top bar's Pages button or with P; Escape or a page closes it. Thumbnails are
 * asked for only while it is open, only for cells on screen, and at most LOADING at a time, so
 * they never hold up the page images a page turn needs.
 */
(function () {
  "use strict";
  const MCR = (window.MCR = window.MCR || {});
  const LOADING = 2;

  let R = null;
  let dialog = null;
  let grid = null;
  let observer = null;
  let waiting = [];
  let busy = 0;

  function thumbUrl(page) {
    return ROOT + page.u.replace(/^lib\//, "lib-thumb/");
  }

  function pump() {
    while (busy < LOADING && waiting.length && dialog.open) {
      const img = waiting.shift();
      if (img.getAttribute("src")) continue;
      busy++;
      const done = () => { busy--; img.closest(".rd-ov-page").classList.add("rd-ov-loaded"); pump(); };
      img.addEventListener("load", done, { once: true });
      img.addEventListener("error", done, { once: true });
      img.src = img.dataset.src;
    }
  }

  function seen(entries) {
    for (const e of entries) {
      if (!e.isIntersecting) continue;
      observer.unobserve(e.target);
      waiting.push(e.target.querySelector("img"));
    }
    pump();
  }

  function build() {
    grid = h("ol", { className: "rd-ov-grid", dir: R.dir === "rtl" ? "rtl" : "ltr" },
      R.list.map((page, pos) => h("li", null, h("button", {
        type: "button", className: "rd-ov-page", "data-pos": pos, onclick: () => jump(pos),
      }, h("img", { alt: "", "data-src": thumbUrl(page), width: 90, height: 135, decoding: "async" }),
      h("span", { className: "rd-ov-n" }, interpolate(gettext("Page %(page)s"), { page: pos + 1 }, true))))));
    const d = R.data;
    const title = (d.chapter.title ? d.chapter.label + ": " + d.chapter.title : d.chapter.label);
    dialog = h("dialog", { className: "rd-overview", "aria-labelledby": "rd-ov-title" },
      h("header", { className: "rd-ov-head" },
        h("h2", { id: "rd-ov-title" }, interpolate(gettext("Pages · %(chapter)s"), { chapter: title }, true)),
        h("button", { type: "button", className: "rd-ov-close", onclick: close }, gettext("Close"))),
      grid);
    // The reader's keys (arrows turn pages, M toggles the bars) must not act behind the dialog.
    dialog.addEventListener("keydown", (e) => e.stopPropagation());
    dialog.addEventListener("close", () => { waiting = []; observer.disconnect(); });
    dialog.addEventListener("click", (e) => { if (e.target === dialog) close(); }); // the backdrop
    document.body.appendChild(dialog);
  }

  function open() {
    if (!dialog) build();
    if (dialog.open) return;
    const at = Math.min(R.cur, R.list.length - 1);
    grid.querySelectorAll(".rd-ov-page").forEach((b) => b.removeAttribute("aria-current"));
    const current = grid.querySelector('.rd-ov-page[data-pos="' + at + '"]');
    if (current) current.setAttribute("aria-current", "page");
    dialog.showModal();
    if (current) {
      current.scrollIntoView({ block: "center" });
      current.focus({ preventScroll: true });
    }
    observer = new IntersectionObserver(seen, { root: grid, rootMargin: "200px 0px" });
    grid.querySelectorAll("li").forEach((li) => { if (!li.querySelector("img").getAttribute("src")) observer.observe(li); });
  }

  function close() {
    if (dialog && dialog.open) dialog.close();
  }

  function jump(pos) {
    close();
    R.goTo(pos);
    R.scroller.focus({ preventScroll: true });
  }

  function init(reader) {
    R = reader;
    const button = h("button", { type: "button", className: "rd-pages", "aria-label": gettext("Pages"),
      title: gettext("Page overview (P)"), onclick: open }, h("span", { "aria-hidden": "true" }, "▦"), h("span", { className: "rd-wide-only" }, " " + gettext("Pages")));
    R.root.querySelector(".rd-top").appendChild(button);
    document.addEventListener("keydown", (e) => {
      if ((e.key === "p" || e.key === "P") && !e.ctrlKey && !e.metaKey && !e.altKey
          && !(e.target.closest && e.target.closest("input, select, textarea"))) {
        e.preventDefault();
        open();
      }
    });
  }

  MCR.overview = { init, open, close, get shown() { return Boolean(dialog && dialog.open); } };
})();
