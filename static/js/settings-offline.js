/* Settings → User → Offline and the offline page: the chapters kept on this device (docs/offline.md),
 * their size, the browser's quota and whether it keeps them for good (persist()); on the settings page
 * each can be removed. */
(function () {
  "use strict";
  const O = window.MCOffline;
  const list = document.getElementById("kept-list");
  if (!list) return;
  if (!O || !window.caches || !window.indexedDB) {
    list.replaceWith(h("p", { className: "muted" }, gettext("This browser cannot keep chapters offline.")));
    return;
  }
  const manage = list.dataset.manage === "true";
  const quota = document.getElementById("offline-quota");
  const forgetAll = document.getElementById("forget-all");
  let kept = [];

  function item(record) {
    const name = record.title + " · " + record.label;
    return h("li", { className: "kept-item", "data-m": record.m, "data-c": record.c },
      h("a", { href: ROOT + record.url }, name),
      h("span", { className: "muted" }, " " + interpolate(ngettext("%(pages)s page · %(size)s · kept %(date)s", "%(pages)s pages · %(size)s · kept %(date)s", record.pages),
        { pages: record.pages, size: O.size(record.bytes), date: formatDate(record.at, true) }, true)),
      manage ? h("button", { type: "button", className: "link forget", "aria-label": interpolate(gettext("Remove %(label)s"), { label: name }, true),
        onclick: () => O.forgetKept([record]).then(render) }, gettext("Remove")) : null);
  }

  async function showQuota() {
    if (!quota) return;
    const total = kept.reduce((sum, record) => sum + record.bytes, 0);
    const parts = [interpolate(ngettext("%(count)s chapter kept, %(size)s.", "%(count)s chapters kept, %(size)s.", kept.length),
      { count: kept.length, size: O.size(total) }, true)];
    const storage = navigator.storage;
    if (storage && storage.estimate) {
      const estimate = await storage.estimate();
      parts.push(interpolate(gettext("This site uses %(usage)s of the %(quota)s the browser allows it."),
        { usage: O.size(estimate.usage || 0), quota: O.size(estimate.quota || 0) }, true));
    }
    quota.replaceChildren(parts.join(" "));
    if (storage && storage.persisted && kept.length) {
      if (await storage.persisted()) {
        quota.append(" " + gettext("The browser keeps them until you remove them."));
      } else {
        quota.append(" " + gettext("The browser may clear them when space runs low.") + " ",
          h("button", { type: "button", className: "link", onclick: () => storage.persist().then(showQuota) }, gettext("Ask it to keep them")));
      }
    }
  }

  async function render() {
    const user = O.user || (await O.currentUser());
    kept = user ? await O.keptOf(user) : [];
    list.replaceChildren(...kept.map(item));
    if (!kept.length) list.appendChild(h("li", { className: "muted" }, gettext("Nothing is kept on this device.")));
    if (forgetAll) forgetAll.hidden = !kept.length;
    await showQuota();
  }

  if (forgetAll) forgetAll.addEventListener("click", () => O.forgetKept(kept).then(render));
  const followed = document.querySelector('input[name="offlineFollowed"]');
  // A change of the setting counts from the next page, not after offline-keep.js's pause.
  if (followed && O.FOLLOWED) followed.form.addEventListener("submit", () => localStorage.removeItem(O.FOLLOWED));
  document.addEventListener("mc:kept", render);
  (O.ready || Promise.resolve()).then(render);
})();
