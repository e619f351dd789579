"""Settings → Admin → Metadata: manga that wait for an admin, their candidates side by side
(server-rendered forms, post/redirect/get), and the candidates' covers."""
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods

from catalog import provided
from library import files
from mangacircus.errors import Invalid, NotFound
from mangacircus.pages import page, render_section

from . import matches, providers

SHOWN = 100  # manga listed at once; the rest follow once these are decided


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def review(request):
    if request.method == "POST":
        messages.success(request, _act(request.account["name"], request.POST))
        return HttpResponseRedirect(request.get_full_path())
    view = matches.overview()
    names = {key: provided.provider(key) for key in providers.ALL}
    for item in view["waiting"]:
        for candidate in item["candidates"]:
            candidate["providerName"] = names.get(candidate["provider"], {}).get("name", candidate["provider"])
    return render_section(request, "metadata/review.html", "admin", "metadata", view=view,
                          waiting=view["waiting"][:SHOWN], shown=SHOWN, providers=[names[k] for k in providers.ALL],
                          enabled=settings.METADATA_PROVIDERS)


def _act(by, post):
    action, name = post.get("action"), post.get("m", "")
    if action == "accept":
        found = matches.accept(by, name, post.get("provider", ""), post.get("id", ""))
        return (_("%(name)s is matched to %(provider)s %(id)s.")
                % {"name": name, "provider": provided.provider(found["provider"])["name"], "id": found["id"]})
    if action == "accept-above":
        try:
            score = float(post.get("score", ""))
        except ValueError:
            raise Invalid(_("the score must be a number from 0 to 1, such as 0.8")) from None
        taken = matches.accept_above(by, score)
        if not taken:
            return _("No manga had a candidate that high.")
        return ngettext("Accepted the best candidate of %(n)s manga.", "Accepted the best candidate of %(n)s manga.",
                        len(taken)) % {"n": len(taken)}
    if action == "set-aside":
        matches.set_aside(by, name)
        return _("%(name)s is set aside: no provider's entry is taken for it.") % {"name": name}
    if action == "search-again":
        matches.search_again(name)
        return _("%(name)s is looked up again at the worker's next pass.") % {"name": name}
    raise Invalid(_("unknown action"))


@page(auth="admin")
@require_GET
def cover(request, file):
    """A candidate's cover, from DATA/metadata/covers/ (the page's CSP allows images from here only)."""
    if not provided.COVER_NAME.fullmatch(file):
        raise NotFound(_("%(file)s is not a cover's name") % {"file": file})
    response = files.image_response(request, str(settings.DATA.joinpath(*provided.COVERS, file)))
    if response is None:
        raise NotFound(_("there is no cover %(file)s") % {"file": file})
    return response
