"""A scale library for the benchmarks: manga × books × chapters × pages, every page a hard link.

A pool of a few dozen real images (JPEG baseline, progressive, with EXIF or an ICC profile, one
whose size marker lies past the first 4 KB; grey and colour PNG; lossy, lossless and extended
WebP; AVIF; double-page spreads; tall webtoon slices) is written once with Pillow, and every page
of the tree is a hard link to one of them: 100,000 pages take seconds and a few MB of disk. The
page cache therefore holds the pool, so scan figures are the CPU and system-call cost of a warm
tree, not the disk's.

The bulk manga vary the way real libraries do: chapters straight in the manga folder, `b01`
book folders, `Vol.1 Ch.1` names, a second version of some chapters, manga.json, cover.jpg,
chapter.json, `[cover]`-tagged first pages and double pages named `012-013.jpg`. Three special
manga come on top: a long series, a webtoon of tall slices, and an artbook of spreads.

    python -m bench.generate --preset medium [--dir bench/out/medium]
"""
import argparse
import errno
import hashlib
import io
import json
import os
import random
import shutil
import time
from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent / "out"

# bulk: manga × books × chapters × pages; long: books × chapters × pages; webtoon: chapters × slices;
# artbook: spreads.
PRESETS = {
    "tiny": {"manga": 8, "books": 1, "chapters": 2, "pages": 4, "long": (2, 3, 5), "webtoon": (3, 6), "artbook": 4},
    "medium": {"manga": 400, "books": 1, "chapters": 2, "pages": 22, "long": (6, 10, 20), "webtoon": (30, 30),
               "artbook": 40},
    "large": {"manga": 2000, "books": 1, "chapters": 2, "pages": 22, "long": (10, 20, 20), "webtoon": (80, 40),
              "artbook": 120},
    # a million pages: 10,000 manga of 5 chapters of 20 pages
    "xl": {"manga": 10000, "books": 1, "chapters": 5, "pages": 20, "long": (10, 20, 20), "webtoon": (80, 40),
           "artbook": 120},
}

WORDS = ["Moon", "Garden", "Iron", "Harbor", "Paper", "Cranes", "Clockwork", "Fox", "Silent", "River",
         "Glass", "Tower", "Ember", "Tide", "Lantern", "Hollow"]
GROUPS = ["MangaDex", "Official", "Hikari Scans", "Tide Team"]
LONG, WEBTOON, ARTBOOK = "Endless Harbor Chronicle", "Long Scroll Tower", "Ember Artworks"


# The image pool

