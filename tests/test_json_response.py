"""mangacircus.http.json_response: the @api views' JSON, written by orjson as JsonResponse would write it."""
import json
from decimal import Decimal

from django.http import JsonResponse

from mangacircus.http import json_response


def test_it_writes_what_jsonresponse_writes():
    data = {"title": "Mond­garten 月の庭", "n": 3, "ok": True, "none": None, "pages": [{"w": 900, "h": None}],
            "tuple": (1, 2), 7: "int key", "price": Decimal("1.50")}
    ours, theirs = json_response(data), JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    assert ours.status_code == 200 and ours["Content-Type"] == "application/json"
    assert json.loads(ours.content) == json.loads(theirs.content)
    assert "月の庭".encode() in ours.content  # UTF-8, not \\u escapes


def test_it_keeps_the_status():
    assert json_response({"scanning": True}, status=202).status_code == 202
