"""Round trips, encodings, key exchange and pickling through the Python API."""

import hashlib
import hmac
import pickle

import pytest

import smcrypto
from smcrypto import sm2, sm9


def test_sm3_hashlib_interface():
    h = smcrypto.sm3(b"ab", usedforsecurity=True)
    assert (h.name, h.digest_size, h.block_size) == ("sm3", 32, 64)
    c = h.copy()
    h.update(b"c")
    assert h.digest() == smcrypto.sm3(b"abc").digest()
    assert c.digest() == smcrypto.sm3(b"ab").digest()
    # bytearray and memoryview are bytes-like; str is not.
    assert smcrypto.sm3(bytearray(b"abc")).digest() == smcrypto.sm3(memoryview(b"abc")).digest()
    big = bytes(range(256)) * 4096  # 1 MiB: hashed with the GIL released
    assert smcrypto.sm3(big).digest() == smcrypto.sm3(big[:1000] + big[1000:]).digest()
    # The stdlib's hmac and pbkdf2-style use: hashlib-compatible constructor.
    assert hmac.new(b"k" * 100, b"m", smcrypto.sm3).hexdigest() == smcrypto.hmac_sm3(b"k" * 100, b"m").hex()
    assert hmac.digest(b"k", b"m", smcrypto.sm3) == smcrypto.hmac_sm3(b"k", b"m")
    assert hashlib.sha256(b"x").digest() != smcrypto.sm3(b"x").digest()


def test_kdf():
    z = b"shared secret"
    assert smcrypto.kdf(z, 100)[:32] == smcrypto.kdf(z, 32)
    # KDF block 1 is SM3(Z || 00000001).
    assert smcrypto.kdf(z, 32) == smcrypto.sm3(z + b"\x00\x00\x00\x01").digest()
    assert smcrypto.kdf(z, 0) == b""


@pytest.mark.parametrize("encoding", ["der", "raw"])
def test_sm2_sign_verify(encoding):
    key = sm2.PrivateKey.generate()
    pub = key.public_key()
    for ident in (None, b"", b"alice", "张三", b"x" * 8191):
        kw = {} if ident is None else {"id": ident}
        sig = key.sign(b"msg", encoding=encoding, **kw)
        for _ in range(3):  # the third use goes through the precomputed table
            pub.verify(sig, b"msg", encoding=encoding, **kw)
        with pytest.raises(smcrypto.InvalidSignature):
            pub.verify(sig, b"msG", encoding=encoding, **kw)
    assert len(key.sign(b"m", encoding="raw")) == 64
    # Default ID spelled out is the same thing.
    pub.verify(key.sign(b"m"), b"m", id=sm2.DEFAULT_ID)
    pub.verify(key.sign(b"m", id="1234567812345678"), b"m")
    e = pub.digest(b"m", id=b"bob")
    pub.verify(key.sign_digest(e), b"m", id=b"bob")
    pub.verify_digest(key.sign(b"m", id=b"bob"), e)
    sigs = key.sign_many([b"a", b"b", b"c"] * 10, id=b"bob")
    for m, s in zip([b"a", b"b", b"c"] * 10, sigs):
        pub.verify(s, m, id=b"bob")


