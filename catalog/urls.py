from django.urls import path

from . import api, views

urlpatterns = [
    # Settings → Admin → Catalog (catalog/views.py)
    path("settings/admin/catalog/", views.home, name="mc-settings-catalog"),
    path("settings/admin/catalog/groups/<str:group_id>/", views.group, name="mc-settings-catalog-group"),
    path("settings/admin/catalog/proposals/", views.review, name="mc-settings-catalog-proposals"),
    path("settings/admin/catalog/history/", views.history, name="mc-settings-catalog-history"),
    path("settings/admin/catalog/manga/<str:name>/", views.metadata, name="mc-settings-catalog-manga"),
    # /api/admin/catalog: the curators' API (catalog/api.py)
    path("api/admin/catalog", api.catalog),
    path("api/admin/catalog/relations", api.add_relation),
    path("api/admin/catalog/relations/delete", api.delete_relation),
    path("api/admin/catalog/groups", api.save_group),
    path("api/admin/catalog/groups/move", api.move_member),
    path("api/admin/catalog/groups/delete", api.delete_group),
    path("api/admin/catalog/overrides", api.set_override),
    path("api/admin/catalog/proposals", api.import_proposals),
    path("api/admin/catalog/proposals/decide", api.decide),
]
