"""A demo library in the folder format of docs/library.md, drawn with Pillow.

`make_demo(path)` writes six manga that exercise the reader: a right-to-left manga with books, an
extras book, versions from two sources, a decimal chapter and book spreads; a left-to-right comic;
a webtoon of tall slices that join seamlessly; a manga with a Japanese title; one without any
metadata. Every page shows its number large, a lettered grid (to see where zoom is anchored) and
its manga and chapter small, in a colour per manga.

The output is byte-for-byte the same on every run with the same Pillow: no randomness, no
timestamps in images, and file and folder mtimes derived from a fixed date.
"""
import io
import json
import math
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from mangacircus.jsonfile import fsync_dir

PAGE = (900, 1350)
SLICE = (800, 2400)
EPOCH = datetime(2024, 3, 1, tzinfo=timezone.utc).timestamp()
HOURS_PER_CHAPTER = 20
SAVE_OPTIONS = {
    "jpg": ("JPEG", {"quality": 82}),
    "png": ("PNG", {"compress_level": 6}),
    "webp": ("WEBP", {"quality": 80, "method": 1}),
}


class TargetNotEmpty(Exception):
    """The target is a file, or a folder with something in it."""


def pages(count, fmt, cover=False, spreads=(), extras=0, r90=(), formats=None):
    """Page specs [(file name, label, kind)] numbered like the scraper names them (001.jpg ...)."""
    formats = formats or {}
    result, n = [], 1
    while n <= count:
        ext = formats.get(n, fmt)
        if n in spreads:
            result.append((f"{n:03d}-{n + 1:03d}.{ext}", f"{n}-{n + 1}", "spread"))
            n += 2
            continue
        kind, tag = "page", ""
        if cover and n == 1:
            kind, tag = "cover", " [cover]"
        elif n > count - extras:
            kind, tag = "extra", " [extra]"
        elif n in r90:
            kind, tag = "r90", " [r90]"
        result.append((f"{n:03d}{tag}.{ext}", str(n), kind))
        n += 1
    return result


def chapter(folder, page_specs, meta=None, label=None):
    """A chapter version folder; `label` is its name as drawn (the built-in font is Latin only)."""
    return {"folder": folder, "pages": page_specs, "meta": meta, "label": label or folder}


