"""A page whose file is cut short (a truncated JPEG, PNG or WebP loads and decodes partly, or
blank) gets the same "could not be loaded / Try again" message as a file that is no image."""
import io

import pytest
from PIL import Image

from tests.conftest import make_page
from tests.reader.conftest import start_server, stop_server


def _noise(fmt):
    out = io.BytesIO()
    Image.effect_noise((300, 450), 60).convert("RGB").save(out, fmt)
    return out.getvalue()


@pytest.fixture(scope="module")
def broken_server(tmp_path_factory):
    library = tmp_path_factory.mktemp("broken") / "library"
    chapter = library / "Cut" / "c0001 One"
    make_page(chapter / "001.png", size=(300, 450))
    jpeg, png = _noise("JPEG"), _noise("PNG")
    (chapter / "002.jpg").write_bytes(jpeg[: len(jpeg) // 2])
    (chapter / "003.png").write_bytes(png[: len(png) // 2])
    (chapter / "004.jpg").write_bytes(jpeg + b"\0\0")  # whole, with padding after the end marker
    srv = start_server(tmp_path_factory, library, ("Cut", "0/1"))
    yield srv
    stop_server(srv)


@pytest.mark.browser
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_it_shows_the_failure_message_for_a_truncated_page(broken_server, size, request, reader_on):
    reader = reader_on(request.getfixturevalue(size), broken_server, startMode="page").open("Cut", 0, 1)
    for number, broken in ((2, True), (3, True), (4, False)):
        reader.page.evaluate(f"document.querySelector('.rd-slider').value = {number}")
        reader.page.dispatch_event(".rd-slider", "change")
        if broken:
            reader.page.wait_for_selector(f".rd-page.rd-failed:has-text('Page {number} could not be loaded.')")
            assert reader.page.is_visible(".rd-page.rd-failed .rd-fail button")
        else:
            reader.wait(f"[...document.querySelectorAll('.rd-page[data-i=\"{number - 1}\"] img')]"
                        ".some(i => i.complete && i.naturalWidth)")
            reader.settle()
            reader.page.wait_for_timeout(300)  # the check reads the page again from the cache
            assert reader.page.locator(".rd-page.rd-failed").count() == 0
