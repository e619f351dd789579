from django.urls import path

from . import admin_views, api_accounts, settings_views, views

urlpatterns = [
    # Pages
    path("", views.home, name="mc-home"),
    path("login/", views.login_page, name="mc-login"),
    path("signup/", views.signup_page, name="mc-signup"),
    path("logout/", views.logout_page, name="mc-logout"),
    # /settings/: the User and Admin workspaces
    path("settings/", settings_views.settings_home, name="mc-settings"),
    path("settings/user/profile/", settings_views.profile, name="mc-settings-profile"),
    path("settings/user/reading/", settings_views.reading, name="mc-settings-reading"),
    path("settings/user/notifications/", settings_views.notifications, name="mc-settings-notifications"),
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
    # /api/admin: users
    path("api/admin", api_accounts.admin_overview),
    path("api/admin/user", api_accounts.admin_user),
    path("api/admin/user/role", api_accounts.admin_user_role),
    path("api/admin/user/delete", api_accounts.admin_user_delete),
]