MANGA = [
    {
        "folder": "Moon Garden", "label": "Moon Garden", "colour": (88, 70, 170), "cover": True,
        "meta": {
            "title": "Moon Garden", "authors": ["Aya Kisaragi"], "artists": ["Aya Kisaragi"],
            "description": "A gardener who only works at night finds seeds that grow toward the moon. "
                           "Demo manga: right to left, two books, an extras book, an extra chapter, "
                           "two versions of chapter 2, a decimal chapter, spreads and a rotated page.",
            "status": "ongoing", "year": 2021, "tags": ["Fantasy", "Slice of Life"], "direction": "rtl",
            "language": "en",
        },
        "books": [
            ("b01 Spring", [
                chapter("c0001 Seeds", pages(12, "jpg", cover=True, spreads=(6,), formats={6: "png"})),
                chapter("c0002 Roots [MangaDex]", pages(10, "png", extras=1), {
                    "groups": ["Night Owl Scans"], "source": "MangaDex", "published": "2021-05-02"}),
                chapter("c0002 Roots [Official]", pages(9, "jpg", cover=True), {
                    "title": "Roots", "priority": 10, "groups": ["Moonlit Press"], "source": "Official",
                    "published": "2021-04-28"}),
                chapter("c0002.5 Interlude", pages(4, "webp")),
                chapter("c0003 Branches", pages(12, "jpg", r90=(5,), spreads=(10,), formats={10: "png"})),
            ]),
            ("b02 Summer", [
                chapter("c0004 Leaves", pages(8, "jpg", cover=True, spreads=(4,))),
                chapter("c0005 Blossoms", pages(8, "webp", extras=1)),
                chapter("x01 Summer Sketches", pages(3, "png")),
            ]),
            ("x01 Side Stories", [
                chapter("c0001 Omake", pages(4, "png")),
            ]),
        ],
    },
    {
        "folder": "星の図書館", "label": "Hoshi no Toshokan", "colour": (20, 130, 140), "cover": True,
        "meta": {
            "title": "星の図書館", "sortTitle": "Hoshi no Toshokan",
            "altTitles": ["Hoshi no Toshokan", "The Star Library"], "authors": ["Haru Mizuno"],
            "description": "A library that lends out stars. Demo manga: a Japanese title, Japanese "
                           "chapter names, right to left.",
            "status": "completed", "year": 2019, "tags": ["Drama", "Mystery"], "direction": "rtl",
            "language": "ja",
        },
        "books": [
            ("b01 第一巻", [
                chapter("c0001 はじまり", pages(8, "webp", cover=True), label="c0001 Hajimari"),
                chapter("c0002 夜の棚", pages(8, "png", spreads=(4,)), {
                    "groups": ["Hoshi Books"], "published": "2019-09-10"}, label="c0002 Yoru no Tana"),
            ]),
        ],
    },
    {
        "folder": "Iron Harbor", "label": "Iron Harbor", "colour": (190, 80, 30), "cover": False,
        "meta": {
            "title": "Iron Harbor", "authors": ["Dana Reyes"], "artists": ["Milo Brandt"],
            "description": "Dock workers against a company that owns the tide. Demo comic: left to "
                           "right, no cover.jpg (the first page is the cover), a spread read left to right.",
            "status": "completed", "year": 2018, "tags": ["Action", "Western comic"], "direction": "ltr",
            "language": "en",
        },
        "books": [
            ("b01 Rust and Salt", [
                chapter("c0001 Dockside", pages(10, "webp", cover=True, spreads=(4,))),
                chapter("c0002 Undertow", pages(8, "webp", cover=True, extras=1)),
            ]),
            ("b02 Lighthouse", [
                chapter("c0003 Beacon", pages(8, "jpg", cover=True, spreads=(6,))),
            ]),
        ],
    },
    {
        "folder": "Long Scroll", "label": "Long Scroll", "colour": (40, 140, 70), "cover": True,
        "webtoon": True,
        "meta": {
            "title": "Long Scroll", "authors": ["Seo-yeon Park"],
            "description": "A climber who never looks down. Demo webtoon: top to bottom, tall slices "
                           "that join without a seam, chapters directly in the manga folder.",
            "status": "ongoing", "year": 2023, "tags": ["Adventure", "Webtoon"], "direction": "ttb",
            "language": "en",
        },
        "books": [
            (None, [
                chapter("c0001 Start [Official]", pages(5, "webp"), {"published": "2023-01-06"}),
                chapter("c0002 Next [Official]", pages(4, "jpg"), {"published": "2023-01-13"}),
                chapter("c0003 Deep Water [Official]", pages(3, "png"), {"published": "2023-01-20"}),
            ]),
        ],
    },
    {
        "folder": "Paper Cranes", "label": "Paper Cranes", "colour": (200, 40, 70), "cover": False,
        "meta": None,
        "books": [
            (None, [
                chapter("c0000 Prologue", pages(3, "jpg")),
                chapter("c0001 Folding", pages(6, "jpg", cover=True)),
                chapter("c0002 Wind", pages(6, "png")),
            ]),
        ],
    },
    {
        "folder": "Clockwork Fox", "label": "Clockwork Fox", "colour": (150, 110, 20), "cover": True,
        "meta": {
            "title": "Clockwork Fox", "authors": ["Ren Takeda"],
            "description": "A mechanical fox keeps the town clock running. Demo manga: many short "
                           "chapters, a chapter title set in chapter.json.",
            "status": "hiatus", "year": 2022, "tags": ["Comedy", "Steampunk"], "direction": "rtl",
            "language": "en",
        },
        "books": [
            (None, [
                chapter(f"c{n:04d} Tick {n}", pages(3, ("jpg", "png", "webp")[n % 3]),
                        {"title": "The Fox Wakes"} if n == 1 else None)
                for n in range(1, 7)
            ]),
        ],
    },
]


# ---- drawing ----------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def font(size):
    return ImageFont.load_default(size=size)


