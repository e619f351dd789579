"""A passkey authenticator in software, for tests: an ES256 key pair made with `cryptography`,
answering the server's options with the authenticatorData, clientDataJSON and "none" attestation a
device would send, so the server's real WebAuthn checks (py_webauthn) verify them."""
import base64
import hashlib
import json
import os

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

USER_PRESENT, USER_VERIFIED, ATTESTED = 0x01, 0x04, 0x40


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text):
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class SoftAuthenticator:
    def __init__(self, origin, rp_id="127.0.0.1"):
        self.origin, self.rp_id = origin, rp_id
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = os.urandom(16)
        self.count = 0
        self.user_handle = None

    @property
    def id(self):
        return b64url(self.credential_id)

    def _cose_key(self):
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def _client_data(self, kind, challenge, origin):
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin or self.origin,
                           "crossOrigin": False}).encode()

    def _head(self, flags, count):
        return hashlib.sha256(self.rp_id.encode()).digest() + bytes([flags]) + count.to_bytes(4, "big")

    def create(self, options, origin=None):
        """navigator.credentials.create's answer, as static/js/passkeys.js sends it."""
        self.user_handle = options["user"]["id"]
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        auth_data = (self._head(USER_PRESENT | USER_VERIFIED | ATTESTED, self.count) + bytes(16)
                     + len(self.credential_id).to_bytes(2, "big") + self.credential_id + self._cose_key())
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {"id": self.id, "rawId": self.id, "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data), "attestationObject": b64url(attestation)}}

    def get(self, options, origin=None, count=None, challenge=None, verified=True):
        """navigator.credentials.get's answer: the counter moves on by one unless `count` is given."""
        self.count = self.count + 1 if count is None else count
        client_data = self._client_data("webauthn.get", challenge or options["challenge"], origin)
        auth_data = self._head(USER_PRESENT | (USER_VERIFIED if verified else 0), self.count)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        return {"id": self.id, "rawId": self.id, "type": "public-key", "clientExtensionResults": {},
                "response": {"clientDataJSON": b64url(client_data), "authenticatorData": b64url(auth_data),
                             "signature": b64url(signature), "userHandle": self.user_handle}}
