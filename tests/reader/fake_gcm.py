"""Google's GCM check-in and registration on loopback, for Chromium's own PushManager.subscribe()
in tests: Chromium takes their addresses from --gcm-checkin-url and --gcm-registration-url, so a
real subscription is made without the internet (its endpoint names FCM, which is never reached).

The check-in answer is a protobuf AndroidCheckinResponse (checkin.proto: stats_ok = 1, android_id
= 7 and security_token = 8, fixed64), written by hand; a registration answers "token=<token>",
an unregistration "deleted=<app>"."""
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs

ANDROID_ID, SECURITY_TOKEN = 4_000_000_000_001, 4_000_000_000_002
CHECKIN = b"\x08\x01" + b"\x39" + struct.pack("<Q", ANDROID_ID) + b"\x41" + struct.pack("<Q", SECURITY_TOKEN)


class FakeGCM:
    def __init__(self):
        self.registrations = []  # each registration: (its form fields {name: value}, the token given)
        self.unregistrations = []
        gcm = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path == "/checkin":
                    answer, kind = CHECKIN, "application/x-protobuf"
                else:
                    form = {k: v[0] for k, v in parse_qs(body.decode()).items()}
                    if form.get("delete") == "true":
                        gcm.unregistrations.append(form)
                        answer = f"deleted={form.get('app', '')}".encode()
                    else:
                        token = f"push-token-{len(gcm.registrations) + 1}"
                        gcm.registrations.append((form, token))
                        answer = f"token={token}".encode()
                    kind = "text/plain"
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args):
                """Quiet: the test reads what Chromium sent from the fake itself."""

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, args=(0.02,), daemon=True).start()

    def chromium_args(self):
        return [f"--gcm-checkin-url={self.url}/checkin", f"--gcm-registration-url={self.url}/register",
                f"--gcm-mcs-endpoint=https://127.0.0.1:{self.server.server_port}"]  # no MCS: never connects

    def web_push(self):
        """The registrations of Web Push subscriptions (not Chromium's own, for its invalidations)."""
        return [(form, token) for form, token in self.registrations if form.get("X-subtype", "").startswith("wp:")]

    def close(self):
        self.server.shutdown()
        self.server.server_close()
