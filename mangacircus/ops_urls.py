from django.urls import path

from . import ops_views

urlpatterns = [
    # /settings/admin/: incidents, health and backups
    path("settings/admin/health/", ops_views.health_page, name="mc-admin-health"),
    path("settings/admin/backups/", ops_views.backups_page, name="mc-admin-backups"),
    # /api/admin/: the same as JSON
    path("api/admin/health", ops_views.health_api),
    path("api/admin/incidents", ops_views.incidents_api),
    path("api/admin/services/restart", ops_views.restart_api),
    path("api/admin/backup", ops_views.backup_api),
]
