"""The library as the rest of the reader sees it (filled in by the library app)."""


def admin_summary():
    return {"scans": []}


def request_scan(full=False, wait=False):
    """PLACEHOLDER, to be replaced by the library app's real request_scan when the branches merge.

    The scraper's revision poll calls it after a publication. Here it does nothing.
    """
    return None
