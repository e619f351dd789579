"""GET /api/manga, POST /api/read and /api/unread: details, books, versions, read state, continue."""
import json


def test_it_describes_a_manga_with_books_chapters_and_ranked_versions(scanned, reader_user):
    status, _, data = reader_user.get("/api/manga?m=Moon%20Garden")
    assert status == 200
    assert data["name"] == "Moon Garden" and data["direction"] == "rtl"
    assert data["meta"]["authors"] == ["A. Writer"]
    assert data["relations"] == [] and data["groups"] == []
    [book] = data["books"]
    assert book["key"] == "1" and book["heading"] == "Book 1 · Spring" and book["extra"] is False
    assert [c["id"] for c in book["chapters"]] == ["1/1", "1/2"]
    roots = book["chapters"][1]
    assert roots["label"] == "Ch. 2" and roots["title"] == "Roots" and roots["url"] == "read/Moon%20Garden/1/2/"
    assert [v["source"] for v in roots["versions"]] == ["MangaDex", "Official"]  # folder order, no votes
    assert roots["versions"][0]["url"] == "read/Moon%20Garden/1/2/?v=c0002%20Roots%20%5BMangaDex%5D"
    assert data["continue"]["action"] == "start" and data["continue"]["id"] == "1/1"
    assert data["counts"] == {"chapters": 2, "read": 0, "unread": 2}


def test_it_marks_read_and_unread_and_moves_the_continue_target(scanned, reader_user, other_user):
    status, _, data = reader_user.post("/api/read", {"m": "Moon Garden", "c": "1/1"})
    assert status == 200
    assert data["chapter"]["read"] is True and data["counts"]["read"] == 1
    assert data["continue"]["action"] == "next" and data["continue"]["id"] == "1/2"
    detail = reader_user.get("/api/manga?m=Moon%20Garden")[2]
    assert detail["books"][0]["chapters"][0]["read"] is True
    assert other_user.get("/api/manga?m=Moon%20Garden")[2]["books"][0]["chapters"][0]["read"] is False
    status, _, data = reader_user.post("/api/unread", {"m": "Moon Garden", "c": "1/1"})
    assert status == 200 and data["chapter"]["read"] is False and data["chapter"]["progress"] is None
    assert data["continue"]["action"] == "start"


def test_it_resumes_an_unfinished_chapter_in_the_version_read(scanned, reader_user, server):
    reader_user.post("/api/read", {"m": "Moon Garden", "c": "1/1"})
    server.stop()  # a position in the middle of a version, as the reader saves it
    path = server.data / "db.json"
    db = json.loads(path.read_text())
    db["progress"]["reader"]["Moon Garden"]["1/2"] = {
        "v": "c0002 Roots [Official]", "p": 1, "n": 3, "t": 2**41, "done": False, "shift": []}
    path.write_text(json.dumps(db))
    server.start()
    target = reader_user.get("/api/manga?m=Moon%20Garden")[2]["continue"]
    assert target["action"] == "resume" and target["id"] == "1/2" and target["page"] == 1
    assert target["url"] == "read/Moon%20Garden/1/2/?v=c0002%20Roots%20%5BOfficial%5D"


def test_it_answers_404_for_unknown_manga_and_chapters(scanned, reader_user):
    assert reader_user.get("/api/manga?m=Nowhere")[0] == 404
    for body in ({"m": "Nowhere", "c": "1/1"}, {"m": "Moon Garden", "c": "9/9"}, {"m": "Moon Garden", "c": "1/1/.."}):
        for route in ("/api/read", "/api/unread"):
            status, _, data = reader_user.post(route, body)
            assert status == 404 and data["error"], (route, body)
    assert "Nowhere" not in (scanned.data / "db.json").read_text()


def test_it_answers_400_naming_the_field(scanned, reader_user):
    assert reader_user.get("/api/manga")[0] == 400
    for body, name in (({"c": "1/1"}, "m"), ({"m": 5, "c": "1/1"}, "m"), ({"m": "Moon Garden"}, "c"),
                       ({"m": "Moon Garden", "c": ["1/1"]}, "c")):
        status, _, data = reader_user.post("/api/read", body)
        assert status == 400 and data["error"].startswith(name + " "), (body, data)
