//! Interoperability with Python peers (see /work/shared/PEERS.md):
//!
//! * `gmalg` 1.1.2 (pure Python, full SM9, standard MAC): signatures both ways, encryption both
//!   ways (raw C1 ‖ C3 ‖ C2), KEM, key exchange with either side as initiator (it has no SA/SB,
//!   so the session keys are compared). It is slow (≈ 4 signatures/s), so counts are small.
//! * SM4-CBC encryption mode, which no peer implements: gmalg's KEM + OpenSSL's `enc -sm4-cbc` +
//!   gmalg's SM3 composed into the mode, both ways.
//! * `gmssl-pyx` 2.1.0 (GmSSL 3.2): encryption keys in DER and password-encrypted PKCS#8,
//!   encryption both ways with GmSSL's HMAC-SM3 MAC and GM/T 0080 DER ciphertexts.
//! * The empty message: gmalg both ways (raw, standard MAC, 97 bytes); gmssl-pyx decrypts ours
//!   (DER, HMAC-SM3) but refuses to encrypt one (its own plaintext-length check; GmSSL's C
//!   library encrypts it, pinned by the GmSSL vectors in `kat_gmssl.rs`).
//!
//! The interpreter is `$SM_PEERS_PYTHON` (set by `cargo xtask test`); without it the test
//! creates `target/peers-venv` itself and installs the pinned peers there.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm9::{EncryptionMode, MacMode};

use sm_testvectors::peers::run_python as py;

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).unwrap()
}

#[test]
fn gmalg_signatures_both_ways() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let kgc = shangmi_sm9::SignMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let id = "alice@example.com".as_bytes();
    let msg = b"interop message \x00\x01\x02";
    let key = kgc.extract(id).unwrap();
    // gmalg derives the same user key, signs; we verify.
    let out = py(
        r#"
import sys, gmalg
ks, uid, msg, mpk = (bytes.fromhex(a) for a in sys.argv[1:5])
kgc = gmalg.SM9KGC(hid_s=b"\x01", msk_s=ks, mpk_s=mpk)
sk = kgc.generate_sk_sign(uid)
s = gmalg.SM9(hid_s=b"\x01", mpk_s=mpk, sk_s=sk, uid=uid)
h, S = s.sign(msg)
print(sk.hex()); print(h.hex()); print(S.hex())
"#,
        &[
            &hex::encode(kgc.to_bytes()),
            &hex::encode(id),
            &hex::encode(msg),
            &hex::encode(kgc.public_key().to_bytes()),
        ],
    );
    assert_eq!(unhex(&out[0]), key.ds_bytes().to_vec());
    let sig = shangmi_sm9::Signature::from_parts(&unhex(&out[1]), &unhex(&out[2])).unwrap();
    shangmi_sm9::verify(&master, id, msg, &sig).unwrap();
    // We sign; gmalg verifies (and rejects a tampered message).
    let sig = shangmi_sm9::sign(&key, &master, msg, &mut rng).unwrap();
    let out = py(
        r#"
import sys, gmalg
uid, msg, mpk, h, S = (bytes.fromhex(a) for a in sys.argv[1:6])
v = gmalg.SM9(hid_s=b"\x01", mpk_s=mpk, uid=uid)
print(v.verify(msg, h, S)); print(v.verify(msg + b"x", h, S))
"#,
        &[
            &hex::encode(id),
            &hex::encode(msg),
            &hex::encode(kgc.public_key().to_bytes()),
            &hex::encode(sig.h_bytes()),
            &hex::encode(sig.s_bytes()),
        ],
    );
    assert_eq!(out, ["True", "False"]);
}

