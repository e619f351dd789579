"""Guards of the project's shape (docs/architecture.md): who may touch which db.json section, and
which package may import which. They read the source with `ast`, so they fail on the line that
breaks a rule, whether or not a test runs it."""
import ast
from pathlib import Path

import pytest

from mangacircus.db import OWNERS

ROOT = Path(__file__).resolve().parents[1]
APPS = ("mangacircus", "accounts", "library", "catalog", "reader", "shelf", "clients", "peers", "scraper", "ops",
        "imports", "metadata", "trackers")

# What each package may import from the project. Lower layers never import higher ones.
ALLOWED = {
    "mangacircus": set(),
    "library": {"mangacircus"},
    "accounts": {"mangacircus"},
    "catalog": {"mangacircus", "library"},
    "reader": {"mangacircus", "library", "accounts", "catalog"},
    "shelf": {"mangacircus", "library", "accounts", "catalog", "reader"},
    "clients": {"mangacircus", "library", "accounts", "catalog", "reader", "shelf"},
    "peers": {"mangacircus", "library", "accounts"},
    "scraper": {"mangacircus", "library", "peers"},
    "ops": {"mangacircus", "library", "accounts"},
    "imports": {"mangacircus", "library", "accounts", "catalog", "reader", "ops"},
    "metadata": {"mangacircus", "library", "catalog", "scraper"},
    "trackers": {"mangacircus", "library", "catalog", "reader", "scraper", "metadata"},
    "bench": {"mangacircus", "library", "accounts", "catalog", "reader", "shelf", "clients", "peers", "scraper", "ops",
              "imports", "metadata"},
}
PROJECT = set(ALLOWED) | {"tests"}


def _modules(packages):
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            yield name, path, ast.parse(path.read_text(), str(path))


def _imported(tree):
    """(line, top-level package) of every import, including those inside functions."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module.split(".")[0]


def _db_aliases(tree):
    """Local names bound to mangacircus.db in a module."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "mangacircus" and node.level == 0:
            names |= {a.asname or a.name for a in node.names if a.name == "db"}
        elif isinstance(node, ast.ImportFrom) and node.module == "mangacircus.db":
            names |= {f"<{a.name}>" for a in node.names}
    return names


def section_uses(name, tree):
    """Problems with db.json access in one module: sections it names but does not own, a section
    named by a variable, the document's data reached past mangacircus/db.py."""
    problems = []
    aliases = _db_aliases(tree)
    if any(a.startswith("<") for a in aliases):
        problems.append(f"{name} imports names from mangacircus.db; import the module: from mangacircus import db")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases):
            continue
        if node.attr.startswith("_"):
            problems.append(f"{name}:{node.lineno} reaches db.{node.attr}, a private part of mangacircus/db.py")
        if node.attr == "forget_user" and name != "accounts.users":
            problems.append(f"{name}:{node.lineno} calls db.forget_user; only accounts.users deletes accounts")
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "section"
                and isinstance(node.func.value, ast.Name) and node.func.value.id in aliases):
            continue
        arg = node.args[0] if node.args else None
        if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
            problems.append(f"{name}:{node.lineno} names a db.json section with a variable")
        elif OWNERS.get(arg.value) != name:
            problems.append(f"{name}:{node.lineno} touches db.json's {arg.value!r}, owned by {OWNERS.get(arg.value)}")
    return problems


def test_it_lets_only_the_owner_of_a_section_touch_it():
    problems = [p for name, _, tree in _modules(APPS) if name != "mangacircus.db" for p in section_uses(name, tree)]
    assert problems == []


def test_every_section_has_an_owner_module_that_uses_it():
    for section, owner in OWNERS.items():
        path = ROOT / (owner.replace(".", "/") + ".py")
        assert path.exists(), f"{section}: no module {owner}"
        assert f'db.section("{section}")' in path.read_text(), f"{owner} owns {section!r} but never touches it"


@pytest.mark.parametrize("source, expected", [
    ('from mangacircus import db\ndb.section("notes")', ["touches db.json's 'notes', owned by reader.notes"]),
    ('from mangacircus import db\nwhich = "users"\ndb.section(which)', ["names a db.json section with a variable"]),
    ('from mangacircus import db\ndb._db.data["users"]', ["reaches db._db"]),
    ('from mangacircus.db import section', ["import the module"]),
    ('from mangacircus import db\ndb.section("progress")', []),
])
def test_the_section_rule_catches_what_it_should(source, expected):
    found = section_uses("reader.progress", ast.parse(source))
    assert len(found) == len(expected) and all(e in f for e, f in zip(expected, found)), found


def test_no_package_imports_a_higher_layer_and_nothing_imports_tests():
    problems = []
    for name, _, tree in _modules(list(ALLOWED)):
        package = name.split(".")[0]
        for line, imported in _imported(tree):
            if imported in PROJECT and imported != package and imported not in ALLOWED[package]:
                problems.append(f"{name}:{line} imports {imported}")
    assert problems == []


def test_the_architecture_page_lists_every_file_the_reader_writes_and_every_local_admin_action():
    from mangacircus import localadmin

    doc = (ROOT / "docs" / "architecture.md").read_text()
    assert localadmin.actions(), "no local-admin action is registered"
    missing = [a for a in localadmin.actions() if f"`{a}`" not in doc]
    assert missing == [], f"docs/architecture.md does not list the local-admin actions {missing}"
    reader_row = next(line for line in doc.splitlines() if line.startswith("| Reader |"))
    for constant in ("library.links.SECRET_FILE", "library.links.NGINX_FILE", "ops.supervisor.RESTART_FILE",
                     "peers.store.FILE", "ops.backups.state.FILE_NAME", "mangacircus.localadmin.TOKEN_FILE",
                     "mangacircus.localadmin.ADDRESS_FILE", "mangacircus.secretkey.FILE_NAME"):
        module, name = constant.rsplit(".", 1)
        value = getattr(__import__(module, fromlist=[name]), name)
        assert f"`DATA/{value}`" in reader_row, f"the Reader row of the file-writer table misses DATA/{value}"
