"""SM9 (GM/T 0044): identity-based signatures, encryption, KEM and key exchange.

>>> from smcrypto import sm9
>>> kgc = sm9.SignMasterKey.generate()
>>> alice = kgc.extract("alice@example.com")
>>> sig = alice.sign(b"message")
>>> kgc.public_key().verify(sig, b"message", "alice@example.com")
"""

from ._native import sm9 as _m

SignMasterKey = _m.SignMasterKey
SignMasterPublicKey = _m.SignMasterPublicKey
SignUserKey = _m.SignUserKey
EncMasterKey = _m.EncMasterKey
EncMasterPublicKey = _m.EncMasterPublicKey
EncUserKey = _m.EncUserKey
ExchangeUserKey = _m.ExchangeUserKey
Initiator = _m.Initiator
Responder = _m.Responder
verify_batch = _m.verify_batch

__all__ = [
    "SignMasterKey",
    "SignMasterPublicKey",
    "SignUserKey",
    "EncMasterKey",
    "EncMasterPublicKey",
    "EncUserKey",
    "ExchangeUserKey",
    "Initiator",
    "Responder",
    "verify_batch",
]
