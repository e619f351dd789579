from django.urls import path

from . import (admin_views, api_accounts, api_library, api_reading, library_views, settings_clock, settings_views,
               views)

urlpatterns = [
    # Pages
    path("", library_views.home, name="mc-home"),
    path("login/", views.login_page, name="mc-login"),
    path("signup/", views.signup_page, name="mc-signup"),
    path("logout/", views.logout_page, name="mc-logout"),
    # Library & manga pages
    path("manga/<str:name>/", library_views.manga, name="mc-manga"),
    path("notifications/", library_views.notifications, name="mc-notifications"),
    # /settings/: the User and Admin workspaces
    path("settings/", settings_views.settings_home, name="mc-settings"),
    path("settings/user/profile/", settings_views.profile, name="mc-settings-profile"),
    path("settings/user/reading/", settings_views.reading, name="mc-settings-reading"),
    path("settings/user/notifications/", settings_views.notifications, name="mc-settings-notifications"),
    # Reading clock: settings section (reader/settings_clock.py)
    path("settings/user/clock/", settings_clock.clock, name="mc-settings-clock"),
    path("settings/admin/users/", admin_views.users, name="mc-settings-users"),
    path("settings/admin/users/<str:name>/", admin_views.user_action, name="mc-settings-user"),
    path("settings/admin/users/<str:name>/delete/", admin_views.user_delete, name="mc-settings-user-delete"),
    path("settings/admin/library/", admin_views.library, name="mc-settings-library"),
    # /api/: accounts and settings
    path("api/auth", api_accounts.auth_state),
    path("api/signup", api_accounts.signup),
    path("api/login", api_accounts.login),
    path("api/logout", api_accounts.logout),
    path("api/me", api_accounts.me),
    path("api/settings", api_accounts.update_settings),
    path("api/password", api_accounts.change_password),
    # /api/: library, manga, read state, votes, follows, notifications
    path("api/library", api_library.library),
    path("api/manga", api_library.manga),
    path("api/read", api_library.mark_read),
    path("api/unread", api_library.unread),
    path("api/vote", api_library.vote),
    path("api/follow", api_library.follow),
    path("api/notifications", api_library.notifications),
    path("api/notifications/read", api_library.notifications_read),
    # /api/reading: the Active Reading Clock (reader/api_reading.py)
    path("api/reading/pulse", api_reading.pulse),
    path("api/reading/export", api_reading.export),
    path("api/reading/delete", api_reading.delete),
    # /api/admin: users
    path("api/admin", api_accounts.admin_overview),
    path("api/admin/user", api_accounts.admin_user),
    path("api/admin/user/role", api_accounts.admin_user_role),
    path("api/admin/user/delete", api_accounts.admin_user_delete),
]
