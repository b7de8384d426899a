"""SM2 (GB/T 32918 / GM/T 0003): signatures, public-key encryption, key exchange.

>>> from smcrypto import sm2
>>> key = sm2.PrivateKey.generate()
>>> sig = key.sign(b"message")                  # DER; id defaults to b"1234567812345678"
>>> key.public_key().verify(sig, b"message")    # raises InvalidSignature if it does not verify
>>> ct = key.public_key().encrypt(b"secret")    # C1C3C2
>>> key.decrypt(ct)
b'secret'
"""

from ._native import sm2 as _m

PrivateKey = _m.PrivateKey
PublicKey = _m.PublicKey
Initiator = _m.Initiator
Responder = _m.Responder
#: The default distinguishing ID (GB/T 35276): ``b"1234567812345678"``.
DEFAULT_ID: bytes = _m.DEFAULT_ID

__all__ = ["PrivateKey", "PublicKey", "Initiator", "Responder", "DEFAULT_ID"]
