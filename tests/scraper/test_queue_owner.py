"""queue.json has one owner, scraper/queue.py: the rest of the project reads and changes the queue
only through its functions. This test reads every .py file of the project (but scraper/queue.py)
with `ast` and fails on code that reaches into the queue's data. The rule, made for this code:

1. The queue's JsonFile (what `queue.open_queue()` returns) is opaque: code hands it to functions of
   scraper/queue.py and does nothing else with it. Here it lives in `Daemon.queue`, reached as
   `self.queue`, `d.queue` or `daemon.queue`, so any attribute of `<something>.queue` (`.data`,
   `.lock`, `.flush()`, `.close()`, ...) is a violation; a test below keeps that premise true.
2. The job and series records that scraper/queue.py hands out may be read, never changed. In a module
   that imports scraper.queue, a record is a name `job` or `entry` (what this code calls them), the
   daemon's `.current` job, a name bound from a call of a queue function (directly, by unpacking, or
   as a loop target over one) and a name bound from a part of a record (`scope = job["scope"]`).
   Changing one is a subscript assignment, augmented assignment or `del` rooted at it, or a call of a
   mutating method (append, update, remove, ...) on it or on a part of it.

Tests may read the document to check what the owner wrote, so rule 1 does not apply under tests/;
rule 2 does.
"""
import ast
import textwrap
from pathlib import Path

import pytest

from tests.support.files import python_files

ROOT = Path(__file__).resolve().parents[2]
OWNER = Path("scraper/queue.py")
RECORD_NAMES = {"job", "entry"}
MUTATORS = {"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update", "setdefault",
            "sort", "reverse", "__setitem__", "__delitem__"}


def project_files():
    return [relative for relative in python_files(ROOT) if relative != OWNER]


def queue_imports(tree, relative):
    """(names bound to the scraper.queue module, names of functions imported from it)."""
    in_scraper = relative.parts[0] == "scraper"
    modules, functions = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name == "scraper.queue":
                    modules.add(alias.asname or "scraper")
        elif isinstance(node, ast.ImportFrom):
            package = node.module if node.level == 0 else ("scraper" + (f".{node.module}" if node.module else "")
                                                           if in_scraper and node.level == 1 else None)
            for alias in node.names:
                if package == "scraper" and alias.name == "queue":
                    modules.add(alias.asname or "queue")
                elif package == "scraper.queue":
                    functions.add(alias.asname or alias.name)
    return modules, functions


def check_jsonfile(tree):
    """Rule 1: -> (line, text) of every attribute taken from `<something>.queue`."""
    return [(node.lineno, f"{ast.unparse(node)}: reaches into the queue's JsonFile")
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) and node.value.attr == "queue"]


class RecordChanges(ast.NodeVisitor):
    """Rule 2 for one module."""

    def __init__(self, modules, functions):
        self.modules, self.functions = modules, functions
        self.records = set(RECORD_NAMES)
        self.found = []

    def is_queue_call(self, node):
        if not isinstance(node, ast.Call):
            return False
        func = node.func
        if isinstance(func, ast.Name):
            return func.id in self.functions
        return isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in self.modules

    def root(self, node):
        """The record an expression is a part of, or None: job, job["scope"]["info"], job.get("scope"),
        queue.find(q, id)["scope"]."""
        while True:
            if isinstance(node, ast.Subscript):
                node = node.value
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and node.func.attr in ("get", "setdefault")):
                node = node.func.value
            else:
                break
        if isinstance(node, ast.Name) and node.id in self.records:
            return node.id
        if isinstance(node, ast.Attribute) and node.attr == "current" or self.is_queue_call(node):
            return ast.unparse(node)
        return None

    def gives_records(self, value):
        return self.root(value) is not None

    def bind(self, target):
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                self.records.add(node.id)

    def learn(self, tree):
        """Find every name bound to a record, until no new one appears."""
        while True:
            before = len(self.records)
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and self.gives_records(node.value):
                    for target in node.targets:
                        self.bind(target)
                elif isinstance(node, (ast.AnnAssign, ast.NamedExpr)) and node.value and self.gives_records(node.value):
                    self.bind(node.target)
                elif isinstance(node, (ast.For, ast.comprehension)) and self.gives_records(node.iter):
                    self.bind(node.target)
            if len(self.records) == before:
                return

    def changed(self, node, what):
        name = self.root(node)
        if name is not None:
            self.found.append((node.lineno, f"{ast.unparse(node)}: {what} a queue record ({name})"))

    def visit_Assign(self, node):
        targets = list(node.targets)
        while targets:
            target = targets.pop()
            if isinstance(target, (ast.Tuple, ast.List)):
                targets += target.elts
            elif isinstance(target, ast.Starred):
                targets.append(target.value)
            elif isinstance(target, ast.Subscript):
                self.changed(target, "assigns into")
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        if isinstance(node.target, ast.Subscript):
            self.changed(node.target, "changes")
        self.generic_visit(node)

    def visit_Delete(self, node):
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                self.changed(target, "deletes from")
        self.generic_visit(node)

    def visit_Call(self, node):
        if isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
            name = self.root(node.func.value)
            if name is not None:
                self.found.append((node.lineno, f"{ast.unparse(node.func)}(): changes a queue record ({name})"))
        self.generic_visit(node)


