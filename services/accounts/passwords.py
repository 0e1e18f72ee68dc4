"""Password hashing with scrypt (``hashlib.scrypt``): random salt, parameters kept with the hash.

Encoded form: ``scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>``. Production parameters follow OWASP's
scrypt guidance (N=2^15, r=8, p=3: 32 MiB); ``ARCANA_SCRYPT_N`` / ``_R`` / ``_P`` may lower them
for tests. Verification uses the parameters stored with each hash and a constant-time compare.
At most ``ARCANA_KDF_CONCURRENCY`` (default 4) derivations run at once per process, so a burst of
log-ins on a 16-thread worker cannot claim 16 x 32 MiB.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass

from libs import config

SALT_BYTES = 16
KEY_BYTES = 32
_KDF_SLOTS = threading.BoundedSemaphore(config.KDF_CONCURRENCY.get())


@dataclass(frozen=True)
class ScryptParams:
    n: int = config.SCRYPT_N.default
    r: int = config.SCRYPT_R.default
    p: int = config.SCRYPT_P.default

    def __post_init__(self) -> None:
        if self.n < 2 or self.n & (self.n - 1) or self.r < 1 or self.p < 1:
            raise ValueError(f"bad scrypt parameters {self}")

    @classmethod
    def from_env(cls) -> ScryptParams:
        """Raises ``ValueError`` for a non-integer or invalid value."""
        return cls(n=config.SCRYPT_N.get(), r=config.SCRYPT_R.get(), p=config.SCRYPT_P.get())


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _derive(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    maxmem = 128 * r * (n + p + 2) + 2**20
    with _KDF_SLOTS:  # hashlib.scrypt releases the GIL; this bounds memory, not CPU fairness
        return hashlib.scrypt(password.encode(), salt=salt, n=n, r=r, p=p, maxmem=maxmem, dklen=KEY_BYTES)


def hash_password(password: str, params: ScryptParams) -> str:
    salt = secrets.token_bytes(SALT_BYTES)
    key = _derive(password, salt, params.n, params.r, params.p)
    return f"scrypt${params.n}${params.r}${params.p}${_b64(salt)}${_b64(key)}"


def verify_password(password: str, encoded: str) -> bool:
    """True when ``password`` matches; False for a wrong password or an unreadable hash."""
    try:
        scheme, n, r, p, salt, key = encoded.split("$")
        if scheme != "scrypt":
            return False
        expected = _unb64(key)
        actual = _derive(password, _unb64(salt), int(n), int(r), int(p))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(actual, expected)


_DUMMY: dict[ScryptParams, str] = {}


def dummy_hash(params: ScryptParams) -> str:
    """A hash no password matches in practice, to spend the same time on unknown usernames."""
    if params not in _DUMMY:
        _DUMMY[params] = hash_password(secrets.token_urlsafe(24), params)
    return _DUMMY[params]
