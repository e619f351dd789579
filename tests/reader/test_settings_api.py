"""POST /api/settings validates every key docs/api.md lists and rejects the rest, naming the key."""
import pytest


def test_it_returns_defaults_in_me(admin):
    settings = admin.get("/api/me")[2]["settings"]
    assert settings["startMode"] == "last" and settings["adapt"] is True
    assert set(settings["zoom"]) == {"flow", "page", "book", "strip"}


def test_it_saves_a_partial_update_and_merges_zoom(admin):
    status, _, data = admin.post("/api/settings", {"startMode": "book", "zoom": {"page": 1.5}})
    assert status == 200
    assert data["settings"]["startMode"] == "book"
    assert data["settings"]["zoom"]["page"] == 1.5 and data["settings"]["zoom"]["flow"] == 1
    assert admin.get("/api/me")[2]["settings"]["zoom"]["page"] == 1.5


@pytest.mark.parametrize("body, named", [
    ({"startMode": "sideways"}, "startMode"),
    ({"lastMode": "last"}, "lastMode"),
    ({"adapt": "yes"}, "adapt"),
    ({"skipExtras": 1}, "skipExtras"),
    ({"zoom": {"page": 10}}, "zoom.page"),
    ({"zoom": {"poster": 1}}, "zoom.poster"),
    ({"zoom": 1}, "zoom"),
    ({"zoom": {"flow": True}}, "zoom.flow"),
    ({"webhook": "file:///etc/passwd"}, "webhook"),
    ({"webhookFormat": "xml"}, "webhookFormat"),
    ({"admin": True}, "admin"),
    ({"hash": "x"}, "hash"),
])
def test_it_rejects_bad_values_naming_the_key(admin, body, named):
    status, _, data = admin.post("/api/settings", body)
    assert status == 400
    assert data["error"].startswith(named)
    assert admin.get("/api/me")[2]["admin"] is True


def test_it_requires_a_session(guest):
    assert guest.post("/api/settings", {"adapt": False})[0] == 401


def test_the_merged_settings_never_change_the_defaults():
    from reader import prefs

    merged = prefs.merged_settings({"zoom": {"page": 2}, "startMode": "page"})
    merged["zoom"]["flow"] = 3
    assert prefs.DEFAULT_SETTINGS["zoom"] == {"flow": 1, "page": 1, "book": 1, "strip": 1}
    assert (merged["zoom"]["page"], merged["startMode"]) == (2, "page")
    assert prefs.merged_settings(None) == prefs.DEFAULT_SETTINGS
