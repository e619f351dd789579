/* Settings → Admin → Backups: "Back up now" without leaving the page, with the run's progress. */
"use strict";

(function backups() {
  const form = document.getElementById("backup-now");
  if (!form) return;
  const line = document.getElementById("backup-progress");
  const button = form.querySelector("button");

  async function poll() {
    const data = await api("api/admin/backup");
    if (data.running) {
      const files = data.running.files ? " (" + (data.running.written || 0) + " of " + data.running.files + " files)" : "";
      line.textContent = "Running: " + data.running.step + files + "…";
      button.disabled = true;
      setTimeout(poll, 1000);
      return;
    }
    button.disabled = false;
    const last = data.history[0];
    if (last && last.ok) line.textContent = "Done: " + last.archive + ", verified.";
    else if (last) line.textContent = "Failed: " + last.error;
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
      line.textContent = "Starting…";
      setTimeout(poll, 300);
    } catch (error) {
      button.disabled = false;
      toast(error.message, "error");
    }
  });
  if (line.textContent.trim()) poll();
}());