def mix(colour, other, t):
    return tuple(round(a + (b - a) * t) for a, b in zip(colour, other))


WHITE, INK = (255, 255, 255), (25, 25, 35)
PANEL_LAYOUTS = [
    [(0.05, 0.08, 0.95, 0.38), (0.05, 0.40, 0.48, 0.92), (0.52, 0.40, 0.95, 0.92)],
    [(0.05, 0.08, 0.60, 0.50), (0.62, 0.08, 0.95, 0.50), (0.05, 0.52, 0.95, 0.92)],
    [(0.05, 0.08, 0.95, 0.30), (0.05, 0.32, 0.95, 0.62), (0.05, 0.64, 0.95, 0.92)],
    [(0.05, 0.08, 0.45, 0.92), (0.49, 0.08, 0.95, 0.50), (0.49, 0.52, 0.95, 0.92)],
]


def draw_grid(draw, size, colour, cell=150):
    """Faint grid with cell names (A1, B1 ...) so a zoomed view shows where it is on the page."""
    width, height = size
    line = mix(colour, WHITE, 0.55)
    for x in range(cell, width, cell):
        draw.line([(x, 0), (x, height)], fill=line, width=2)
    for y in range(cell, height, cell):
        draw.line([(0, y), (width, y)], fill=line, width=2)
    for col, x in enumerate(range(0, width, cell)):
        for row, y in enumerate(range(0, height, cell)):
            draw.text((x + 8, y + cell // 2), f"{chr(65 + col)}{row + 1}", font=font(18), anchor="lm",
                      fill=mix(colour, INK, 0.3))


def draw_number(draw, centre, label, colour, size=340):
    box = draw.textbbox(centre, label, font=font(size), anchor="mm")
    pad = size // 6
    draw.rounded_rectangle((box[0] - pad, box[1] - pad, box[2] + pad, box[3] + pad), radius=pad,
                           fill=WHITE, outline=colour, width=10)
    draw.text(centre, label, font=font(size), anchor="mm", fill=INK)


def draw_caption(draw, size, colour, head, foot):
    width, height = size
    draw.rectangle((0, 0, width, 56), fill=colour)
    draw.text((20, 28), head, font=font(28), anchor="lm", fill=WHITE)
    draw.rectangle((0, height - 50, width, height), fill=colour)
    draw.text((width - 20, height - 25), foot, font=font(26), anchor="rm", fill=WHITE)


@lru_cache(maxsize=None)
def background(colour, size, kind):
    """The part of a page that only depends on its manga and kind, drawn once per process."""
    image = Image.new("RGB", size, mix(colour, WHITE, 0.2 if kind == "cover" else 0.88))
    draw = ImageDraw.Draw(image)
    width, height = size
    if kind == "extra":
        for x in range(-height, width, 60):
            draw.line([(x, height), (x + height, 0)], fill=mix(colour, WHITE, 0.7), width=14)
    elif kind == "spread":
        # One scene across the spine, so a spread shown split in two is easy to spot.
        draw.ellipse((width * 0.08, height * 0.12, width * 0.92, height * 0.88),
                     fill=mix(colour, WHITE, 0.7), outline=colour, width=10)
        draw.line([(0, height * 0.78), (width, height * 0.22)], fill=colour, width=16)
    draw_grid(draw, size, colour)
    return image


def render_page(manga, chapter_name, name, label, kind, total):
    """One page as an RGB image. Spreads are twice as wide; an [r90] page is stored turned left."""
    colour = manga["colour"]
    size = (PAGE[0] * 2, PAGE[1]) if kind == "spread" else PAGE
    image = background(colour, size, kind if kind in ("cover", "extra", "spread") else "page").copy()
    draw = ImageDraw.Draw(image)
    width, height = size
    if kind in ("page", "r90"):
        for x0, y0, x1, y1 in PANEL_LAYOUTS[int(label) % len(PANEL_LAYOUTS)]:
            draw.rectangle((x0 * width, y0 * height, x1 * width, y1 * height), outline=INK, width=6)
    if kind == "cover":
        draw.text((width / 2, height * 0.2), manga["label"], font=font(80), anchor="mm", fill=WHITE)
        draw.text((width / 2, height * 0.8), "COVER PAGE", font=font(48), anchor="mm", fill=WHITE)
    if kind == "extra":
        draw.text((width / 2, height * 0.2), "EXTRA (credits)", font=font(56), anchor="mm", fill=INK)
    if kind == "spread":
        first, second = label.split("-")
        rtl = (manga["meta"] or {}).get("direction", "rtl") == "rtl"
        halves = (second, first) if rtl else (first, second)
        for i, half in enumerate(halves):
            draw.text((width * (0.25 + 0.5 * i), height * 0.16), f"page {half}", font=font(60),
                      anchor="mm", fill=INK)
    if kind == "r90":
        draw.text((width / 2, height * 0.2), "stored turned, tag [r90]", font=font(44), anchor="mm", fill=INK)
    draw_number(draw, (width / 2, height / 2), label, colour)
    draw_caption(draw, size, colour, f"{manga['label']} · {chapter_name}", f"{name} · {total} files in chapter")
    if kind == "r90":
        image = image.transpose(Image.Transpose.ROTATE_90)
    return image


def render_webtoon(manga, chapter_name, count):
    """The slices of one webtoon chapter, cut from one tall drawing so shapes run across the cuts."""
    colour = manga["colour"]
    width, height = SLICE[0], SLICE[1] * count
    strip = Image.new("RGB", (width, height), mix(colour, WHITE, 0.9))
    draw = ImageDraw.Draw(strip)
    for i, y in enumerate(range(0, height, 350)):
        if i % 2:
            draw.rectangle((0, y, width, y + 350), fill=mix(colour, WHITE, 0.8))
    wave = [(width / 2 + 260 * math.sin(2 * math.pi * y / 1700), y) for y in range(0, height + 20, 20)]
    draw.line(wave, fill=colour, width=40, joint="curve")
    for y in range(SLICE[1], height, SLICE[1]):
        draw.ellipse((width - 330, y - 150, width - 30, y + 150), fill=mix(colour, WHITE, 0.5),
                     outline=INK, width=8)
    draw_grid(draw, (width, height), colour, cell=200)
    for n in range(count):
        top = n * SLICE[1]
        draw_number(draw, (width / 2, top + SLICE[1] / 2), str(n + 1), colour, size=300)
        caption = f"{manga['label']} · {chapter_name}\nslice {n + 1} of {count}"
        centre = (width / 2, top + SLICE[1] / 2 + 310)
        box = draw.multiline_textbbox(centre, caption, font=font(30), anchor="mm", align="center")
        draw.rectangle((box[0] - 16, box[1] - 12, box[2] + 16, box[3] + 12), fill=WHITE, outline=colour, width=4)
        draw.multiline_text(centre, caption, font=font(30), anchor="mm", align="center", fill=INK)
    return [strip.crop((0, n * SLICE[1], width, (n + 1) * SLICE[1])) for n in range(count)]


def render_cover(manga):
    colour = manga["colour"]
    image = Image.new("RGB", PAGE, colour)
    draw = ImageDraw.Draw(image)
    for r in range(600, 0, -90):
        draw.ellipse((450 - r, 700 - r, 450 + r, 700 + r), outline=mix(colour, WHITE, 0.4), width=12)
    draw.text((450, 250), manga["label"], font=font(84), anchor="mm", fill=WHITE)
    draw.text((450, 1150), "cover.jpg", font=font(48), anchor="mm", fill=WHITE)
    return image


# ---- writing ----------------------------------------------------------------------------------

def encode(image, ext):
    fmt, options = SAVE_OPTIONS[ext]
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def render_chapter(job):
    """[(file name, encoded bytes)] for one chapter; runs in a worker process."""
    manga_index, spec = job
    manga, specs = MANGA[manga_index], spec["pages"]
    if manga.get("webtoon"):
        images = render_webtoon(manga, spec["label"], len(specs))
    else:
        images = (render_page(manga, spec["label"], *page, len(specs)) for page in specs)
    return [(name, encode(image, name.rsplit(".", 1)[1])) for (name, _, _), image in zip(specs, images)]


def write_file(path, payload, mtime):
    with open(path, "wb") as f:
        f.write(payload)
        f.flush()
        os.fsync(f.fileno())
    os.utime(path, (mtime, mtime))


def json_bytes(data):
    return (json.dumps(data, ensure_ascii=False, indent=2) + "\n").encode()


def check_target(path):
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise TargetNotEmpty(f"{path} exists and is not a folder")
    if path.is_dir() and any(path.iterdir()):
        raise TargetNotEmpty(f"{path} is not empty: give a new or empty folder")


def ensure_default():
    """When LIBRARY is unset it is the demo library beside manage.py (settings.LIBRARY_IS_DEMO):
    write it there if it is missing. Returns a line saying so, or None when nothing was written.
    Another process writing it at the same time is harmless: the rename of make_demo is atomic."""
    from django.conf import settings

    path = settings.LIBRARY
    if not getattr(settings, "LIBRARY_IS_DEMO", False) or path.exists():
        return None
    try:
        summary = make_demo(path)
    except TargetNotEmpty:
        return None  # another process made it first
    return f"LIBRARY is not set: made the demo library in {path} ({len(summary)} manga)"


def make_demo(path, workers=None):
    """Write the demo library to `path` (new or empty) and return a summary per manga.

    The tree is built in a hidden sibling folder and renamed into place in one step, so `path`
    holds either the whole library or nothing. Chapters are drawn in `workers` processes
    (default: one per core).
    """
    path = Path(path).absolute()
    check_target(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.making-{os.getpid()}")
    staging.mkdir()
    try:
        write_tree(staging, workers or os.cpu_count() or 1)
        check_target(path)
        os.rename(staging, path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    stamp_folders(path)
    fsync_dir(path.parent)
    return [summarise(manga) for manga in MANGA]


def write_tree(root, workers):
    jobs, targets = [], []
    mtime = EPOCH
    for index, manga in enumerate(MANGA):
        folder = root / manga["folder"]
        folder.mkdir()
        if manga["meta"] is not None:
            write_file(folder / "manga.json", json_bytes(manga["meta"]), mtime)
        if manga["cover"]:
            write_file(folder / "cover.jpg", encode(render_cover(manga), "jpg"), mtime)
        for book, chapter_specs in manga["books"]:
            for spec in chapter_specs:
                # A fixed, increasing time per chapter: "recently added" has a stable, sensible order.
                mtime += HOURS_PER_CHAPTER * 3600
                jobs.append((index, spec))
                targets.append((folder / book if book else folder, spec, mtime))
    if workers > 1:
        with ProcessPoolExecutor(min(workers, len(jobs))) as pool:
            results = pool.map(render_chapter, jobs)
            _write_chapters(targets, results)
    else:
        _write_chapters(targets, map(render_chapter, jobs))


def _write_chapters(targets, results):
    for (parent, spec, mtime), files in zip(targets, results):
        folder = parent / spec["folder"]
        folder.mkdir(parents=True)
        for name, payload in files:
            write_file(folder / name, payload, mtime)
        if spec["meta"]:
            write_file(folder / "chapter.json", json_bytes(spec["meta"]), mtime)


def summarise(manga):
    versions = [spec for _, specs in manga["books"] for spec in specs]
    return {
        "folder": manga["folder"], "title": (manga["meta"] or {}).get("title", manga["folder"]),
        "direction": (manga["meta"] or {}).get("direction", "no direction set"),
        "books": sum(1 for book, _ in manga["books"] if book), "versions": len(versions),
        "pages": sum(len(spec["pages"]) for spec in versions),
    }


def stamp_folders(root):
    """Give every folder the newest mtime inside it (bottom-up), so sorting by time is stable."""
    newest = 0.0
    for entry in sorted(root.iterdir()):
        newest = max(newest, stamp_folders(entry) if entry.is_dir() else entry.stat().st_mtime)
    newest = newest or EPOCH
    os.utime(root, (newest, newest))
    fsync_dir(root)
    return newest


def tree_size(root):
    """Total bytes of the files under root."""
    return sum(p.stat().st_size for p in Path(root).rglob("*") if p.is_file())
