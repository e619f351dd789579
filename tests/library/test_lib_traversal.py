"""The /lib/ path-traversal matrix (reliability P1, L3, L5) through the app in process.

~40 payload forms × 4 targets, each sent raw (no client-side normalisation), with and without a
session. Pass: never a 5xx, never the target's bytes, 401 for every request without a session.
"""
import http.client

from PIL import Image

# How to write one "../" step.
UP = [
    "../", "..%2f", "..%2F", "%2e%2e/", "%2e%2e%2f", "%2E%2E%2F", "%252e%252e%252f", "..%252f", "..%5c", "..\\",
    "%c0%ae%c0%ae/", "%c0%ae%c0%ae%c0%af", "....//", "..;/", "%2e./", ".%2e/", "%u002e%u002e/",
    "%EF%BC%8E%EF%BC%8E%EF%BC%8F", "..//", "./../", "..%00/", "%2e%2e%5c", "..%c0%af", "..%25%32%66",
]
# How to end the file name.
SUFFIX = ["", "%00.jpg", "%00", ".jpg", "%20", ".", "%0a.png"]


def targets(tmp_path, data_dir):
    """(steps up from LIBRARY, path from there, marker bytes that must never be sent back)."""
    Image.new("RGB", (7, 7), (1, 2, 3)).save(tmp_path / "outside.png")
    return [
        (1, "data/db.json", b'"sessions"'),
        (12, "etc/passwd", b"root:"),
        (0, "Moon Garden/manga.json", b'"authors"'),
        (1, "outside.png", (tmp_path / "outside.png").read_bytes()[:64]),
    ]


def payloads(ups, rest):
    found = []
    for up in UP:
        for suffix in ("", "%00.jpg"):
            found.append("/lib/" + up * ups + rest + suffix)
    for suffix in SUFFIX:
        found.append("/lib/Moon%20Garden/" + "../" * (ups + 1) + rest + suffix)
    found += [
        "/lib//" + rest, "/lib/" + "%2F" + rest.replace("/", "%2F"), "/lib/%2e%2e%2f" * ups + rest.replace("/", "%2f"),
        "/lib/" + "../" * ups + rest.upper(), "/lib/" + "../" * ups + rest + "%23.jpg", "/lib/file:" + "/" + rest,
    ]
    return found


def raw_get(server, path, cookie=None):
    """GET `path` as is, like curl --path-as-is: (status, body bytes)."""
    status, _, body = server.client().send("GET", path, headers={"Cookie": cookie} if cookie else {})
    return status, body


def test_it_never_serves_anything_outside_the_page_files(server, reader_user, data_dir, tmp_path):
    (data_dir / "db.json").read_bytes()  # the server has written it: a real target
    cookie = "; ".join(f"{k}={v}" for k, v in reader_user.cookies.items())
    sent = failures = 0
    for ups, rest, marker in targets(tmp_path, data_dir):
        for path in payloads(ups, rest):
            for with_session in (False, True):
                try:
                    status, body = raw_get(server, path, cookie if with_session else None)
                except http.client.InvalidURL:
                    continue  # a path the client itself refuses to send
                sent += 1
                expected = (400, 404) if with_session else (400, 401)
                if status not in expected or marker in body:
                    failures += 1
                    print(f"{path!r} session={with_session}: {status} {body[:80]!r}")
    print(f"{sent} requests")
    assert sent >= 300
    assert failures == 0
