"""page.evaluate with a limit. Playwright's evaluate has no timeout of its own: a promise that never
settles (the service worker's `ready` while there is none, an IndexedDB request whose error nobody
handles, an animation frame in a page that is not painted) would hold the test for ever."""


def answer(page, expression, seconds=10):
    """The value of a JavaScript expression (a promise is awaited), or an Error from Playwright naming
    the expression when it has not settled within `seconds`. The timer goes once it has settled, so
    a test polling with it leaves none behind in the page."""
    what = " ".join(expression.split())[:80]
    return page.evaluate(f"""([ms, what]) => new Promise((ok, no) => {{
  const timer = setTimeout(() => no(new Error(`no answer in ${{ms / 1000}} s: ${{what}}`)), ms);
  Promise.resolve(
{expression}
  ).then((value) => {{ clearTimeout(timer); ok(value); }}, (error) => {{ clearTimeout(timer); no(error); }});
}})""", [seconds * 1000, what])
