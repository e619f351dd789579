"""A page turn in the reader, from the key press to the next frame, in Debian's Chromium (Playwright).

The figure is the browser's own: the Event Timing API's duration of each keydown, the time from the
key press to the next frame presented after its handlers ran, in steps of 8 ms as the browser gives
it. The browser reports only events of 16 ms or more; the others count as under 16 ms, that is within
one frame at 60 Hz. Each turn waits until the pages around the current one are decoded, as they are
for a reader who looks at each page for a moment: the preloaded turn. The baseline, pressed after
each turn: Shift, which the reader ignores, so what any key costs this browser up to the next frame.
"""
import time
from urllib.parse import quote

from .firstpage import signed_in_page
from .report import Row, skipped, target

NAME = "reader: preloaded page turn, key to frame"
TARGET = "value <= 16 | p95 ≤ 16 ms"
UNDER = 8  # what an unreported event counts as: under the 16 ms the browser reports from

# Each keydown's key by its time stamp, and the durations the browser reports by the same stamp.
OBSERVE = """window.mcKeys = {pressed: [], slow: []};
addEventListener('keydown', (e) => mcKeys.pressed.push([e.timeStamp, e.key]), true);
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) if (e.name === 'keydown') mcKeys.slow.push([e.startTime, e.duration]);
}).observe({type: 'event', durationThreshold: 16, buffered: true});"""
# The current page's position among the shown ones, and whether the page a turn by `step` shows is
# decoded.
AT = "mcReader.shown.indexOf(mcReader.page)"
READY = f"(step) => mcReader.decoded.includes(mcReader.shown[{AT} + step])"


def _wait(page, expression, arg=None, timeout=10):
    """Poll: the reader's CSP forbids the eval that wait_for_function would need."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            state = page.evaluate("[mcReader.page, mcReader.decoded, mcReader.shown.length]")
            raise TimeoutError(f"{expression} ({arg}), with [page, decoded, shown]: {state}")
        time.sleep(0.02)


def _p95(values):
    values = sorted(values)
    return values[min(len(values) - 1, int(0.95 * len(values)))]


def _press(page, key):
    page.keyboard.press(key)
    time.sleep(0.1)


def durations(server, cookie, manga, cid, turns):
    """(durations of the presses that turned a page, of the Shift presses) in ms, UNDER when not reported."""
    book, chapter = cid.split("/")
    url = f"{server.url}/read/{quote(manga, safe='')}/{book}/{chapter}/"
    with signed_in_page(server, cookie) as page:
        page.add_init_script(OBSERVE)
        page.goto(url)
        _wait(page, "performance.getEntriesByName('mc-first-page').length > 0")
        mode = page.evaluate("mcReader.mode")
        before = page.evaluate(AT)
        _press(page, "ArrowLeft")  # which key goes forward: the chapter's direction decides
        keys = {1: "ArrowLeft", -1: "ArrowRight"} if page.evaluate(AT) > before else \
            {1: "ArrowRight", -1: "ArrowLeft"}
        time.sleep(0.3)  # that first turn hid the bars: their 0.18 s slide-out is not part of a page turn
        last, step, turned = page.evaluate("mcReader.shown.length") - 1, 1, []
        for _ in range(turns if last > 0 else 0):  # back and forth, never onto the end card
            at = page.evaluate(AT)
            step = -1 if at >= last else 1 if at <= 0 else step
            _wait(page, READY, step)
            _press(page, keys[step])
            turned.append(page.evaluate(AT) == at + step)
            _press(page, "Shift")
        time.sleep(0.5)  # the last entries
        log = page.evaluate("mcKeys")
    slow = {round(stamp, 1): duration for stamp, duration in log["slow"]}
    timed = [(key, slow.get(round(stamp, 1), UNDER)) for stamp, key in log["pressed"]][1:]  # not the probe
    page_turns = [d for (key, d), made in zip((t for t in timed if t[0] != "Shift"), turned) if made]
    return page_turns, [d for key, d in timed if key == "Shift"], mode


def row(server, cookie, manga, cid, turns=40):
    try:
        import playwright  # noqa: F401
    except ImportError:
        return skipped(NAME, "Playwright is not installed (pip install '.[dev]')", TARGET)
    pressed, shift, mode = durations(server, cookie, manga, cid, turns)
    if not pressed:
        return Row(NAME, value=float("inf"), shown="no page turned", target=target(TARGET))

    def shown(values):
        over = sum(1 for v in values if v > 16)
        p95 = _p95(values)
        return f"p95 {'under 16' if p95 == UNDER else f'{p95:.0f}'} ms, {over} of {len(values)} over 16 ms"

    value = _p95(pressed)
    return Row(NAME, value=value, shown=shown(pressed), baseline=f"Shift (ignored) {shown(shift)}",
               ratio=value / _p95(shift), target=target(TARGET),
               note=f"{len(pressed)} page turns of {turns} presses, back and forth in a {mode}-mode chapter; "
                    "the browser gives durations in 8 ms steps, from 16 ms; one under it counts as 8")
