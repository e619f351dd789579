"""Performance marks of the reader: navigation → first page painted, and page turns in Page and
Book mode. The figures are printed (run with -s); the test checks that the marks are recorded."""
import statistics

import pytest

MOON = "Moon Garden"


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


def first_paint(reader):
    reader.wait("performance.getEntriesByName('mc-first-page').length > 0")
    return reader.page.evaluate("performance.getEntriesByName('mc-first-page')[0].startTime")


@pytest.mark.parametrize("mode", ["page", "book", "flow"])
def test_it_marks_the_first_page_painted(srv, desktop, reader_on, mode):
    reader = reader_on(desktop, srv, startMode=mode)
    times = []
    for _ in range(5):
        reader.open(MOON, 1, 3)
        times.append(first_paint(reader))
    assert all(0 < t < 5000 for t in times)
    print(f"\nfirst page painted, {mode} mode: median {statistics.median(times):.0f} ms "
          f"(runs: {', '.join(f'{t:.0f}' for t in times)})")


@pytest.mark.parametrize("mode", ["page", "book"])
def test_it_measures_page_turns(srv, desktop, reader_on, mode):
    reader = reader_on(desktop, srv, startMode=mode).open(MOON, 1, 3)
    first_paint(reader)
    reader.page.keyboard.press("m")  # hide the bars first: their slide-out is not the turn
    turns = []
    for _ in range(4):
        # Wait for the preloads, as a reader who looks at a page for a moment would.
        reader.wait("mcReader.decoded.length >= 3 && (() => { const s = mcReader.spreads;"
                    " const k = s.findIndex((p) => p.includes(mcReader.page));"
                    " return !s[k + 1] || s[k + 1].every((i) => mcReader.decoded.includes(i)); })()")
        reader.page.keyboard.press("ArrowLeft")
        reader.wait(f"performance.getEntriesByName('mc-turn').length > {len(turns)}")
        turns.append(reader.page.evaluate("performance.getEntriesByName('mc-turn').slice(-1)[0].duration"))
    assert all(0 < t < 1000 for t in turns)
    print(f"\npage turn, {mode} mode (preloaded, input → painted): median {statistics.median(turns):.1f} ms "
          f"(turns: {', '.join(f'{t:.1f}' for t in turns)})")
