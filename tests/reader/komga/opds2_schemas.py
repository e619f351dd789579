"""The OPDS 2.0 and Readium Web Publication Manifest JSON schemas of opds2-schema/ (README.md
there), as validators: every `$ref` resolved from those files by their `$id`, nothing fetched,
and the formats (uri, uri-reference, uri-template, date-time) checked."""
import json
import re
from functools import cache
from pathlib import Path

from jsonschema import Draft7Validator
from referencing import Registry, Resource

ROOT = Path(__file__).parent / "opds2-schema"
FEED = "https://drafts.opds.io/schema/feed.schema.json"
MANIFEST = "https://readium.org/webpub-manifest/schema/publication.schema.json"
AUTHENTICATION = "https://drafts.opds.io/schema/authentication.schema.json"
FORMATS = ("uri", "uri-reference", "uri-template", "date-time")


def _python_patterns(value):
    """The schemas' patterns are ECMA-262 regular expressions; the language tag's named groups,
    `(?<name>…)`, are `(?P<name>…)` in Python's `re`, the one difference they hold."""
    if isinstance(value, dict):
        return {k: re.sub(r"\(\?<(?=[A-Za-z])", "(?P<", v) if k == "pattern" and isinstance(v, str)
                else _python_patterns(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_python_patterns(v) for v in value]
    return value


@cache
def _registry():
    resources = []
    for path in sorted(ROOT.rglob("*.schema.json")):
        contents = _python_patterns(json.loads(path.read_text()))
        resources.append((contents["$id"], Resource.from_contents(contents)))
    return Registry().with_resources(resources)


def errors(document, schema_id):
    """Every error of `document` under the schema `schema_id` (FEED, MANIFEST, AUTHENTICATION), as readable lines."""
    checker = Draft7Validator.FORMAT_CHECKER
    missing = [f for f in FORMATS if f not in checker.checkers]
    assert not missing, f"jsonschema cannot check {missing}: install jsonschema[format] (pyproject's dev extras)"
    validator = Draft7Validator(_registry().contents(schema_id), registry=_registry(), format_checker=checker)
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(document)]
