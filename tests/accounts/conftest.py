"""Fixtures of the OpenID Connect tests: a provider on loopback and the app set up for it."""
import pytest

from tests.accounts.oidc_helpers import ADMINS, oidc_env
from tests.conftest import PASSWORD, make_server
from tests.support.oidc_provider import Provider


@pytest.fixture
def provider():
    made = Provider().start()
    made.add_user("sam", email="sam@example.org")
    made.add_user("boss", groups=[ADMINS, "family"])
    yield made
    made.stop()


@pytest.fixture
def serve(request, data_dir, library_dir, provider):
    """serve(**env) starts the app set up for `provider` (the admin made with a password, as ever)."""
    started = []

    def start(**env):
        srv = make_server(request, data_dir, library_dir, env=oidc_env(provider, **env)).start()
        started.append(srv)
        srv.client().signup("admin", PASSWORD)
        return srv

    yield start
    for srv in started:
        srv.stop()
