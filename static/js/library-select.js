/* The library grid's "Select several": a checkbox on each tile (those "Show more" and filtering add
   too), then mark the selected manga read or unread, or add them to a collection or a new one, each
   in one request. */
"use strict";

(function librarySelect() {
  const toggle = document.getElementById("select-several");
  const bar = document.getElementById("select-bar");
  const grid = document.getElementById("grid");
  const choice = document.getElementById("select-collection");
  const newName = document.getElementById("select-new-name");
  const selected = new Set();

  /** A tile's manga: the folder name in its link (…/manga/<name>/). */
  function nameOf(tile) {
    const parts = new URL(tile.querySelector("a").href).pathname.split("/");
    return decodeURIComponent(parts[parts.length - 2]);
  }

  function showCount() {
    const n = selected.size;
    document.getElementById("selected-count").textContent = interpolate(ngettext("%(count)s selected", "%(count)s selected", n), { count: n }, true);
  }

  function addBoxes() {
    grid.querySelectorAll("li.tile").forEach((tile) => {
      if (tile.querySelector(".pick")) return;
      const title = tile.querySelector(".title").textContent;
      const box = h("input", { type: "checkbox", className: "pick", "aria-label": interpolate(gettext("Select %(title)s"), { title }, true) });
      box.checked = selected.has(nameOf(tile));
      tile.prepend(box);
    });
  }

  const watch = new MutationObserver(() => { if (toggle.getAttribute("aria-pressed") === "true") addBoxes(); });
  watch.observe(grid, { childList: true });

  toggle.addEventListener("click", async () => {
    const on = toggle.getAttribute("aria-pressed") !== "true";
    toggle.setAttribute("aria-pressed", String(on));
    toggle.textContent = on ? gettext("Done selecting") : gettext("Select several");
    bar.hidden = !on;
    grid.classList.toggle("selecting", on);
    if (!on) {
      grid.querySelectorAll(".pick").forEach((box) => box.remove());
      selected.clear();
      showCount();
      return;
    }
    addBoxes();
    try {
      const mine = (await api("api/collections")).collections.filter((c) => c.editable);
      choice.replaceChildren(...mine.map((c) => h("option", { value: c.id }, c.name)), h("option", { value: "" }, gettext("New collection…")));
      newName.hidden = Boolean(mine.length);
    } catch (e) {
      toast(e.message, "error");
    }
  });

  choice.addEventListener("change", () => { newName.hidden = Boolean(choice.value); });

  grid.addEventListener("change", (e) => {
    const box = e.target.closest(".pick");
    if (!box) return;
    const name = nameOf(box.closest("li"));
    if (box.checked) selected.add(name); else selected.delete(name);
    showCount();
  });

  // While selecting, a click on a tile picks it instead of opening the manga.
  grid.addEventListener("click", (e) => {
    if (toggle.getAttribute("aria-pressed") !== "true" || e.target.closest(".pick")) return;
    const tile = e.target.closest("li.tile");
    if (!tile) return;
    e.preventDefault();
    const box = tile.querySelector(".pick");
    box.checked = !box.checked;
    box.dispatchEvent(new Event("change", { bubbles: true }));
  });

  async function markSelected(read) {
    if (!selected.size) { toast(gettext("Select some manga first."), "error"); return; }
    try {
      const done = await api("api/read/series", { manga: [...selected], read });
      const values = { manga: done.manga, marked: done.marked };
      toast(interpolate(read
        ? ngettext("%(manga)s manga marked read (%(marked)s chapter).", "%(manga)s manga marked read (%(marked)s chapters).", done.marked)
        : ngettext("%(manga)s manga marked unread (%(marked)s chapter).", "%(manga)s manga marked unread (%(marked)s chapters).", done.marked),
      values, true));
      grid.dispatchEvent(new Event("mc:refresh")); // library.js: the tiles again, with their new counts
    } catch (e) {
      toast(e.message, "error");
    }
  }

  document.getElementById("select-read").addEventListener("click", () => markSelected(true));
  document.getElementById("select-unread").addEventListener("click", () => markSelected(false));

  document.getElementById("select-add").addEventListener("click", async () => {
    if (!selected.size) { toast(gettext("Select some manga first."), "error"); return; }
    const members = [...selected];
    try {
      let c;
      if (choice.value) {
        c = await api("api/collections/" + encodeURIComponent(choice.value) + "/add", { members });
      } else {
        c = await api("api/collections", { name: newName.value, members });
        choice.insertBefore(h("option", { value: c.id }, c.name), choice.lastElementChild);
        choice.value = c.id;
        newName.hidden = true;
      }
      const added = ngettext("%(count)s added to %(name)s.", "%(count)s added to %(name)s.", members.length);
      toast(interpolate(added, { count: members.length, name: c.name }, true));
    } catch (e) {
      toast(e.message, "error");
    }
  });
})();
