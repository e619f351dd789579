"""Image loading in a real browser: page turns swap in already decoded images within one frame,
the pool preloads neighbours, the spinner waits 150 ms, Flow loads lazily."""
import pytest

MOON = "Moon Garden"

# Record each DOM change of the canvas as it happens (a MutationObserver callback runs before
# the next paint): which pages left, which came, and whether the new images were ready to paint.
WATCH = """() => { window.swaps = [];
  new MutationObserver((records) => {
    const removed = [], added = [];
    for (const r of records) {
      r.removedNodes.forEach((n) => n.dataset && removed.push(+n.dataset.i));
      r.addedNodes.forEach((n) => { if (!n.dataset || n.dataset.i === undefined) return;
        const img = n.querySelector('img');
        added.push({i: +n.dataset.i, ready: !!img && img.complete && img.naturalWidth > 0,
                    decoding: img && img.decoding}); });
    }
    swaps.push({removed, added});
  }).observe(document.querySelector('.rd-canvas'), {childList: true}); }"""


@pytest.fixture(scope="module")
def srv(demo_server):
    return demo_server


@pytest.mark.parametrize("mode, ahead, turned", [
    ("page", [1, 2, 3], {"removed": [0], "added": [1]}),
    ("book", [1, 2, 3, 4], {"removed": [0], "added": [1, 2]}),
])
def test_it_swaps_in_decoded_images_within_one_frame(srv, desktop, reader_on, mode, ahead, turned):
    reader = reader_on(desktop, srv, startMode=mode).open(MOON, 1, 1)
    reader.wait(f"{ahead}.every((i) => mcReader.decoded.includes(i))")
    reader.page.evaluate(WATCH)
    reader.page.keyboard.press("ArrowLeft")
    reader.settle()
    swaps = reader.page.evaluate("swaps")
    assert len(swaps) == 1  # the old page left and the new one came in the same change
    [swap] = swaps
    assert swap["removed"] == turned["removed"]
    assert [a["i"] for a in swap["added"]] == turned["added"]
    assert all(a["ready"] and a["decoding"] == "sync" for a in swap["added"])


def test_a_turn_fetches_the_next_neighbour_only_after_its_frame(srv, desktop, reader_on):
    """A neighbour's fetch and decode would take the CPU from the raster of the page just turned to."""
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 1)
    reader.wait("[1, 2, 3].every((i) => mcReader.decoded.includes(i))")
    reader.page.keyboard.press("ArrowLeft")  # to page 2: page 5 (index 4) is the new neighbour
    reader.wait("mcReader.decoded.includes(4) && performance.getEntriesByName('mc-turn').length > 0")
    started, painted = reader.page.evaluate("""() => {
      const url = JSON.parse(document.getElementById('chapter-data').textContent).pages[4].u;
      const fetched = performance.getEntriesByType('resource').find((e) => e.name.endsWith(url));
      const turn = performance.getEntriesByName('mc-turn')[0];
      return [fetched.startTime, turn.startTime + turn.duration]; }""")
    assert started > painted


def test_it_preloads_three_ahead_and_one_back_in_a_pool_of_12(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="page").open(MOON, 1, 1)
    reader.wait("[0, 1, 2, 3].every((i) => mcReader.decoded.includes(i))")
    assert 4 not in reader.state("mcReader.decoded")
    for _ in range(5):
        reader.page.keyboard.press("ArrowLeft")
    reader.wait("[4, 5, 6, 7, 8].every((i) => mcReader.decoded.includes(i))")
    for _ in range(5):
        reader.page.keyboard.press("ArrowLeft")
    reader.wait("mcReader.page === 10 && mcReader.decoded.includes(9)")
    assert len(reader.state("mcReader.decoded")) <= 12


def test_it_shows_a_spinner_only_after_150ms(srv, desktop, reader_on):
    reader = reader_on(desktop, srv, startMode="page").open(MOON, 1, 3)
    cdp = reader.context.new_cdp_session(reader.page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {"offline": False, "latency": 600,
                                                  "downloadThroughput": -1, "uploadThroughput": -1})
    reader.page.evaluate("document.querySelector('.rd-slider').value = 9")
    reader.page.evaluate("""() => { window.spin = [];
        const t0 = performance.now();
        new MutationObserver(() => { const el = document.querySelector('.rd-page');
            spin.push([Math.round(performance.now() - t0), el.classList.contains('rd-loading')]); })
          .observe(document.querySelector('.rd-canvas'), {subtree: true, attributes: true, attributeFilter: ['class']});
        document.querySelector('.rd-slider').dispatchEvent(new Event('change')); }""")
    # … and gone once the page is there: the image in, then decoded (on a busy machine the decoding
    # may take longer than the two frames a settle() waits).
    reader.wait("document.querySelector('.rd-page img').complete"
                " && document.querySelector('.rd-page img').naturalWidth > 0"
                " && !document.querySelector('.rd-page').classList.contains('rd-loading')", 10)
    spin = reader.page.evaluate("spin")
    on = [t for t, loading in spin if loading]
    assert on and on[0] >= 140, spin  # not before 150 ms
    assert spin[-1][1] is False, spin


def test_it_loads_flow_images_only_near_the_screen(srv, phone, reader_on):
    reader = reader_on(phone, srv, startMode="flow").open(MOON, 1, 3)
    sources = "Array.from(document.querySelectorAll('.rd-page img')).map((img) => !!img.getAttribute('src'))"
    loaded = reader.page.evaluate(sources)
    # 1.5 screens ahead of a 844 px screen with 585 px pages: the first four pages, not the rest.
    assert loaded[:4] == [True] * 4 and not any(loaded[5:])
    reader.page.evaluate("document.querySelector('.rd-scroller').scrollTop = mcReader.boxes[8].y")
    reader.wait(f"({sources}).slice(7, 11).every(Boolean)")
