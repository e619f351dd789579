/* Settings → Admin → Incidents & health: "All shown" ticks every incident's box. */
"use strict";

(function selectAll() {
  const all = document.getElementById("select-all");
  if (!all) return;
  all.addEventListener("change", () => {
    document.querySelectorAll('#incident-list input[name="ids"]').forEach((box) => { box.checked = all.checked; });
  });
}());
