"""The Reading Story (docs/reader.md, "Reading Story"): private retrospective summaries of one user's
Active Reading Clock history, for that user only. Off when the readingStory setting is off or the
clock has no history. Days are the server's local days (reader.reading_clock.day_key).
"""
import datetime

from mangacircus.clock import now_ms
from reader import lookup, prefs, progress, reading_clock

from . import summaries

MOST = 3


def _today(ms=None):
    return datetime.date.fromisoformat(reading_clock.day_key(now_ms() if ms is None else ms))


def _streaks(days, today):
    """(current, longest) runs of consecutive days with reading; the current run may end yesterday."""
    dates = sorted(datetime.date.fromisoformat(d) for d, ms in days.items() if ms > 0)
    longest = run = 0
    previous = None
    for d in dates:
        run = run + 1 if previous is not None and (d - previous).days == 1 else 1
        longest = max(longest, run)
        previous = d
    current = run if previous is not None and (today - previous).days <= 1 else 0
    return current, longest


def summary(user, now=None):
    """None when off or without history; else {weekMs, monthMs, totalMs, days, streak, longestStreak,
    finished, finishedThisMonth, most: [{name, title, url, ms}]}."""
    if not prefs.get_settings(user).get("readingStory"):
        return None
    history = reading_clock.history(user)
    if not any(e["totalActiveMs"] for chapters in history.values() for e in chapters.values()):
        return None
    today = _today(now)
    week, month = today - datetime.timedelta(days=6), today - datetime.timedelta(days=29)
    per_day, per_manga = {}, {}
    for manga, chapters in history.items():
        per_manga[manga] = sum(e["totalActiveMs"] for e in chapters.values())
        for e in chapters.values():
            for day, ms in e["days"].items():
                per_day[day] = per_day.get(day, 0) + ms

    def within(start):
        return sum(ms for day, ms in per_day.items() if start <= datetime.date.fromisoformat(day) <= today)

    current, longest = _streaks(per_day, today)
    finished, this_month = _finished(user, today.replace(day=1))
    by_name = summaries.by_name()
    most = sorted(((ms, m) for m, ms in per_manga.items() if ms > 0), key=lambda x: (-x[0], x[1]))[:MOST]
    return {
        "weekMs": within(week), "monthMs": within(month), "totalMs": sum(per_manga.values()),
        "days": sum(1 for ms in per_day.values() if ms > 0), "streak": current, "longestStreak": longest,
        "finished": finished, "finishedThisMonth": this_month,
        "most": [{"name": m, "title": by_name[m].title if m in by_name else m,
                  "url": lookup.manga_url(m) if m in by_name else None, "ms": ms} for ms, m in most],
    }


def _finished(user, month_start):
    """(series the user finished, of them those whose last chapter was finished this month)."""
    by_name = summaries.by_name()
    start_ms = datetime.datetime.combine(month_start, datetime.time()).timestamp() * 1000
    count = recent = 0
    for name, chapters in progress.all_progress(user).items():
        summary = by_name.get(name)
        if summary is None or not summary.chapter_ids:
            continue
        if all((chapters.get(cid) or {}).get("done") for cid in summary.chapter_ids):
            count += 1
            recent += max((chapters[cid].get("t") or 0) for cid in summary.chapter_ids) >= start_ms
    return count, recent


def chapter_times(user, manga_name):
    """{chapter id: active ms} for the manga page, or None when the Reading Story is off or empty."""
    if not prefs.get_settings(user).get("readingStory"):
        return None
    times = reading_clock.chapter_times(user, manga_name)
    return times if any(times.values()) else None
