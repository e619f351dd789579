"""The library page in a translated language (docs/translating.md): `GET /` at 1 client for a browser
asking for Japanese (`Accept-Language: ja`), against the same page in English from the same server,
rounds interleaved. Both are kept in the page cache, one copy per language; the row shows that a
translated page costs what the English one does."""
import statistics

from .loadgen import run as load
from .report import Row, target

TARGET = "ratio <= 1.1 | ≤ 1.1× English"
ROUNDS = 3


def row(server, probe, cookie, seconds, cpus):
    """p50 of `/` in Japanese against English, ROUNDS interleaved rounds of seconds/ROUNDS each.
    `probe` (signed in) first checks that the page is in Japanese."""
    status, _, body = probe.request("GET", "/", headers={"Accept-Language": "ja"})
    assert status == 200 and b'<html lang="ja"' in body, status
    english, japanese = [], []
    for _ in range(ROUNDS):
        for kept, headers in ((english, {"Accept-Language": "en"}), (japanese, {"Accept-Language": "ja"})):
            kept.append(load(server.url, "/", cookies=[cookie], clients=1, seconds=seconds / ROUNDS, cpus=cpus,
                             headers=headers)["p50"])
    en, ja = statistics.median(english), statistics.median(japanese)
    return Row("library page in Japanese, 1 client", value=ja, shown=f"p50 {ja:.3g} ms",
               baseline=f"in English p50 {en:.3g} ms", ratio=ja / en if en else None, target=target(TARGET))
