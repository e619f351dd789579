"""Waits are said in words, the same by the server (mangacircus/wording.py) and the browser
(inWords in static/js/common.js): "in 15 minutes", never "in 893 seconds"."""
import json
import re
import shutil
import subprocess

import pytest
from django.utils import translation

from bench.server import ROOT
from mangacircus import jsi18n
from mangacircus.wording import in_words

CASES = {0: "in 0 seconds", 1: "in 1 second", 40: "in 40 seconds", 59.2: "in 1 minute", 60: "in 1 minute",
         61: "in 2 minutes", 893: "in 15 minutes", 900: "in 15 minutes", 3700: "in 62 minutes",
         7200: "in 2 hours", 86_399: "in 24 hours", 172_800: "in 2 days", 200_000: "in 3 days"}


def test_it_says_a_wait_in_the_largest_unit_that_reads_well_rounded_up():
    assert {s: in_words(s) for s in CASES} == CASES


def browser_words(catalog_script=b""):
    """inWords of static/js/common.js for each of CASES, run by node after `catalog_script` (the
    page's catalog, mangacircus/jsi18n.py) and common.js's own English fallbacks."""
    node = shutil.which("node") or shutil.which("nodejs")
    assert node, "nodejs is needed (scripts/test installs it)"
    source = (ROOT / "static" / "js" / "common.js").read_text()
    fallbacks = re.search(r'^if \(typeof gettext !== "function"\) \{.*?^\}', source, re.S | re.M).group(0)
    function = re.search(r"^function inWords\(seconds\) \{.*?^\}", source, re.S | re.M).group(0)
    script = (f"{catalog_script.decode()}\n{fallbacks}\n{function}\n"
              f"console.log(JSON.stringify({json.dumps(list(CASES))}.map(inWords)));")
    done = subprocess.run([node, "-e", script], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.process
def test_the_browser_says_it_the_same_way():
    assert browser_words() == list(CASES.values())


@pytest.mark.process
@pytest.mark.parametrize("language", ["ja", "ru", "ar"])
def test_the_browser_says_it_the_same_way_in_the_readers_language(language):
    with translation.override(language):
        server = [in_words(s) for s in CASES]
    assert server != list(CASES.values())  # translated, plural forms and all
    assert browser_words(jsi18n.script(language)[1]) == server
