"""Helpers for tests of the library, manga and notification pages: waiting for the first scan,
adding notifications as an announcement would, fresh users, signing in through the form."""
import itertools
import json
import time

from tests.conftest import PASSWORD

_names = itertools.count(1)


def wait_for_library(client, count, timeout=15, prefix=""):
    """Poll GET /api/library until the index holds `count` manga (the first scan runs in the background)."""
    deadline = time.monotonic() + timeout
    data = None
    while time.monotonic() < deadline:
        status, _, data = client.get(prefix + "/api/library?limit=0")
        if status == 200 and data["count"] == count:
            return data
        time.sleep(0.1)
    raise AssertionError(f"the library did not reach {count} manga: {data}")


def add_notes(server, user, notes):
    """Stop the server, append notifications for `user` to db.json as an announcement would, restart."""
    add_notes_for(server, {user: notes})


def add_notes_for(server, notes_by_user):
    """add_notes() for several users ({user: notes}) in one restart."""
    server.stop()
    path = server.data / "db.json"
    db = json.loads(path.read_text())
    for user, notes in notes_by_user.items():
        db["notes"].setdefault(user, []).extend(notes)
    path.write_text(json.dumps(db))
    server.start()


def fresh_reader(server, prefix="reader"):
    """A new plain user on the server (password PASSWORD); returns the name."""
    name = f"{prefix}{next(_names)}"
    admin = server.client().login("admin")
    assert admin.post("/api/admin/user", {"name": name, "password": PASSWORD})[0] == 200
    return name


def sign_in(context, server, name, password=PASSWORD, path="/"):
    """Sign in through the login form in a new tab; returns the page, at `path`."""
    page = context.new_page()
    page.goto(server.url + "/login/?next=" + path)
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_url(server.url + path)
    return page