@pytest.mark.parametrize("mode", ["c1c3c2", "c1c2c3", "der"])
def test_sm2_encrypt_decrypt(mode):
    key = sm2.PrivateKey.generate()
    for n in (1, 31, 32, 33, 1000, 100000):
        pt = bytes(range(256)) * (n // 256) + bytes(range(n % 256))
        ct = key.public_key().encrypt(pt, mode=mode)
        assert ct != key.public_key().encrypt(pt, mode=mode)
        assert key.decrypt(ct, mode=mode) == pt


def test_sm2_key_encodings():
    key = sm2.PrivateKey.generate()
    pub = key.public_key()
    for fmt in ("gmssl", "openssl", "sec1"):
        assert sm2.PrivateKey.from_der(key.to_der(format=fmt)) == key
        assert sm2.PrivateKey.from_pem(key.to_pem(format=fmt)) == key
        assert sm2.PrivateKey.from_pem(key.to_pem(format=fmt).decode()) == key
    assert key.to_pem(format="sec1").startswith(b"-----BEGIN EC PRIVATE KEY-----")
    assert key.to_der(format="gmssl") != key.to_der(format="openssl")
    enc = key.to_der(password="pw")
    assert sm2.PrivateKey.from_der(enc, password=b"pw") == key
    with pytest.raises(smcrypto.DecryptionError):
        sm2.PrivateKey.from_der(enc, password=b"pW")
    pem = key.to_pem(password=b"pw")
    assert pem.startswith(b"-----BEGIN ENCRYPTED PRIVATE KEY-----")
    with pytest.raises(TypeError):
        sm2.PrivateKey.from_pem(pem)
    with pytest.raises(TypeError):
        sm2.PrivateKey.from_pem(key.to_pem(), password=b"pw")
    openssl_enc = key.to_pem(password=b"pw", format="openssl")
    assert sm2.PrivateKey.from_pem(openssl_enc, password="pw") == key
    assert openssl_enc != pem
    with pytest.raises(ValueError):
        key.to_pem(password=b"pw", format="sec1")
    assert sm2.PrivateKey.from_bytes(key.to_bytes()) == key
    assert sm2.PublicKey.from_bytes(pub.to_bytes(compressed=True)) == pub
    assert sm2.PublicKey.from_der(pub.to_der()) == pub
    assert sm2.PublicKey.from_pem(pub.to_pem()) == pub
    assert len({pub, sm2.PublicKey.from_bytes(pub.to_bytes())}) == 1
    assert key.to_bytes().hex() not in repr(key)
    # openssl ecparam -genkey writes an "SM2 PARAMETERS" block first.
    params = b"-----BEGIN SM2 PARAMETERS-----\nBggqgRzPVQGCLQ==\n-----END SM2 PARAMETERS-----\n"
    assert sm2.PrivateKey.from_pem(params + key.to_pem(format="sec1")) == key


def test_sm2_key_exchange():
    a, b = sm2.PrivateKey.generate(), sm2.PrivateKey.generate()
    alice = sm2.Initiator(a, b.public_key(), id=b"alice", peer_id=b"bob")
    bob = sm2.Responder(b, a.public_key(), id=b"bob", peer_id=b"alice")
    ra = alice.start()
    rb, sb = bob.respond(ra, 48)
    key_a, sa = alice.finish(rb, sb, 48)
    assert bob.confirm(sa) == key_a and len(key_a) == 48
    with pytest.raises(ValueError):
        alice.start()  # one exchange per object
    # A wrong confirmation is refused.
    alice = sm2.Initiator(a, b.public_key(), id=b"alice", peer_id=b"bob")
    bob = sm2.Responder(b, a.public_key(), id=b"bob", peer_id=b"alice")
    rb, sb = bob.respond(alice.start(), 16)
    with pytest.raises(smcrypto.KeyExchangeError):
        alice.finish(rb, bytes(32), 16)
    # Mismatched IDs give different keys, caught by the confirmation.
    alice = sm2.Initiator(a, b.public_key(), id=b"alice", peer_id=b"bob")
    bob = sm2.Responder(b, a.public_key(), id=b"bob", peer_id=b"mallory")
    rb, sb = bob.respond(alice.start(), 16)
    with pytest.raises(smcrypto.KeyExchangeError):
        alice.finish(rb, sb, 16)


def test_sm9_sign_verify_and_keys():
    kgc = sm9.SignMasterKey.generate()
    mpk = kgc.public_key()
    alice = kgc.extract("alice@example.com")
    for enc in ("der", "raw"):
        sig = alice.sign(b"msg", encoding=enc)
        mpk.verify(sig, b"msg", "alice@example.com", encoding=enc)
        mpk.verify(sig, b"msg", b"alice@example.com", encoding=enc)
        with pytest.raises(smcrypto.InvalidSignature):
            mpk.verify(sig, b"msg", "bob@example.com", encoding=enc)
    sigs = alice.sign_many([b"m%d" % i for i in range(20)])
    assert mpk.verify_batch([("alice@example.com", b"m%d" % i, s) for i, s in enumerate(sigs)]) == [True] * 20
    items = [(mpk, "alice@example.com", b"m%d" % i, s) for i, s in enumerate(sigs)]
    items[3] = (mpk, "alice@example.com", b"other", sigs[3])
    items[7] = (mpk, "alice@example.com", b"m7", b"not a signature")
    expect = [True] * 20
    expect[3] = expect[7] = False
    assert sm9.verify_batch(items) == expect
    # Encodings of every key type.
    assert sm9.SignMasterPublicKey.from_der(mpk.to_der()) == mpk
    assert sm9.SignMasterPublicKey.from_pem(mpk.to_pem()) == mpk
    assert sm9.SignMasterPublicKey.from_bytes(mpk.to_bytes()) == mpk
    assert sm9.SignMasterKey.from_der(kgc.to_der()).to_bytes() == kgc.to_bytes()
    assert sm9.SignMasterKey.from_pem(kgc.to_pem(password="pw"), password="pw").to_bytes() == kgc.to_bytes()
    back = sm9.SignUserKey.from_pem(alice.to_pem(password=b"pw"), password=b"pw")
    assert back.to_bytes() == alice.to_bytes()
    assert back.master_public_key() == mpk
    assert sm9.SignUserKey.from_bytes(alice.to_bytes(), mpk).to_bytes() == alice.to_bytes()
    # Bound to another master public key (nothing in ds says which is right), its signatures
    # do not verify under either.
    other = sm9.SignMasterKey.generate().public_key()
    wrong = sm9.SignUserKey.from_bytes(alice.to_bytes(), other)
    with pytest.raises(smcrypto.InvalidSignature):
        other.verify(wrong.sign(b"m"), b"m", "alice@example.com")


@pytest.mark.parametrize("cipher", ["xor", "sm4-ecb", "sm4-cbc"])
@pytest.mark.parametrize("mac", ["standard", "gmssl"])
@pytest.mark.parametrize("encoding", ["der", "raw"])
def test_sm9_encrypt_decrypt(cipher, mac, encoding):
    kgc = sm9.EncMasterKey.generate()
    bob = kgc.extract("bob")
    for pt in (b"x", b"sixteen bytes!!!", bytes(1000)):
        ct = kgc.public_key().encrypt(pt, "bob", mac=mac, cipher=cipher, encoding=encoding)
        kw = {"cipher": cipher} if encoding == "raw" else {}
        assert bob.decrypt(ct, "bob", mac=mac, encoding=encoding, **kw) == pt
        with pytest.raises(smcrypto.DecryptionError):
            bob.decrypt(ct, "alice", mac=mac, encoding=encoding, **kw)
        other = "gmssl" if mac == "standard" else "standard"
        with pytest.raises(smcrypto.DecryptionError):
            bob.decrypt(ct, "bob", mac=other, encoding=encoding, **kw)


def test_sm9_kem_and_exchange():
    kgc = sm9.EncMasterKey.generate()
    bob = kgc.extract("bob")
    for enc in ("raw", "der"):
        key, c = kgc.public_key().encapsulate("bob", 48, encoding=enc)
        assert len(key) == 48 and bob.decapsulate(c, "bob", 48, encoding=enc) == key
    a = kgc.extract_exchange("alice")
    b = kgc.extract_exchange("bob")
    alice = sm9.Initiator(a, id="alice", peer_id="bob")
    responder = sm9.Responder(b, id="bob", peer_id="alice")
    ra = alice.start()
    rb, sb = responder.respond(ra, 32)
    key_a, sa = alice.finish(rb, sb, 32)
    assert responder.confirm(sa) == key_a
    with pytest.raises(ValueError):
        alice.finish(rb, sb, 32)
    alice = sm9.Initiator(a, id="alice", peer_id="bob")
    responder = sm9.Responder(b, id="bob", peer_id="alice")
    rb, sb = responder.respond(alice.start(), 32)
    with pytest.raises(smcrypto.KeyExchangeError):
        alice.finish(rb, bytes(32), 32)
    assert sm9.ExchangeUserKey.from_der(a.to_der()).to_bytes() == a.to_bytes()
    assert sm9.EncUserKey.from_pem(bob.to_pem(password="x"), password="x").to_bytes() == bob.to_bytes()


def test_pickle_every_key_type():
    sk = sm2.PrivateKey.generate()
    skgc, ekgc = sm9.SignMasterKey.generate(), sm9.EncMasterKey.generate()
    objs = [
        sk,
        sk.public_key(),
        skgc,
        skgc.public_key(),
        skgc.extract("a"),
        ekgc,
        ekgc.public_key(),
        ekgc.extract("a"),
        ekgc.extract_exchange("a"),
    ]
    for o in objs:
        back = pickle.loads(pickle.dumps(o))
        assert type(back) is type(o)
        assert back.to_der() == o.to_der()
