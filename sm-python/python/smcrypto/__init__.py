"""SM2, SM3 and SM9 — the Chinese national public-key standards — for Python, in Rust.

>>> import smcrypto
>>> smcrypto.sm3(b"abc").hexdigest()
'66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0'

Submodules: :mod:`smcrypto.sm2` (signatures, encryption, key exchange, PEM/DER keys) and
:mod:`smcrypto.sm9` (identity-based signatures, encryption, KEM, key exchange). Exceptions are
in :mod:`smcrypto.exceptions` and re-exported here.
"""

from . import _native
from .exceptions import (
    DecryptionError,
    EncodingError,
    Error,
    InvalidKey,
    InvalidParameter,
    InvalidSignature,
    KeyExchangeError,
)

sm3 = _native.sm3
hmac_sm3 = _native.hmac_sm3
kdf = _native.kdf
sm3_many = _native.sm3_many
#: The SIMD kernel SM3's multi-buffer hashing uses on this CPU.
SIMD = _native.SIMD

from . import sm2, sm9  # noqa: E402  (after the native module they wrap)

__all__ = [
    "sm3",
    "hmac_sm3",
    "kdf",
    "sm3_many",
    "sm2",
    "sm9",
    "Error",
    "EncodingError",
    "InvalidKey",
    "InvalidParameter",
    "InvalidSignature",
    "DecryptionError",
    "KeyExchangeError",
]
