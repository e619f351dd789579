"""Settings → Admin → Backups as an operator list: filter and search, bulk verify, bulk delete with a
confirmation step (the newest verified archive is kept), a message after each action."""
import re
from urllib.parse import urlencode

import pytest

from ops.backups import archive, state
from tests.support.forms import TOKEN

PAGE = "/settings/admin/backups/"


@pytest.fixture
def server(data_dir, library_dir, tmp_path):
    from tests.support.app import AppServer

    srv = AppServer(data_dir, library_dir, env={"BACKUP": str(tmp_path / "backup")}).start()
    yield srv
    srv.stop()


def post(client, fields):
    token = TOKEN.search(client.get(PAGE)[2]).group(1).decode()
    body = urlencode([("csrfmiddlewaretoken", token), *fields]).encode()
    return client.request("POST", PAGE, raw=body, headers={"Content-Type": "application/x-www-form-urlencoded"})


def listed(html):
    return re.findall(r'name="names" value="([^"]+)"', html.decode())


def make(folder, data_dir):
    folder.mkdir(exist_ok=True)
    names = [f"mangacircus-2026110{d}-030000.tar.gz" for d in range(1, 5)]
    for name in names:
        archive.write(folder / name, archive.collect(data_dir, {}))
    for name in names[:3]:
        state.add_run({"started": 0, "ok": True, "archive": name, "trigger": "schedule"})
    (folder / names[0]).write_bytes((folder / names[0]).read_bytes()[:-20])  # damaged after the run
    return names


def test_it_filters_verifies_and_deletes_with_a_confirmation(server, admin, data_dir, tmp_path):
    names = make(tmp_path / "backup", data_dir)
    assert listed(admin.get(PAGE + "?show=verified")[2]) == names[2::-1]
    assert listed(admin.get(PAGE + "?show=unverified")[2]) == [names[3]]
    assert listed(admin.get(PAGE + "?q=20261102")[2]) == [names[1]]
    post(admin, [("command", "verify"), ("names", names[0]), ("names", names[1])])
    page = admin.get(PAGE)[2].decode()
    assert f"{names[0]}: NOT verified" in page and "1 of 2 archives verified." in page
    status, _, html = post(admin, [("command", "delete"), ("names", names[0]), ("names", names[1])])
    assert status == 200 and b"Delete 2 archives?" in html and (tmp_path / "backup" / names[0]).exists()
    status, _, _ = post(admin, [("command", "delete"), ("names", names[0]), ("names", names[1]), ("confirm", "yes")])
    assert status == 302 and not (tmp_path / "backup" / names[0]).exists()
    assert "2 archives deleted." in admin.get(PAGE)[2].decode()
    # The newest verified archive (the third) is kept, as retention keeps it.
    post(admin, [("command", "delete"), ("names", names[2]), ("confirm", "yes")])
    assert (tmp_path / "backup" / names[2]).exists()
    assert "is the newest verified archive" in admin.get(PAGE)[2].decode()
    status, _, html = post(admin, [("command", "delete"), ("names", "../db.json"), ("confirm", "yes")])
    assert status == 404 and b"no archive" in html and (data_dir / "db.json").exists()
