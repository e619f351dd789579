/* The collections list (make a new one) and a collection's page (add a manga, edit, delete, choose the cover, remove one,
   reorder by drag or with the arrow keys on a manga's handle), through /api/collections. */
"use strict";

(function collections() {
  const start = JSON.parse(document.getElementById("page-data").textContent);
  const made = document.getElementById("collection-new");
  if (made) {
    made.addEventListener("submit", async (e) => {
      e.preventDefault();
      try {
        const c = await api("api/collections", { name: made.elements.name.value, shared: made.elements.shared.checked });
        location.href = ROOT + c.url;
      } catch (error) {
        toast(error.message, "error");
      }
    });
  }
  if (!start.id) return;
  const path = "api/collections/" + encodeURIComponent(start.id);
  const list = document.getElementById("members");

  function shownCount(c) {
    document.getElementById("collection-count").textContent = interpolate(gettext("%(count)s manga"), { count: c.count }, true);
    document.getElementById("members-empty").hidden = c.count > 0;
  }

  async function saveOrder(moved) {
    try {
      shownCount(await api(path, { members: [...list.children].map((li) => li.dataset.m) }));
      if (moved) moved.querySelector(".handle").focus();
    } catch (error) {
      toast(error.message, "error");
    }
  }

  list.addEventListener("click", async (e) => {
    const cover = e.target.closest("button.make-cover");
    if (cover) {
      try {
        await api(path, { cover: cover.closest("li").dataset.m });
        toast(gettext("The collection now shows this cover."));
      } catch (error) {
        toast(error.message, "error");
      }
      return;
    }
    const button = e.target.closest("button.remove");
    if (!button) return;
    const item = button.closest("li");
    button.disabled = true;
    try {
      shownCount(await api(path + "/remove", { members: [item.dataset.m] }));
      item.remove();
      toast(gettext("Removed."));
    } catch (error) {
      toast(error.message, "error");
      button.disabled = false;
    }
  });

  reorderable(list, saveOrder);

  // Add a manga: the library's filter suggests titles as one types; the folder name is what is sent.
  const adder = document.getElementById("collection-add");
  if (adder) {
    const input = adder.elements.m;
    const found = document.getElementById("add-manga-found");
    let byTitle = new Map();
    let timer = null;
    input.addEventListener("input", () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const q = input.value.trim();
        if (!q) return;
        try {
          const result = await api("api/library?limit=10&q=" + encodeURIComponent(q));
          byTitle = new Map(result.manga.map((m) => [m.title, m.name]));
          found.replaceChildren(...result.manga.map((m) => h("option", { value: m.title })));
        } catch (error) {
          toast(error.message, "error");
        }
      }, 150);
    });
    adder.addEventListener("submit", async (e) => {
      e.preventDefault();
      const name = byTitle.get(input.value) || input.value;
      try {
        await api(path + "/add", { members: [name] });
        location.reload();
      } catch (error) {
        toast(error.message, "error");
      }
    });
  }

  const form = document.getElementById("collection-edit");
  if (!form) return;
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { name: form.elements.name.value, summary: form.elements.summary.value, ordered: form.elements.ordered.checked };
    if (form.elements.shared) body.shared = form.elements.shared.checked;
    try {
      await api(path, body);
      location.reload();
    } catch (error) {
      toast(error.message, "error");
    }
  });
  document.getElementById("collection-delete").addEventListener("click", async () => {
    if (!confirm(gettext("Delete this collection? The manga in it stay in the library."))) return;
    try {
      await api(path + "/delete", {});
      location.href = ROOT + "collections/";
    } catch (error) {
      toast(error.message, "error");
    }
  });
})();
