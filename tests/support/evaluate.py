"""page.evaluate with a limit. Playwright's evaluate has no timeout of its own: a promise that never
settles (the service worker's `ready` while there is none, an IndexedDB request whose error nobody
handles, an animation frame in a page that is not painted) would hold the test for ever."""


def answer(page, expression, seconds=10):
    """The value of a JavaScript expression (a promise is awaited), or an Error from Playwright naming
    the expression when it has not settled within `seconds`."""
    short = " ".join(expression.split())[:80].replace("\\", "\\\\").replace("'", "\\'")
    return page.evaluate(f"Promise.race([Promise.resolve(\n{expression}\n), new Promise((_, no) => setTimeout("
                         f"() => no(new Error('no answer in {seconds} s: {short}')), {seconds * 1000}))])")
