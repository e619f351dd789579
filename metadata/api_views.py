"""/api/admin/metadata: the matching screen's JSON API (docs/metadata.md, "The admin's part")."""
from mangacircus.http import api, text_field

from . import matches


def _name(request):
    return text_field(request.data, "m", max_length=1000)


@api(auth="admin")
def overview(request):
    return matches.overview()


@api(auth="admin", methods=("POST",))
def accept(request):
    return matches.accept(request.account["name"], _name(request), text_field(request.data, "provider", max_length=40),
                          text_field(request.data, "id", max_length=100))


@api(auth="admin", methods=("POST",))
def accept_above(request):
    return {"accepted": matches.accept_above(request.account["name"], request.data.get("score"))}


@api(auth="admin", methods=("POST",))
def set_aside(request):
    matches.set_aside(request.account["name"], _name(request))
    return {}


@api(auth="admin", methods=("POST",))
def search_again(request):
    matches.search_again(_name(request))
    return {}
