"""Atom/OPDS 1.2 documents with the Page Streaming Extension, built with ElementTree (every text
escaped by construction)."""
import xml.etree.ElementTree as ET

from django.utils.translation import gettext as _

ATOM = "http://www.w3.org/2005/Atom"
OPDS = "http://opds-spec.org/2010/catalog"
PSE = "http://vaemendis.net/opds-pse/ns"
OPENSEARCH = "http://a9.com/-/spec/opensearch/1.1/"
DCTERMS = "http://purl.org/dc/terms/"
for prefix, uri in (("", ATOM), ("opds", OPDS), ("pse", PSE), ("opensearch", OPENSEARCH), ("dcterms", DCTERMS)):
    ET.register_namespace(prefix, uri)

NAVIGATION = "application/atom+xml;profile=opds-catalog;kind=navigation"
ACQUISITION = "application/atom+xml;profile=opds-catalog;kind=acquisition"
SEARCH_TYPE = "application/opensearchdescription+xml"
CBZ = "application/vnd.comicbook+zip"
REL_ACQUISITION = "http://opds-spec.org/acquisition"
REL_IMAGE = "http://opds-spec.org/image"
REL_THUMBNAIL = "http://opds-spec.org/image/thumbnail"
REL_STREAM = "http://vaemendis.net/opds-pse/stream"


def _q(ns, tag):
    return f"{{{ns}}}{tag}"


def _sub(parent, tag, text=None, ns=ATOM, **attrs):
    element = ET.SubElement(parent, _q(ns, tag), {k: str(v) for k, v in attrs.items() if v is not None})
    if text is not None:
        element.text = str(text)
    return element


def link(parent, rel, href, type_, **extra):
    attrs = {"rel": rel, "href": href, "type": type_}
    element = ET.SubElement(parent, _q(ATOM, "link"), attrs)
    for name, value in extra.items():
        element.set(name, str(value))
    return element


class Feed:
    def __init__(self, *, feed_id, title, updated, self_href, kind, start_href, search_href):
        self.root = ET.Element(_q(ATOM, "feed"))
        _sub(self.root, "id", feed_id)
        _sub(self.root, "title", title)
        _sub(self.root, "updated", updated)
        author = _sub(self.root, "author")
        _sub(author, "name", "MangaCircus")
        self.kind = kind
        link(self.root, "self", self_href, kind)
        link(self.root, "start", start_href, NAVIGATION)
        link(self.root, "search", search_href, SEARCH_TYPE)

    def paging(self, *, total, per_page, start_index, first=None, previous=None, next_=None, last=None):
        _sub(self.root, "totalResults", total, ns=OPENSEARCH)
        _sub(self.root, "itemsPerPage", per_page, ns=OPENSEARCH)
        _sub(self.root, "startIndex", start_index, ns=OPENSEARCH)
        for rel, href in (("first", first), ("previous", previous), ("next", next_), ("last", last)):
            if href:
                link(self.root, rel, href, self.kind)

    def entry(self, *, entry_id, title, updated, content=None, summary=None, authors=(), categories=(),
              language=None):
        """An entry. Give `authors` to publications only: an OPDS client (Readium's converter, so
        Thorium) takes an entry with an author for a publication, whatever its links."""
        entry = _sub(self.root, "entry")
        _sub(entry, "title", title)
        _sub(entry, "id", entry_id)
        _sub(entry, "updated", updated)
        for name in authors:
            _sub(_sub(entry, "author"), "name", name)
        for term in categories:
            _sub(entry, "category", term=term, label=term)
        if language:
            _sub(entry, "language", language, ns=DCTERMS)
        if summary:
            _sub(entry, "summary", summary, type="text")
        if content:
            _sub(entry, "content", content, type="text")
        return entry

    def bytes(self):
        return ET.tostring(self.root, encoding="utf-8", xml_declaration=True)


def opensearch(title, template):
    root = ET.Element(_q(OPENSEARCH, "OpenSearchDescription"))
    _sub(root, "ShortName", title, ns=OPENSEARCH)
    _sub(root, "Description", _("Search %(title)s") % {"title": title}, ns=OPENSEARCH)
    _sub(root, "InputEncoding", "UTF-8", ns=OPENSEARCH)
    _sub(root, "OutputEncoding", "UTF-8", ns=OPENSEARCH)
    _sub(root, "Url", ns=OPENSEARCH, type=ACQUISITION, template=template)
    return ET.tostring(root, encoding="utf-8", xml_declaration=True)