#[test]
fn gmalg_encryption_kem_exchange() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let mpk = hex::encode(kgc.public_key().to_bytes());
    let bob = kgc.extract(b"Bob").unwrap();
    let bob_dk = bob.prepare();
    let msg = b"standard MAC interop";
    // gmalg encrypts (KDF stream, SM3 MAC), decapsulates our KEM, decrypts our ciphertext.
    let ct = shangmi_sm9::encrypt(
        &master,
        b"Bob",
        msg,
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &mut rng,
    )
    .unwrap();
    let (k, c) = shangmi_sm9::encapsulate(&master, b"Bob", 40, &mut rng).unwrap();
    let out = py(
        r#"
import sys, gmalg
ke, mpk, msg, ct, c = (bytes.fromhex(a) for a in sys.argv[1:6])
kgc = gmalg.SM9KGC(hid_e=b"\x03", msk_e=ke, mpk_e=mpk)
sk = kgc.generate_sk_encrypt(b"Bob")
bob = gmalg.SM9(hid_e=b"\x03", mpk_e=mpk, sk_e=sk, uid=b"Bob")
print(sk.hex())
print(bob.encrypt(msg, b"Bob").hex())
print(bob.decrypt(ct).hex())
print(bob.decapsulate(c, 40).hex())
K, C = bob.encapsulate(24, b"Bob"); print(K.hex()); print(C.hex())
"#,
        &[
            &hex::encode(kgc.to_bytes()),
            &mpk,
            &hex::encode(msg),
            &hex::encode(ct.to_bytes()),
            &hex::encode(c.to_bytes()),
        ],
    );
    assert_eq!(unhex(&out[0]), bob.de_bytes().to_vec());
    let theirs =
        shangmi_sm9::Ciphertext::from_bytes(EncryptionMode::KdfStream, &unhex(&out[1])).unwrap();
    assert_eq!(
        &shangmi_sm9::decrypt(&bob_dk, b"Bob", &theirs, MacMode::Sm3).unwrap()[..],
        msg
    );
    assert_eq!(unhex(&out[2]), msg);
    assert_eq!(unhex(&out[3]), k.to_vec());
    let c2 = shangmi_sm9::EncapsulatedKey::from_bytes(&unhex(&out[5])).unwrap();
    assert_eq!(
        shangmi_sm9::decapsulate(&bob_dk, b"Bob", &c2, 24)
            .unwrap()
            .to_vec(),
        unhex(&out[4])
    );

    // Key exchange: we are A (initiator), gmalg is B (responder); session keys agree.
    let alice = kgc.extract_exchange(b"Alice").unwrap().prepare();
    let (a, ra) =
        shangmi_sm9::Initiator::start(&alice, &master, b"Alice", b"Bob", &mut rng).unwrap();
    let out = py(
        r#"
import sys, gmalg
ke, mpk, ra = (bytes.fromhex(a) for a in sys.argv[1:4])
kgc = gmalg.SM9KGC(hid_e=b"\x02", msk_e=ke, mpk_e=mpk)
sk = kgc.generate_sk_encrypt(b"Bob")
bob = gmalg.SM9(hid_e=b"\x02", mpk_e=mpk, sk_e=sk, uid=b"Bob")
r, R = bob.begin_key_exchange(b"Alice")
print(R.hex())
print(bob.end_key_exchange(20, r, R, b"Alice", ra, gmalg.KEYXCHG_MODE.RESPONDER).hex())
"#,
        &[
            &hex::encode(kgc.to_bytes()),
            &mpk,
            &hex::encode(ra.to_bytes()),
        ],
    );
    let rb = shangmi_sm9::EphemeralPoint::from_bytes(&unhex(&out[0])).unwrap();
    let (ska, _sa) = a.finish(&rb, None, 20).unwrap();
    assert_eq!(ska.to_vec(), unhex(&out[1]));

    // The other direction: gmalg is A (initiator), we are B (responder).
    let gmalg_alice = r#"
