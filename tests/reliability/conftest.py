"""The reliability battery's figures: each case records its count, pass criterion and measured
value in the session's Figures (support.py), printed as one table at the end of the run, with
the profile and the time the battery took. Under pytest-xdist each worker sends its figures to
the controlling process, which prints them all."""
import contextlib
import dataclasses
import re
import time
from pathlib import Path

import pytest

from tests.reliability.support import PROFILE, CannotMount, Figure, Figures, mounted

_KEY = pytest.StashKey[Figures]()
HERE = Path(__file__).parent


@pytest.fixture(scope="session")
def figures(request):
    return request.config.stash.setdefault(_KEY, Figures())


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """Times each battery test, setup and teardown included (the hook sees every test of the run)."""
    started = time.monotonic()
    try:
        return (yield)
    finally:
        if Path(item.path).is_relative_to(HERE):
            item.config.stash.setdefault(_KEY, Figures()).durations[item.nodeid] = time.monotonic() - started


def pytest_sessionfinish(session):
    found = session.config.stash.get(_KEY, None)
    if found is not None and hasattr(session.config, "workeroutput"):  # an xdist worker
        session.config.workeroutput["reliability"] = {
            "rows": [dataclasses.asdict(row) for row in found.rows], "durations": found.durations}


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """xdist: a worker's figures, into the controlling process's table."""
    sent = getattr(node, "workeroutput", {}).get("reliability")
    if sent:
        found = node.config.stash.setdefault(_KEY, Figures())
        found.rows += [Figure(**row) for row in sent["rows"]]
        found.durations.update(sent["durations"])


def pytest_terminal_summary(terminalreporter, config):
    found = config.stash.get(_KEY, None)
    if found is None or not found.rows:
        return
    write = terminalreporter.write_line
    terminalreporter.section(f"reliability battery (REL_PROFILE={PROFILE})")
    widths = [max(len(getattr(r, k)) for r in found.rows) for k in ("case", "what", "count")]
    for row in sorted(found.rows, key=lambda r: _order(r.case)):
        write(f"{row.case:<{widths[0]}}  {row.what:<{widths[1]}}  n={row.count:<{widths[2]}}  "
              f"{row.result}")
        if not row.result.startswith("skipped"):
            write(f"{'':<{widths[0]}}  criterion: {row.criterion}")
            write(f"{'':<{widths[0]}}  measured:  {row.measured}")
    counts = {kind: sum(r.result.startswith(kind) for r in found.rows) for kind in ("pass", "FAIL", "skipped")}
    write(f"{len(found.rows)} figures: {counts['pass']} pass, {counts['FAIL']} fail, "
          f"{counts['skipped']} skipped; "
          f"the battery's tests took {sum(found.durations.values()):.0f} s "
          f"({len(found.durations)} tests, REL_PROFILE={PROFILE})")


def _order(case):
    """D1, D1b, D2 ... S1, Q1: the battery's order, then the number, then the rest."""
    match = re.match(r"([A-Z]+)(\d*)(.*)", case)
    family, number, rest = match.groups() if match else (case, "", "")
    return "DSLPACWRQ".find(family[:1]), family, int(number or 0), rest


@pytest.fixture
def mount(figures):
    """mount(case, what, kind, where, size) → `where`, mounted (support.mounted) until the test ends;
    where the machine does not allow it, the case is recorded and skipped with the reason."""
    with contextlib.ExitStack() as stack:
        def make(case, what, kind, where, size=None):
            try:
                return stack.enter_context(mounted(kind, where, size))
            except CannotMount as e:
                figures.skip(case, what, str(e))

        yield make
