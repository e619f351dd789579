"""clients/opds/pages.py: the type a Page Streaming link declares, the JPEG copy of a page and the
memory those copies may take."""
import io

from PIL import Image

from clients.opds import pages


class Version:
    def __init__(self, *names):
        self.names = list(names)

    def files(self):
        return self.names


def test_a_chapter_of_one_type_keeps_it_and_a_mixed_one_asks_for_jpeg():
    assert pages.stream_type(Version("001.png", "002.PNG")) == ("image/png", False)
    assert pages.stream_type(Version("001.webp")) == ("image/webp", False)
    assert pages.stream_type(Version("001.jpg", "002.jpeg")) == ("image/jpeg", False)
    assert pages.stream_type(Version("001.png", "002.webp")) == ("image/jpeg", True)
    assert pages.stream_type(Version("001.png", "002.bmp")) == ("image/jpeg", True)  # a type it cannot name


def test_a_transparent_page_becomes_a_jpeg_on_white():
    image = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    image.paste((255, 0, 0, 255), (0, 0, 16, 32))
    out = io.BytesIO()
    image.save(out, "PNG")
    with Image.open(io.BytesIO(pages.as_jpeg(out.getvalue()))) as converted:
        assert converted.format == "JPEG" and converted.mode == "RGB"
        assert min(converted.getpixel((28, 16))) > 240
        red = converted.getpixel((4, 16))
        assert red[0] > 200 and red[1] < 80


def test_the_copies_kept_stay_under_the_bound_the_oldest_dropped_first(monkeypatch):
    monkeypatch.setattr(pages, "CACHE_BYTES", 100)
    monkeypatch.setattr(pages, "_cache", type(pages._cache)())
    monkeypatch.setattr(pages, "_cached_bytes", 0)
    pages._remember(("p0", "e"), b"x" * 40)
    pages._remember(("p1", "e"), b"x" * 40)
    assert pages._cached(("p0", "e"))  # sent again: now the most recent
    pages._remember(("p2", "e"), b"x" * 40)
    assert list(pages._cache) == [("p0", "e"), ("p2", "e")]
    assert pages._cached_bytes == 80 <= pages.CACHE_BYTES
    assert pages._cached(("p1", "e")) is None
