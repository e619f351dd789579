"""Settings → Admin → Users → Access (HTML) and POST /api/admin/user/access (JSON): an admin limits
a user to some manga or hides manga with some tags (the rule is reader/access.py)."""
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from accounts import rules
from library import libraries
from library import meta as library_meta
from mangacircus.errors import Invalid, NotFound
from mangacircus.http import api, field, text_field
from mangacircus.pages import page, render_section
from reader import access, lookup

from . import summaries


def _library_tags(index):
    """Every tag and genre of the library, chapters' tags too (what a restriction can hide: reader.access),
    each once (the first spelling met), in alphabetical order."""
    seen = {}
    for manga in index.sorted():
        meta = manga.meta if isinstance(manga.meta, dict) else {}
        for tag in library_meta.strings(meta, "tags") + library_meta.genres(meta) + library_meta.chapter_tags(meta):
            seen.setdefault(tag.casefold(), tag)
    return sorted(seen.values(), key=str.casefold)


def save(admin, name, only, exclude_tags, shelves=None):
    """The rule shared by the form and the API: the user exists and is not the admin themself,
    and every manga named is in the library."""
    rules.existing_user(name)
    if name == admin:
        raise Invalid(_("you cannot restrict your own account"))
    if only is not None:
        index = lookup.current()
        missing = [m for m in only if index.get(m) is None]
        if missing:
            raise NotFound(_("no manga named %(name)s") % {"name": missing[0]})
    return access.set_restrictions(name, only, exclude_tags, shelves)


@page(auth="admin", back="mc-settings-users")
@require_http_methods(["GET", "POST"])
def user_access(request, name):
    user = rules.existing_user(name)
    if request.method == "POST":
        only = request.POST.getlist("only") if request.POST.get("scope") == "some" else None
        tags = request.POST.getlist("tag") + [t for t in request.POST.get("more_tags", "").split(",") if t.strip()]
        shelves = request.POST.getlist("library") if request.POST.get("libraries_shown") else None
        stored = save(request.account["name"], name, only, tags, shelves)
        limited = stored["only"] is not None or stored["excludeTags"] or stored["libraries"] is not None
        messages.success(request, (_("Saved: %(name)s now sees only what the restrictions allow.") if limited
                                   else _("Saved: %(name)s sees the whole library.")) % {"name": name})
        return HttpResponseRedirect(reverse("mc-settings-user-access", args=[name]))
    index = lookup.current()
    current = access.restrictions(name)
    chosen = set(current["only"] or ())
    excluded = {t.casefold() for t in current["excludeTags"]}
    tags = _library_tags(index)
    known = {t.casefold() for t in tags}
    return render_section(request, "reader/user_access.html", "admin", "users", user=user,
                          me=request.account["name"], restricted=access.restricted(name),
                          some=current["only"] is not None,
                          manga=[(s.name, s.title, s.name in chosen) for s in summaries.ordered(index)],
                          tags=[(t, t.casefold() in excluded) for t in tags],
                          libraries=[(lib.name, current["libraries"] is None or lib.name in current["libraries"])
                                     for lib in libraries.all()],
                          more_tags=", ".join(t for t in current["excludeTags"] if t.casefold() not in known))


@api(auth="admin", methods=("POST",))
def user_access_api(request):
    """{name, only: [manga] or null, excludeTags: [tag], libraries: [library] or null} → the stored restrictions."""
    name = text_field(request.data, "name", max_length=100)
    only = request.data.get("only")
    if only is not None and not isinstance(only, list):
        raise Invalid(_("only must be a list of manga names, or null"))
    tags = field(request.data, "excludeTags", list, required=False, default=[])
    shelves = request.data.get("libraries")
    if shelves is not None and not isinstance(shelves, list):
        raise Invalid(_("libraries must be a list of library names, or null"))
    return {"name": name, **save(request.account["name"], name, only, tags, shelves)}
