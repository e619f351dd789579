"""docs/configuration.md lists every environment variable the code reads, and nothing else."""
import ast
import re

from bench.server import ROOT

HELPERS = {"_raw", "_bool", "_int", "_float", "_choice", "_list", "_seconds_list", "_networks", "_url", "_allowlist",
           "_header_name"}
# Read by the tools around the app, not by its code: Django's own, and the test and build scripts.
NOT_SETTINGS = {"DJANGO_SETTINGS_MODULE", "PYTHONUNBUFFERED"}


def names_read(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func, arg = node.func, node.args[0].value
            helper = isinstance(func, ast.Name) and func.id in HELPERS
            env_call = isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "env"
            environ = isinstance(func, ast.Attribute) and (
                (func.attr in ("get", "setdefault") and ast.unparse(func.value) == "os.environ")
                or (func.attr == "getenv" and ast.unparse(func.value) == "os"))
            if (helper or env_call or environ) and isinstance(arg, str) and arg.isupper():
                found.add(arg)
        if isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                found.add(node.slice.value)
    return found


def code_variables():
    found = set()
    for package in sorted(p.parent.name for p in ROOT.glob("*/apps.py")):  # every app, new ones too
        for path in (ROOT / package).rglob("*.py"):
            found |= names_read(ast.parse(path.read_text()))
    return found - NOT_SETTINGS


def documented_variables():
    text = (ROOT / "docs" / "configuration.md").read_text()
    rows = re.findall(r"^\| (`[A-Z_0-9]+`(?:, `[A-Z_0-9]+`)*) \|", text, re.M)
    return {name for row in rows for name in re.findall(r"`([A-Z_0-9]+)`", row)}


def test_it_lists_every_variable_the_code_reads_and_no_other():
    code, docs = code_variables(), documented_variables()
    assert "LIBRARY" in code and "SCRAPER_PAGE_DEADLINE" in code and "TZ" in code  # the scan sees them
    assert sorted(code - docs) == [], "read by the code but not in docs/configuration.md"
    assert sorted(docs - code) == [], "in docs/configuration.md but read by no code"


def test_the_scanner_finds_each_way_of_reading_the_environment():
    tree = ast.parse('PORT = _int("PORT", 1)\nX = env.str("TZ")\nimport os\nos.environ.get("A_B")\nos.environ["C"]\n'
                     'os.getenv("D")\n')
    assert names_read(tree) == {"PORT", "TZ", "A_B", "C", "D"}
