"""Two real servers on loopback: pairing, sharing, transfer, resume after kill -9, refusals."""
import io
import os
import time
from collections import Counter
from urllib.parse import urlencode

import pytest
from PIL import Image

from tests.peering.support import A_TO_B, B_TO_A, Pair, images

pytestmark = pytest.mark.process


@pytest.fixture
def pair(tmp_path):
    p = Pair(tmp_path).start()
    yield p
    p.stop()


def remote_names(pair):
    status, _, data = pair.admin_b.get("/api/admin/peers/alpha/catalog")
    assert status == 200, data
    return [m["name"] for m in data["manga"]]


def test_pairing_and_sharing_none_all_and_a_list(pair):
    pair.pair()
    code, out = pair.on_a("peer", "list")
    assert code == 0 and f"beta\t{pair.beta.url}\tenabled\tshares: none" in out
    assert pair.admin_b.post("/api/admin/peers/alpha/test", {})[2] == {
        "ok": True, "message": "connected: alpha shares 0 manga with this server"}
    assert remote_names(pair) == []
    code, out = pair.on_a("peer", "share", "beta", "all")
    assert (code, out.strip()) == (0, "beta now sees: all")
    assert remote_names(pair) == ["Long Scroll", "Moon Garden", "Secret Diary"]
    code, out = pair.on_a("peer", "share", "beta", "Moon Garden", "Long Scroll")
    assert (code, out.strip()) == (0, "beta now sees: 2 manga: Long Scroll, Moon Garden")
    assert remote_names(pair) == ["Long Scroll", "Moon Garden"]
    code, out = pair.on_a("peer", "share", "beta", "none")
    assert (code, out.strip(), remote_names(pair)) == (0, "beta now sees: none", [])
    code, out = pair.on_a("peer", "share", "beta", "Nothing Here")
    assert code == 1 and "no manga named 'Nothing Here'" in out
    # alpha, with no PEER_ALLOW, will not reach beta on loopback, and says how to allow it
    answer = pair.admin_a.post("/api/admin/peers/beta/test", {})[2]
    assert answer["ok"] is False and "PEER_ALLOW" in answer["message"] and "127.0.0.1" in answer["message"]


def test_bad_input_to_the_command_exits_non_zero_with_a_message(pair):
    pair.pair()
    good = pair.secret_file("x", "y" * 30)
    code, out = pair.on_a("peer", "add", "beta", pair.beta.url, "--present-secret-file", good)
    assert code == 1 and "a peer named 'beta' exists already" in out
    code, out = pair.on_a("peer", "add", "gamma", "ftp://x", "--present-secret-file", good)
    assert code == 1 and "must be http:// or https://" in out
    short = pair.secret_file("y", "short")
    code, out = pair.on_a("peer", "add", "gamma", "http://x.example", "--present-secret-file", short)
    assert code == 1 and "24 to 200 visible characters" in out
    code, out = pair.on_a("peer", "add", "gamma", "http://gamma.example", "--present-secret-file", good)
    assert code == 0 and "the secret gamma must present to this server (shown only now): " in out, out
    made = out.rsplit(": ", 1)[1].strip()
    assert len(made) >= 24 and made not in (pair.data_a / "peers.json").read_text()
    code, out = pair.on_a("peer", "remove", "nobody")
    assert code == 1 and "no peer named 'nobody'" in out
    code, out = pair.on_b("peer", "pull", "alpha", "Secret Diary")
    assert code == 1 and "alpha shares no manga named 'Secret Diary'" in out


def test_wrong_revoked_secrets_and_an_unshared_manga_probed_by_name(pair):
    pair.pair()
    pair.on_a("peer", "share", "beta", "Moon Garden")
    client = pair.alpha.client()

    def page(m, secret=B_TO_A, v="c0001 Dear", f="001.png"):
        return client.get("/api/peer/page?" + urlencode({"m": m, "v": v, "f": f}),
                          headers={"Authorization": f"Bearer {secret}"})[:3:2]

    assert page("Moon Garden", v="b01 Spring/c0001 Seeds")[0] == 200
    assert page("Secret Diary") == page("No Such Manga") == (404, {"error": "not found"})
    assert page("Moon Garden", A_TO_B, v="b01 Spring/c0001 Seeds")[0] == 401  # what alpha presents, it does not accept
    assert pair.admin_a.get("/api/peer/catalog")[0] == 401  # the admin's session counts for nothing
    code, out = pair.on_a("peer", "remove", "beta")
    assert (code, out.strip()) == (0, "removed peer beta; its secret no longer opens anything here")
    assert page("Moon Garden", v="b01 Spring/c0001 Seeds")[0] == 401
    answer = pair.admin_b.post("/api/admin/peers/alpha/test", {})[2]
    assert answer == {"ok": False, "message": "the peer refused our secret (401): the secret this server presents "
                                              "must be the one the peer accepts from us"}


