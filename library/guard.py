"""Who may see which manga, as far as /lib/ and /thumb/ are concerned.

The library knows nothing of users' restrictions: a higher layer registers its rule here
(`register(check, limited)`, check(account, manga_name) -> bool, limited(account) -> bool; the
reader's are reader.access.can_see and restricted),
and the image views ask `allowed()` before they touch a file. Without a registered check every
signed-in user sees every manga.
"""
_checks = []
_limits = []


def register(check, limited=None):
    """`limited(account) -> bool`: whether `check` may refuse this account anything at all."""
    if check not in _checks:
        _checks.append(check)
        if limited is not None:
            _limits.append(limited)
    return check


def allowed(account, manga_name):
    return all(check(account, manga_name) for check in _checks)


def sees_everything(account):
    """True when no registered rule limits this account (it may be given the link cookies)."""
    return not any(limited(account) for limited in _limits)
