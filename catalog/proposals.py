"""Research proposals: relations, groups and metadata proposed from outside, with evidence.

A batch is validated whole: one invalid item refuses it all with every item's errors (index, field,
reason). A valid batch is stored as open proposals, except duplicates (of a relation already in
the catalog, of an open proposal, or of an earlier item of the batch), which are reported and
skipped. Proposals never change the catalog until a curator accepts one.
"""
import secrets
from urllib.parse import urlsplit

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from mangacircus.clock import now_ms
from mangacircus.errors import Conflict, Invalid, NotFound

from . import groups, overrides, relations, store

KINDS = ("relation", "group", "metadata")
MAX_BATCH = 1000
MAX_EVIDENCE = 20
MAX_QUOTE = 2000
MAX_OPEN = 5000
DECIDED_KEPT = 1000  # accepted and rejected proposals kept for the record


class BatchInvalid(Invalid):
    """A batch with invalid items: `errors` is [{index, field, reason}]."""

    def __init__(self, errors):
        count = len({e["index"] for e in errors})
        super().__init__(ngettext("the batch was refused: %(count)s of its items is invalid; nothing was stored",
                                  "the batch was refused: %(count)s of its items are invalid; nothing was stored",
                                  count) % {"count": count})
        self.errors = errors


def http_url(url):
    if not isinstance(url, str) or len(url) > 2000:
        return False
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _evidence(item, add):
    evidence = item.get("evidence")
    if not isinstance(evidence, list) or not evidence:
        add("evidence", _("must be a list of at least one {url, quote}"))
        return []
    if len(evidence) > MAX_EVIDENCE:
        add("evidence", _("has more than %(max)s entries") % {"max": MAX_EVIDENCE})
        return []
    clean = []
    for i, one in enumerate(evidence):
        if not isinstance(one, dict):
            add(f"evidence[{i}]", _("must be an object {url, quote}"))
            continue
        url, quote = one.get("url", ""), one.get("quote", "")
        if url and not http_url(url):
            add(f"evidence[{i}].url", _("must be an http or https address"))
        if not isinstance(quote, str) or len(quote) > MAX_QUOTE:
            add(f"evidence[{i}].quote", _("must be text of at most %(max)s characters") % {"max": MAX_QUOTE})
        elif not url and not quote.strip():
            add(f"evidence[{i}]", _("needs a url or a quote"))
        else:
            clean.append({"url": url.strip() if isinstance(url, str) else "", "quote": quote.strip()})
    return clean


def _check_item(item, add):
    """The proposal to store from one item, calling add(field, reason) for each problem."""
    if not isinstance(item, dict):
        add("", _("must be an object"))
        return None
    kind = item.get("kind")
    if kind not in KINDS:
        add("kind", _("must be one of %(values)s") % {"values": ", ".join(KINDS)})
        return None
    evidence = _evidence(item, add)
    proposal = {"kind": kind, "evidence": evidence}
    try:
        if kind != "metadata":
            proposal.update(_rules(kind, item))
        else:
            name = item.get("m")
            if not isinstance(name, str) or not name.strip():
                add("m", _("must be a manga name"))
                return None
            value = _rules(kind, item)
            if not value:
                add("altTitles", _("a metadata proposal adds altTitles or tags"))
            proposal.update(m=name.strip(), **value)
    except Invalid as e:
        add(_field_of(_english_rule(kind, item) or e.message), e.message)
    note = item.get("note", "")
    if not isinstance(note, str) or len(note) > 1000:
        add("note", _("must be text of at most %(max)s characters") % {"max": 1000})
    else:
        proposal["note"] = note.strip()
    return proposal


def _rules(kind, item):
    """The fields a relation, group or metadata item stores once the catalog's rules pass; Invalid otherwise."""
    if kind == "relation":
        a, type_, b = relations.canonical(item.get("a"), item.get("type"), item.get("b"))
        return {"a": a, "type": type_, "b": b}
    if kind == "group":
        return groups.clean_group(item)
    return overrides.clean({k: item[k] for k in ("altTitles", "tags") if k in item})


def _english_rule(kind, item):
    """The English message of the rule `item` breaks: _field_of reads the field from its words, in
    whatever language the reader sees the message."""
    with translation.override("en"):
        try:
            _rules(kind, item)
        except Invalid as e:
            return e.message
    return None


def _field_of(message):
    """The field a rule's message is about (the rules name it first, or say what they refuse)."""
    first = message.split(" ", 1)[0].rstrip(":")
    if first in ("a", "b", "type", "name", "description", "ordered", "altTitles", "tags"):
        return first
    if first.startswith("members"):
        return first
    if "itself" in message:
        return "b"
    return "type" if "relation type" in message or "parent is" in message else ""


def _key(p):
    if p["kind"] == "relation":
        return ("relation", p["a"], p["type"], p["b"])
    if p["kind"] == "group":
        return ("group", p["name"].casefold(), tuple(p["members"]))
    return ("metadata", p["m"], tuple(p.get("altTitles", ())), tuple(p.get("tags", ())))


