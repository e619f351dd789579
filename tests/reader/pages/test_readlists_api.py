"""Read lists through the JSON API (docs/api.md, docs/using.md): chapters across manga in an order,
who sees and changes what, read counts, hidden chapters, renames, account deletion, and ComicRack
.cbl files imported with what was not found listed."""

MOON, LONG = "Moon Garden", "Long Scroll"
CROSSOVER = [{"m": MOON, "c": "1/1"}, {"m": LONG, "c": "0/1"}, {"m": MOON, "c": "1/2"}]


def make(client, **body):
    status, _, data = client.post("/api/readlists", body)
    assert status == 200, data
    return data


def order(data):
    return [(i["m"], i["c"]) for i in data["items"]]


def test_a_read_list_runs_across_manga_in_its_order_with_its_read_count(scanned, reader_user, other_user):
    r = make(reader_user, name="Crossover", summary="The event", items=CROSSOVER)
    assert r["id"].startswith("r") and len(r["id"]) == 21 and r["shared"] is False
    assert order(r) == [(MOON, "1/1"), (LONG, "0/1"), (MOON, "1/2")]
    assert (r["count"], r["read"]) == (3, 0)
    assert r["items"][1]["url"] == f"read/Long%20Scroll/0/1/?list={r['id']}" and r["items"][1]["manga"] == LONG
    assert reader_user.post("/api/read", {"m": LONG, "c": "0/1"})[0] == 200
    assert [(x["name"], x["count"], x["read"]) for x in reader_user.get("/api/readlists")[2]["readlists"]] == [
        ("Crossover", 3, 1)]
    assert other_user.get(f"/api/readlists/{r['id']}")[0] == 404  # private
    assert other_user.get("/api/readlists")[2]["readlists"] == []


def test_it_reorders_adds_books_removes_and_deletes(scanned, reader_user):
    r = make(reader_user, name="Order", items=[{"m": LONG}])
    path = f"/api/readlists/{r['id']}"
    added = reader_user.post(path + "/add", {"items": [{"m": MOON, "book": "1"}, {"m": LONG, "c": "0/1"}]})[2]
    assert order(added) == [(LONG, "0/1"), (MOON, "1/1"), (MOON, "1/2")]  # a chapter is in a list once
    moved = reader_user.post(path, {"items": [{"m": MOON, "c": "1/2"}, {"m": MOON, "c": "1/1"},
                                              {"m": LONG, "c": "0/1"}]})
    assert order(moved[2]) == [(MOON, "1/2"), (MOON, "1/1"), (LONG, "0/1")]
    assert order(reader_user.post(path + "/remove", {"items": [{"m": MOON, "c": "1/1"}]})[2]) == [
        (MOON, "1/2"), (LONG, "0/1")]
    assert reader_user.post(path + "/delete", {})[2] == {"deleted": r["id"]}
    assert reader_user.get(path)[0] == 404


def test_bad_input_gets_a_clear_400_or_404(scanned, reader_user):
    assert reader_user.post("/api/readlists", {"name": " "})[2]["error"] == "name must not be empty"
    status, _, data = reader_user.post("/api/readlists", {"name": "A", "items": [{"m": MOON, "c": "9/9"}]})
    assert status == 404 and "has no chapter 9/9" in data["error"]
    assert reader_user.post("/api/readlists", {"name": "A", "items": "Moon"})[0] == 400
    assert reader_user.post("/api/readlists", {"name": "A", "items": [{"m": MOON, "book": "7"}]})[0] == 400
    make(reader_user, name="Twice")
    assert reader_user.post("/api/readlists", {"name": "twice"})[2]["error"] == "a read list named Twice exists already"
    r = make(reader_user, name="Fields")
    status, _, data = reader_user.post(f"/api/readlists/{r['id']}", {"ordered": True})
    assert status == 400 and data["error"].startswith("unknown field ordered")
    assert reader_user.get("/api/readlists/rnothere")[0] == 404


def test_a_shared_list_is_read_by_all_changed_by_its_owner_and_admins_and_hides_what_a_user_may_not_see(
        scanned, admin, reader_user, other_user):
    r = make(admin, name="Event", items=CROSSOVER)
    assert r["shared"] is True
    status, _, data = reader_user.post(f"/api/readlists/{r['id']}", {"name": "Mine"})
    assert status == 403 and "owner" in data["error"]
    assert admin.post("/api/admin/user/access", {"name": "other", "only": [LONG], "excludeTags": []})[0] == 200
    seen = other_user.get(f"/api/readlists/{r['id']}")[2]
    assert (seen["count"], order(seen)) == (1, [(LONG, "0/1")])  # never a hidden chapter, not even by count
    assert other_user.post("/api/readlists", {"name": "Sneak", "items": [{"m": MOON}]})[0] == 404


