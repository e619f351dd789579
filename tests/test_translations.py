"""Translations (docs/translating.md): no template shows English that is not marked, and every
offered language has a complete, compiled catalog of the templates' messages."""
import ast
import re
from pathlib import Path

import pytest
from django.utils.translation import to_locale
from django.utils.translation.template import templatize

from mangacircus import languages
from tests.support.untranslated import findings

ROOT = Path(__file__).resolve().parents[1]
PLACEHOLDER = re.compile(r"%\(\w+\)s")
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


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


def template_messages():
    """Every msgid (and plural) the templates mark, read as makemessages reads them."""
    found = set()
    for path in TEMPLATES:
        code = templatize(path.read_text(), origin=str(path))
        for call in re.finditer(r"\b(n?gettext)\(((?:u?'(?:[^'\\]|\\.)*'(?:, *)?)+)", code):
            for literal in re.findall(r"'(?:[^'\\]|\\.)*'", call.group(2)):
                found.add(ast.literal_eval(literal))
    return found


def catalog(language):
    """{msgid: [msgstr, ...]} of locale/<language>/LC_MESSAGES/django.po, and the fuzzy msgids."""
    text = (ROOT / "locale" / to_locale(language) / "LC_MESSAGES" / "django.po").read_text()
    entries, fuzzy = {}, set()
    for block in text.split("\n\n")[1:]:
        strings = {}
        for key, lines in re.findall(r'^(msgid|msgid_plural|msgstr(?:\[\d\])?) ((?:".*"\n?)+)', block + "\n", re.M):
            strings[key] = "".join(ast.literal_eval(line) for line in lines.split("\n") if line)
        entries[strings["msgid"]] = [v for k, v in strings.items() if k.startswith("msgstr")]
        if strings.get("msgid_plural"):
            entries[strings["msgid_plural"]] = entries[strings["msgid"]]
        if "#, fuzzy" in block:
            fuzzy.add(strings["msgid"])
    return entries, fuzzy


@pytest.mark.parametrize("language", [code for code in languages.OFFERED if code != "en"])
def test_every_offered_language_translates_every_template_message(language):
    entries, fuzzy = catalog(language)
    wanted = template_messages()
    assert "Library" in wanted and "%(chapters)s chapters" in wanted  # the reading above sees them
    assert sorted(wanted - set(entries)) == [], "run makemessages (docs/translating.md)"
    assert sorted(m for m, strings in entries.items() if not all(strings)) == [], "untranslated"
    assert sorted(fuzzy) == [], "fuzzy: check the translation and clear the flag"
    for msgid in entries:
        for msgstr in entries[msgid]:  # the same placeholders, and a percent sign written %% as in the msgid
            assert set(PLACEHOLDER.findall(msgstr)) == set(PLACEHOLDER.findall(msgid)), (msgid, msgstr)
            assert msgstr.count("%%") == msgid.count("%%"), (msgid, msgstr)
    compiled = ROOT / "locale" / to_locale(language) / "LC_MESSAGES" / "django.mo"
    assert compiled.exists(), "run manage.py compilemessages (scripts/bootstrap does)"
