//! SM9: master keys, user key extraction and parsing, signing, decryption, decapsulation,
//! encryption/encapsulation nonces, key exchange on both sides, on the backend `B`
//! (`sm9::generic`'s key types; the protocol functions are generic).
//!
//! The KGC is played in two ways: for the master-key operations its master secret is the
//! secret under test; for the user-key operations the harness runs a KGC in the clear and the
//! user key becomes secret when the user *imports* it (`from_parts` on classified bytes), so
//! user-key parsing is checked as part of every user operation.

use sm9::generic::{
    Ciphertext, EncMasterKey, EncMasterPublicKey, EncUserKey, EncapsulatedKey, ExchangeUserKey,
    Initiator, SignMasterKey, SignMasterPublicKey, SignUserKey, Signature,
};
use sm9::{EncryptionMode, MacMode};
use sm_field::Backend;

use crate::marks::{classify, declassify};
use crate::sm2_ops::classify_part;
use crate::{ensure, public_rng, Op, Prepared, Secret};

const MSG: &[u8] = b"constant-time check message";

fn public_copy(s: &Secret) -> [u8; 32] {
    let k = s.key;
    declassify(&k); // HARNESS: the clear-text KGC's master key.
    k
}

fn sign_master<B: Backend>(s: &Secret) -> SignMasterKey<B> {
    let kgc = SignMasterKey::<B>::from_bytes(&s.key).expect("1 <= key < n");
    declassify(kgc.public_key()); // DECLASSIFY: Ppub-s is published.
    kgc
}

fn enc_master<B: Backend>(s: &Secret) -> EncMasterKey<B> {
    let kgc = EncMasterKey::<B>::from_bytes(&s.key).expect("1 <= key < n");
    declassify(kgc.public_key()); // DECLASSIFY: Ppub-e is published.
    kgc
}

/// Alice's signing key, imported from classified bytes; the KGC is public.
fn imported_sign_key<B: Backend>(s: &Secret) -> (SignUserKey<B>, SignMasterPublicKey<B>) {
    let kgc = SignMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let ds = kgc.extract(b"Alice").expect("extract").ds_bytes();
    classify(&ds[1..]);
    let key = SignUserKey::<B>::from_parts(&ds[..], kgc.public_key()).expect("import");
    (key, *kgc.public_key())
}

/// `id`'s encryption (or exchange) key bytes, classified; the KGC is public.
fn imported_de<B: Backend>(
    s: &Secret,
    id: &[u8],
    exchange: bool,
) -> (Vec<u8>, EncMasterPublicKey<B>) {
    let kgc = EncMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let de = if exchange {
        kgc.extract_exchange(id).expect("extract").de_bytes()
    } else {
        kgc.extract(id).expect("extract").de_bytes()
    };
    let de = de.to_vec();
    classify(&de[1..]);
    (de, *kgc.public_key())
}

fn master_from_bytes<B: Backend>(s: &Secret, enc: bool) -> Prepared {
    let key = s.key;
    Prepared::new(
        move || {
            if enc {
                let k = EncMasterKey::<B>::from_bytes(&key).expect("valid");
                declassify(k.public_key()); // DECLASSIFY: Ppub-e.
                k.public_key().to_bytes().to_vec()
            } else {
                let k = SignMasterKey::<B>::from_bytes(&key).expect("valid");
                declassify(k.public_key()); // DECLASSIFY: Ppub-s.
                k.public_key().to_bytes().to_vec()
            }
        },
        move |s, out| {
            let want = if enc {
                EncMasterKey::<B>::from_bytes(&s.key)
                    .expect("valid")
                    .public_key()
                    .to_bytes()
                    .to_vec()
            } else {
                SignMasterKey::<B>::from_bytes(&s.key)
                    .expect("valid")
                    .public_key()
                    .to_bytes()
                    .to_vec()
            };
            ensure(out == want, "master public key differs")
        },
    )
}

fn master_generate<B: Backend>(s: &Secret) -> Prepared {
    let s = s.clone();
    Prepared::new(
        move || {
            let k = SignMasterKey::<B>::generate(&mut s.rng());
            declassify(k.public_key()); // DECLASSIFY: Ppub-s.
            [&k.to_bytes()[..], &k.public_key().to_bytes()[..]].concat()
        },
        |_, out| {
            let k = SignMasterKey::<B>::from_bytes(out[..32].try_into().map_err(|_| "len")?)
                .map_err(|e| e.to_string())?;
            ensure(out[32..] == k.public_key().to_bytes(), "Ppub-s ≠ ks·P2")
        },
    )
}

