"""Archives offered to peers (docs/peering.md): a chapter in a CBR, CB7, CBT, PDF or EPUB is listed
like a folder, named as the folder the peer writes, its pages hashed as they are served.
The library is tests/library/test_formats.py's: Komga's RAR and 7z test archives, a CB7 made by
7-Zip, a CBT by GNU tar, PDFs by Pillow and ImageMagick, EPUBs."""
import hashlib

import pytest

from library import contenthash
from tests.conftest import make_page
from tests.library.test_formats import formats_tree

from .test_peer_api import OTHER, SECRET, page_url, peer_get, share

pytestmark = pytest.mark.process  # 7zz and tar make the archives


@pytest.fixture
def library_dir(tmp_path):
    return formats_tree(tmp_path / "library", tmp_path)


@pytest.fixture
def paired(admin):
    status, _, data = admin.post("/api/admin/peers", {"name": "alpha", "url": "https://alpha.example",
                                                      "present": OTHER, "accept": SECRET})
    assert status == 200, data
    return admin


def versions(manga):
    return {v["path"]: v for b in manga["books"] for c in b["chapters"] for v in c["versions"]}


def test_chapters_in_archives_are_offered_as_the_folders_a_peer_writes(server, paired):
    share(paired, "all")
    catalog = {m["name"]: m for m in peer_get(server, "/api/peer/catalog")[2]["manga"]}
    assert set(versions(catalog["Komga Formats"])) == {f"Komga Formats c00{n}" for n in (1, 2, 3, 4)}
    assert set(versions(catalog["Made Here"])) == {"Made Here c001", "Made Here c002"}
    assert set(versions(catalog["Pdf Shelf"])) == {"Pdf Shelf v01", "Pdf Shelf v02"}
    for name, manga in catalog.items():
        for path, version in versions(manga).items():
            assert version["pageCount"] == len(version["pages"]) > 0
            assert version["hash"] == contenthash.version_hash([tuple(p) for p in version["pages"]])
            for file, size, sha in version["pages"]:
                status, _, body = peer_get(server, page_url(name, path, file))
                assert status == 200, (name, path, file)
                assert (len(body), hashlib.sha256(body).hexdigest()) == (size, sha), (name, path, file)


def test_the_archive_name_itself_is_no_version_path(server, paired):
    share(paired, "all")
    status, _, answer = peer_get(server, page_url("Komga Formats", "Komga Formats c001.cbr", "komga-1.png"))
    assert status == 404


def test_an_archive_named_like_a_folder_beside_it_is_offered_once(server, paired, library_dir, caplog):
    make_page(library_dir / "Komga Formats" / "Komga Formats c001" / "001.png")  # beside c001.cbr
    paired.post("/api/admin/rescan", {"full": True})
    share(paired, "all")
    manga = next(m for m in peer_get(server, "/api/peer/catalog")[2]["manga"] if m["name"] == "Komga Formats")
    chapter = next(c for b in manga["books"] for c in b["chapters"] if c["key"] == "1")
    assert [v["path"] for v in chapter["versions"]].count("Komga Formats c001") == 1
    assert "is offered already" in caplog.text
