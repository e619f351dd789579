"""How each cost grows with the library: the growth table, from the presets the bench has run.

Each run of `python -m bench` keeps its rows in <dir>/rows.json (the preset, its page count and,
for each row, the value and the ratio to its same-run baseline). The growth table puts the runs of
the different presets side by side, smallest first, and gives each row two exponents between the
smallest and the largest run that have it:

- of its value against the page count: 1 is linear, 0 flat (for a rate, pages a second, 0 means
  the time grows linearly);
- of its ratio to its own floor (the raw walk, the raw write...): 0 means it grows exactly as the
  floor does, which is what can be asked of a cost that must touch every page.

    python -m bench.growth [DIR ...]        (default: every bench/out/*/rows.json)
"""
import json
import math
import sys
from pathlib import Path

from .generate import OUT

FILE = "rows.json"


def save(folder, preset, pages, rows):
    """Keep this run's rows beside its library, for the growth table."""
    kept = [{"name": r.name, "value": r.value, "ratio": r.ratio} for r in rows if r.value is not None]
    (Path(folder) / FILE).write_text(json.dumps({"preset": preset, "pages": pages, "rows": kept}, indent=1))


def load(folders=None):
    """The kept runs, smallest library first."""
    paths = [Path(f) / FILE for f in folders] if folders else sorted(OUT.glob(f"*/{FILE}"))
    runs = [json.loads(p.read_text()) for p in paths if p.is_file()]
    return sorted(runs, key=lambda run: run["pages"])


def exponent(a, b, pages_a, pages_b):
    if not a or not b or a <= 0 or b <= 0 or pages_a == pages_b:
        return None
    return math.log(b / a) / math.log(pages_b / pages_a)


def _figure(value):
    return "—" if value is None else f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def table(runs):
    """The growth table as text; None with fewer than two runs of different sizes."""
    if len({run["pages"] for run in runs}) < 2:
        return None
    names = list(dict.fromkeys(row["name"] for run in runs for row in run["rows"]))
    by_run = [{row["name"]: row for row in run["rows"]} for run in runs]
    heads = [f"{run['preset']} ({run['pages']:,} p.)" for run in runs]
    width = max(len(n) for n in names)
    lines = ["growth with the library (python -m bench.growth): each value per preset; exponents of the value "
             "and of its ratio to its floor against the page count", "",
             "  ".join([f"{'row':<{width}}", *(f"{h:>18}" for h in heads),
                        f"{'value exp.':>10}", f"{'ratio exp.':>10}"])]
    for name in names:
        have = [(run, rows[name]) for run, rows in zip(runs, by_run) if name in rows]
        cells = [_figure(rows[name]["value"]) if name in rows else "—" for rows in by_run]
        (first, a), (last, b) = have[0], have[-1]
        value_exp = exponent(a["value"], b["value"], first["pages"], last["pages"])
        ratio_exp = exponent(a["ratio"], b["ratio"], first["pages"], last["pages"])
        lines.append("  ".join([f"{name:<{width}}", *(f"{c:>18}" for c in cells),
                                f"{'—' if value_exp is None else f'{value_exp:+.2f}':>10}",
                                f"{'—' if ratio_exp is None else f'{ratio_exp:+.2f}':>10}"]))
    return "\n".join(lines)


def main(argv=None):
    runs = load(argv if argv else None)
    text = table(runs)
    if text is None:
        print("the growth table needs runs of two presets of different sizes (python -m bench --preset ...); "
              f"found {len(runs)}", file=sys.stderr)
        return 1
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
