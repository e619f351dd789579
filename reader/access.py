"""Which manga a user may see. Per-user restrictions (an admin limiting a user to some manga, or
excluding tags) plug in here; every route that lists or serves a manga asks `can_see`."""


def can_see(user, manga_name) -> bool:
    return True
