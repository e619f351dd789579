"""Translations (docs/translating.md): no template shows English that is not marked, and every
offered language has a complete, compiled catalog of the templates' messages."""
import ast
import gettext
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils.translation import to_locale
from django.utils.translation.template import templatize

from mangacircus import languages
from tests.support import untranslated_js
from tests.support.untranslated import findings

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"%\(\w+\)s")
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))


def test_it_finds_no_unmarked_english_in_any_template():
    found = [f"{path.relative_to(ROOT)}:{line}: {where} {text!r}"
             for path in TEMPLATES for line, where, text in findings(path.read_text())]
    assert found == [], "mark these with {% translate %} or {% blocktranslate %} (docs/translating.md)"


def test_the_rule_finds_text_and_the_attributes_a_reader_sees_and_nothing_else():
    source = """{% load i18n %}<h1>Library</h1><p>{% translate "Marked" %} · {{ m.title }}</p>
<p>{% blocktranslate count n=n %}{{ n }} chapter{% plural %}{{ n }} chapters{% endblocktranslate %}</p>
<img alt="A cover" src="x.png"><button title="Close" value="close-all">×</button>
<input type="submit" value="Save"><input type="hidden" name="action" value="reset">
<main class="{% block main_class %}page narrow{% endblock %}"><code>manage.py scan</code></main>
<script>const word = "ignored";</script>{# a comment #}<span>MangaCircus</span><span>{{ n }} pages</span>"""
    assert [(where, text) for _, where, text in findings(source)] == [
        ("text", "Library"), ("<img alt>", "A cover"), ("<button title>", "Close"), ("<input value>", "Save"),
        ("text", "pages")]


def test_it_finds_no_unmarked_english_in_any_script():
    found = [f"{path.relative_to(ROOT)}:{line}: {text!r}"
             for path in SCRIPTS for line, text in untranslated_js.findings(path.read_text())]
    assert found == [], "mark these with gettext(), ngettext() and interpolate() (docs/translating.md)"


def test_the_script_rule_finds_shown_words_and_leaves_code_alone():
    source = r"""'use strict';
const a = "Delete this?", b = gettext("Saved."), c = interpolate(ngettext("%(n)s page", "%(n)s pages", n), {n}, true);
el.className = ok ? "tile all-read" : "tile"; x.classList.toggle("is open"); d.querySelector("a.nav span");
if (e.key === "Escape" || /no way/.test(s)) h("p", { className: "muted" }, `${n} pages left`, "no pages");
const url = "/api/x y", id = "userHandle", key = "a_b", html = '<body data-x="">'; // Not Here in a comment
console.warn("A warning for the console"); // not shown: the console
/* "Hidden" in a block comment */ t = 6 / 2; u = "Last one"; v = "x/y"; w = 'It\'s "quoted"';
a.querySelector("ul.tags li"); b = "Shares: "; c = " shares nothing with this server."; d = "li > a:hover";"""
    assert untranslated_js.findings(source) == [
        (2, "Delete this?"), (4, "{} pages left"), (4, "no pages"), (7, "Last one"), (7, "It's \"quoted\""),
        (8, "Shares: "), (8, " shares nothing with this server.")]


def template_messages():
    """Every msgid (and plural) the templates mark, read as makemessages reads them."""
    found = set()
    for path in TEMPLATES:
        code = templatize(path.read_text(), origin=str(path))
        for call in re.finditer(r"\b(n?gettext)\(((?:u?'(?:[^'\\]|\\.)*'(?:, *)?)+)", code):
            for literal in re.findall(r"'(?:[^'\\]|\\.)*'", call.group(2)):
                found.add(ast.literal_eval(literal))
    return found


PYTHON_PACKAGES = ("accounts", "catalog", "clients", "imports", "library", "mangacircus", "metadata", "ops", "peers",
                   "reader", "scraper", "shelf", "trackers")
GETTEXT_NAMES = {"_", "_lazy", "gettext", "gettext_lazy", "ngettext", "ngettext_lazy", "pgettext", "npgettext"}
SCRIPT_CALL = re.compile(r"\b(n?p?gettext)\(\s*((?:\"(?:[^\"\\]|\\.)*\"\s*,?\s*)+)")


def python_messages():
    """Every msgid (and plural) the Python code marks: the string arguments of its gettext calls."""
    found = set()
    for package in PYTHON_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text())):
                name = getattr(node, "func", None)
                name = getattr(name, "id", getattr(name, "attr", None))
                if isinstance(node, ast.Call) and name in GETTEXT_NAMES:
                    strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
                    found.update(strings[1:] if name.startswith(("pgettext", "npgettext")) else strings)
    return found


def script_messages():
    """Every msgid (and plural) the browser's scripts mark with gettext(), ngettext() or pgettext()."""
    found = set()
    for path in SCRIPTS:
        for call in SCRIPT_CALL.finditer(path.read_text()):
            strings = [ast.literal_eval(s) for s in re.findall(r'"(?:[^"\\]|\\.)*"', call.group(2))]
            found.update(strings[1:] if "p" in call.group(1) else strings)
    return found