fn extract_sign<B: Backend>(s: &Secret) -> Prepared {
    let kgc = sign_master::<B>(s);
    Prepared::new(
        move || kgc.extract(b"Alice").expect("extract").ds_bytes().to_vec(),
        |s, out| {
            let want = SignMasterKey::<B>::from_bytes(&s.key)
                .expect("valid")
                .extract(b"Alice");
            ensure(out == &want.expect("extract").ds_bytes()[..], "ds differs")
        },
    )
}

fn extract_enc<B: Backend>(s: &Secret, exchange: bool) -> Prepared {
    let kgc = enc_master::<B>(s);
    Prepared::new(
        move || {
            if exchange {
                kgc.extract_exchange(b"Bob")
                    .expect("extract")
                    .de_bytes()
                    .to_vec()
            } else {
                kgc.extract(b"Bob").expect("extract").de_bytes().to_vec()
            }
        },
        move |s, out| {
            let kgc = EncMasterKey::<B>::from_bytes(&s.key).expect("valid");
            let want = if exchange {
                kgc.extract_exchange(b"Bob").expect("extract").de_bytes()
            } else {
                kgc.extract(b"Bob").expect("extract").de_bytes()
            };
            ensure(out == &want[..], "de differs")
        },
    )
}

fn sign<B: Backend>(s: &Secret) -> Prepared {
    let (alice, master) = imported_sign_key::<B>(s);
    let prepared = master.prepare();
    let s = s.clone();
    Prepared::new(
        move || {
            let sig = sm9::sign(&alice, &prepared, MSG, &mut s.rng()).expect("sign");
            sig.to_bytes().to_vec()
        },
        move |_, out| {
            let sig = Signature::<B>::from_bytes(out).map_err(|e| e.to_string())?;
            ensure(
                sm9::verify(&master.prepare(), b"Alice", MSG, &sig).is_ok(),
                "signature does not verify",
            )
        },
    )
}

fn import_sign_key<B: Backend>(s: &Secret) -> Prepared {
    let kgc = SignMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let alice = kgc.extract(b"Alice").expect("extract");
    let ds = alice.ds_bytes();
    let der = classify_part(alice.to_der().expect("der").to_vec(), &ds[1..]);
    Prepared::new(
        move || {
            SignUserKey::<B>::from_der(&der)
                .expect("decode")
                .ds_bytes()
                .to_vec()
        },
        move |_, out| ensure(out == &ds[..], "ds differs"),
    )
}

fn import_master_key<B: Backend>(s: &Secret) -> Prepared {
    let kgc = SignMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let ks = kgc.to_bytes();
    let first = ks.iter().position(|&b| b != 0).unwrap_or(31);
    let der = classify_part(kgc.to_der().expect("der").to_vec(), &ks[first..]);
    Prepared::new(
        move || {
            let k = SignMasterKey::<B>::from_der(&der).expect("decode");
            declassify(k.public_key()); // DECLASSIFY: Ppub-s.
            k.to_bytes().to_vec()
        },
        |s, out| ensure(out == s.key, "ks differs"),
    )
}

fn import_encrypted_user_key<B: Backend>(s: &Secret) -> Prepared {
    let kgc = EncMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let bob = kgc.extract(b"Bob").expect("extract");
    let password = s.seed;
    let public_password = password;
    declassify(&public_password); // HARNESS: to build the encrypted document.
    let der = bob
        .to_encrypted_pkcs8_der_with(&public_password, &[7; 16], &[9; 16], 16)
        .expect("encode");
    let de = bob.de_bytes();
    Prepared::new(
        move || {
            EncUserKey::<B>::from_encrypted_pkcs8_der(&der, &password)
                .expect("decode")
                .de_bytes()
                .to_vec()
        },
        move |_, out| ensure(out == &de[..], "de differs"),
    )
}

/// Decryption of a ciphertext in `mode` with `sm9::decrypt`, or (`in_place`) of its DER form
/// with `sm9::decrypt_der_in_place`.
fn decrypt<B: Backend>(s: &Secret, mode: EncryptionMode, in_place: bool) -> Prepared {
    let (de, master) = imported_de::<B>(s, b"Bob", false);
    let prepared = master.prepare();
    let ct = sm9::encrypt(
        &prepared,
        b"Bob",
        MSG,
        mode,
        MacMode::Sm3,
        &mut public_rng(4),
    )
    .expect("encrypt");
    let der = ct.to_der().expect("encode");
    Prepared::new(
        move || {
            let bob = EncUserKey::<B>::from_parts(&de, &master).expect("import");
            let key = bob.prepare();
            // DECLASSIFY (right after decryption, before the length is used): the plaintext's
            // length is published (for the SM4 modes it is the ciphertext length minus the
            // padding, which the constant-time SM4 leaves secret).
            if in_place {
                let mut buf = der.clone();
                sm9::decrypt_der_in_place(&key, b"Bob", &mut buf, MacMode::Sm3).expect("decrypt");
                declassify::<Vec<u8>>(&buf);
                buf
            } else {
                let plain = sm9::decrypt(&key, b"Bob", &ct, MacMode::Sm3).expect("decrypt");
                declassify::<Vec<u8>>(&plain);
                plain.to_vec()
            }
        },
        |_, out| ensure(out == MSG, "wrong plaintext"),
    )
}

