"""JSON API of the signed-in user: who they are (GET /api/me) and their settings (POST /api/settings)."""
from mangacircus.http import api

from . import notes, prefs


@api()
def me(request):
    name = request.account["name"]
    return {
        "name": name, "admin": bool(request.account.get("admin")),
        "settings": prefs.get_settings(name), "unread": notes.unread_count(name),
    }


@api(methods=("POST",))
def update_settings(request):
    changes = prefs.validate_settings(request.data)
    return {"settings": prefs.update_settings(request.account["name"], changes)}
