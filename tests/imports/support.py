"""What the import tests share: the admin's import request, a plan's lines, db.json as written."""
import json


def plan_of(admin, source, path, apply=False, **more):
    status, _, body = admin.post("/api/admin/import", {"source": source, "path": str(path), "apply": apply, **more})
    assert status == 200, body
    return body


def lines(plan, key):
    """{(what, target, reason)} of one list of a plan (its JSON form)."""
    return {(item["what"], item["target"], item["reason"]) for item in plan[key]}


def db_json(server):
    from mangacircus import db

    db.flush_now()
    return json.loads((server.data / "db.json").read_text())
