"""Settings → Admin → Incidents & health as an operator list: filters and search at the side,
bulk acknowledge with a confirmation step, a message after each action."""
import re
import zoneinfo
from urllib.parse import urlencode

from mangacircus import incidents
from mangacircus.wording import parse_iso
from tests.support.forms import TOKEN

PAGE = "/settings/admin/health/"


def post(client, fields, page=PAGE):
    token = TOKEN.search(client.get(page)[2]).group(1).decode()
    body = urlencode([("csrfmiddlewaretoken", token), *fields]).encode()
    return client.request("POST", PAGE, raw=body, headers={"Content-Type": "application/x-www-form-urlencoded"})


def shown(html):
    return re.findall(r'<p>([^<]*)</p>', html)


def seed(data_dir):
    made = [incidents.record("stall", "scraper", "job j1 stalled twice", data_dir=data_dir),
            incidents.record("scan-failed", "reader", "the scan failed: EIO", data_dir=data_dir),
            incidents.record("crash-loop", "scraper", "scraper exited 6 times", data_dir=data_dir,
                             log=["Traceback", "OSError: address already in use"]),
            incidents.record("stall", "scraper", "job j2 stalled twice", data_dir=data_dir)]
    return [i["id"] for i in made]


def test_it_filters_by_state_kind_and_service_and_searches_messages_and_logs(server, admin, data_dir):
    ids = seed(data_dir)
    incidents.acknowledge(ids[0], "admin", data_dir=data_dir)
    page = admin.get(PAGE)[2].decode()
    assert "job j2 stalled twice" in shown(page) and "job j1 stalled twice" not in shown(page)
    assert "stall (1 open)" in page and "scraper (2 open)" in page and "3 open · 4 in all" in page
    assert shown(admin.get(PAGE + "?state=acknowledged")[2].decode())[-1:] == ["job j1 stalled twice"]
    assert [m for m in shown(admin.get(PAGE + "?state=all&kind=stall")[2].decode()) if "job" in m] == [
        "job j2 stalled twice", "job j1 stalled twice"]
    assert "the scan failed: EIO" in shown(admin.get(PAGE + "?service=reader")[2].decode())
    found = shown(admin.get(PAGE + "?q=ADDRESS+already")[2].decode())  # in the log lines, any case
    assert "scraper exited 6 times" in found and "job j2 stalled twice" not in found
    assert "No incident matches." in admin.get(PAGE + "?kind=disk-full")[2].decode()


def test_it_asks_before_acknowledging_several_and_says_what_it_did(server, admin, data_dir):
    ids = seed(data_dir)
    status, _, html = post(admin, [("ids", ids[1]), ("ids", ids[2]), ("query", "kind=")])
    assert status == 200 and b"Acknowledge 2 incidents?" in html and incidents.open_count(data_dir) == 4
    status, headers, _ = post(admin, [("ids", ids[1]), ("ids", ids[2]), ("confirm", "yes"), ("query", "kind=")])
    assert status == 302 and headers["Location"].endswith("?kind=")
    assert incidents.open_count(data_dir) == 2
    page = admin.get(PAGE)[2].decode()
    assert "2 incidents acknowledged." in page
    # One row's own button needs no confirmation, even with other boxes ticked.
    status, _, _ = post(admin, [("ids", ids[0]), ("ids", ids[3]), ("acknowledge", ids[3])])
    assert status == 302 and incidents.open_count(data_dir) == 1
    assert "1 incident acknowledged." in admin.get(PAGE)[2].decode()
    status, _, _ = post(admin, [])
    assert "select at least one incident" in admin.get(PAGE)[2].decode()


def test_it_writes_each_incident_time_as_every_other_page_does(server, admin, data_dir, settings):
    """The list showed 2026-12-02T03:25:50+0000, the only ISO time left on any page."""
    made = incidents.record("stall", "scraper", "job j1 stalled twice", data_dir=data_dir)
    incidents.acknowledge(made["id"], "admin", data_dir=data_dir)
    page = admin.get(PAGE + "?state=all")[2].decode()
    local = parse_iso(made["time"]).astimezone(zoneinfo.ZoneInfo(settings.TIME_ZONE))
    assert f"· scraper · {local:%Y-%m-%d %H:%M}</span>" in page
    assert f"Acknowledged by admin at {local:%Y-%m-%d} " in page
    assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", page)
