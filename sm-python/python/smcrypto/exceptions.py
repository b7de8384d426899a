"""Exceptions raised by smcrypto.

Every error is a subclass of :class:`Error`. Errors about malformed input also derive from
:class:`ValueError` (as pyca/cryptography's loaders raise ``ValueError``). Failed verifications,
decryptions and key confirmations never say which check failed.
"""

__all__ = [
    "Error",
    "EncodingError",
    "InvalidKey",
    "InvalidParameter",
    "InvalidSignature",
    "DecryptionError",
    "KeyExchangeError",
]


class Error(Exception):
    """Base class of every smcrypto error."""


class EncodingError(Error, ValueError):
    """A malformed encoding: DER, PEM, wrong length, a point not on the curve or not in the
    subgroup, an unexpected algorithm identifier."""


class InvalidKey(Error, ValueError):
    """A key that is out of range, does not match its master key, or is unusable for the
    identity (SM9: a new master key is needed)."""


class InvalidParameter(Error, ValueError):
    """An argument outside what the algorithm allows: an SM2 ID over 8191 bytes, an empty
    plaintext, a zero or oversized key length."""


class InvalidSignature(Error):
    """The signature does not verify (or is not a well-formed signature)."""


class DecryptionError(Error):
    """Decryption or decapsulation failed: wrong key, identity, MAC mode or password, or
    tampered data."""


class KeyExchangeError(Error):
    """The key exchange failed: an invalid ephemeral point or a confirmation mismatch."""
