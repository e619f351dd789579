"""axe-core, the accessibility checker, for the browser tests: installed from the npm registry into
a cache folder on first use (never committed), then injected into pages by Playwright.

The folder is .venv/axe-core/ (set AXE_CACHE to move it): it goes with the rest of what the
set-up installs, and a fresh clone installs it again. The version is pinned, so a new axe rule
never turns the suite red on its own."""
import os
from pathlib import Path

from . import npm

VERSION = "4.14.1"
ROOT = Path(__file__).resolve().parent.parent.parent
CACHE = Path(os.environ.get("AXE_CACHE") or ROOT / ".venv" / "axe-core")
SCRIPT = CACHE / "node_modules" / "axe-core" / "axe.min.js"


def source():
    """The text of axe.min.js at VERSION, installed with npm when the cache does not have it."""
    npm.install(CACHE, {"axe-core": VERSION}, "the accessibility tests")
    return SCRIPT.read_text()


# The rules whose outcome depends on the colours alone: what a second theme on the same page can change.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def violations(page, impacts=("serious", "critical"), only=None):
    """axe's violations of these impacts on the page as it is now: [(rule, impact, [targets], help)];
    `only`: these rules alone. The page's context was given source() with add_init_script (an init
    script is not subject to the page's Content-Security-Policy, which allows no inline script)."""
    result = page.evaluate("""async (only) => {
      // label-content-name-mismatch is experimental in axe 4 (off by default): a name that does not
      // hold the visible text fails speech control ("click Mark read"), so it is on here.
      const options = only ? {resultTypes: ['violations'], runOnly: {type: 'rule', values: only}}
                           : {resultTypes: ['violations'], rules: {'label-content-name-mismatch': {enabled: true}}};
      const r = await axe.run(document, options);
      return r.violations.map(v => [v.id, v.impact, v.nodes.map(n => n.target.join(' ')).slice(0, 5), v.help]);
    }""", only)
    return [v for v in result if v[1] in impacts]
