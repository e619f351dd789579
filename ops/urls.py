from django.urls import path

from . import views

urlpatterns = [
    # /settings/admin/: incidents, health and backups
    path("settings/admin/health/", views.health_page, name="mc-admin-health"),
    path("settings/admin/backups/", views.backups_page, name="mc-admin-backups"),
    # /api/admin/: the same as JSON
    path("api/admin/health", views.health_api),
    path("api/admin/incidents", views.incidents_api),
    path("api/admin/services/restart", views.restart_api),
    path("api/admin/backup", views.backup_api),
]
