"""Settings → Admin → Import (docs/import.md): the page, and POST /api/admin/import, which answers
the dry run of a file on the server, or with {"apply": true} imports it."""
from mangacircus.http import api, field, text_field
from mangacircus.pages import page, render_section

from . import actions


@page(auth="admin")
def import_page(request):
    return render_section(request, "settings/import.html", "admin", "import",
                          payload={"sources": sorted(actions.READERS), "default": "komga"})


@api(auth="admin", methods=("POST",))
def import_api(request):
    """{source, path, names: {user there: account here}, into (a Mihon backup's account), apply: bool};
    or for a running Komga, {source: "komga", url, login, password}, and for a running Kavita
    {source: "kavita", url, apiKey}, in place of path."""
    d = request.data
    if d.get("url") is not None and d.get("source") == "kavita":
        remote = {"url": text_field(d, "url", max_length=2048), "apiKey": text_field(d, "apiKey", max_length=1024)}
    elif d.get("url") is not None:
        remote = {"url": text_field(d, "url", max_length=2048), "login": text_field(d, "login", max_length=320),
                  "password": text_field(d, "password", max_length=1024)}
    else:
        remote = {"path": text_field(d, "path", max_length=4096)}
    return actions.run({"source": text_field(d, "source", max_length=20), **remote,
                        "names": field(d, "names", dict, required=False, default={}),
                        "into": text_field(d, "into", required=False, max_length=64),
                        "apply": field(d, "apply", bool, required=False, default=False)})
