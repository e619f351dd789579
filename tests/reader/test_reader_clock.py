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


def test_the_total_does_not_move_when_a_pulse_lands(desktop, srv, reader_on):
    """The chip counts what is on its way as the server will record it, so a paused clock stays still."""
    reader = reader_on(desktop, srv, readingClock=True).open("Tiny", "0", "3")
    page = reader.page
    page.keyboard.press("Shift")
    reader.wait("mcClock.state === 'running'")  # the lease's pulse has landed
    held = []
    page.route("**/api/reading/pulse", lambda route: held.append(route))
    time.sleep(0.7)
    page.evaluate("window.dispatchEvent(new Event('blur'))")  # sends the release pulse, held on its way
    reader.wait("mcClock.state === 'paused'")
    deadline = time.monotonic() + 4
    while not held and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert len(held) == 1, "the release pulse was not sent"
    on_its_way = reader.state("mcClock.activeMs")
    with page.expect_response("**/api/reading/pulse") as answer:
        held[0].continue_()
    assert answer.value.ok
    record = recorded(reader, "0/3", lambda r: r["totalActiveMs"] > 0)
    assert 500 <= record["totalActiveMs"] <= 2500
    assert on_its_way == record["totalActiveMs"]
    page.evaluate("new Promise((done) => setTimeout(done, 300))")  # the answer has been taken in
    assert reader.state("mcClock.activeMs") == on_its_way


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
