/* Settings → Admin → Backups: "Back up now" without leaving the page, with the run's progress. */
"use strict";

(function backups() {
  const form = document.getElementById("backup-now");
  if (!form) return;
  const line = document.getElementById("backup-progress");
  const button = form.querySelector("button");

  async function poll() {
    const data = await api("api/admin/backup");
    const running = data.running;
    if (running) {
      line.textContent = running.files
        ? interpolate(gettext("Running: %(step)s (%(written)s of %(files)s files)…"),
          { step: running.step, written: running.written || 0, files: running.files }, true)
        : interpolate(gettext("Running: %(step)s…"), { step: running.step }, true);
      button.disabled = true;
      setTimeout(poll, 1000);
      return;
    }
    button.disabled = false;
    const last = data.history[0];
    if (last && last.ok) line.textContent = interpolate(gettext("Done: %(archive)s, verified."), { archive: last.archive }, true);
    else if (last) line.textContent = interpolate(gettext("Failed: %(error)s"), { error: last.error }, true);
    if (sessionStorage.getItem("backup-started")) {
      sessionStorage.removeItem("backup-started");
      location.reload();
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      await api("api/admin/backup", { command: "run" });
      sessionStorage.setItem("backup-started", "1");
      line.textContent = gettext("Starting…");
      setTimeout(poll, 300);
    } catch (error) {
      button.disabled = false;
      toast(error.message, "error");
    }
  });
  if (line.textContent.trim()) poll();
}());
