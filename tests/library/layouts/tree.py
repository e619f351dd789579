"""The nodes of a LAYOUT table, and build() that writes one as real files.

A node is a folder of pages (Pages), an archive (Cbz) or a plain file (bytes). Pages are small real
images: JPEG for `.jpg`/`.jpeg` names, PNG for `.png`, so the scanner reads real headers.
"""
import hashlib
from dataclasses import dataclass, field
from xml.sax.saxutils import escape

from tests.library.cbz import make_cbz
from tests.library.images import jpeg_bytes, png_bytes

PAGE_SIZE = (20, 30)


@dataclass(frozen=True)
class Pages:
    """A folder holding page images `names` and other files the tool writes beside them."""
    names: tuple[str, ...]
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass(frozen=True)
class Cbz:
    """A ZIP archive holding page images `names` and other members (ComicInfo.xml), deflated or
    stored as the tool writes it."""
    names: tuple[str, ...]
    files: dict[str, bytes] = field(default_factory=dict)
    deflate: bool = True


def image(name):
    ext = name.rsplit(".", 1)[-1].lower()
    return png_bytes(PAGE_SIZE) if ext == "png" else jpeg_bytes(PAGE_SIZE)


def numbered(count, width=3, ext="jpg", start=1):
    """('001.jpg', '002.jpg', …): `count` page names zero-padded to `width` digits."""
    return tuple(f"{n:0{width}d}.{ext}" for n in range(start, start + count))


def comic_info(fields, *, header='<?xml version="1.0" encoding="UTF-8"?>', attrs="", extra=""):
    """A ComicInfo.xml of (element, value) pairs in the order the tool writes them; `extra` is raw
    XML appended inside the root (namespaced elements)."""
    body = "".join(f"<{k}>{escape(str(v))}</{k}>" for k, v in fields if v is not None)
    return f"{header}<ComicInfo{attrs}>{body}{extra}</ComicInfo>".encode()


def md5_prefix(text, n=6):
    return hashlib.md5(text.encode()).hexdigest()[:n]


def build(root, layout):
    """Write `layout` ({relative path: node}) under `root`; returns root."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, node in layout.items():
        path = root / rel
        if isinstance(node, Pages):
            path.mkdir(parents=True, exist_ok=True)
            for name in node.names:
                (path / name).write_bytes(image(name))
            for name, data in node.files.items():
                (path / name).write_bytes(data)
        elif isinstance(node, Cbz):
            make_cbz(path, {**{name: image(name) for name in node.names}, **node.files}, deflate=node.deflate)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(node)
    return root
