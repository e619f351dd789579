from django.urls import path

from . import api_accounts, views

urlpatterns = [
    # Pages
    path("", views.home, name="mc-home"),
    path("login/", views.login_page, name="mc-login"),
    path("signup/", views.signup_page, name="mc-signup"),
    path("logout/", views.logout_page, name="mc-logout"),
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
