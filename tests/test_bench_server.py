"""bench/server.py's Server: a port taken between its pick and serve's bind is left for another."""
import socket

import pytest

from bench.server import Server

pytestmark = pytest.mark.process


def test_it_starts_on_another_port_when_its_port_is_taken(data_dir, library_dir):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))  # bound, not listening: connecting to it is refused at once
        srv = Server(data_dir, library_dir)
        srv.port = taken.getsockname()[1]
        srv.start()
        try:
            assert srv.port != taken.getsockname()[1]
            assert srv.client().get("/api/auth")[0] == 200
            assert b"Address already in use" in srv.log.read_bytes()
        finally:
            srv.stop()
