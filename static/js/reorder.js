/* Reordering a list by drag, or with the arrow keys on an item's .handle button (collections and
   read lists): reorderable(list, saved) calls saved(movedItem or null) after each move. */
"use strict";

window.reorderable = function reorderable(list, saved) {
  list.addEventListener("keydown", (e) => {
    const handle = e.target.closest(".handle");
    if (!handle || !["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"].includes(e.key)) return;
    e.preventDefault();
    const item = handle.closest("li");
    const back = e.key === "ArrowUp" || e.key === "ArrowLeft";
    const other = back ? item.previousElementSibling : item.nextElementSibling;
    if (!other) return;
    if (back) other.before(item); else other.after(item);
    saved(item);
  });

  let dragged = null;
  list.addEventListener("dragstart", (e) => {
    dragged = e.target.closest("li");
    e.dataTransfer.effectAllowed = "move";
    e.dataTransfer.setData("text/plain", dragged.dataset.key || "");
  });
  list.addEventListener("dragover", (e) => {
    if (dragged) e.preventDefault();
  });
  list.addEventListener("drop", (e) => {
    const target = e.target.closest("li");
    if (!dragged || !target || target === dragged) return;
    e.preventDefault();
    const items = [...list.children];
    if (items.indexOf(dragged) < items.indexOf(target)) target.after(dragged); else target.before(dragged);
    dragged = null;
    saved(null);
  });
};