fn decapsulate<B: Backend>(s: &Secret) -> Prepared {
    let (de, master) = imported_de::<B>(s, b"Bob", false);
    let prepared = master.prepare();
    let (want, c) = sm9::encapsulate(&prepared, b"Bob", 32, &mut public_rng(5)).expect("kem");
    let want = want.to_vec();
    Prepared::new(
        move || {
            let bob = EncUserKey::<B>::from_parts(&de, &master).expect("import");
            let key = bob.prepare();
            sm9::decapsulate(&key, b"Bob", &c, 32)
                .expect("decapsulate")
                .to_vec()
        },
        move |_, out| ensure(out == want, "wrong key"),
    )
}

fn public_enc_kgc<B: Backend>() -> EncMasterKey<B> {
    EncMasterKey::<B>::from_bytes(&[0x11; 32]).expect("valid")
}

fn encrypt<B: Backend>(s: &Secret) -> Prepared {
    let kgc = public_enc_kgc::<B>();
    let prepared = kgc.public_key().prepare();
    let s = s.clone();
    Prepared::new(
        move || {
            let c = sm9::encrypt(
                &prepared,
                b"Bob",
                MSG,
                EncryptionMode::Sm4Cbc,
                MacMode::Sm3,
                &mut s.rng(),
            )
            .expect("encrypt");
            c.to_der().expect("der")
        },
        move |_, out| {
            let bob = kgc.extract(b"Bob").expect("extract").prepare();
            let c = Ciphertext::<B>::from_der(out).map_err(|e| e.to_string())?;
            let m = sm9::decrypt(&bob, b"Bob", &c, MacMode::Sm3);
            ensure(m.is_ok_and(|m| &m[..] == MSG), "does not decrypt")
        },
    )
}

fn encapsulate<B: Backend>(s: &Secret) -> Prepared {
    let kgc = public_enc_kgc::<B>();
    let prepared = kgc.public_key().prepare();
    let s = s.clone();
    Prepared::new(
        move || {
            let (k, c) = sm9::encapsulate(&prepared, b"Bob", 32, &mut s.rng()).expect("kem");
            [&k[..], &c.to_bytes()[..]].concat()
        },
        move |_, out| {
            let bob = kgc.extract(b"Bob").expect("extract").prepare();
            let c = EncapsulatedKey::<B>::from_bytes(&out[32..]).map_err(|e| e.to_string())?;
            let k = sm9::decapsulate(&bob, b"Bob", &c, 32).map_err(|e| e.to_string())?;
            ensure(k[..] == out[..32], "keys differ")
        },
    )
}

/// One side's key secret (imported), the other side public; the secret side's nonce comes
/// from the secret seed. Setup runs the protocol once (same seeds, same messages) so the timed
/// part holds only the secret side's own steps.
fn exchange<B: Backend>(s: &Secret, initiator_secret: bool) -> Prepared {
    let (de, master) = imported_de::<B>(s, if initiator_secret { b"Alice" } else { b"Bob" }, true);
    let kgc = EncMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let other = kgc
        .extract_exchange(if initiator_secret { b"Bob" } else { b"Alice" })
        .expect("extract")
        .prepare();
    let prepared = master.prepare();
    let mine = ExchangeUserKey::<B>::from_parts(&de, &master)
        .expect("import")
        .prepare();
    let s = s.clone();
    let prepared2 = master.prepare();
    if initiator_secret {
        let (alice, ra) =
            Initiator::<B>::start(&mine, &prepared, b"Alice", b"Bob", &mut s.rng()).expect("start");
        declassify(&ra); // DECLASSIFY: R_A is sent.
        let (bob, rb, sb) = sm9::Responder::respond(
            &other,
            &prepared2,
            b"Bob",
            b"Alice",
            &ra,
            &mut public_rng(6),
        )
        .expect("respond");
        let (_, sa) = alice.finish(&rb, Some(&sb), 16).expect("finish");
        declassify(&sa); // DECLASSIFY: S_A is sent.
        let key_b = bob.confirm(&sa, 16).expect("confirm").to_vec();
        Prepared::new(
            move || {
                let (alice, ra) =
                    Initiator::<B>::start(&mine, &prepared, b"Alice", b"Bob", &mut s.rng())
                        .expect("start");
                declassify(&ra); // DECLASSIFY: R_A is sent.
                let (key_a, sa) = alice.finish(&rb, Some(&sb), 16).expect("finish");
                declassify(&sa); // DECLASSIFY: S_A is sent.
                key_a.to_vec()
            },
            move |_, out| ensure(out == key_b, "keys differ"),
        )
    } else {
        let (alice, ra) =
            Initiator::<B>::start(&other, &prepared, b"Alice", b"Bob", &mut public_rng(6))
                .expect("start");
        let (_, rb, sb) =
            sm9::Responder::respond(&mine, &prepared2, b"Bob", b"Alice", &ra, &mut s.rng())
                .expect("respond");
        // DECLASSIFY: R_B and S_B are sent.
        declassify(&rb);
        declassify(&sb);
        let (key_a, sa) = alice.finish(&rb, Some(&sb), 16).expect("finish");
        let key_a = key_a.to_vec();
        Prepared::new(
            move || {
                let (bob, rb, sb) =
                    sm9::Responder::respond(&mine, &prepared2, b"Bob", b"Alice", &ra, &mut s.rng())
                        .expect("respond");
                // DECLASSIFY: R_B and S_B are sent.
                declassify(&rb);
                declassify(&sb);
                bob.confirm(&sa, 16).expect("confirm").to_vec()
            },
            move |_, out| ensure(out == key_a, "keys differ"),
        )
    }
}

