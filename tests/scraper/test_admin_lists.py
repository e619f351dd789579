"""The Scraper screen's Queue, Series and History lists as operator lists, in a real browser at
desktop and phone sizes: search and filters with counts at the side, bulk actions that list what
they change and ask first, and a message after each."""
import time

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture(params=["desktop", "phone"])
def open_tab(request, server, admin):
    context = request.getfixturevalue(request.param)
    context.add_cookies([{"name": "sid", "value": admin.cookies["sid"], "url": server.url}])
    page = context.new_page()
    page.clock.install()  # time runs as usual until a test moves it on (run_for fires the timers due)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    def go(tab):
        page.goto(f"{server.url}/settings/admin/scraper/{tab}/")
        page.wait_for_selector(".sc-table")
        return page

    yield go
    assert errors == []


def jobs(daemon):
    return {j["series"]: j["state"] for j in daemon.call("GET", "/jobs")[1]["jobs"]}


def test_the_queue_searches_filters_and_cancels_then_retries_after_a_confirmation(open_tab, reader_daemon):
    reader_daemon.call("POST", "/pause", {})
    for series in ("alpha", "beta", "bravo"):
        reader_daemon.call("POST", "/jobs", {"kind": "update", "source": "fake", "series": series})
    page = open_tab("queue")
    expect(page.locator(".sc-filters[aria-label=State] button.active")).to_have_text("active (3)")
    page.get_by_label("Search titles").fill("b")  # kept while the list refreshes every 2 s
    expect(page.locator(".ops .count")).to_have_text("2 shown · 3 in all")
    page.get_by_label("Select update fake beta").check()
    page.get_by_label("Select update fake bravo").check()
    page.get_by_role("button", name="Cancel selected…").click()
    confirm = page.get_by_role("group", name="Confirm")
    expect(confirm.locator("h2")).to_have_text("Cancel 2 jobs?")
    expect(confirm.locator("li")).to_have_text(["update fake beta", "update fake bravo"])
    page.clock.run_for(4100)  # two refresh periods: the confirmation stays open and nothing was cancelled
    expect(confirm.locator("li")).to_have_text(["update fake beta", "update fake bravo"])
    assert jobs(reader_daemon) == {"alpha": "queued", "beta": "queued", "bravo": "queued"}
    page.get_by_role("button", name="Yes, cancel 2").click()
    expect(page.locator(".toast").first).to_have_text("2 jobs cancelled")
    assert jobs(reader_daemon) == {"alpha": "queued", "beta": "cancelled", "bravo": "cancelled"}
    expect(page.get_by_label("Search titles")).to_have_value("b")

    page.locator(".sc-filters[aria-label=State] button", has_text="cancelled").click()
    page.get_by_label("Select all shown").check()
    page.get_by_role("button", name="Retry selected…").click()
    page.get_by_role("button", name="No, go back").click()
    assert jobs(reader_daemon)["beta"] == "cancelled"
    page.get_by_role("button", name="Retry selected…").click()
    page.get_by_role("button", name="Yes, retry 2").click()
    expect(page.locator(".toast", has_text="2 jobs queued again")).to_have_count(1)
    assert jobs(reader_daemon) == {"alpha": "queued", "beta": "queued", "bravo": "queued"}
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_series_turns_auto_update_off_and_removes_after_a_confirmation(open_tab, reader_daemon):
    reader_daemon.call("POST", "/series", {"source": "fake", "id": "s1", "auto": True})
    deadline = time.monotonic() + 60
    while not reader_daemon.call("GET", "/series")[1]["series"]:
        assert time.monotonic() < deadline, reader_daemon.output()
        time.sleep(0.2)
    page = open_tab("series")
    expect(page.locator(".sc-filters[aria-label='Auto-update'] button", has_text="on")).to_have_text("on (1)")
    page.get_by_label("Search titles").fill("nothing like it")
    expect(page.locator(".sc-table td.muted")).to_have_text("Nothing matches.")
    page.get_by_label("Search titles").fill("moon")
    page.get_by_label("Select Moon Garden (fake)").check()
    page.get_by_role("button", name="Auto-update off for selected…").click()
    expect(page.get_by_role("group", name="Confirm").locator("h2")).to_have_text("Turn auto-update off for 1 series?")
    page.get_by_role("button", name="Yes, turn auto-update off for 1").click()
    expect(page.locator(".toast", has_text="Auto-update off for 1 series")).to_have_count(1)
    assert reader_daemon.call("GET", "/series")[1]["series"][0]["auto"] is False
    expect(page.get_by_role("button", name="Auto-update off for selected…")).to_be_disabled()

    page.get_by_label("Select Moon Garden (fake)").check()
    page.get_by_role("button", name="Remove selected…").click()
    expect(page.get_by_role("group", name="Confirm").locator("li")).to_have_text(["Moon Garden (fake)"])
    page.get_by_role("button", name="Yes, stop following 1").click()
    expect(page.locator(".toast", has_text="1 series removed from the scraper")).to_have_count(1)
    assert reader_daemon.call("GET", "/series")[1]["series"] == []


def test_history_retries_failed_jobs_after_a_confirmation(open_tab, reader_daemon):
    for series in ("gone1", "gone2", "lost"):  # not on the site: each fails after its retries
        reader_daemon.call("POST", "/jobs", {"kind": "update", "source": "fake", "series": series})
    deadline = time.monotonic() + 60
    while set(jobs(reader_daemon).values()) != {"failed"}:
        assert time.monotonic() < deadline, reader_daemon.output()
        time.sleep(0.2)
    reader_daemon.call("POST", "/pause", {})  # the retried jobs stay queued for the check below
    page = open_tab("history")
    expect(page.locator(".sc-filters[aria-label=State] button", has_text="failed")).to_have_text("failed (3)")
    page.locator(".sc-filters[aria-label=Source] button", has_text="fake").click()
    page.get_by_label("Search titles").fill("gone")
    expect(page.locator(".ops .count")).to_have_text("2 shown · 3 in all")
    page.get_by_label("Select all shown").check()
    page.get_by_role("button", name="Retry selected…").click()
    expect(page.get_by_role("group", name="Confirm").locator("h2")).to_have_text("Retry 2 jobs?")
    page.get_by_role("button", name="Yes, retry 2").click()
    expect(page.locator(".toast", has_text="2 jobs queued again")).to_have_count(1)
    assert jobs(reader_daemon) == {"gone1": "queued", "gone2": "queued", "lost": "failed"}
