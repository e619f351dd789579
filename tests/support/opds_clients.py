"""Readium's r2-opds-js (the OPDS 1 to 2 converter Thorium uses) and opds-feed-parser, from the
npm registry, for tests/reader/komga/test_opds_clients.py: installed into .venv/opds-clients/ on
first use (set OPDS_CLIENTS_CACHE to move it), like axe-core (tests/support/axe.py), and run by
node on tests/reader/komga/opds_clients.js.

The versions are pinned. npm runs no install scripts (--ignore-scripts): r2-opds-js's only one
removes a folder of TypeScript types with rimraf, which it does not install, so it would fail."""
import json
import os
import shutil
import subprocess
from pathlib import Path

from . import npm

PACKAGES = {"r2-opds-js": "1.0.47", "opds-feed-parser": "0.1.0"}
ROOT = Path(__file__).resolve().parent.parent.parent
CACHE = Path(os.environ.get("OPDS_CLIENTS_CACHE") or ROOT / ".venv" / "opds-clients")
SCRIPT = ROOT / "tests" / "reader" / "komga" / "opds_clients.js"
OPDS2_SCRIPT = ROOT / "tests" / "reader" / "komga" / "opds2_clients.js"


def install():
    """The folder whose node_modules holds PACKAGES, installed with npm when it does not."""
    return npm.install(CACHE, PACKAGES, "the OPDS client tests", ignore_scripts=True)


def parse(base_url, paths, headers, script=SCRIPT):
    """What both libraries make of each feed at `paths` on the server at `base_url` (loopback):
    {path: {"status", "r2": …, "parser": …}} as opds_clients.js prints it (`script`: OPDS2_SCRIPT
    for the OPDS 2 feeds and Divina manifests, read by r2-opds-js and r2-shared-js)."""
    node = shutil.which("node")
    if node is None:
        raise RuntimeError("node is needed for the OPDS client tests: apt-get install nodejs "
                           "(scripts/test installs it)")
    request = json.dumps({"base": base_url, "paths": list(paths), "headers": headers})
    done = subprocess.run([node, str(script)], input=request, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "NODE_PATH": str(install() / "node_modules")})
    if done.returncode != 0:
        raise RuntimeError(f"opds_clients.js failed:\n{done.stderr}")
    return json.loads(done.stdout)