def violations(source, relative):
    """-> ["path:line: what", ...] for one module's source."""
    tree = ast.parse(source, str(relative))
    found = [] if relative.parts[0] == "tests" else check_jsonfile(tree)
    modules, functions = queue_imports(tree, relative)
    if modules or functions:
        checker = RecordChanges(modules, functions)
        checker.learn(tree)
        checker.visit(tree)
        found += checker.found
    return [f"{relative}:{line}: {text}" for line, text in sorted(found)]


def test_only_scraper_queue_touches_the_queue_data():
    found = []
    for relative in project_files():
        found += violations((ROOT / relative).read_text(), relative)
    assert found == [], "change the queue through functions of scraper/queue.py:\n" + "\n".join(found)


def test_open_queue_is_kept_as_an_attribute_named_queue():
    """Rule 1 recognises the JsonFile by the attribute that holds it: keep that true."""
    holders = []
    for relative in project_files():
        if relative.parts[0] == "tests":
            continue
        for node in ast.walk(ast.parse((ROOT / relative).read_text())):
            if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                    and ast.unparse(node.value.func).endswith("open_queue")):
                holders += [f"{relative}:{node.lineno}: {ast.unparse(t)}" for t in node.targets
                            if not (isinstance(t, ast.Attribute) and t.attr == "queue")]
    assert holders == []


# What the rule is for: lines of daemon.py, jobs.py and api.py from before queue.py owned the data.
CAUGHT = [
    ("scraper/daemon.py", """
        from . import queue
        def paused(self):
            return self.queue.data["settings"]["paused"]
    """),
    ("scraper/daemon.py", """
        from . import queue
        def start(self):
            with self.queue.lock:
                keep = {j["id"] for j in queue.list_jobs(self.queue)}
    """),
    ("scraper/daemon.py", """
        from . import queue
        def _stalled(self, job, message):
            job["stalls"] += 1
    """),
    ("scraper/jobs.py", """
        from . import queue
        def _fill_chapter_info(d, source, entry, job):
            job["scope"]["info"][chapter_id] = dataclasses.asdict(listed[chapter_id])
    """),
    ("scraper/jobs.py", """
        from . import queue
        def _fill_chapter_info(d, source, entry, job):
            job["scope"]["chapters"].remove(chapter_id)
    """),
    ("scraper/api.py", """
        from . import queue
        def f(d):
            for j in queue.list_jobs(d.queue):
                j.update(state="done")
    """),
    ("scraper/api.py", """
        from . import queue
        def f(d):
            scope = queue.find(d.queue, "j1")["scope"]
            del scope["info"]
    """),
    ("scraper/api.py", """
        from scraper import queue as q
        def f(d):
            created, _ = q.add_job(d.queue, "add", "s")
            created["state"] = "done"
    """),
]


@pytest.mark.parametrize("path, source", CAUGHT)
def test_the_rule_catches_direct_access(path, source):
    assert violations(textwrap.dedent(source), Path(path)) != []


def test_the_rule_lets_reads_and_other_dicts_through():
    source = """
        from . import queue
        def f(d, job):
            view = {k: v for k, v in job.items()}
            view["scope"] = 1
            published = d.library.published(job["series"])
            published[job["id"]] = "x"
            d.job_progress.update(page=1)
            return queue.pending_chapters(d.queue, job)[0]
    """
    assert violations(textwrap.dedent(source), Path("scraper/jobs.py")) == []
