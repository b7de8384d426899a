"""Known answers through the Python API: GB/T 32905 / 32918 and GM/T 0044 annex examples and
GmSSL 3.2's outputs (sm-testvectors/data), byte for byte."""

import hmac

import pytest

import smcrypto
from smcrypto import sm2, sm9

from conftest import h


def test_sm3_vectors(sm2_sm3, gmssl):
    for v in sm2_sm3["sm3"]["vectors"]:
        msg = h(v["msg_hex"])
        assert smcrypto.sm3(msg).digest() == h(v["digest"])
        assert smcrypto.sm3(msg).hexdigest() == v["digest"].lower()
        # Fed byte by byte, and through copy().
        x = smcrypto.sm3()
        for b in msg:
            x.update(bytes([b]))
        assert x.copy().digest() == h(v["digest"])
    for c in gmssl["sm3"]:
        assert smcrypto.sm3(h(c["message_hex"])).digest() == h(c["digest_hex"])
    assert smcrypto.sm3_many([h(c["message_hex"]) for c in gmssl["sm3"]]) == [
        h(c["digest_hex"]) for c in gmssl["sm3"]
    ]


def test_hmac_sm3_vectors(sm2_sm3):
    vs = sm2_sm3["hmac_sm3"]["vectors"]
    assert vs
    for v in vs:
        key, msg, tag = h(v["key"]), h(v["msg"]), h(v["tag"])
        ok = v.get("result", "valid") == "valid"
        assert (smcrypto.hmac_sm3(key, msg)[: len(tag)] == tag) == ok
        # The stdlib's hmac with smcrypto.sm3 as the digest constructor agrees.
        assert hmac.new(key, msg, smcrypto.sm3).digest() == smcrypto.hmac_sm3(key, msg)


def test_sm2_sign_annex(sm2_sm3):
    v = sm2_sm3["sm2_sign_recommended"]
    key = sm2.PrivateKey.from_bytes(h(v["dA"]))
    pub = key.public_key()
    assert pub.to_bytes() == b"\x04" + h(v["xA"]) + h(v["yA"])
    ident = h(v["id_hex"])
    msg = h(v["msg_hex"])
    assert pub.za(id=ident) == h(v["ZA"])
    assert pub.digest(msg, id=ident) == h(v["e"])
    raw = h(v["r"]) + h(v["s"])
    pub.verify(raw, msg, id=ident, encoding="raw")
    pub.verify(h(v["signature_der"]), msg, id=ident)
    pub.verify_digest(raw, h(v["e"]), encoding="raw")
    with pytest.raises(smcrypto.InvalidSignature):
        pub.verify(raw, msg + b"!", id=ident, encoding="raw")
    # The key encodings of the vector file load to the same key.
    assert sm2.PrivateKey.from_der(h(v["pkcs8_private_key_der"])) == key
    assert sm2.PublicKey.from_der(h(v["spki_public_key_der"])) == pub
    assert pub.to_der() == h(v["spki_public_key_der"])
    # Our own signatures on the annex message verify (random nonce each time).
    assert key.sign(msg, id=ident) != key.sign(msg, id=ident)
    pub.verify(key.sign(msg, id=ident), msg, id=ident)


def test_sm2_encrypt_annex(sm2_sm3):
    v = sm2_sm3["sm2_encrypt_recommended"]
    key = sm2.PrivateKey.from_bytes(h(v["dB"]))
    msg = h(v["msg_hex"])
    assert key.decrypt(h(v["ciphertext_raw_C1C3C2"])) == msg
    assert key.decrypt(h(v["ciphertext_raw_C1C2C3"]), mode="c1c2c3") == msg
    assert key.decrypt(h(v["ciphertext_der_gmt0009"]), mode="der") == msg
    with pytest.raises(smcrypto.DecryptionError):
        key.decrypt(h(v["ciphertext_raw_C1C3C2"]), mode="c1c2c3")