def test_a_renamed_folder_keeps_its_chapters_in_read_lists_and_a_deleted_user_takes_theirs(
        scanned, admin, reader_user, library_dir):
    r = make(reader_user, name="Kept", items=CROSSOVER)
    shared = make(reader_user, name="Left", shared=True, items=[{"m": LONG}])
    new = "Moon Garden (2021)"
    (library_dir / MOON).rename(library_dir / new)
    status, _, report = admin.post("/api/admin/rescan", {"full": True})
    assert status == 200 and report["renamed"], report
    assert order(reader_user.get(f"/api/readlists/{r['id']}")[2]) == [(new, "1/1"), (LONG, "0/1"), (new, "1/2")]
    assert admin.post("/api/admin/user/delete", {"name": "reader"})[0] == 200
    assert admin.get(f"/api/readlists/{r['id']}")[0] == 404
    left = admin.get(f"/api/readlists/{shared['id']}")[2]
    assert (left["owner"], left["editable"]) == (None, True)


CBL = """<?xml version="1.0"?>
<ReadingList xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <Name>Garden event</Name>
  <NumIssues>4</NumIssues>
  <Books>
    <Book Series="Moon Garden" Number="2" Volume="1" Year="2021"><Id>a</Id></Book>
    <Book Series="Long Scroll" Number="1" Volume="" Year="2020"><Id>b</Id></Book>
    <Book Series="Star Sea" Number="1" Volume="2006" Year="2006"><Id>c</Id></Book>
    <Book Series="Moon Garden" Number="7" Volume="1" Year="2021"><Id>d</Id></Book>
  </Books>
</ReadingList>"""


def test_a_cbl_file_becomes_a_read_list_with_what_was_not_found_listed(scanned, reader_user):
    status, _, plan = reader_user.post("/api/readlists/import", {"cbl": CBL})
    assert status == 200, plan
    assert plan["counts"] == {"books": 4, "matched": 2, "not_found": 2} and "readlist" not in plan
    assert plan["matched"][0] == {"what": "Moon Garden (1) #2", "target": "Moon Garden · Ch. 2"}
    assert plan["not_found"] == [{"what": "Star Sea (2006) #1", "reason": "no manga named Star Sea"},
                                 {"what": "Moon Garden (1) #7", "reason": "Moon Garden has no chapters numbered 7"}]
    assert reader_user.get("/api/readlists")[2]["readlists"] == []  # the plan changed nothing
    done = reader_user.post("/api/readlists/import", {"cbl": CBL, "apply": True})[2]
    made = reader_user.get(f"/api/readlists/{done['readlist']['id']}")[2]
    assert (made["name"], order(made)) == ("Garden event", [(MOON, "1/2"), (LONG, "0/1")])
    again = reader_user.post("/api/readlists/import", {"cbl": CBL, "apply": True})[2]
    assert again["readlist"]["id"] == made["id"]  # the same list, nothing added twice
    assert reader_user.get(f"/api/readlists/{made['id']}")[2]["count"] == 2


def test_what_is_not_a_cbl_file_is_refused(scanned, reader_user):
    for text, words in (("<html><body/></html>", "its root is <html>"), ("not xml", "not a ComicRack reading list"),
                        ('<!DOCTYPE x [<!ENTITY a "b">]><ReadingList/>', "DOCTYPE or entities"),
                        ("<ReadingList>" + "x" * 800_001 + "</ReadingList>", "at most 800,000 bytes")):
        status, _, data = reader_user.post("/api/readlists/import", {"cbl": text})
        assert status == 400 and words in data["error"], (text[:30], data)
    status, _, data = reader_user.post("/api/readlists/import", {"cbl": "<ReadingList><Books/></ReadingList>",
                                                                  "apply": True})
    assert status == 400 and "nothing in this reading list was found" in data["error"]
    assert reader_user.get("/api/readlists")[2]["readlists"] == []


def test_the_reader_opened_from_a_list_goes_on_in_the_list(scanned, reader_user):
    r = make(reader_user, name="Event", items=CROSSOVER)
    data = reader_user.get(f"/api/chapter?m=Long%20Scroll&c=0/1&list={r['id']}")[2]
    assert data["list"] == {"id": r["id"], "name": "Event", "position": 2, "count": 3}
    assert data["prev"]["url"] == f"read/Moon%20Garden/1/1/?list={r['id']}"
    assert (data["next"]["m"], data["next"]["label"]) == (MOON, "Moon Garden · Ch. 2")
    last = reader_user.get(f"/api/chapter?m=Moon%20Garden&c=1/2&list={r['id']}")[2]
    assert last["next"] is None and last["list"]["position"] == 3
    # a list it is not in, or one the user may not see: the manga's own neighbours
    plain = reader_user.get("/api/chapter?m=Moon%20Garden&c=1/1&list=rnothere")[2]
    assert plain["list"] is None and plain["next"]["url"] == "read/Moon%20Garden/1/2/"


