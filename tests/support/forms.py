"""Posting the server-rendered forms like a browser: the CSRF token from the page, urlencoded."""
import re
from urllib.parse import urlencode

TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def post_form(client, page, fields, action=None):
    """GET `page`, then POST `fields` with its CSRF token to `action` (default: the page itself)."""
    status, _, html = client.get(page)
    assert status == 200, (page, status)
    token = TOKEN.search(html).group(1).decode()
    body = urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
    return client.request("POST", action or page, raw=body,
                          headers={"Content-Type": "application/x-www-form-urlencoded"})