def test_sm2_openssl_generated(sm2_sm3):
    v = sm2_sm3["openssl_generated_rustcrypto"]
    s = v["sign"]
    pub = sm2.PublicKey.from_bytes(h(s["public_key_sec1"]))
    pub.verify(h(s["r"]) + h(s["s"]), s["msg_ascii"].encode(), id=s["id_ascii"], encoding="raw")
    d = v["decrypt"]
    key = sm2.PrivateKey.from_bytes(h(d["private_key"]))
    assert key.decrypt(h(d["ciphertext_raw_C1C3C2"])) == d["plaintext_ascii"].encode()
    assert key.decrypt(h(d["ciphertext_der_from_openssl_pkeyutl"]), mode="der") == (
        d["plaintext_ascii"].encode()
    )


def test_sm2_gmssl_cases(gmssl):
    assert len(gmssl["sm2"]) >= 10
    for c in gmssl["sm2"]:
        key = sm2.PrivateKey.from_bytes(h(c["private_key_hex"]))
        pub = key.public_key()
        assert pub.to_bytes() == h(c["public_key_hex"])
        assert sm2.PublicKey.from_der(h(c["public_key_spki_der_hex"])) == pub
        assert sm2.PublicKey.from_pem(c["public_key_pem"]) == pub
        assert pub.to_der() == h(c["public_key_spki_der_hex"])
        assert pub.to_pem().decode() == c["public_key_pem"]
        # GmSSL's PKCS#8 layout is what format="gmssl" writes, byte for byte.
        assert key.to_der(format="gmssl") == h(c["private_key_pkcs8_der_hex"])
        assert key.to_pem(format="gmssl").decode() == c["private_key_pem"]
        assert sm2.PrivateKey.from_pem(c["private_key_pem"]) == key
        enc = c["private_key_encrypted"]
        assert sm2.PrivateKey.from_pem(enc["encrypted_pem"], password=enc["pem_password"]) == key
        with pytest.raises(smcrypto.DecryptionError):
            sm2.PrivateKey.from_pem(enc["encrypted_pem"], password="wrong")
        ident = h(c["id_hex"])
        s = c["sign"]
        msg = h(s["message_hex"])
        assert pub.za(id=ident) == h(s["z_hex"])
        assert pub.digest(msg, id=ident) == h(s["e_hex"])
        pub.verify(h(s["signature_der_hex"]), msg, id=ident)
        pub.verify(h(s["r_hex"]) + h(s["s_hex"]), msg, id=ident, encoding="raw")
        e = c["encrypt"]
        pt = h(e["plaintext_hex"])
        assert key.decrypt(h(e["ciphertext_der_hex"]), mode="der") == pt
        assert key.decrypt(h(e["c1c3c2_hex"])) == pt


def test_sm9_sign_annex(sm9v):
    v = sm9v["sign_annexA"]
    kgc = sm9.SignMasterKey.from_bytes(h(v["ks"]))
    mpk = kgc.public_key()
    assert mpk.to_bytes() == b"\x04" + h(v["Ppubs"])
    alice = kgc.extract(v["ID_A"])
    assert alice.to_bytes() == b"\x04" + h(v["dsA"])
    msg = h(v["M_hex"])
    raw = h(v["h"]) + b"\x04" + h(v["S"])
    mpk.verify(raw, msg, "Alice", encoding="raw")
    der = h(v["derived"]["signature_DER_GmSSL_gmsm (SEQUENCE{h OCTET STRING, S BIT STRING 04||x||y})"])
    mpk.verify(der, msg, b"Alice")
    with pytest.raises(smcrypto.InvalidSignature):
        mpk.verify(der, msg, "Bob")
    mpk.verify(alice.sign(msg), msg, "Alice")


