"""ops/nginx.py's site file for several libraries is what docs/proxy.md shows for a site set up by hand."""
import re

from bench.server import ROOT
from ops import nginx


def test_the_site_for_two_libraries_holds_what_the_proxy_page_shows(tmp_path):
    text = nginx.site("/srv/manga", tmp_path, 8081, "127.0.0.1:8080", tmp_path / "cache",
                      more=[("/srv/comics", "/protected-library-1-comics")])
    section = (ROOT / "docs" / "proxy.md").read_text().split("## Several libraries", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```nginx\n(.*?)```", section, re.S)
    assert len(blocks) == 2
    for block in blocks:
        assert block in text, block
    assert nginx.PAGE_ALIAS.replace("/srv/manga", "/srv/comics") not in text and "\0" not in text
    # One library: the shipped file, its folder put in.
    single = nginx.site("/srv/manga", tmp_path, 8081, "127.0.0.1:8080", tmp_path / "cache")
    assert nginx.PAGE_ALIAS in single and "try_files" not in single
