"""A push service on loopback for the Web Push tests: it keeps what it receives, checks the VAPID
signature (RFC 8292) and decrypts the payload (RFC 8291) with the subscription's private key."""
import base64
import json
import os
import time
from urllib.parse import urlsplit

from tests.reader.webhook_target import Target


def b64(raw):
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Browser:
    """What a browser keeps for one push subscription: its P-256 key pair and auth secret."""

    def __init__(self, endpoint):
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import ec

        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        self.subscription = {"endpoint": endpoint, "expirationTime": None,
                             "keys": {"p256dh": b64(point), "auth": b64(self.auth)}}

    def decrypt(self, body):
        """The plaintext of an aes128gcm body (RFC 8291 §3.4: the sender's key is its keyid)."""
        import http_ece

        return http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")


def verified_claims(authorization, endpoint):
    """The claims of an `Authorization: vapid t=<JWT>, k=<key>` header, after checking the ES256
    signature against k and aud, exp and sub as RFC 8292 §2 asks; AssertionError otherwise.
    -> (claims, k)."""
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    scheme, _, params = authorization.partition(" ")
    assert scheme == "vapid", authorization[:20]
    fields = dict(part.strip().split("=", 1) for part in params.split(","))
    token, key = fields["t"], fields["k"]
    header, claims, signature = token.split(".")
    assert json.loads(unb64(header))["alg"] == "ES256"
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
    raw = unb64(signature)
    assert len(raw) == 64  # JWS ES256: r and s, 32 bytes each
    public.verify(encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
                  f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises InvalidSignature
    claims = json.loads(unb64(claims))
    parts = urlsplit(endpoint)
    assert claims["aud"] == f"{parts.scheme}://{parts.netloc}"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    assert claims["sub"].startswith(("mailto:", "https://"))
    return claims, key


class PushService(Target):
    """A Target that answers 201 Created, as push services do, unless told otherwise."""

    def __init__(self, respond=None):
        super().__init__(respond=respond or (lambda handler: (201, {})))

    def received(self, browser, public_key):
        """Every push received so far, checked (headers, VAPID) and decrypted: [payload dict]."""
        payloads = []
        for method, path, headers, body in self.requests:
            assert (method, self.url + path) == ("POST", browser.endpoint)
            assert headers["Content-Encoding"] == "aes128gcm" and int(headers["TTL"]) > 0
            _, key = verified_claims(headers["Authorization"], browser.endpoint)
            assert key == public_key
            payloads.append(json.loads(browser.decrypt(body)))
        return payloads

    def wait_for(self, count, timeout=10):
        deadline = time.monotonic() + timeout
        while len(self.requests) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(self.requests) >= count, f"{len(self.requests)} pushes received, {count} expected"