import sys, gmalg
ke, mpk = (bytes.fromhex(a) for a in sys.argv[1:3])
kgc = gmalg.SM9KGC(hid_e=b"\x02", msk_e=ke, mpk_e=mpk)
alice = gmalg.SM9(hid_e=b"\x02", mpk_e=mpk, sk_e=kgc.generate_sk_encrypt(b"Alice"), uid=b"Alice")
"#;
    let ke = hex::encode(kgc.to_bytes());
    let out = py(
        &format!(
            "{gmalg_alice}r, R = alice.begin_key_exchange(b\"Bob\")\nprint(hex(r)); print(R.hex())"
        ),
        &[&ke, &mpk],
    );
    let (r, ra) = (&out[0], &out[1]);
    let bob = kgc.extract_exchange(b"Bob").unwrap().prepare();
    let ra_point = shangmi_sm9::EphemeralPoint::from_bytes(&unhex(ra)).unwrap();
    let (b, rb, _sb) =
        shangmi_sm9::Responder::respond(&bob, &master, b"Bob", b"Alice", &ra_point, &mut rng)
            .unwrap();
    let out = py(
        &format!(
            "{gmalg_alice}r, R, RB = int(sys.argv[3], 16), bytes.fromhex(sys.argv[4]), bytes.fromhex(sys.argv[5])
print(alice.end_key_exchange(20, r, R, b\"Bob\", RB, gmalg.KEYXCHG_MODE.INITIATOR).hex())"
        ),
        &[&ke, &mpk, r, ra, &hex::encode(rb.to_bytes())],
    );
    assert_eq!(b.finish_unconfirmed(20).unwrap().to_vec(), unhex(&out[0]));
}

/// SM9 encryption with SM4-CBC as the block cipher (GM/T 0044.4: K1 is the SM4 key; here C2 =
/// IV ‖ SM4-CBC(K1, IV, PKCS#7(M))) has no implementation elsewhere to compare with: gmalg, gmssl-pyx
/// (GmSSL 3), snowland-smx and the `sm9` crate encrypt with the KDF stream only. So the mode is
/// checked against an independent composition, both ways: gmalg's KEM gives K1 ‖ K2 for C1,
/// OpenSSL's `enc -sm4-cbc` is the block cipher, gmalg's SM3 computes C3 = SM3(C2 ‖ K2).
#[test]
fn sm4_cbc_mode_against_gmalg_kem_and_openssl_sm4() {
    let mut rng = ChaCha20Rng::seed_from_u64(4);
    let kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let bob_dk = kgc.extract(b"Bob").unwrap().prepare();
    let script = r#"
import os, subprocess, sys, gmalg
ke, mpk, ours, msg = (bytes.fromhex(a) for a in sys.argv[1:5])
kgc = gmalg.SM9KGC(hid_e=b"\x03", msk_e=ke, mpk_e=mpk)
bob = gmalg.SM9(hid_e=b"\x03", mpk_e=mpk, sk_e=kgc.generate_sk_encrypt(b"Bob"), uid=b"Bob")
def sm4_cbc(flag, key, iv, data):
    return subprocess.run(["openssl", "enc", flag, "-sm4-cbc", "-K", key.hex(), "-iv", iv.hex()],
                          input=data, capture_output=True, check=True).stdout
def sm3(data):
    h = gmalg.SM3(); h.update(data); return h.value()
# Ours: C1 (65 bytes) ‖ C3 ‖ C2; K = K1 (16) ‖ K2 (32).
C1, C3, C2 = ours[:65], ours[65:97], ours[97:]
K = bob.decapsulate(C1, 48)
print(sm3(C2 + K[16:]).hex())
print(sm4_cbc("-d", K[:16], C2[:16], C2[16:]).hex())
# Theirs: gmalg's KEM, OpenSSL's SM4-CBC with a fresh IV, gmalg's SM3.
K, C1 = bob.encapsulate(48, b"Bob")
iv = os.urandom(16)
C2 = iv + sm4_cbc("-e", K[:16], iv, msg)
print((C1 + sm3(C2 + K[16:]) + C2).hex())
"#;
    for len in [1, 15, 16, 17, 100] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7 + len) as u8).collect();
        let ours = shangmi_sm9::encrypt(
            &master,
            b"Bob",
            &msg,
            EncryptionMode::Sm4Cbc,
            MacMode::Sm3,
            &mut rng,
        )
        .unwrap()
        .to_bytes();
        let out = py(
            script,
            &[
                &hex::encode(kgc.to_bytes()),
                &hex::encode(kgc.public_key().to_bytes()),
                &hex::encode(&ours),
                &hex::encode(&msg),
            ],
        );
        assert_eq!(
            unhex(&out[0]),
            &ours[65..97],
            "C3 of our ciphertext, {len} bytes"
        );
        assert_eq!(unhex(&out[1]), msg, "OpenSSL decrypts our C2, {len} bytes");
        let theirs = unhex(&out[2]);
        let ct = shangmi_sm9::Ciphertext::from_bytes(EncryptionMode::Sm4Cbc, &theirs).unwrap();
        assert_eq!(
            &shangmi_sm9::decrypt(&bob_dk, b"Bob", &ct, MacMode::Sm3).unwrap()[..],
            msg,
            "their ciphertext, {len} bytes"
        );
        // The same bytes with GmSSL's MAC are refused.
        assert_eq!(
            shangmi_sm9::decrypt(&bob_dk, b"Bob", &ct, MacMode::HmacSm3).unwrap_err(),
            shangmi_sm9::Error::Decryption
        );
    }
}

