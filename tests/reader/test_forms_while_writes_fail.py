"""While DATA cannot be written, a settings form changes nothing and says so (mangacircus/pages.py)."""
import time

from tests.accounts.test_security_writes import SAVING_FAILS, failing_writes, saved
from tests.support.forms import post_form


def _until_writes_are_known_to_fail(client):
    """A change through the API, then its flush fails: from then on the API answers 503."""
    deadline = time.monotonic() + 5
    while client.post("/api/settings", {"flowPageGap": False})[0] != 503:
        assert time.monotonic() < deadline, "the failing write was never noticed"
        time.sleep(0.05)


def test_it_refuses_a_settings_form_while_writes_fail_and_changes_nothing(server, admin):
    with failing_writes(server, admin):
        _until_writes_are_known_to_fail(admin)
        status, headers, _ = post_form(admin, "/settings/user/reading/", {"skipCovers": "on", "startMode": "page"})
        assert status == 302
        assert SAVING_FAILS in admin.get(headers["Location"])[2]
        assert admin.get("/api/me")[2]["settings"]["skipCovers"] is False
    assert saved(server)["users"]["admin"]["settings"].get("skipCovers") is None