def test_sm9_encrypt_annex(sm9v):
    v = sm9v["encrypt_annexD"]
    kgc = sm9.EncMasterKey.from_bytes(h(v["ke"]))
    assert kgc.public_key().to_bytes() == b"\x04" + h(v["Ppube"])
    bob = kgc.extract(v["ID_B"])
    assert bob.to_bytes() == b"\x04" + h(v["deB"])
    msg = h(v["M_hex"])
    c1 = b"\x04" + h(v["C1"])
    xor = v["xor_mode"]
    raw = c1 + h(xor["C3=SM3(C2||K2)"]) + h(xor["C2"])
    assert bob.decrypt(raw, "Bob", encoding="raw") == msg
    gm = c1 + h(xor["GmSSL_v3_C3=HMAC-SM3(K2,C2)_NONSTANDARD (derived)"]) + h(xor["C2"])
    assert bob.decrypt(gm, "Bob", mac="gmssl", encoding="raw") == msg
    with pytest.raises(smcrypto.DecryptionError):
        bob.decrypt(gm, "Bob", encoding="raw")
    ecb = v["sm4_ecb_pkcs7_mode"]
    raw = c1 + h(ecb["C3=SM3(C2||K2)"]) + h(ecb["C2"])
    assert bob.decrypt(raw, "Bob", cipher="sm4-ecb", encoding="raw") == msg


def test_sm9_kem_annex(sm9v):
    v = sm9v["kem_annexC"]
    bob = sm9.EncMasterKey.from_bytes(h(v["ke"])).extract(v["ID_B"])
    key = bob.decapsulate(b"\x04" + h(v["C"]), "Bob", v["klen_bits"] // 8)
    assert key == h(v["K"])


def test_sm9_gmsm_der_examples(sm9v):
    v = sm9v["interop_DER_examples_gmsm_docs"]
    mpk = sm9.SignMasterPublicKey.from_der(
        bytes.fromhex("308185") + h(v["sign_master_public_key_BITSTRING"])
    )
    mpk.verify(
        h(v["signature_DER_valid_for_Alice_hid01_M_Chinese_IBS_standard"]),
        b"Chinese IBS standard",
        "Alice",
    )


def test_sm9_gmssl_cases(gmssl):
    assert len(gmssl["sm9"]) >= 10
    for c in gmssl["sm9"]:
        ident = h(c["id_hex"])
        msg = h(c["message_hex"])
        sk = c["sign_master_key"]
        kgc = sm9.SignMasterKey.from_der(h(sk["master_key_der_hex"]))
        assert kgc.to_bytes() == h(sk["ks_hex"])
        mpk = kgc.public_key()
        assert mpk.to_bytes() == h(sk["Ppubs_hex"])
        assert mpk.to_der() == h(sk["master_public_key_der_hex"])
        assert mpk.to_pem().decode() == sk["master_public_key_pem"]
        assert sm9.SignMasterPublicKey.from_pem(sk["master_public_key_pem"]) == mpk
        assert sm9.SignMasterKey.from_pem(sk["encrypted_pem"], password=sk["pem_password"]).to_bytes() == h(sk["ks_hex"])
        uk = c["sign_user_key"]
        user = kgc.extract(ident)
        assert user.to_bytes() == h(uk["ds_hex"])
        assert sm9.SignUserKey.from_der(h(uk["user_key_der_hex"])).to_bytes() == h(uk["ds_hex"])
        assert sm9.SignUserKey.from_pem(uk["encrypted_pem"], password=uk["pem_password"]).to_bytes() == h(uk["ds_hex"])
        sig = c["signature"]
        mpk.verify(h(sig["signature_der_hex"]), msg, ident)
        mpk.verify(h(sig["h_hex"]) + h(sig["S_hex"]), msg, ident, encoding="raw")
        ek = c["enc_master_key"]
        ekgc = sm9.EncMasterKey.from_der(h(ek["master_key_der_hex"]))
        assert ekgc.to_bytes() == h(ek["ke_hex"])
        assert ekgc.public_key().to_der() == h(ek["master_public_key_der_hex"])
        eu = c["enc_user_key"]
        bob = sm9.EncUserKey.from_der(h(eu["user_key_der_hex"]))
        assert bob.to_bytes() == h(eu["de_hex"]) == ekgc.extract(ident).to_bytes()
        xu = c["exch_user_key"]
        assert ekgc.extract_exchange(ident).to_bytes() == h(xu["de_hex"])
        enc = c["encryption"]
        # GmSSL encrypts the empty message too (one case); it decrypts to b"".
        assert bob.decrypt(h(enc["ciphertext_der_hex"]), ident, mac="gmssl") == msg
        with pytest.raises(smcrypto.DecryptionError):
            bob.decrypt(h(enc["ciphertext_der_hex"]), ident)
