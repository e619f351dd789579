"""Settings → Admin → Catalog: the curators' screens (server-rendered forms, post/redirect/get).

Each form carries the revision it was rendered from; a stale one is answered 409 with the page
as it is now and a message, never applied. Other refusals come back as a message on the page.
"""
import json
from urllib.parse import quote

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from library import index as library_index
from library import meta as library_meta
from mangacircus.errors import Conflict, Invalid, NotFound
from mangacircus.pages import page, render_section

from . import api, groups, overrides, proposals, relations, store

HISTORY_SHOWN = 200
LIST_SHOWN = 300  # relations or groups listed at once; a search narrows a larger catalog


def _rev(request):
    try:
        return int(request.POST.get("rev", ""))
    except ValueError:
        raise Invalid(_("the form has no revision; reload the page")) from None


def _handle(request, act, render_get):
    """Run a form's action: success → message and redirect (to the URL `act` answers, or here);
    a stale revision → the page as it is now, with status 409 and the message."""
    try:
        done, to = act()
    except Conflict as e:
        response = render_get(error=e.message)
        response.status_code = 409
        return response
    messages.success(request, done)
    return HttpResponseRedirect(to or request.get_full_path())


def _lines(text):
    return [line.strip() for line in (text or "").splitlines() if line.strip()]


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def home(request):
    by = request.account["name"]
    q = request.GET.get("q", "")[:200].strip()

    def render_get(error=None):
        view = api.overview(history=0)
        terms = q.casefold().split()

        def hit(*names):
            text = "\n".join(names).casefold()
            return all(t in text for t in terms)

        rels = [r for r in view["relations"] if hit(r["a"], r["b"], r["type"], r.get("note", ""))]
        grps = [g for g in view["groups"] if hit(g["name"], g["description"], *g["members"])]
        for r in rels:
            r["label"] = relations.LABELS.get(r["type"], r["type"])
        return render_section(request, "catalog/home.html", "admin", "catalog", rev=view["rev"], q=q,
                              relations=rels[:LIST_SHOWN], groups=grps[:LIST_SHOWN], relation_count=len(rels),
                              group_count=len(grps), shown=LIST_SHOWN, open_count=len(view["proposals"]),
                              types=[(t, relations.LABELS[t]) for t in relations.TYPES if t != "parent"],
                              error=error, names=sorted(library_index.current().manga))

    if request.method == "GET":
        return render_get()
    post = request.POST
    action = post.get("action")

    def act():
        if action == "add-relation":
            rel = relations.add(by, post.get("a", ""), post.get("type", ""), post.get("b", ""),
                                note=post.get("note", ""), rev=_rev(request))
            return _("Added: %(a)s %(type)s %(b)s.") % {"a": rel["a"], "type": rel["type"], "b": rel["b"]}, None
        if action == "edit-relation":
            was = (post.get("was_a", ""), post.get("was_type", ""), post.get("was_b", ""))
            rel = relations.add(by, post.get("a", ""), post.get("type", ""), post.get("b", ""),
                                note=post.get("note", ""), rev=_rev(request), was=was)
            return _("Changed to: %(a)s %(type)s %(b)s.") % {"a": rel["a"], "type": rel["type"], "b": rel["b"]}, None
        if action == "delete-relation":
            relations.delete(by, post.get("a", ""), post.get("type", ""), post.get("b", ""), rev=_rev(request))
            return _("Relation deleted."), None
        if action == "create-group":
            group = groups.create(by, {"name": post.get("name", ""), "description": post.get("description", ""),
                                       "members": _lines(post.get("members")), "ordered": "ordered" in post},
                                  rev=_rev(request))
            created = _("Group %(name)s created.") % {"name": group["name"]}
            return created, reverse("mc-settings-catalog-group", args=[group["id"]])
        raise Invalid(_("unknown action"))

    return _handle(request, act, render_get)


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def group(request, group_id):
    by = request.account["name"]

    def render_get(error=None):
        found = groups.get(group_id)
        index = library_index.current()
        members = [{"name": m, "missing": index.get(m) is None} for m in found["members"]]
        return render_section(request, "catalog/group.html", "admin", "catalog", rev=store.revision(), group=found,
                              members=members, error=error)

    if request.method == "GET":
        return render_get()
    post = request.POST
    action = post.get("action")

    def act():
        if action == "save":
            fields = {"name": post.get("name", ""), "description": post.get("description", ""),
                      "members": _lines(post.get("members")), "ordered": "ordered" in post}
            saved = groups.update(by, group_id, fields, rev=_rev(request))
            return _("Group %(name)s saved.") % {"name": saved["name"]}, None
        if action == "move":
            try:
                to = int(post.get("to", ""))
            except ValueError:
                raise Invalid(_("to must be a place number")) from None
            groups.move(by, group_id, post.get("member", ""), to, rev=_rev(request))
            return _("Moved %(member)s.") % {"member": post.get("member", "")}, None
        if action == "delete":
            groups.delete(by, group_id, rev=_rev(request))
            return _("Group deleted."), reverse("mc-settings-catalog")
        raise Invalid(_("unknown action"))

    return _handle(request, act, render_get)


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def review(request):
    """Open proposals, one at a time, with their evidence."""
    by = request.account["name"]

    def render_get(error=None):
        pending = proposals.open_proposals()
        wanted = request.GET.get("id")
        current = next((p for p in pending if p["id"] == wanted), pending[0] if pending else None)
        if current:
            current["text"] = proposals.describe(current)
            for one in current["evidence"]:
                one["link"] = one["url"] if proposals.http_url(one["url"]) else None
            index = library_index.current()
            names = ([current["a"], current["b"]] if current["kind"] == "relation" else
                     current.get("members") or [current.get("m")])
            current["missing"] = [n for n in names if n and index.get(n) is None]
        position = pending.index(current) if current else 0
        return render_section(request, "catalog/proposals.html", "admin", "catalog", rev=store.revision(),
                              proposal=current, count=len(pending), position=position + 1,
                              next_id=pending[position + 1]["id"] if position + 1 < len(pending) else None,
                              decided=proposals.decided(20), error=error)

    if request.method == "GET":
        return render_get()
    post = request.POST

    def act():
        accept = post.get("decision") == "accept"
        if post.get("decision") not in ("accept", "reject"):
            raise Invalid(_("choose accept or reject"))
        done = proposals.decide(by, post.get("id", ""), accept, reason=post.get("reason", ""), rev=_rev(request))
        message = _("Proposal accepted: %(what)s.") if accept else _("Proposal rejected: %(what)s.")
        return message % {"what": proposals.describe(done)}, reverse(
            "mc-settings-catalog-proposals")

    return _handle(request, act, render_get)