def _page_image(rng, size, grey=False):
    """A manga-like page: panel borders, hatching and speech-bubble blobs, so it compresses like one."""
    w, h = size
    im = Image.new("L" if grey else "RGB", size, 255 if grey else (250, 248, 242))
    draw = ImageDraw.Draw(im)
    ink = 20 if grey else (25, 22, 30)
    rows = max(2, h // 500)
    for r in range(rows):
        top, bottom = r * h // rows + 12, (r + 1) * h // rows - 12
        split = rng.randint(w // 4, 3 * w // 4)
        for left, right in ((12, split - 6), (split + 6, w - 12)):
            draw.rectangle((left, top, right, bottom), outline=ink, width=4)
            for _ in range(rng.randint(20, 60)):
                x, y = rng.randint(left, right), rng.randint(top, bottom)
                shade = rng.randint(30, 200)
                draw.line((x, y, x + rng.randint(-80, 80), y + rng.randint(-80, 80)),
                          fill=shade if grey else (shade, shade - 10 if shade > 10 else 0, shade), width=2)
            bx, by = rng.randint(left, max(left, right - 160)), rng.randint(top, max(top, bottom - 90))
            draw.ellipse((bx, by, bx + 150, by + 80), outline=ink, fill=255 if grey else (255, 255, 255), width=3)
    noise = Image.effect_noise(size, 18).point(lambda v: v // 6)
    if grey:
        return Image.blend(im, noise, 0.08)
    return Image.blend(im, Image.merge("RGB", (noise, noise, noise)), 0.08)


def _exif(big=False):
    exif = Image.Exif()
    exif[0x0112] = 1  # orientation
    exif[0x0131] = "ScanStation 4.2"
    if big:
        exif[0x927C] = b"maker" * 2400  # a 12 KB maker note: the size marker sits past the first read
    return exif


# name → how to make it: (image, format, save options).
POOL = {
    "page-baseline.jpg": lambda rng: (_page_image(rng, (1100, 1600)), "JPEG", {"quality": 85}),
    "page-progressive.jpg": lambda rng: (_page_image(rng, (1100, 1600)), "JPEG",
        {"quality": 82, "progressive": True}),
    "page-exif.jpg": lambda rng: (_page_image(rng, (1060, 1500)), "JPEG", {"quality": 85, "exif": _exif()}),
    "page-icc.jpg": lambda rng: (_page_image(rng, (1100, 1600)), "JPEG",
        {"quality": 88, "icc_profile": rng.randbytes(3144)}),
    "page-bigexif.jpg": lambda rng: (_page_image(rng, (1100, 1600)), "JPEG",
        {"quality": 85, "exif": _exif(big=True)}),
    "page-grey.png": lambda rng: (_page_image(rng, (1000, 1500), grey=True), "PNG", {"compress_level": 3}),
    "page-colour.png": lambda rng: (_page_image(rng, (900, 1300)), "PNG", {"compress_level": 3}),
    "page-lossy.webp": lambda rng: (_page_image(rng, (1100, 1600)), "WEBP", {"quality": 80, "method": 2}),
    "page-lossless.webp": lambda rng: (_page_image(rng, (700, 1000), grey=True).convert("RGB"), "WEBP",
        {"lossless": True, "method": 0}),
    "page-alpha.webp": lambda rng: (_page_image(rng, (1000, 1450)).convert("RGBA"), "WEBP",
        {"quality": 80, "method": 2}),
    "page.avif": lambda rng: (_page_image(rng, (1000, 1450)), "AVIF", {"quality": 60, "speed": 10}),
    "spread.jpg": lambda rng: (_page_image(rng, (2200, 1600)), "JPEG", {"quality": 85}),
    "spread.webp": lambda rng: (_page_image(rng, (2200, 1600)), "WEBP", {"quality": 80, "method": 2}),
    "slice-a.jpg": lambda rng: (_page_image(rng, (800, 3200)), "JPEG", {"quality": 84}),
    "slice-b.jpg": lambda rng: (_page_image(rng, (800, 2800)), "JPEG", {"quality": 84}),
    "slice.webp": lambda rng: (_page_image(rng, (800, 3000)), "WEBP", {"quality": 80, "method": 2}),
    "cover.jpg": lambda rng: (_page_image(rng, (900, 1350)), "JPEG", {"quality": 90}),
}

# Per-manga formats, in the mix of a real shelf: mostly JPEG, then WebP, then PNG.
FORMAT_MIX = [
    ["page-baseline.jpg", "page-progressive.jpg", "page-exif.jpg", "page-icc.jpg"],
    ["page-baseline.jpg", "page-exif.jpg", "page-bigexif.jpg"],
    ["page-baseline.jpg", "page-icc.jpg"],
    ["page-lossy.webp", "page-alpha.webp"],
    ["page-lossy.webp", "page-lossless.webp"],
    ["page-grey.png", "page-colour.png"],
    ["page-progressive.jpg", "page.avif"],
]


def _pool_cache():
    """Where drawn pool images are kept between runs: named by this file's digest, so a change to
    how they are drawn draws them again."""
    return OUT / f"pool-{hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:12]}"


def make_pool(folder, shared=None):
    """Write the pool into `folder` (once); name → path. Images already drawn into `shared` (the
    cache under bench/out/) are copied from there, and those drawn here are kept there: drawing
    them all takes a few seconds of CPU, every run (links need one file system, so a copy)."""
    shared = _pool_cache() if shared is None else shared
    folder.mkdir(parents=True, exist_ok=True)
    paths = {}
    for i, (name, make) in enumerate(POOL.items()):
        path = folder / name
        if not path.exists():
            cached = shared / name
            if cached.exists() and cached != path:
                data = cached.read_bytes()
            else:
                im, fmt, options = make(random.Random(i))
                buf = io.BytesIO()
                im.save(buf, fmt, **options)
                data = buf.getvalue()
                _write_new(cached, data)
            _write_new(path, data)
        paths[name] = path
    return paths


def _write_new(path, data):
    """Write `data` to `path` whole or not at all; runs side by side may write the same file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    tmp.replace(path)


# The tree

def own_copy(page, library):
    """A copy of `page` beside the folder `library`, for a bench's own library to hard-link its pages
    to: a page of the generated library may already have ext4's 65,000 links (the xl preset)."""
    library.parent.mkdir(parents=True, exist_ok=True)
    copy = library.parent / f"{library.name}-page{page.suffix}"
    shutil.copyfile(page, copy)
    return copy


class Linker:
    """os.link as a copy_function (shutil.copytree), going on from a fresh copy of a file once the
    file has ext4's 65,000 links (the xl preset's pages are links to a few files already)."""

    def __init__(self, spare):
        self.spare = spare  # a folder for the copies, outside the tree being made
        self.copies = {}  # inode of a source → the copy its links go to now

    def __call__(self, source, dest):
        inode = os.stat(source).st_ino
        try:
            os.link(self.copies.get(inode, source), dest)
        except OSError as e:
            if e.errno != errno.EMLINK:
                raise
            self.spare.mkdir(parents=True, exist_ok=True)
            copy = self.spare / f"{inode}-{len(self.copies)}{Path(source).suffix}"
            shutil.copyfile(source, copy)
            self.copies[inode] = copy
            os.link(copy, dest)
        return dest


class Tree:
    """Writes one library of hard links; counts what it made."""

    def __init__(self, root, pool):
        self.root = root
        self.pool = pool
        self.pages = 0
        self.folders = 0

    def folder(self, *parts):
        path = self.root.joinpath(*parts)
        path.mkdir(parents=True)
        self.folders += 1
        return path

    def link(self, source, dest):
        try:
            os.link(self.pool[source], dest)
        except OSError as e:
            if e.errno != errno.EMLINK:
                raise
            # ext4 allows 65,000 links to a file: a million pages need more copies of the busy ones
            path = self.pool[source]
            copy = path.with_name(f"{path.stem}-{self.pages}{path.suffix}")
            shutil.copyfile(path, copy)
            self.pool[source] = copy
            os.link(copy, dest)
        self.pages += 1

    def chapter(self, path, count, images, rng, cover=False, spreads=True):
        """`count` pages linked from `images`; now and then a double page as `NNN-NNN`."""
        n = 1
        ext = lambda name: name.rpartition(".")[2]  # noqa: E731
        for p in range(count):
            if spreads and p and p % 11 == 0 and p + 1 < count:
                src = "spread.webp" if ext(images[0]) == "webp" else "spread.jpg"
                self.link(src, path / f"{n:03d}-{n + 1:03d}.{ext(src)}")
                n += 2
                continue
            src = images[rng.randrange(len(images))]
            tag = " [cover]" if cover and p == 0 else ""
            self.link(src, path / f"{n:03d}{tag}.{ext(src)}")
            n += 1


def _write_json(path, data):
    path.write_text(json.dumps(data, ensure_ascii=False))


def bulk_manga(tree, m, books, chapters, pages):
    rng = random.Random(m)
    title = f"{WORDS[m % 16]} {WORDS[(m // 16) % 16]} {m:04d}"
    manga = tree.folder(title)
    images = FORMAT_MIX[m % len(FORMAT_MIX)]
    if m % 2 == 0:
        _write_json(manga / "manga.json", {
            "title": title, "authors": [f"Author {m % 97}"], "status": ["ongoing", "completed"][m // 2 % 2],
            "tags": [WORDS[(m + 3) % 16].lower(), WORDS[(m + 7) % 16].lower()],
            "description": f"The {WORDS[m % 16].lower()} saga, volume after volume.",
        })
    if m % 5 == 0:
        tree.link("cover.jpg", manga / "cover.jpg")
    style = m % 4 if books > 1 else (m % 4 if m % 4 in (0, 2) else 0)
    group = GROUPS[m % len(GROUPS)]
    number = 0
    for b in range(1, books + 1):
        for c in range(chapters):
            number += 1
            name = f"c{number:04d} Part {number} [{group}]"
            if style == 2:
                parent, name = manga, f"Vol.{b} Ch.{number} Part {number} [{group}]"
            elif style in (1, 3):
                parent = manga / f"b{b:02d} Volume {b}"
                if not parent.exists():
                    tree.folder(parent.relative_to(tree.root))
            else:
                parent = manga
            folder = tree.folder(parent.relative_to(tree.root), name)
            tree.chapter(folder, pages, images, rng, cover=(number == 1))
            if number % 7 == 3:
                _write_json(folder / "chapter.json", {"title": f"Part {number}: the {WORDS[number % 16]}"})
            if m % 10 == 0 and number == 1:  # a second version of the first chapter
                other = tree.folder(parent.relative_to(tree.root), f"{name.rsplit(' [', 1)[0]} [Other]")
                tree.chapter(other, pages, images, rng)


def long_series(tree, books, chapters, pages):
    rng = random.Random(-1)
    manga = tree.folder(LONG)
    _write_json(manga / "manga.json",
                {"title": LONG, "authors": ["A. Writer"], "direction": "rtl", "status": "ongoing"})
    tree.link("cover.jpg", manga / "cover.jpg")
    number = 0
    for b in range(1, books + 1):
        book = tree.folder(LONG, f"b{b:02d} Arc {b}")
        for _ in range(chapters):
            number += 1
            folder = tree.folder(book.relative_to(tree.root), f"c{number:04d} Episode {number} [Official]")
            tree.chapter(folder, pages, FORMAT_MIX[0], rng, cover=(number % chapters == 1))
    extras = tree.folder(LONG, "x01 Side Stories")
    tree.chapter(tree.folder(extras.relative_to(tree.root), "c0001 Omake"), max(2, pages // 4), FORMAT_MIX[0], rng)


def webtoon(tree, chapters, slices):
    rng = random.Random(-2)
    tree.folder(WEBTOON)  # no manga.json: the direction comes from the tall slices
    for c in range(1, chapters + 1):
        folder = tree.folder(WEBTOON, f"c{c:04d} Floor {c} [Official]")
        tree.chapter(folder, slices, ["slice-a.jpg", "slice-b.jpg", "slice.webp"], rng, spreads=False)


def artbook(tree, spreads):
    folder = tree.folder(ARTBOOK, "c0001 Gallery")
    _write_json(folder.parent / "manga.json", {"title": ARTBOOK, "direction": "ltr"})
    tree.link("cover.jpg", folder / "000 [cover].jpg")
    for i in range(spreads):
        src = "spread.jpg" if i % 3 else "spread.webp"
        tree.link(src, folder / f"{2 * i + 1:03d}-{2 * i + 2:03d}.{src.rpartition('.')[2]}")


def generate(root, preset):
    """Build the library of `preset` (a name or a dict) at `root`/library, unless it is there already.

    Returns (library path, counts {"manga", "pages", "folders"}, seconds spent generating).
    """
    spec = PRESETS[preset] if isinstance(preset, str) else preset
    root = Path(root)
    library = root / "library"
    marker = root / "generated.json"
    want = json.dumps(spec, sort_keys=True)
    if marker.exists():
        done = json.loads(marker.read_text())
        if done.get("spec") == want:
            return library, done["counts"], 0.0
    started = time.perf_counter()
    if library.exists():
        shutil.rmtree(library)
    library.mkdir(parents=True)
    tree = Tree(library, make_pool(root / "pool"))
    for m in range(spec["manga"]):
        bulk_manga(tree, m, spec["books"], spec["chapters"], spec["pages"])
    long_series(tree, *spec["long"])
    webtoon(tree, *spec["webtoon"])
    artbook(tree, spec["artbook"])
    counts = {"manga": spec["manga"] + 3, "pages": tree.pages, "folders": tree.folders}
    marker.write_text(json.dumps({"spec": want, "counts": counts}))
    return library, counts, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", choices=sorted(PRESETS), default="medium")
    parser.add_argument("--dir", help="where to write (default bench/out/<preset>)")
    args = parser.parse_args()
    library, counts, seconds = generate(Path(args.dir or OUT / args.preset), args.preset)
    print(f"{library}: {counts['manga']} manga, {counts['folders']} folders, {counts['pages']} pages "
          f"({seconds:.1f} s)")


if __name__ == "__main__":
    main()
