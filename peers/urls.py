from django.urls import path

from . import admin_views as peer_admin
from . import api_views as peer_api

urlpatterns = [
    # /api/peer/: the peer API, for other servers with a peer secret (never a session)
    path("api/peer/catalog", peer_api.catalog),
    path("api/peer/page", peer_api.page),
    # /settings/admin/peers/ and /api/admin/peers: the admin's screens and their JSON
    path("settings/admin/peers/", peer_admin.peers_page, name="mc-admin-peers"),
    path("api/admin/peers", peer_admin.peers_api),
    path("api/admin/peers/<str:name>", peer_admin.peer_api),
    path("api/admin/peers/<str:name>/test", peer_admin.test_api),
    path("api/admin/peers/<str:name>/catalog", peer_admin.catalog_api),
]
