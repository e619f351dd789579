"""Image EPUBs (fixed-layout manga and comics from digital stores), read in place as ZIP archives
(docs/library.md, "Archives").

An EPUB is a ZIP: META-INF/container.xml names the package document (OPF), whose spine gives the
reading order. Each spine item is an image, or an XHTML page showing one (`<img src>`, or
`<image xlink:href>` in SVG); that image is the page, read from the archive like a CBZ member. The
OPF gives the title (dc:title), the authors (dc:creator) and the direction
(`page-progression-direction`), handed on as ComicInfo fields (Title, Writer, Manga).

A text EPUB (a novel: spine pages of text without an image) is refused as not a comic: reading
novels is not what this reader does. XML is parsed without DTDs: a document that declares one or
an entity is refused, as ComicInfo.xml is; each file read is at most MAX_BYTES.
"""
from __future__ import annotations

import posixpath
import re
from typing import Any
from urllib.parse import unquote
from xml.etree import ElementTree

from . import zipread
from .names import is_page

MAX_BYTES = 1 << 20
_IMAGE = re.compile(rb"""<(?:img|image)\b[^>]*?\s(?:src|xlink:href|href)\s*=\s*["']([^"']+)["']""", re.I)
_TAGS = re.compile(rb"<[^>]*>")
TEXT_PAGE = 400  # characters of text that make a spine page a page of text, not of pictures
_NS = {"c": "urn:oasis:names:tc:opendocument:xmlns:container", "opf": "http://www.idpf.org/2007/opf",
       "dc": "http://purl.org/dc/elements/1.1/"}


def _bytes(f: Any, members: dict[str, zipread.Member], name: str, file_size: int) -> bytes:
    member = members.get(name)
    if member is None:
        raise zipread.Refused(f"it is not a valid EPUB: {name} is missing")
    if member.size > MAX_BYTES:
        raise zipread.Refused(f"{name} is larger than {MAX_BYTES >> 20} MB")
    return zipread.member_bytes(f, member, file_size)


def _xml(raw: bytes, name: str) -> ElementTree.Element:
    if b"<!DOCTYPE" in raw or b"<!ENTITY" in raw:
        raise zipread.Refused(f"{name} declares a DOCTYPE or entities, which an EPUB's package never needs")
    try:
        return ElementTree.fromstring(raw)
    except ElementTree.ParseError as e:
        raise zipread.Refused(f"{name} is not well-formed XML ({e})") from None


def _joined(base: str, href: str) -> str:
    path = unquote(href.split("#", 1)[0])
    return posixpath.normpath(posixpath.join(posixpath.dirname(base), path)).lstrip("/")


def spine(f: Any, file_size: int, members: list[zipread.Member]) -> tuple[list[str], dict[str, str]]:
    """(the page members in reading order, ComicInfo-like fields) of the EPUB open as `f`."""
    table = {m.name: m for m in members}
    container = _xml(_bytes(f, table, "META-INF/container.xml", file_size), "META-INF/container.xml")
    rootfile = container.find(".//c:rootfile", _NS)
    opf_name = rootfile.get("full-path") if rootfile is not None else None
    if not opf_name:
        raise zipread.Refused("it is not a valid EPUB: container.xml names no package document")
    opf = _xml(_bytes(f, table, opf_name, file_size), opf_name)
    manifest = {item.get("id"): (_joined(opf_name, item.get("href") or ""), item.get("media-type") or "")
                for item in opf.iterfind(".//opf:manifest/opf:item", _NS)}
    spine_element = opf.find(".//opf:spine", _NS)
    if spine_element is None:
        raise zipread.Refused("it is not a valid EPUB: its package has no spine")
    pages: list[str] = []
    text_pages = 0
    for ref in spine_element.iterfind("opf:itemref", _NS):
        href, media = manifest.get(ref.get("idref"), ("", ""))
        image: str | None = href
        if media.startswith("image/") or is_page(href.rpartition("/")[2]):
            pass
        else:
            raw = _bytes(f, table, href, file_size) if href in table else b""
            found = _IMAGE.search(raw)
            image = _joined(href, found.group(1).decode("utf-8", "replace")) if found else None
            if image is None and len(_TAGS.sub(b"", raw).strip()) >= TEXT_PAGE:
                text_pages += 1
        if image and image in table and is_page(image.rpartition("/")[2]) and image not in pages:
            pages.append(image)
    if text_pages > len(pages):
        raise zipread.Refused("it is a text EPUB (a novel), not a comic: only EPUBs of page images are read")
    info = {}
    title = opf.findtext(".//dc:title", default="", namespaces=_NS).strip()
    creators = [c.text.strip() for c in opf.iterfind(".//dc:creator", _NS)
                if c.text and c.text.strip() and c.text.strip().casefold() != "unknown"]
    if title:
        info["Title"] = title
    if creators:
        info["Writer"] = ", ".join(creators)
    direction = spine_element.get("page-progression-direction")
    if direction in ("rtl", "ltr"):
        info["Manga"] = "YesAndRightToLeft" if direction == "rtl" else "No"
    return pages, info
