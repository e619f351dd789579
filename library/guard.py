"""Who may see which manga, as far as /lib/ and /thumb/ are concerned.

The library knows nothing of users' restrictions: a higher layer registers its rule here
(`register(check)`, check(account, manga_name) -> bool; the reader's is reader.access.can_see),
and the image views ask `allowed()` before they touch a file. Without a registered check every
signed-in user sees every manga.
"""
_checks = []


def register(check):
    if check not in _checks:
        _checks.append(check)
    return check


def allowed(account, manga_name):
    return all(check(account, manga_name) for check in _checks)