def catalog(language, domain="django", plurals=None):
    """{msgid: [msgstr, ...]} of locale/<language>/LC_MESSAGES/<domain>.po, and the fuzzy msgids.
    `plurals`, when given, is filled with {msgid: the placeholders of it and its plural} for each
    plural message (a language's form for one may leave the number out: "один том")."""
    return read_po((ROOT / "locale" / to_locale(language) / "LC_MESSAGES" / f"{domain}.po").read_text(), plurals)


def read_po(text, plurals=None):
    """catalog()'s reading of a .po or .pot file's text."""
    entries, fuzzy = {}, set()
    for block in text.split("\n\n")[1:]:
        strings = {}
        for key, lines in re.findall(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) ((?:".*"\n?)+)', block + "\n", re.M):
            strings[key] = "".join(ast.literal_eval(line) for line in lines.split("\n") if line)
        entries[strings["msgid"]] = [v for k, v in strings.items() if k.startswith("msgstr")]
        if strings.get("msgid_plural"):
            entries[strings["msgid_plural"]] = entries[strings["msgid"]]
            if plurals is not None:
                both = set(PLACEHOLDER.findall(strings["msgid"] + strings["msgid_plural"]))
                plurals[strings["msgid"]] = plurals[strings["msgid_plural"]] = both
        if "#, fuzzy" in block:
            fuzzy.add(strings["msgid"])
    return entries, fuzzy


@pytest.mark.parametrize("language", [code for code in languages.OFFERED if code != "en"])
def test_every_offered_language_translates_every_template_message(language):
    plurals = {}
    entries, fuzzy = catalog(language, plurals=plurals)
    wanted = template_messages()
    assert "Library" in wanted and "%(chapters)s chapters" in wanted  # the reading above sees them
    assert sorted(wanted - set(entries)) == [], "run makemessages (docs/translating.md)"
    assert_complete(language, entries, fuzzy, "django", plurals)


@pytest.mark.parametrize("language", [code for code in languages.OFFERED if code != "en"])
def test_every_offered_language_translates_every_python_message(language):
    wanted = python_messages()
    assert "Every manga by title" in wanted and "Search %(title)s" in wanted  # the reading above sees them
    assert sorted(wanted - set(catalog(language)[0])) == [], "run makemessages (docs/translating.md)"


@pytest.mark.parametrize("language", [code for code in languages.OFFERED if code != "en"])
def test_every_offered_language_translates_every_script_message(language):
    plurals = {}
    entries, fuzzy = catalog(language, "djangojs", plurals)
    wanted = script_messages()
    assert "just now" in wanted and len(wanted) > 200  # the reading above sees them
    assert sorted(wanted - set(entries)) == [], "run makemessages -d djangojs (docs/translating.md)"
    assert_complete(language, entries, fuzzy, "djangojs", plurals)


@pytest.mark.process
def test_the_scripts_messages_are_what_makemessages_extracts():
    """GNU xgettext with makemessages' options for the djangojs domain reads the same messages from
    the scripts as script_messages() does: a call it cannot read (a template literal, a `+`) would
    leave a message untranslated however complete the catalog looks."""
    xgettext = shutil.which("xgettext")
    assert xgettext, "GNU gettext is needed (scripts/bootstrap installs it)"
    done = subprocess.run([xgettext, "--language=JavaScript", "--from-code=UTF-8", "--keyword=gettext_noop",
                           "--keyword=pgettext:1c,2", "--keyword=npgettext:1c,2,3", "--output=-",
                           *map(str, SCRIPTS)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    extracted = set(read_po(done.stdout)[0]) - {""}
    assert extracted == script_messages()


def assert_complete(language, entries, fuzzy, domain, plurals):
    """Every message of the catalog translated, none fuzzy, the placeholders kept (a plural's forms
    may leave its number out), and compiled."""
    assert sorted(m for m, strings in entries.items() if not all(strings)) == [], "untranslated"
    assert sorted(fuzzy) == [], "fuzzy: check the translation and clear the flag"
    for msgid in entries:
        for msgstr in entries[msgid]:  # the same placeholders, and a percent sign written %% as in the msgid
            found = set(PLACEHOLDER.findall(msgstr))
            if msgid in plurals:
                assert found <= plurals[msgid], (msgid, msgstr)
            else:
                assert found == set(PLACEHOLDER.findall(msgid)), (msgid, msgstr)
            assert msgstr.count("%%") == msgid.count("%%"), (msgid, msgstr)
    compiled = ROOT / "locale" / to_locale(language) / "LC_MESSAGES" / f"{domain}.mo"
    assert compiled.exists(), "run manage.py compilemessages (scripts/bootstrap does)"
    with compiled.open("rb") as f:  # a header left fuzzy is dropped by msgfmt, plural rule and charset with it
        header = gettext.GNUTranslations(f).info()
    assert "plural-forms" in header and header.get("content-type") == "text/plain; charset=UTF-8", header