@page(auth="admin")
def history(request):
    with store.read() as data:
        changes = [dict(h) for h in data["history"][-HISTORY_SHOWN:]][::-1]
        total = len(data["history"])
    return render_section(request, "catalog/history.html", "admin", "catalog", changes=changes, total=total,
                          kept=store.HISTORY)


@page(auth="admin")
@require_http_methods(["GET", "POST"])
def metadata(request, name):
    """Edit a manga's title, alternative titles, description, tags, direction and cover page, stored
    as a catalog override (LIBRARY is never written)."""
    manga = library_index.current().get(name)
    if manga is None:
        raise NotFound(_("no manga named %(name)s") % {"name": name})
    by = request.account["name"]
    folder_meta = manga.meta if isinstance(manga.meta, dict) else {}
    folder_tags = [t for t in folder_meta.get("tags", []) if isinstance(t, str)] if isinstance(
        folder_meta.get("tags"), list) else []
    # what the folder's files say without an override, and which of them says it (library.meta)
    shown, source = library_meta.manga_direction(manga, None, settings.DEFAULT_DIRECTION)
    folder_direction = {"value": shown, "name": library_meta.DIRECTION_NAMES.get(shown, shown),
                        "source": library_meta.DIRECTION_SOURCES[source]}

    def render_get(error=None):
        over = overrides.get(name)
        tags = [t for t in folder_tags if t not in over.get("hiddenTags", [])] + over.get("tags", [])
        return render_section(request, "catalog/metadata.html", "admin", "catalog", rev=store.revision(), manga=manga,
                              over=over, tags=tags, covers=_cover_choices(manga), error=error,
                              current_cover=json.dumps(over["cover"]) if over.get("cover") else "",
                              directions=library_meta.DIRECTION_NAMES.items(), folder_direction=folder_direction)

    if request.method == "GET":
        return render_get()
    post = request.POST

    def act():
        wanted = _lines(post.get("tags"))
        fields = {"title": post.get("title", ""), "description": post.get("description", ""),
                  "direction": post.get("direction", ""), "altTitles": _lines(post.get("altTitles")),
                  "tags": [t for t in wanted if t not in folder_tags],
                  "hiddenTags": [t for t in folder_tags if t not in wanted]}
        if post.get("title", "").strip() == manga.title:
            fields["title"] = ""
        cover = post.get("cover", "")
        if cover:
            try:
                fields["cover"] = json.loads(cover)
            except ValueError:
                raise Invalid(_("choose a cover page from the list")) from None
        overrides.set_override(by, name, fields, manga=manga, rev=_rev(request))
        return _("Metadata saved."), None

    return _handle(request, act, render_get)


def _cover_choices(manga, limit=60):
    """The first pages of the first chapters' first versions: enough to pick a cover from."""
    found = []
    for chapter in manga.chapters()[:10]:
        version = chapter.versions[0]
        for p, file in enumerate(version.files()[:6]):
            value = {"c": chapter.id, "v": version.name, "p": p}
            found.append({"value": json.dumps(value), **value, "src": "lib/" + quote(f"{version.path}/{file}"),
                          "label": _("Ch. %(chapter)s, page %(page)s") % {"chapter": chapter.key, "page": p + 1}})
            if len(found) == limit:
                return found
    return found
