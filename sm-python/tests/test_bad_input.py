"""Bad input raises a typed exception — never a crash, never a Rust panic — and the module keeps
working afterwards."""

import random

import pytest

import smcrypto
from smcrypto import sm2, sm9

OURS = (smcrypto.Error, TypeError, ValueError, OverflowError)


def must_fail_cleanly(fn, *args, **kw):
    """`fn` raises one of our exception types (PyO3's PanicException is a BaseException, so it
    would escape this and fail the test)."""
    try:
        fn(*args, **kw)
    except OURS:
        return
    raise AssertionError(f"{fn} accepted {args!r:.80}")


def mutations(data, rng, n):
    """Truncations, extensions and bit flips of `data`."""
    out = [b"", data[:1], data[:-1], data + b"\x00", data * 2]
    for _ in range(n):
        b = bytearray(data)
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
        out.append(bytes(b))
    return out


def test_wrong_types():
    key = sm2.PrivateKey.generate()
    for bad in ("text", 123, None, 1.5, [1, 2, 300]):
        with pytest.raises((TypeError, ValueError, OverflowError)):
            key.sign(bad)
        with pytest.raises((TypeError, ValueError, OverflowError)):
            smcrypto.sm3(bad) if bad is not None else smcrypto.sm3().update(bad)
    with pytest.raises(TypeError):
        sm2.Initiator("not a key", key.public_key())
    with pytest.raises(ValueError):
        key.sign(b"m", encoding="pem")
    with pytest.raises(ValueError):
        key.decrypt(b"x" * 200, mode="c3c2c1")
    with pytest.raises(ValueError):
        sm9.EncMasterKey.generate().public_key().encrypt(b"m", "id", mac="hmac")
    with pytest.raises((ValueError, OverflowError)):
        smcrypto.kdf(b"z", -1)


def test_sm2_malformed_inputs():
    rng = random.Random(1)
    key = sm2.PrivateKey.generate()
    pub = key.public_key()
    sig = key.sign(b"m")
    for s in mutations(sig, rng, 200):
        if s == sig:
            continue
        with pytest.raises(smcrypto.InvalidSignature):
            pub.verify(s, b"m")
    for s in mutations(key.sign(b"m", encoding="raw"), rng, 50)[1:]:
        with pytest.raises(smcrypto.InvalidSignature):
            pub.verify(s, b"m", encoding="raw")
    for mode in ("c1c3c2", "c1c2c3", "der"):
        ct = pub.encrypt(b"plaintext", mode=mode)
        for c in mutations(ct, rng, 100):
            must_fail_cleanly(key.decrypt, c, mode=mode)
    for d in mutations(key.to_der(), rng, 200) + mutations(key.to_der(format="sec1"), rng, 100):
        must_fail_cleanly(sm2.PrivateKey.from_der, d)
    for d in mutations(pub.to_der(), rng, 100) + mutations(pub.to_bytes(), rng, 50):
        must_fail_cleanly(sm2.PublicKey.from_der, d)
        must_fail_cleanly(sm2.PublicKey.from_bytes, d)
    for d in mutations(key.to_der(password="pw"), rng, 30):
        must_fail_cleanly(sm2.PrivateKey.from_der, d, password="pw")
    for bad in (bytes(32), b"\xff" * 32, b"\x01" * 31, b""):
        with pytest.raises(smcrypto.InvalidKey if len(bad) == 32 else smcrypto.EncodingError):
            sm2.PrivateKey.from_bytes(bad)
    # A point not on the curve.
    p = bytearray(pub.to_bytes())
    p[-1] ^= 1
    with pytest.raises(smcrypto.InvalidKey):
        sm2.PublicKey.from_bytes(bytes(p))
    with pytest.raises(smcrypto.InvalidParameter):
        key.sign(b"m", id=b"x" * 8192)
    with pytest.raises(smcrypto.InvalidParameter):
        pub.encrypt(b"")
    with pytest.raises(smcrypto.EncodingError):
        sm2.PrivateKey.from_pem("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
    with pytest.raises(smcrypto.EncodingError):
        sm2.PrivateKey.from_pem(b"\xff\xfe not pem")
    a = sm2.Initiator(key, pub)
    a.start()
    with pytest.raises(smcrypto.KeyExchangeError):
        a.finish(b"\x04" + bytes(64), bytes(32), 16)
    # Still fully usable.
    pub.verify(key.sign(b"after"), b"after")


def test_sm9_malformed_inputs():
    rng = random.Random(2)
    kgc = sm9.SignMasterKey.generate()
    mpk = kgc.public_key()
    user = kgc.extract("alice")
    sig = user.sign(b"m")
    for s in mutations(sig, rng, 150):
        if s != sig:
            with pytest.raises(smcrypto.InvalidSignature):
                mpk.verify(s, b"m", "alice")
    for d in mutations(mpk.to_der(), rng, 60) + mutations(mpk.to_bytes(), rng, 60):
        must_fail_cleanly(sm9.SignMasterPublicKey.from_der, d)
        must_fail_cleanly(sm9.SignMasterPublicKey.from_bytes, d)
    for d in mutations(user.to_der(), rng, 60) + mutations(kgc.to_der(), rng, 60):
        must_fail_cleanly(sm9.SignUserKey.from_der, d)
        must_fail_cleanly(sm9.SignMasterKey.from_der, d)
    ekgc = sm9.EncMasterKey.generate()
    bob = ekgc.extract("bob")
    for enc in ("der", "raw"):
        ct = ekgc.public_key().encrypt(b"plaintext", "bob", encoding=enc)
        for c in mutations(ct, rng, 60):
            must_fail_cleanly(bob.decrypt, c, "bob", encoding=enc)
    _, cap = ekgc.public_key().encapsulate("bob", 16)
    for c in mutations(cap, rng, 40)[:6]:
        must_fail_cleanly(bob.decapsulate, c, "bob", 16)
    with pytest.raises(smcrypto.InvalidParameter):
        ekgc.public_key().encapsulate("bob", 0)
    # The empty message is accepted (as by GmSSL): C2 is empty in the KDF-stream mode.
    for enc in ("der", "raw"):
        ct = ekgc.public_key().encrypt(b"", "bob", encoding=enc)
        assert bob.decrypt(ct, "bob", encoding=enc) == b""
    assert len(ekgc.public_key().encrypt(b"", "bob", encoding="raw")) == 97
    # A huge identity is fine (hashed), and so is an empty one.
    big = "x" * 1_000_000
    mpk.verify(kgc.extract(big).sign(b"m"), b"m", big)
    mpk.verify(kgc.extract(b"").sign(b"m"), b"m", b"")
    b = sm9.Responder(ekgc.extract_exchange("b"), id="b", peer_id="a")
    with pytest.raises(smcrypto.EncodingError):
        b.respond(b"\x04" + bytes(64), 16)
    mpk.verify(user.sign(b"after"), b"m" * 0 + b"after", "alice")