def validate_batch(batch):
    """[proposal] of a whole batch, or BatchInvalid listing every problem."""
    items = batch.get("proposals") if isinstance(batch, dict) else None
    if not isinstance(items, list):
        raise Invalid(_("the batch must be an object with a list “proposals”"))
    if len(items) > MAX_BATCH:
        raise Invalid(_("a batch has at most %(max)s proposals; split it") % {"max": MAX_BATCH})
    errors, clean = [], []
    for index, item in enumerate(items):
        def add(field, reason, index=index):
            errors.append({"index": index, "field": field, "reason": reason})
        clean.append(_check_item(item, add))
    if errors:
        raise BatchInvalid(errors)
    return clean


def import_batch(by, batch):
    """Store a valid batch as open proposals: {stored: [ids], duplicates: [{index, reason}]}."""
    clean = validate_batch(batch)
    stored, duplicates = [], []
    with store.edit(by) as change:
        data = change.data
        open_keys = {_key(p): p["id"] for p in data["proposals"] if p.get("state") == "open" and _is_known(p)}
        if len([p for p in data["proposals"] if p.get("state") == "open"]) + len(clean) > MAX_OPEN:
            raise Invalid(_("more than %(max)s proposals would be open: review some first") % {"max": MAX_OPEN})
        taken = {p.get("id") for p in data["proposals"]}
        t = now_ms()
        for index, proposal in enumerate(clean):
            key = _key(proposal)
            if proposal["kind"] == "relation" and relations.problem(data["relations"], *key[1:]):
                duplicates.append({"index": index, "reason": relations.problem(data["relations"], *key[1:])})
                continue
            if key in open_keys:
                duplicates.append({"index": index, "reason": f"the same as open proposal {open_keys[key]}"})
                continue
            pid = "p" + secrets.token_hex(4)
            while pid in taken:
                pid = "p" + secrets.token_hex(4)
            taken.add(pid)
            open_keys[key] = pid
            data["proposals"].append({"id": pid, **proposal, "by": by, "state": "open", "t": t})
            stored.append(pid)
        if stored:
            change.what = f"received {len(stored)} proposal{'s' if len(stored) != 1 else ''}"
    return {"stored": stored, "duplicates": duplicates}


def _is_known(p):
    return p.get("kind") in KINDS


def open_proposals():
    with store.read() as data:
        return [_copy(p) for p in data["proposals"] if p.get("state") == "open" and _is_known(p)]


def decided(limit=50):
    with store.read() as data:
        done = [_copy(p) for p in data["proposals"] if p.get("state") in ("accepted", "rejected")]
    return done[::-1][:limit]


def _copy(p):
    return {k: ([dict(e) for e in v] if k == "evidence" else list(v) if isinstance(v, list) else v)
            for k, v in p.items()}


def _find_open(data, pid):
    for p in data["proposals"]:
        if p.get("id") == pid:
            if p.get("state") != "open":
                raise Conflict(_("proposal %(id)s was %(state)s already") % {"id": pid, "state": p.get("state")})
            return p
    raise NotFound(_("there is no proposal %(id)s") % {"id": pid})


def decide(by, pid, accept, reason="", rev=None):
    """Accept (apply to the catalog) or reject an open proposal, with an optional reason."""
    if not isinstance(reason, str) or len(reason) > 1000:
        raise Invalid(_("reason must be text of at most 1000 characters"))
    with store.edit(by, rev) as change:
        proposal = _find_open(change.data, pid)
        if accept:
            _apply(by, proposal)
        proposal.update(state="accepted" if accept else "rejected", reason=reason.strip(), decidedBy=by,
                        decided=now_ms())
        change.what = f"{'accepted' if accept else 'rejected'} proposal {pid}: {describe(proposal)}"
        decided_list = [p for p in change.data["proposals"] if p.get("state") in ("accepted", "rejected")]
        for old in decided_list[:-DECIDED_KEPT]:
            change.data["proposals"].remove(old)
    return _copy(proposal)


def _apply(by, p):
    if p["kind"] == "relation":
        relations.add(by, p["a"], p["type"], p["b"], note=p.get("note", ""))
    elif p["kind"] == "group":
        groups.create(by, {k: p[k] for k in ("name", "description", "members", "ordered")})
    else:
        current = overrides.get(p["m"])
        for key in ("altTitles", "tags"):
            current[key] = current.get(key, []) + [v for v in p.get(key, []) if v not in current.get(key, [])]
        overrides.set_override(by, p["m"], current)


def describe(p):
    if p["kind"] == "relation":
        return f"{p['a']} {p['type']} {p['b']}"
    if p["kind"] == "group":
        return f"group {p['name']}: {', '.join(p['members'])}"
    extra = p.get("altTitles", []) + p.get("tags", [])
    return f"metadata of {p['m']}: {', '.join(extra)}"
