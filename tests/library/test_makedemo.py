"""manage.py makedemo: the demo library's layout, its pages, determinism and refusing a used folder."""
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from library import demo

ROOT = Path(__file__).resolve().parents[2]
MANGA = {"Moon Garden", "星の図書館", "Iron Harbor", "Long Scroll", "Paper Cranes", "Clockwork Fox"}


@pytest.fixture
def made(demo_made):
    """The library the command made for the whole run (tests/conftest.py), and its output."""
    return demo_made


def names(folder):
    return sorted(p.name for p in folder.iterdir())


def read_json(path):
    return json.loads(path.read_text(encoding="utf-8"))


def snapshot(root):
    """Every path under root with its mtime, and a hash for files."""
    result = {}
    for p in sorted(root.rglob("*")):
        digest = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
        result[str(p.relative_to(root))] = (digest, p.stat().st_mtime_ns)
    result["."] = ("dir", root.stat().st_mtime_ns)
    return result


def make_command(*args):
    return subprocess.run([sys.executable, "manage.py", "makedemo", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def test_it_makes_six_manga_and_reports_them(made):
    path, out = made
    assert set(names(path)) == MANGA
    assert "Made a demo library" in out and "6 manga" in out and "星の図書館" in out
    assert names(path.parent) == ["demo"]  # the staging folder is gone


def test_it_writes_books_versions_decimal_and_extras(made):
    moon = made[0] / "Moon Garden"
    assert names(moon) == ["b01 Spring", "b02 Summer", "cover.jpg", "manga.json", "x01 Side Stories"]
    assert names(moon / "b01 Spring") == [
        "c0001 Seeds", "c0002 Roots [MangaDex]", "c0002 Roots [Official]", "c0002.5 Interlude", "c0003 Branches"]
    assert "x01 Summer Sketches" in names(moon / "b02 Summer")
    assert names(moon / "x01 Side Stories") == ["c0001 Omake"]
    official = read_json(moon / "b01 Spring" / "c0002 Roots [Official]" / "chapter.json")
    assert official["priority"] == 10 and official["groups"] == ["Moonlit Press"]
    assert official["title"] == "Roots" and official["published"] == "2021-04-28"
    fan = read_json(moon / "b01 Spring" / "c0002 Roots [MangaDex]" / "chapter.json")
    assert "priority" not in fan and fan["groups"] == ["Night Owl Scans"]


def test_it_writes_manga_json_with_the_spec_fields(made):
    path = made[0]
    for name in MANGA - {"Paper Cranes"}:
        meta = read_json(path / name / "manga.json")
        assert {"title", "authors", "description", "status", "year", "tags", "direction"} <= set(meta)
        assert meta["status"] in {"ongoing", "completed", "hiatus", "cancelled"}
        assert isinstance(meta["year"], int) and meta["tags"] and meta["authors"]
    directions = {name: read_json(path / name / "manga.json")["direction"] for name in MANGA - {"Paper Cranes"}}
    assert directions == {"Moon Garden": "rtl", "星の図書館": "rtl", "Iron Harbor": "ltr", "Long Scroll": "ttb",
                          "Clockwork Fox": "rtl"}
    stars = read_json(path / "星の図書館" / "manga.json")
    assert stars["title"] == "星の図書館" and "Hoshi no Toshokan" in stars["altTitles"]
    assert "c0001 はじまり" in names(path / "星の図書館" / "b01 第一巻")
    assert names(path / "Paper Cranes") == ["c0000 Prologue", "c0001 Folding", "c0002 Wind"]
    assert {name for name in MANGA if (path / name / "cover.jpg").exists()} == {
        "Moon Garden", "星の図書館", "Long Scroll", "Clockwork Fox"}
    assert Image.open(path / "Moon Garden" / "cover.jpg").format == "JPEG"


def test_it_tags_and_sizes_pages(made):
    seeds = made[0] / "Moon Garden" / "b01 Spring"
    assert names(seeds / "c0001 Seeds")[:7] == [
        "001 [cover].jpg", "002.jpg", "003.jpg", "004.jpg", "005.jpg", "006-007.png", "008.jpg"]
    assert names(seeds / "c0002 Roots [MangaDex]")[-2] == "010 [extra].png"  # before chapter.json
    with Image.open(seeds / "c0003 Branches" / "010-011.png") as spread:
        assert spread.size == (1800, 1350)
    with Image.open(seeds / "c0003 Branches" / "005 [r90].jpg") as turned:
        assert turned.size == (1350, 900)  # shown turned clockwise: 900 × 1350, a single page
    with Image.open(seeds / "c0003 Branches" / "004.jpg") as single:
        assert single.size == (900, 1350)


def test_it_mixes_formats_that_match_their_extensions(made):
    formats = {}
    for page in made[0].rglob("*"):
        if page.suffix in (".jpg", ".png", ".webp") and page.name != "cover.jpg":
            with Image.open(page) as image:
                formats.setdefault(page.suffix, set()).add(image.format)
    assert formats == {".jpg": {"JPEG"}, ".png": {"PNG"}, ".webp": {"WEBP"}}


def test_it_colours_each_manga_differently(made):
    path = made[0]
    firsts = [
        path / "Moon Garden/b01 Spring/c0001 Seeds/002.jpg",
        path / "星の図書館/b01 第一巻/c0001 はじまり/002.webp",
        path / "Iron Harbor/b01 Rust and Salt/c0001 Dockside/002.webp",
        path / "Paper Cranes/c0000 Prologue/001.jpg",
        path / "Clockwork Fox/c0001 Tick 1/001.png",
    ]
    headers = {tuple(v // 16 for v in Image.open(p).convert("RGB").getpixel((450, 10))) for p in firsts}
    assert len(headers) == len(firsts)


def test_it_makes_a_webtoon_of_slices_that_join(made):
    scroll = made[0] / "Long Scroll"
    assert names(scroll) == ["c0001 Start [Official]", "c0002 Next [Official]", "c0003 Deep Water [Official]",
                             "cover.jpg", "manga.json"]
    for chapter in sorted(p for p in scroll.iterdir() if p.is_dir()):
        slices = [Image.open(page).convert("RGB") for page in sorted(chapter.glob("0*"))]
        assert len(slices) >= 3 and all(s.size == (800, 2400) for s in slices)
        # Rows a few pixels either side of each cut agree: the drawing runs on across it.
        for upper, lower in zip(slices, slices[1:]):
            assert columns_differing(upper, 2397, lower, 3) < 16
        assert columns_differing(slices[0], 2397, slices[2], 3) > 30  # slices that do not meet


def columns_differing(upper, upper_y, lower, lower_y):
    return sum(1 for x in range(upper.width)
               if max(abs(a - b) for a, b in zip(upper.getpixel((x, upper_y)), lower.getpixel((x, lower_y)))) > 40)


def test_it_gives_folders_the_newest_time_inside(made):
    path = made[0]
    moon = path / "Moon Garden"
    assert moon.stat().st_mtime == max(p.stat().st_mtime for p in moon.rglob("*") if p.is_file())
    assert path.stat().st_mtime == max(p.stat().st_mtime for p in path.rglob("*"))
    assert (moon / "b01 Spring/c0001 Seeds").stat().st_mtime < (moon / "b02 Summer/c0004 Leaves").stat().st_mtime


def test_it_writes_the_same_bytes_and_times_every_run(made, tmp_path):
    again = tmp_path / "again"
    again.mkdir()  # an existing empty folder is accepted
    demo.make_demo(again, workers=1)
    assert snapshot(again) == snapshot(made[0])


@pytest.mark.process
def test_it_refuses_a_folder_that_is_not_empty(tmp_path):
    target = tmp_path / "library"
    target.mkdir()
    (target / "keep.txt").write_text("mine")
    result = make_command(str(target))
    assert result.returncode != 0
    assert "is not empty" in result.stderr and "nothing was written" in result.stderr
    assert names(target) == ["keep.txt"] and (target / "keep.txt").read_text() == "mine"
    assert names(tmp_path) == ["library"]


@pytest.mark.process
def test_it_refuses_a_file(tmp_path):
    target = tmp_path / "library"
    target.write_text("a file")
    result = make_command(str(target))
    assert result.returncode != 0 and "not a folder" in result.stderr
    assert target.read_text() == "a file" and names(tmp_path) == ["library"]