#[test]
fn gmssl_pyx_keys_and_encryption() {
    let mut rng = ChaCha20Rng::seed_from_u64(3);
    // GmSSL generates the master key and the user key; we read them.
    let out = py(
        r#"
from gmssl_pyx import SM9MasterKey
m = SM9MasterKey.generate()
k = m.extract_key(b"Bob")
print(m.to_der().hex()); print(m.public_key().to_der().hex()); print(k.to_der().hex())
print(m.public_key().encrypt(b"Bob", b"from GmSSL").hex())
print(k.encrypt_to_der("secret pw").hex())
"#,
        &[],
    );
    let kgc = shangmi_sm9::EncMasterKey::from_der(&unhex(&out[0])).unwrap();
    assert_eq!(kgc.to_der().unwrap().to_vec(), unhex(&out[0]));
    let mpk = shangmi_sm9::EncMasterPublicKey::from_der(&unhex(&out[1])).unwrap();
    assert_eq!(&mpk, kgc.public_key());
    let bob = shangmi_sm9::EncUserKey::from_der(&unhex(&out[2])).unwrap();
    assert_eq!(bob.de_bytes(), kgc.extract(b"Bob").unwrap().de_bytes());
    let bob_dk = bob.prepare();
    let ct = shangmi_sm9::Ciphertext::from_der(&unhex(&out[3])).unwrap();
    assert_eq!(
        &shangmi_sm9::decrypt(&bob_dk, b"Bob", &ct, MacMode::HmacSm3).unwrap()[..],
        b"from GmSSL"
    );
    assert_eq!(
        shangmi_sm9::decrypt(&bob_dk, b"Bob", &ct, MacMode::Sm3).unwrap_err(),
        shangmi_sm9::Error::Decryption
    );
    let enc =
        shangmi_sm9::EncUserKey::from_encrypted_pkcs8_der(&unhex(&out[4]), b"secret pw").unwrap();
    assert_eq!(enc.de_bytes(), bob.de_bytes());

    // We encrypt (GmSSL MAC) and export keys; GmSSL reads and decrypts.
    let master = mpk.prepare();
    let ours = shangmi_sm9::encrypt(
        &master,
        b"Bob",
        b"from Rust",
        EncryptionMode::KdfStream,
        MacMode::HmacSm3,
        &mut rng,
    )
    .unwrap();
    let kgc2 = shangmi_sm9::EncMasterKey::generate(&mut rng);
    let carol = kgc2.extract(b"Carol").unwrap();
    let carol_ct = shangmi_sm9::encrypt(
        &kgc2.public_key().prepare(),
        b"Carol",
        b"to Carol",
        EncryptionMode::KdfStream,
        MacMode::HmacSm3,
        &mut rng,
    )
    .unwrap();
    let out = py(
        r#"
import sys
from gmssl_pyx import SM9PrivateKey, SM9MasterKey
key, ct, mk, carol_enc, carol_ct = (bytes.fromhex(a) for a in sys.argv[1:6])
print(SM9PrivateKey.from_der(key).decrypt(b"Bob", ct).hex())
m = SM9MasterKey.from_der(mk)
print(m.public_key().to_der().hex())
c = SM9PrivateKey.decrypt_from_der("pw2", carol_enc)
print(c.decrypt(b"Carol", carol_ct).hex())
"#,
        &[
            &hex::encode(bob.to_der().unwrap()),
            &hex::encode(ours.to_der().unwrap()),
            &hex::encode(kgc2.to_der().unwrap()),
            &hex::encode(carol.to_encrypted_pkcs8_der(b"pw2", &mut rng).unwrap()),
            &hex::encode(carol_ct.to_der().unwrap()),
        ],
    );
    assert_eq!(unhex(&out[0]), b"from Rust");
    assert_eq!(unhex(&out[1]), kgc2.public_key().to_der().unwrap());
    assert_eq!(unhex(&out[2]), b"to Carol");
}

