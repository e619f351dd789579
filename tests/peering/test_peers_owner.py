"""peers.json has one owner, peers/store.py: the rest of the project (the scraper included) reads and
changes the peers only through its functions. This test reads every .py file of the project but the
owner with `ast` and fails on code that names the file (a string constant other than a docstring),
opens a JsonFile on store.FILE, or reaches a private part of peers.store (`store._file`, `_peers()`,
`_change()`). Tests may read the document to check what the owner wrote, so they are not read."""
import ast
import textwrap
from pathlib import Path

import pytest

from tests.support.files import python_files

ROOT = Path(__file__).resolve().parents[2]
OWNER = Path("peers/store.py")


def project_files():
    return [relative for relative in python_files(ROOT) if relative.parts[0] != "tests" and relative != OWNER]


def docstrings(tree):
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def store_names(tree, relative):
    """Local names bound to the peers.store module."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            package = node.module if node.level == 0 else ("peers" if relative.parts[0] == "peers" else None)
            for alias in node.names:
                if package == "peers" and alias.name == "store":
                    names.add(alias.asname or "store")
        elif isinstance(node, ast.Import):
            names |= {alias.asname for alias in node.names if alias.name == "peers.store" and alias.asname}
    return names


def violations(source, relative):
    tree = ast.parse(source, str(relative))
    skip = docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and "peers.json" in node.value
                and id(node) not in skip):
            found.append((node.lineno, "names peers.json; use peers.store"))
    stores = store_names(tree, relative)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in stores:
            if node.attr.startswith("_"):
                found.append((node.lineno, f"reaches {node.value.id}.{node.attr}, a private part of peers/store.py"))
        if (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("JsonFile")
                and any(isinstance(a, ast.Attribute) and a.attr == "FILE" and ast.unparse(a.value) in stores
                        for a in ast.walk(node))):
            found.append((node.lineno, "opens peers.json itself; use peers.store"))
    return [f"{relative}:{line}: {text}" for line, text in sorted(found)]


def test_only_peers_store_touches_peers_json():
    found = []
    for relative in project_files():
        found += violations((ROOT / relative).read_text(), relative)
    assert found == [], "read and change the peers through peers/store.py:\n" + "\n".join(found)


# What the rule is for: the scraper's peer source read the file by hand before peers/store.py offered
# read_from_disk(); and the kinds of shortcut a view could take.
CAUGHT = [
    ("scraper/sources/peer.py", """
        def peer_settings(name):
            data = orjson.loads(read_capped(settings.DATA / "peers.json"))
            return data["peers"][name]
    """),
    ("peers/admin_views.py", """
        from . import store
        def f():
            return store._peers()
    """),
    ("peers/api_views.py", """
        from peers import store as s
        def f():
            with s._file.lock:
                pass
    """),
    ("ops/views.py", """
        from peers import store
        def f():
            return JsonFile(settings.DATA / store.FILE)
    """),
]


@pytest.mark.parametrize("path, source", CAUGHT)
def test_the_rule_catches_direct_access(path, source):
    assert violations(textwrap.dedent(source), Path(path)) != []


def test_the_rule_lets_the_owners_functions_through():
    source = '''
        """Reads DATA/peers.json through its owner."""
        from peers import store
        def f():
            backups.register_snapshot(store.FILE, store.STATE.snapshot)
            return store.read_from_disk(), store.list_peers()
    '''
    assert violations(textwrap.dedent(source), Path("scraper/sources/peer.py")) == []
