"""Retention: the last N archives, one a week for M weeks, and never the newest verified one."""
import datetime

import pytest

from ops.backups import run, state


@pytest.fixture
def backups(tmp_path, settings):
    settings.DATA, settings.BACKUP = tmp_path / "data", tmp_path / "backup"
    settings.DATA.mkdir()
    settings.BACKUP.mkdir()
    state.STATE.open(settings.DATA)
    yield settings.BACKUP
    state.STATE.close()


def name(day, hour=3):
    return f"mangacircus-202611{day:02d}-{hour:02d}0000.tar.gz"


def make(folder, names):
    for n in names:
        (folder / n).write_bytes(b"archive")


def record(names_ok, names_failed=()):
    for n in names_ok:
        state.add_run({"started": 0, "ok": True, "archive": n, "trigger": "schedule"})
    for _ in names_failed:
        state.add_run({"started": 0, "ok": False, "archive": None, "error": "disk full", "trigger": "schedule"})


def test_it_keeps_the_last_n_and_ignores_failed_runs_when_counting(backups):
    days = list(range(1, 11))
    make(backups, [name(d) for d in days])
    record([name(d) for d in days], names_failed=range(5))
    state.update_settings({"retention": {"keep": 3, "weeks": 0}})
    removed = run.apply_retention()
    assert sorted(p.name for p in backups.iterdir()) == [name(8), name(9), name(10)]
    assert sorted(removed) == sorted(name(d) for d in range(1, 8))


def test_it_keeps_one_archive_a_week_for_m_weeks(backups):
    days = list(range(1, 29))  # four weeks of daily archives, 2026-11-01 .. 11-28
    make(backups, [name(d) for d in days])
    record([name(d) for d in days])
    state.update_settings({"retention": {"keep": 2, "weeks": 3}})
    run.apply_retention()
    kept = sorted(p.name for p in backups.iterdir())
    weeks = {datetime.date(2026, 11, int(n[18:20])).isocalendar()[1] for n in kept}
    assert name(28) in kept and name(27) in kept
    assert len(weeks) == 3 and len(kept) == 4  # the 2 newest, plus the newest of 2 earlier weeks


def test_it_never_deletes_the_newest_verified_archive(backups):
    # The three newest archives were copied in by hand (never verified here); the older are verified.
    make(backups, [name(d) for d in range(1, 8)])
    record([name(d) for d in range(1, 5)], names_failed=range(3))
    state.update_settings({"retention": {"keep": 2, "weeks": 0}})
    run.apply_retention()
    assert sorted(p.name for p in backups.iterdir()) == [name(4), name(6), name(7)]


def test_it_leaves_other_files_and_parts_alone(backups):
    make(backups, [name(1), name(2), name(3), "notes.txt", name(4) + ".part", "mangacircus-latest.tar.gz"])
    record([name(1), name(2), name(3)])
    state.update_settings({"retention": {"keep": 1, "weeks": 0}})
    run.apply_retention()
    assert sorted(p.name for p in backups.iterdir()) == sorted(
        [name(3), "notes.txt", name(4) + ".part", "mangacircus-latest.tar.gz"])