#[test]
fn empty_message_with_gmalg_and_gmssl_pyx() {
    let mut rng = ChaCha20Rng::seed_from_u64(7);
    let kgc = shangmi_sm9::EncMasterKey::generate(&mut rng);
    let master = kgc.public_key().prepare();
    let bob = kgc.extract(b"Bob").unwrap();
    let bob_dk = bob.prepare();
    let ours_std = shangmi_sm9::encrypt(
        &master,
        b"Bob",
        b"",
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &mut rng,
    )
    .unwrap();
    assert_eq!(ours_std.to_bytes().len(), 97);
    let ours_gm = shangmi_sm9::encrypt(
        &master,
        b"Bob",
        b"",
        EncryptionMode::KdfStream,
        MacMode::HmacSm3,
        &mut rng,
    )
    .unwrap();
    // A ciphertext of a one-byte message with its C2 cut off must not decrypt to b"" there.
    let one = shangmi_sm9::encrypt(
        &master,
        b"Bob",
        b"x",
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &mut rng,
    )
    .unwrap();
    let cut = &one.to_bytes()[..97];
    let out = py(
        r#"
import sys, gmalg
from gmssl_pyx import SM9PrivateKey, SM9MasterKey
ke, mpk, ct_std, ct_gm, key_der, cut = (bytes.fromhex(a) for a in sys.argv[1:7])
kgc = gmalg.SM9KGC(hid_e=b"\x03", msk_e=ke, mpk_e=mpk)
bob = gmalg.SM9(hid_e=b"\x03", mpk_e=mpk, sk_e=kgc.generate_sk_encrypt(b"Bob"), uid=b"Bob")
print("gmalg-dec=" + bob.decrypt(ct_std).hex())
print("gmalg-enc=" + bob.encrypt(b"", b"Bob").hex())
try:
    print("gmalg-cut=" + bob.decrypt(cut).hex())
except Exception:
    print("gmalg-cut=refused")
print("pyx-dec=" + SM9PrivateKey.from_der(key_der).decrypt(b"Bob", ct_gm).hex())
try:
    SM9MasterKey.generate().public_key().encrypt(b"Bob", b"")
    print("pyx-enc=accepted")
except Exception:
    print("pyx-enc=refused")
"#,
        &[
            &hex::encode(kgc.to_bytes()),
            &hex::encode(kgc.public_key().to_bytes()),
            &hex::encode(ours_std.to_bytes()),
            &hex::encode(ours_gm.to_der().unwrap()),
            &hex::encode(bob.to_der().unwrap()),
            &hex::encode(cut),
        ],
    );
    assert_eq!(out[0], "gmalg-dec=");
    let theirs = out[1].strip_prefix("gmalg-enc=").unwrap();
    let theirs =
        shangmi_sm9::Ciphertext::from_bytes(EncryptionMode::KdfStream, &unhex(theirs)).unwrap();
    assert!(theirs.c2().is_empty());
    assert!(shangmi_sm9::decrypt(&bob_dk, b"Bob", &theirs, MacMode::Sm3)
        .unwrap()
        .is_empty());
    assert_eq!(out[2], "gmalg-cut=refused");
    let cut = shangmi_sm9::Ciphertext::from_bytes(EncryptionMode::KdfStream, cut).unwrap();
    assert_eq!(
        shangmi_sm9::decrypt(&bob_dk, b"Bob", &cut, MacMode::Sm3).unwrap_err(),
        shangmi_sm9::Error::Decryption
    );
    assert_eq!(out[3], "pyx-dec=");
    assert_eq!(out[4], "pyx-enc=refused");
}
