"""The settings area: two workspaces, one URL per section (docs/using.md, "Settings").

A feature adds its section here; the side navigation and the admin-only rule follow from it.
"""
USER_SECTIONS = [
    ("profile", "Profile & password", "/settings/user/profile/"),
    ("reading", "Reading", "/settings/user/reading/"),
    ("notifications", "Notifications", "/settings/user/notifications/"),
    ("clock", "Reading clock", "/settings/user/clock/"),
]
ADMIN_SECTIONS = [
    ("users", "Users", "/settings/admin/users/"),
    ("library", "Library", "/settings/admin/library/"),
    ("scraper", "Scraper", "/settings/admin/scraper/queue/"),
]


def nav_context(request, workspace, section):
    root = request.META.get("SCRIPT_NAME", "")
    groups = [("User", "user", USER_SECTIONS)]
    if request.account.get("admin"):
        groups.append(("Admin", "admin", ADMIN_SECTIONS))
    return {
        "settings_nav": [
            (title, [(key, label, root + url, space == workspace and key == section) for key, label, url in sections])
            for title, space, sections in groups
        ],
        "workspace": workspace,
        "section": section,
    }
