from django.urls import path

from . import admin_views, api, oidc_views, passkey_api, profile_views, views

urlpatterns = [
    path("login/", views.login_page, name="mc-login"),
    path("login/code/", views.login_code_page, name="mc-login-code"),
    path("login/oidc/", oidc_views.start, name="mc-login-oidc"),
    path("login/oidc/callback/", oidc_views.callback, name="mc-login-oidc-callback"),
    path("signup/", views.signup_page, name="mc-signup"),
    path("logout/", views.logout_page, name="mc-logout"),
    path("settings/user/profile/", profile_views.profile, name="mc-settings-profile"),
    path("settings/user/profile/two-factor/", profile_views.two_factor, name="mc-settings-two-factor"),
    path("settings/user/profile/passkeys/", profile_views.passkey_remove, name="mc-settings-passkeys"),
    path("settings/admin/two-factor/", admin_views.two_factor_rule, name="mc-settings-two-factor-rule"),
    path("settings/admin/users/", admin_views.users, name="mc-settings-users"),
    path("settings/admin/users/<str:name>/", admin_views.user_action, name="mc-settings-user"),
    path("settings/admin/users/<str:name>/delete/", admin_views.user_delete, name="mc-settings-user-delete"),
    path("api/auth", api.auth_state),
    path("api/signup", api.signup),
    path("api/login", api.login),
    path("api/login/code", api.login_code),
    path("api/logout", api.logout),
    path("api/passkeys/register/begin", passkey_api.register_begin, name="mc-passkey-register-begin"),
    path("api/passkeys/register/finish", passkey_api.register_finish, name="mc-passkey-register-finish"),
    path("api/passkeys/login/begin", passkey_api.login_begin),
    path("api/passkeys/login/finish", passkey_api.login_finish),
    path("api/password", api.change_password),
    path("api/admin/user", api.admin_user),
    path("api/admin/user/role", api.admin_user_role),
    path("api/admin/user/delete", api.admin_user_delete),
]
