"""The links every page renders: `{% route %}` (mangacircus/templatetags/mc.py) and the hashed
static URLs (mangacircus/staticstorage.py) are worked out once and kept, so they must still follow
the app's root and never keep a URL the storage could not hash."""
from django.template import engines
from django.urls import clear_script_prefix, reverse, set_script_prefix

from mangacircus.staticstorage import StaticStorage


def render(source):
    return engines["django"].from_string(source).render({})


def test_route_gives_what_url_gives_under_each_app_root():
    try:
        for prefix in ("/", "/mc/", "/", "/other/"):
            set_script_prefix(prefix)
            assert render("{% route 'mc-home' %}") == render("{% url 'mc-home' %}") == prefix
            assert render("{% route 'mc-history' %}") == reverse("mc-history") == prefix + "history/"
    finally:
        clear_script_prefix()


def test_a_hashed_static_url_is_kept_and_an_unhashed_one_is_not(tmp_path):
    (tmp_path / "staticfiles.json").write_text('{"paths": {"css/app.css": "css/app.0123abcd.css"}, "version": "1.1"}')
    storage = StaticStorage(location=str(tmp_path), base_url="/static/")
    assert storage.url("css/app.css") == "/static/css/app.0123abcd.css"
    storage.hashed_files["css/app.css"] = "css/app.ffff.css"  # what a new manifest would say
    assert storage.url("css/app.css") == "/static/css/app.0123abcd.css"  # kept for the process
    assert storage.url("js/new.js") == "/static/js/new.js"  # not collected: the plain URL, not kept
    storage.hashed_files["js/new.js"] = "js/new.1111.js"
    assert storage.url("js/new.js") == "/static/js/new.1111.js"
