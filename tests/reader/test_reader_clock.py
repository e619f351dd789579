"""The Active Reading Clock in the browser (static/js/read-clock.js) against a real server, and its
settings section."""
import time

import pytest

from tests.conftest import PASSWORD


@pytest.fixture(scope="module")
def srv(tiny_server):
    return tiny_server


def recorded(reader, cid, check, timeout=4):
    """Poll the export until the chapter's record passes check(record); return it."""
    deadline = time.monotonic() + timeout
    while True:
        record = reader.client.get("/api/reading/export")[2]["manga"].get("Tiny", {}).get(cid)
        if record and check(record):
            return record
        if time.monotonic() > deadline:
            raise AssertionError(f"never recorded as expected: {record}")
        time.sleep(0.1)


def test_it_counts_active_time_and_verifies_the_page_after_input_and_pauses_on_blur(desktop, srv, reader_on):
    reader = reader_on(desktop, srv, readingClock=True).open("Tiny", "0", "2")
    page = reader.page
    assert reader.state("mcClock.state") == "paused"  # nothing counts before the first input
    page.keyboard.press("Shift")
    reader.wait("mcClock.state === 'running'")
    time.sleep(1.5)
    assert reader.state("mcClock.verified") == [0]
    assert 1000 <= reader.state("mcClock.activeMs") <= 2500
    page.evaluate("window.dispatchEvent(new Event('blur'))")
    assert reader.state("mcClock.state") == "paused"
    record = recorded(reader, "0/2", lambda r: r["totalActiveMs"] > 0)
    assert 1000 <= record["totalActiveMs"] <= 2500
    assert record["pass"] == {"version": "c0002 Two", "activeMs": record["totalActiveMs"], "verifiedPages": 1,
                              "complete": False}
    assert record["predominantInput"] == "keyboard" and record["sessions"] == 1
    paused_at = reader.state("mcClock.activeMs")
    time.sleep(0.5)
    assert reader.state("mcClock.activeMs") == paused_at  # blurred: needs fresh input to go on
    page.click(".rd-clock")  # the chip: a pointer press resumes, and opens the panel
    reader.wait("mcClock.state === 'running'")
    panel = page.locator(".rd-clock-panel")
    assert "Verified pages1 of 3" in panel.inner_text().replace("\n", "").replace("\t", "")


@pytest.mark.timing  # pages turned within fractions of a second of each other: run alone (scripts/test)
def test_it_refuses_pages_faster_than_five_a_second_without_losing_the_time(desktop, srv, reader_on):
    # Flow at 20 %: six of the nine pages fit on the screen at once.
    reader = reader_on(desktop, srv, readingClock=True, startMode="flow", zoom={"flow": 0.2})
    reader.page.set_viewport_size({"width": 1280, "height": 1000})
    page = reader.open("Tiny", "0", "1").page
    page.keyboard.press("Shift")
    reader.wait("mcClock.state === 'running'")
    started = time.monotonic()
    time.sleep(0.3)  # the first five pages use up the bucket
    page.evaluate("document.querySelector('.rd-scroller').scrollTop = 1e6")
    time.sleep(0.3)  # the last pages have had their 200 ms, but the bucket refills at 5 a second
    page.evaluate("document.querySelector('.rd-scroller').scrollTop = 0")
    reader.settle()
    verified = reader.state("mcClock.verified")
    assert verified[:5] == [0, 1, 2, 3, 4] and len(verified) < 9
    assert reader.state("mcClock.rejected") >= 1
    assert reader.state("mcClock.activeMs") >= (time.monotonic() - started) * 1000 - 300


def test_it_is_not_loaded_while_off(desktop, srv, reader_on):
    reader = reader_on(desktop, srv).open("Tiny", "0", "2")
    assert reader.state("typeof window.mcClock") == "undefined"
    assert reader.page.locator(".rd-clock").count() == 0


def test_it_turns_the_clock_on_and_deletes_history_from_the_settings(desktop, srv, reader_on):
    reader = reader_on(desktop, srv)
    page = reader.page
    page.goto(srv.url + "/settings/user/clock/")
    page.check("input[name=readingClock]")
    page.click("text=Save")
    assert page.locator(".messages").inner_text() == "The reading clock is on."
    assert reader.settings()["readingClock"] is True
    body = {"m": "Tiny", "c": "0/2", "v": "c0002 Two", "session": "settings-test", "seq": 1, "pages": [[0, 0]]}
    assert reader.client.post("/api/reading/pulse", body)[0] == 200
    page.reload()
    assert "Tiny" in page.locator("table.list").inner_text()
    page.select_option("select[name=m]", "Tiny")
    page.click("button:has-text('Delete its history')")
    assert page.locator(".messages").inner_text() == "Deleted the reading history of Tiny."
    assert page.locator("table.list").count() == 0
    assert reader.client.post("/api/reading/pulse", {**body, "seq": 2})[0] == 200
    page.reload()
    page.fill("input[name=password]", "not my password")
    page.click("button:has-text('Delete all history')")
    assert page.locator(".messages").inner_text() == "That password is not right."
    page.fill("input[name=password]", PASSWORD)
    page.click("button:has-text('Delete all history')")
    assert page.locator(".messages").inner_text() == "Deleted all your reading history."
    assert reader.client.get("/api/reading/export")[2]["manga"] == {}