def test_it_transfers_books_extras_and_versions_byte_for_byte_then_skips_them(pair):
    pair.pair()
    pair.on_a("peer", "share", "beta", "Moon Garden", "Long Scroll")
    pair.start_scraper()
    code, out = pair.on_b("peer", "pull", "alpha", "Moon Garden")
    assert code == 0 and out.startswith("queued: Moon Garden from alpha (job j"), out
    jobs = pair.wait_idle()
    assert [j["state"] for j in jobs] == ["done", "done"], jobs
    sent, got = images(pair.lib_a / "Moon Garden"), images(pair.lib_b / "Moon Garden")
    assert sorted(got) == sorted(sent) and got == sent
    assert "x01 Side Stories/c0001 Bonus/001.png" in got and "b01 Spring/c0002 Roots [Official]/002-003.png" in got
    assert len(pair.page_fetches()) == len(sent)
    # beta's catalog view now says "same" for all of it
    status, _, data = pair.admin_b.get("/api/admin/peers/alpha/catalog")
    states = {m["name"]: m["state"] for m in data["manga"]}
    assert states == {"Moon Garden": "same", "Long Scroll": "missing"}
    # a second pull of everything fetches only what is not here with the same hash
    code, out = pair.on_b("peer", "pull", "alpha")
    assert code == 0 and "Long Scroll" in out and "Moon Garden" in out, out
    pair.wait_idle()
    assert images(pair.lib_b / "Long Scroll") == images(pair.lib_a / "Long Scroll")
    fetched = pair.page_fetches()
    assert len(fetched) == len(sent) + 3 and all(m == "Long Scroll" for m, _v, _f in fetched[len(sent):])


def test_a_transfer_killed_mid_chapter_resumes_without_refetching_or_showing_a_partial_chapter(tmp_path):
    pair = Pair(tmp_path, long_pages=40).start()
    try:
        pair.pair()
        pair.on_a("peer", "share", "beta", "Long One")
        scraper = pair.start_scraper()
        assert scraper.call("POST", "/settings", {"pace": {"peer": 0.15}})[0] == 200
        code, out = pair.on_b("peer", "pull", "alpha", "Long One")
        assert code == 0, out
        staging = pair.lib_b / ".staging"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and len(list(staging.glob("*/*.png"))) < 10:
            time.sleep(0.02)
        scraper.kill9()
        staged = list(staging.glob("*/*.png"))
        assert 10 <= len(staged) < 40
        sent = pair.lib_a / "Long One" / "c0001 All [Scan]"
        assert all(p.read_bytes() == (sent / p.name).read_bytes() for p in staged)  # whole pages, or none
        assert not [p for p in (pair.lib_b / "Long One").glob("*") if p.is_dir()]  # no chapter visible yet
        scraper = pair.start_scraper()
        assert scraper.call("POST", "/settings", {"pace": {"peer": 0}})[0] == 200
        jobs = pair.wait_idle()
        assert {j["state"] for j in jobs} == {"done"}, jobs
        assert images(pair.lib_b / "Long One") == images(pair.lib_a / "Long One")
        fetched = Counter(f for m, _v, f in pair.page_fetches() if m == "Long One")
        assert sorted(fetched) == [f"{n:03d}.png" for n in range(1, 41)]
        # Fetched again: at most the page in flight at the kill and the one before it, which was
        # still being verified and written.
        assert sum(fetched.values()) - 40 <= 2
    finally:
        pair.stop()


def same_size_other_png(path):
    """Bytes of a PNG as large as the one at `path` but with other pixels."""
    original = path.read_bytes()
    for shade in range(1, 60):
        buffer = io.BytesIO()
        Image.new("RGB", Image.open(path).size, (shade, 90, 200)).save(buffer, "PNG")
        if len(buffer.getvalue()) == len(original) and buffer.getvalue() != original:
            return buffer.getvalue()
    raise AssertionError("no PNG of the same size found")


def test_a_page_whose_bytes_differ_from_the_announced_hash_is_rejected(pair):
    pair.pair()
    pair.on_a("peer", "share", "beta", "Long Scroll")
    assert remote_names(pair) == ["Long Scroll"]  # alpha has hashed the pages now
    # The page changes in place, its size, time and inode kept: alpha's catalog still announces the old hash.
    page = pair.lib_a / "Long Scroll" / "c0001 Start [Official]" / "002.png"
    st = page.stat()
    with open(page, "r+b") as f:
        f.write(same_size_other_png(page))
    os.utime(page, ns=(st.st_atime_ns, st.st_mtime_ns))
    pair.start_scraper()
    code, out = pair.on_b("peer", "pull", "alpha", "Long Scroll")
    assert code == 0, out
    jobs = pair.wait_idle()
    failed = [j for j in jobs if j.get("failed")]  # done, with the chapter failed on its own
    assert len(failed) == 1 and "page 2" in failed[0]["error"] and "SHA-256" in failed[0]["error"], jobs
    assert not [p for p in (pair.lib_b / "Long Scroll").glob("*") if p.is_dir()]
    assert not list((pair.lib_b / ".staging").rglob("002.png"))


def test_chapters_in_a_cbr_and_a_solid_rar_arrive_as_folders_of_the_same_pages(tmp_path):
    import shutil

    from tests.library.test_formats import KOMGA, members_of
    p = Pair(tmp_path)
    shelf = p.lib_a / "Rar Shelf"
    shelf.mkdir()
    shutil.copy(KOMGA / "rar4.rar", shelf / "Rar Shelf c001.cbr")
    shutil.copy(KOMGA / "rar5-solid.rar", shelf / "Rar Shelf c002.cbr")
    p.start()
    try:
        p.pair()
        p.on_a("peer", "share", "beta", "Rar Shelf")
        p.start_scraper()
        code, out = p.on_b("peer", "pull", "alpha", "Rar Shelf")
        assert code == 0, out
        assert [j["state"] for j in p.wait_idle()] == ["done", "done"]
        for n, source in ((1, "rar4.rar"), (2, "rar5-solid.rar")):
            got = images(p.lib_b / "Rar Shelf" / f"Rar Shelf c00{n}")
            assert got == members_of(KOMGA / source) and len(got) == 3
    finally:
        p.stop()
