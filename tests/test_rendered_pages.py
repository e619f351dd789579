"""No page shows template syntax as text: Django's {# #} comment ends on its own line, so a comment
spread over two lines is printed on the page, and so is a tag the template engine did not take.

Every HTML page the authorisation matrix GETs is rendered for each persona that may see it."""
import re

from tests.a11y.test_axe import NOT_PAGES
from tests.test_authz_matrix import MATRIX, PERSONAS, personas, server  # noqa: F401 (fixtures)

LEFT_OVER = re.compile(r"\{[#%]|[#%]\}")


def html_pages():
    """(persona, path) of every 200 HTML page of the matrix."""
    for _, method, path, _, *statuses in MATRIX:
        if method != "GET" or path.startswith(NOT_PAGES):
            continue
        for persona, status in zip(PERSONAS, statuses):
            if status == 200:
                yield persona, path


def test_it_renders_no_template_syntax_as_text_on_any_page(personas):  # noqa: F811
    clients = {name: make() for name, make in personas.items()}
    leaks, checked = [], set()
    for persona, path in html_pages():
        status, headers, body = clients[persona].get(path)
        if status != 200 or not headers.get("Content-Type", "").startswith("text/html"):
            continue
        checked.add(path)
        text = body.decode()
        for match in LEFT_OVER.finditer(text):
            leaks.append(f"{path} as {persona}: {text[max(0, match.start() - 40):match.end() + 40]!r}")
    assert {"/manga/Moon%20Garden/", "/login/", "/settings/user/reading/", "/settings/admin/health/"} <= checked
    assert leaks == []
