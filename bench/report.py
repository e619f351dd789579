"""Rows of the benchmark table: a figure, its baseline from the same run, the ratio, the target.

A target holds either the ratio (`ratio >= 0.6`) or the value itself (`value <= 1.5`). A row that
could not be measured carries a note instead and counts as neither met nor missed.
"""
import os
from dataclasses import dataclass

OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b}


@dataclass
class Target:
    on: str  # "ratio" or "value"
    op: str  # ">=" or "<="
    limit: float
    text: str  # as printed, e.g. "≥ 0.6× raw"

    def met(self, row):
        """False when the figure it judges is missing (a baseline that measured nothing has no ratio)."""
        figure = row.ratio if self.on == "ratio" else row.value
        return figure is not None and OPS[self.op](figure, self.limit)


@dataclass
class Row:
    name: str
    value: float | None = None
    shown: str = ""  # the value as printed, with its unit and any detail
    baseline: str = ""  # what the baseline is and its value
    ratio: float | None = None
    target: Target | None = None
    note: str = ""  # why there is no figure, or what to know about it

    @property
    def status(self):
        if self.value is None:
            return "n/a"
        if self.target is None:
            return ""
        return "ok" if self.target.met(self) else "MISS"


def target(spec):
    """'ratio >= 0.6 | ≥ 0.6× raw' → Target."""
    rule, _, text = spec.partition("|")
    on, op, limit = rule.split()
    return Target(on, op, float(limit), text.strip())


def skipped(name, why, target_spec=None):
    return Row(name, note=why, target=target(target_spec) if target_spec else None)


COLUMNS = [("figure", 41), ("value", 36), ("same-run baseline", 42), ("ratio", 7), ("target", 14), ("", 4)]


def _fit(text, width):
    return text if len(text) <= width else text[:width - 1] + "…"


def table(rows, header):
    """The table as text: a header line, the column titles, one line per row, notes under it."""
    lines = [header, ""]
    lines.append("  ".join(title.ljust(width) for title, width in COLUMNS).rstrip())
    lines.append("  ".join("-" * width for _title, width in COLUMNS))
    notes = []
    for row in rows:
        ratio = f"{row.ratio:.2f}×" if row.ratio is not None else "—"
        cells = [row.name, row.shown or "—", row.baseline or "—", ratio,
                 row.target.text if row.target else "—", row.status]
        lines.append("  ".join(_fit(c, w).ljust(w) for c, (_t, w) in zip(cells, COLUMNS)).rstrip())
        if row.note:
            notes.append(f"  [{len(notes) + 1}] {row.name}: {row.note}")
            lines[-1] += f"  [{len(notes)}]"
    if notes:
        lines += ["", "notes:", *notes]
    return "\n".join(lines)


def machine(load=None):
    """One line about the machine: CPUs, memory, the load average (`load`: as taken before the run)."""
    load = load or os.getloadavg()
    try:
        with open("/proc/meminfo") as f:
            total = int(f.readline().split()[1]) // 1024
    except OSError:
        total = 0
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            model = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "")
    except OSError:
        pass
    return (f"{os.cpu_count()} CPUs ({model or 'unknown model'}), {total:,} MB RAM, "
            f"load average before the run {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
