"""axe-core, the accessibility checker, for the browser tests: installed from the npm registry into
a cache folder on first use (never committed), then injected into pages by Playwright.

The folder is .venv/axe-core/ (set AXE_CACHE to move it): it goes with the rest of what the
set-up installs, and a fresh clone installs it again. The version is pinned, so a new axe rule
never turns the suite red on its own."""
import fcntl
import json
import os
import shutil
import subprocess
from pathlib import Path

VERSION = "4.14.1"
ROOT = Path(__file__).resolve().parent.parent.parent
CACHE = Path(os.environ.get("AXE_CACHE") or ROOT / ".venv" / "axe-core")
SCRIPT = CACHE / "node_modules" / "axe-core" / "axe.min.js"


def source():
    """The text of axe.min.js at VERSION, installed with npm when the cache does not have it."""
    CACHE.mkdir(parents=True, exist_ok=True)
    with open(CACHE / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two test runs at once install it once
        if _installed() != VERSION:
            npm = shutil.which("npm")
            if npm is None:
                raise RuntimeError("npm is needed to fetch axe-core for the accessibility tests: apt-get install npm "
                                   "(scripts/test installs it)")
            done = subprocess.run([npm, "install", "--prefix", str(CACHE), "--no-save", "--no-audit", "--no-fund",
                                   "--no-package-lock", f"axe-core@{VERSION}"], capture_output=True, text=True,
                                  timeout=300)
            if done.returncode != 0 or _installed() != VERSION:
                raise RuntimeError(f"npm could not install axe-core {VERSION}:\n{done.stdout}\n{done.stderr}")
    return SCRIPT.read_text()


def _installed():
    try:
        return json.loads((SCRIPT.parent / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return None


def violations(page, impacts=("serious", "critical")):
    """axe's violations of these impacts on the page as it is now: [(rule, impact, [targets], help)].
    The page's context was given source() with add_init_script (an init script is not subject to
    the page's Content-Security-Policy, which allows no inline script)."""
    result = page.evaluate("""async () => {
      // label-content-name-mismatch is experimental in axe 4 (off by default): a name that does not
      // hold the visible text fails speech control ("click Mark read"), so it is on here.
      const r = await axe.run(document, {resultTypes: ['violations'],
                                         rules: {'label-content-name-mismatch': {enabled: true}}});
      return r.violations.map(v => [v.id, v.impact, v.nodes.map(n => n.target.join(' ')).slice(0, 5), v.help]);
    }""")
    return [v for v in result if v[1] in impacts]
