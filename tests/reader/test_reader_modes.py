"""The reader's modes live in one table, static/js/read-modes.js: the other read*.js files ask the
current mode's entry (R.m.scrolls, R.m.spreads, ...) and never compare or list mode names, so a new
mode is one entry there plus its boxes function in read-layout.js."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "static" / "js"
NAME = r"""["'](?:flow|page|book)["']"""
BY_NAME = [
    re.compile(r"(?:===|!==|==|!=)\s*" + NAME),  # R.mode === "flow"
    re.compile(NAME + r"\s*(?:===|!==|==|!=)"),  # "book" !== R.mode
    re.compile(r"\bcase\s+" + NAME),  # case "page":
    re.compile(r"\[\s*\[?\s*" + NAME + r"\s*,"),  # ["flow", "page", "book"], [["flow", "Flow"], ...]
]


def test_no_reader_file_but_the_table_compares_or_lists_mode_names():
    files = sorted(path for path in JS.glob("read*.js") if path.name != "read-modes.js")
    assert len(files) >= 8
    found = [f"{path.name}:{n}: {line.strip()}" for path in files
             for n, line in enumerate(path.read_text().splitlines(), 1) if any(p.search(line) for p in BY_NAME)]
    assert not found, "ask the mode's entry in read-modes.js (R.m) instead:\n" + "\n".join(found)


def test_the_reader_page_loads_the_table_before_the_other_reader_scripts():
    html = (ROOT / "templates" / "reader" / "read.html").read_text()
    scripts = re.findall(r"""<script src="\{% static 'js/(read[\w-]*\.js)' %\}" defer></script>""", html)
    assert scripts[0] == "read-modes.js" and len(scripts) == len(set(scripts)) >= 8


TABLE = """
const fs = require("fs"), vm = require("vm");
const window = {};
for (const file of process.argv.slice(1)) vm.runInNewContext(fs.readFileSync(file, "utf8"), { window }, file);
const out = {};
for (const [key, m] of Object.entries(window.MCR.modes)) {
  out[key] = Object.assign({}, m, { boxes: typeof m.boxes, boxesArity: m.boxes && m.boxes.length });
}
console.log(JSON.stringify(out));
"""


@pytest.mark.process
@pytest.mark.skipif(not shutil.which("node"), reason="needs node (scripts/lint installs it)")
def test_every_mode_has_a_label_and_a_layout_function():
    run = subprocess.run(["node", "-e", TABLE, JS / "read-modes.js", JS / "read-layout.js"],
                         capture_output=True, text=True, timeout=30, check=True)
    modes = json.loads(run.stdout)
    assert list(modes) == ["flow", "page", "book"]  # the buttons' order
    for key, m in modes.items():
        assert m["name"] == key
        assert isinstance(m["label"], str) and m["label"]
        assert m["boxes"] == "function" and m["boxesArity"] == 4, f"{key}: boxes(R, vw, vh, zoom) in read-layout.js"
        flags = ("scrolls", "spreads", "ttb", "upright", "fits", "splits")
        assert all(isinstance(m[flag], bool) for flag in flags), key
        assert m["hint"] in ("flow", "paged"), key  # localStorage keys users already have
    assert [key for key, m in modes.items() if m.get("default")] == ["page"]
    # What the other files branch on, as the reader behaved before the table (docs/reader.md, "Modes").
    assert [key for key, m in modes.items() if m["scrolls"]] == ["flow"]
    assert [key for key, m in modes.items() if m["spreads"]] == ["book"]
    assert [key for key, m in modes.items() if m["ttb"]] == ["flow"]
    assert [key for key, m in modes.items() if m["upright"]] == ["flow", "page"]
