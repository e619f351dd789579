"""A real loopback HTTP server that records what it receives (a webhook target, or a canary)."""
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class _Server6(ThreadingHTTPServer):
    address_family = socket.AF_INET6


class Target:
    """On `host` (an IPv4 or IPv6 address) and `port` (0: any free one)."""

    def __init__(self, host="127.0.0.1", respond=None, port=0):
        self.requests = []
        self.respond = respond or (lambda handler: (200, {}))
        target = self

        class Handler(BaseHTTPRequestHandler):
            def _handle(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                target.requests.append((self.command, self.path, dict(self.headers), body))
                status, headers = target.respond(self)
                if status is None:
                    return  # answer nothing: the client must time out
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            do_POST = do_GET = _handle

            def log_message(self, *args):
                pass

        self.server = (_Server6 if ":" in host else ThreadingHTTPServer)((host, port), Handler)
        self.server.daemon_threads = True
        self.url = f"http://{f'[{host}]' if ':' in host else host}:{self.server.server_port}"
        # A short poll interval: shutdown() waits for the loop to notice (0.5 s by default).
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()