pub(crate) fn ops<B: Backend>() -> Vec<Op> {
    let op = Op::secret;
    vec![
        op(
            "sm9.master.sign_from_bytes",
            "ks; computes Ppub-s = ks·P2",
            (|s| master_from_bytes::<B>(s, false)) as fn(&Secret) -> Prepared,
            true,
        ),
        op(
            "sm9.master.enc_from_bytes",
            "ke; computes Ppub-e = ke·P1",
            |s| master_from_bytes::<B>(s, true),
            true,
        ),
        op(
            "sm9.master.generate",
            "RNG output",
            master_generate::<B>,
            true,
        ),
        op(
            "sm9.master.from_der",
            "ks inside DER",
            import_master_key::<B>,
            true,
        ),
        op(
            "sm9.extract.sign",
            "ks (t1, t2, ds)",
            extract_sign::<B>,
            true,
        ),
        op(
            "sm9.extract.enc",
            "ke (t1, t2, de)",
            |s| extract_enc::<B>(s, false),
            true,
        ),
        op(
            "sm9.extract.exchange",
            "ke (exchange key)",
            |s| extract_enc::<B>(s, true),
            true,
        ),
        op(
            "sm9.user_key.sign_from_der",
            "ds inside DER",
            import_sign_key::<B>,
            true,
        ),
        op(
            "sm9.user_key.enc_encrypted_pkcs8",
            "password (PBKDF2, SM4-CBC)",
            import_encrypted_user_key::<B>,
            true,
        ),
        op("sm9.sign", "ds (imported), nonce r", sign::<B>, false),
        op(
            "sm9.decrypt.kdf_stream",
            "de (imported, prepared)",
            |s| decrypt::<B>(s, EncryptionMode::KdfStream, false),
            false,
        ),
        op(
            "sm9.decrypt.sm4_cbc",
            "de (imported, prepared)",
            |s| decrypt::<B>(s, EncryptionMode::Sm4Cbc, false),
            false,
        ),
        op(
            "sm9.decrypt_in_place.kdf_stream",
            "de (imported, prepared); DER decrypted in place",
            |s| decrypt::<B>(s, EncryptionMode::KdfStream, true),
            false,
        ),
        op(
            "sm9.decrypt_in_place.sm4_cbc",
            "de (imported, prepared); DER decrypted in place",
            |s| decrypt::<B>(s, EncryptionMode::Sm4Cbc, true),
            false,
        ),
        op(
            "sm9.decrypt_in_place.sm4_ecb",
            "de (imported, prepared); DER decrypted in place",
            |s| decrypt::<B>(s, EncryptionMode::Sm4Ecb, true),
            false,
        ),
        op(
            "sm9.decapsulate",
            "de (imported, prepared)",
            decapsulate::<B>,
            false,
        ),
        op("sm9.encrypt", "nonce r, IV", encrypt::<B>, false),
        op("sm9.encapsulate", "nonce r", encapsulate::<B>, false),
        op(
            "sm9.exchange.initiator",
            "de_A (imported), r_A",
            |s| exchange::<B>(s, true),
            false,
        ),
        op(
            "sm9.exchange.responder",
            "de_B (imported), r_B",
            |s| exchange::<B>(s, false),
            false,
        ),
    ]
}
