"""A provider's record put to use in the reader: the provider layer, relations and proposals.

1. The layer (catalog/provided.py) gets the record's fields, cleaned as manga.json fields are,
   and its cover file: the curator's overrides are not touched, so they keep winning.
2. Each relation to another entry of the same provider becomes a catalog relation when a manga
   of the library is matched to that entry, else a research proposal (catalog/proposals.py) for
   a curator, naming the other entry's title and page as evidence.
3. A relation is offered once: `offered` keeps what was added or proposed, so a relation a
   curator deleted, or a proposal they rejected, is not made again by the next refresh.
"""
from catalog import proposals, provided, relations
from mangacircus.clock import now_ms
from mangacircus.errors import Invalid

BY = "metadata"
LIST_FIELDS = ("authors", "artists", "genres", "tags")


def _texts(values, limit=100):
    out = []
    for value in values or []:
        if isinstance(value, str) and value.strip() and len(value) <= 200 and value.strip() not in out:
            out.append(value.strip())
    return out[:limit]


def layer(record, by):
    """The provider layer of a record (a Record's dict, as the worker handed it)."""
    fields = {key: _texts(record.get(key)) for key in LIST_FIELDS}
    fields["altTitles"] = [t for t in _texts(record.get("titles")) if t != record.get("title")]
    description = record.get("description")
    if isinstance(description, str) and description.strip():
        fields["description"] = description.strip()[:10_000]
    if record.get("status") in ("ongoing", "completed", "hiatus", "cancelled"):
        fields["status"] = record["status"]
    if isinstance(record.get("year"), int) and not isinstance(record.get("year"), bool):
        fields["year"] = record["year"]
    links = record.get("links") if isinstance(record.get("links"), dict) else {}
    fields["links"] = {str(k)[:100]: v for k, v in links.items() if proposals.http_url(v)}
    out = {"provider": record["provider"], "id": str(record["id"]),
           "url": record.get("url") if proposals.http_url(record.get("url")) else None,
           "t": now_ms(), "by": by, "fields": {k: v for k, v in fields.items() if v}}
    if isinstance(record.get("cover"), str) and provided.COVER_NAME.fullmatch(record["cover"]):
        out["cover"] = record["cover"]
    return out


def fill(name, record, by, offered, local_name_of):
    """Store the layer and offer the relations; -> (offered keys now, warnings)."""
    provided.put(name, layer(record, by))
    name_of_provider = provided.provider(record["provider"])["name"]
    offered, warnings = list(offered), []
    for rel in record.get("relations") or []:
        key = f"{rel.get('type')} {record['provider']}:{rel.get('id')}"
        if key in offered or not isinstance(rel.get("type"), str):
            continue
        other = local_name_of(record["provider"], str(rel.get("id")))
        try:
            if other and other != name:
                relations.add(BY, name, rel["type"], other, note=f"from {name_of_provider}")
            elif not other and rel.get("title"):
                proposals.import_batch(BY, {"proposals": [{
                    "kind": "relation", "a": name, "type": rel["type"], "b": rel["title"],
                    "evidence": [{"url": rel.get("url") or "",
                                  "quote": f"{name_of_provider} lists {rel['title']} as a {rel['type']} "
                                           f"of {record.get('title')}"}]}]})
            else:
                continue
        except Invalid as e:
            if not isinstance(e, relations.Duplicate):  # the other side offered it first
                warnings.append(f"relation {name} {rel['type']} {other or rel.get('title')}: {e.message}")
        offered.append(key)
    return offered, warnings
