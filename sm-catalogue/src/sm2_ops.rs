//! SM2: key parsing and generation, signing, decryption (and encryption's secret nonce), key
//! exchange on both sides, on the backend `B` (`sm2::generic`'s key types).

use sm2::exchange::{Initiator, Responder};
use sm2::generic::{PublicKey, SecretKey, SigningKey, VerifyingKey};
use sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use sm2::Mode;
use sm_field::Backend;

use crate::marks::{classify, declassify};
use crate::{ensure, public_rng, Op, Prepared, Secret};

const MSG: &[u8] = b"constant-time check message";

/// The secret key of `s`, with its public key declassified.
fn secret_key<B: Backend>(s: &Secret) -> SecretKey<B> {
    let sk = SecretKey::<B>::from_bytes(&s.key).expect("1 <= key < 2^255");
    // DECLASSIFY: the public key P = d·G is published.
    declassify(sk.public_key());
    sk
}

/// The key the harness recomputes in the clear for output checks.
fn clear_key<B: Backend>(s: &Secret) -> SecretKey<B> {
    SecretKey::<B>::from_bytes(&s.key).expect("valid")
}

/// A fixed public peer key (the other side of exchanges, the recipient of encryptions).
fn peer_key<B: Backend>() -> SecretKey<B> {
    SecretKey::<B>::from_bytes(&[0x42; 32]).expect("valid")
}

/// `template` with the first occurrence of `part` re-marked secret (the harness builds
/// encodings from a public copy of the key, then hands the secret bytes inside back to memcheck).
pub(super) fn classify_part(template: Vec<u8>, part: &[u8]) -> Vec<u8> {
    let at = template
        .windows(part.len())
        .position(|w| w == part)
        .expect("secret bytes occur in the encoding");
    classify(&template[at..at + part.len()]);
    template
}

/// A public copy of the key bytes, only for building encodings in setup.
fn public_copy(s: &Secret) -> [u8; 32] {
    let k = s.key;
    // HARNESS: a copy for building the encoding template; the key bytes in the template are
    // classified again by `classify_part`.
    declassify(&k);
    k
}

fn key_from_bytes<B: Backend>(s: &Secret) -> Prepared {
    let bytes = s.key;
    Prepared::new(
        move || {
            let sk = SecretKey::<B>::from_bytes(&bytes).expect("valid");
            declassify(sk.public_key()); // DECLASSIFY: public key.
            [&sk.to_bytes()[..], &sk.public_key().to_uncompressed()[..]].concat()
        },
        |s, out| {
            let sk = clear_key::<B>(s);
            ensure(
                out == [&s.key[..], &sk.public_key().to_uncompressed()[..]].concat(),
                "key/public key mismatch",
            )
        },
    )
}

fn keygen<B: Backend>(s: &Secret) -> Prepared {
    let s = s.clone();
    Prepared::new(
        move || {
            let sk = SecretKey::<B>::random(&mut s.rng());
            declassify(sk.public_key()); // DECLASSIFY: public key.
            [&sk.to_bytes()[..], &sk.public_key().to_uncompressed()[..]].concat()
        },
        |_, out| {
            let d: [u8; 32] = out[..32].try_into().map_err(|_| "len")?;
            let sk = SecretKey::<B>::from_bytes(&d).map_err(|e| e.to_string())?;
            ensure(out[32..] == sk.public_key().to_uncompressed(), "P ≠ d·G")
        },
    )
}

fn parse_with<B: Backend>(
    s: &Secret,
    encode: fn(&SecretKey<B>) -> Vec<u8>,
    decode: fn(&[u8]) -> SecretKey<B>,
) -> Prepared {
    let clear = SecretKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let encoded = classify_part(encode(&clear), &clear.to_bytes()[..]);
    Prepared::new(
        move || {
            let sk = decode(&encoded);
            declassify(sk.public_key()); // DECLASSIFY: public key.
            sk.to_bytes().to_vec()
        },
        |s, out| ensure(out == s.key, "decoded key differs"),
    )
}

fn parse_pkcs8_der<B: Backend>(s: &Secret) -> Prepared {
    parse_with(
        s,
        |k| k.to_pkcs8_der().expect("encode").as_bytes().to_vec(),
        |d| SecretKey::<B>::from_pkcs8_der(d).expect("decode"),
    )
}

fn parse_sec1_der<B: Backend>(s: &Secret) -> Prepared {
    parse_with(
        s,
        |k| k.to_sec1_der().expect("encode").to_vec(),
        |d| SecretKey::<B>::from_sec1_der(d).expect("decode"),
    )
}

fn parse_pkcs8_pem<B: Backend>(s: &Secret) -> Prepared {
    // The secret characters are those whose 6 bits come only from key bytes: base64 maps
    // bytes 3j..3j+3 to characters 4j..4j+4, so the whole 3-byte groups inside the key's
    // span in the DER are classified; the armour, line breaks and framing stay public.
    let clear = SecretKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let der = clear.to_pkcs8_der().expect("encode").as_bytes().to_vec();
    let d = clear.to_bytes();
    let at = der
        .windows(32)
        .position(|w| w == &d[..])
        .expect("key in DER");
    let pem = clear
        .to_pkcs8_pem(LineEnding::LF)
        .expect("encode")
        .to_string();
    let body_start = pem.find('\n').expect("header line") + 1;
    let (first_group, end_group) = (at.div_ceil(3), (at + 32) / 3);
    for c in 4 * first_group..4 * end_group {
        // 64 characters per line, each line ended by LF.
        let pos = body_start + c + c / 64;
        classify(&pem.as_bytes()[pos..pos + 1]);
    }
    Prepared::new(
        move || {
            let sk = SecretKey::<B>::from_pkcs8_pem(&pem).expect("decode");
            declassify(sk.public_key()); // DECLASSIFY: public key.
            sk.to_bytes().to_vec()
        },
        |s, out| ensure(out == s.key, "decoded key differs"),
    )
}

/// Encrypted PKCS#8: the password is the secret (and the key it protects).
fn parse_encrypted_pkcs8<B: Backend>(s: &Secret) -> Prepared {
    let clear = SecretKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let password = s.seed;
    let mut public_password = password;
    declassify(&public_password); // HARNESS: to build the encrypted document.
    let der = clear
        .to_pkcs8_encrypted_der_with_params(&public_password, &[7; 16], &[9; 16], 16)
        .expect("encode");
    public_password.fill(0);
    Prepared::new(
        move || {
            let sk = SecretKey::<B>::from_pkcs8_encrypted_der(&der, &password).expect("decode");
            declassify(sk.public_key()); // DECLASSIFY: public key.
            sk.to_bytes().to_vec()
        },
        |s, out| ensure(out == s.key, "decrypted key differs"),
    )
}

fn sign_with<B: Backend>(s: &Secret, how: u8) -> Prepared {
    let sk = secret_key::<B>(s);
    let signer = SigningKey::<B>::new(&sk);
    // DECLASSIFY: the verifying key is the public key and its Z_A.
    declassify(signer.verifying_key());
    let s = s.clone();
    Prepared::new(
        move || {
            let mut rng = s.rng();
            let sig = match how {
                0 => signer.sign_with_rng(&mut rng, MSG),
                1 => signer.sign_hedged(&mut rng, MSG),
                _ => signer.sign_deterministic(MSG),
            };
            sig.to_bytes().to_vec()
        },
        |s, out| {
            let vk = VerifyingKey::<B>::new(clear_key::<B>(s).public_key());
            let sig = sm2::Signature::from_bytes(out).map_err(|e| e.to_string())?;
            ensure(vk.verify(MSG, &sig).is_ok(), "signature does not verify")
        },
    )
}

/// Decryption of C1C3C2 or (`der`) GM/T 0009 DER, with the allocating functions or
/// (`in_place`) the in-place ones.
fn decrypt_with<B: Backend>(s: &Secret, der: bool, in_place: bool) -> Prepared {
    let sk = secret_key::<B>(s);
    let pk: PublicKey<B> = *sk.public_key();
    let ct = if der {
        pk.encrypt_der(&mut public_rng(1), MSG)
    } else {
        pk.encrypt(&mut public_rng(1), MSG, Mode::C1C3C2)
    }
    .expect("encrypt");
    Prepared::new(
        move || match (der, in_place) {
            (true, false) => sk.decrypt_der(&ct).expect("decrypts").to_vec(),
            (false, false) => sk.decrypt(&ct, Mode::C1C3C2).expect("decrypts").to_vec(),
            (true, true) => {
                let mut buf = ct.clone();
                sk.decrypt_der_in_place(&mut buf).expect("decrypts");
                buf
            }
            (false, true) => {
                let mut buf = ct.clone();
                sk.decrypt_in_place(&mut buf, Mode::C1C3C2)
                    .expect("decrypts");
                buf
            }
        },
        |_, out| ensure(out == MSG, "wrong plaintext"),
    )
}

fn encrypt<B: Backend>(s: &Secret) -> Prepared {
    let recipient = peer_key::<B>();
    let pk: PublicKey<B> = *recipient.public_key();
    let s = s.clone();
    Prepared::new(
        move || {
            let mut c = pk
                .encrypt(&mut s.rng(), MSG, Mode::C1C3C2)
                .expect("encrypt");
            c.push(0);
            c
        },
        move |_, out| {
            let m = recipient.decrypt(&out[..out.len() - 1], Mode::C1C3C2);
            ensure(m.is_ok_and(|m| m.as_slice() == MSG), "does not decrypt")
        },
    )
}

/// Batch decryption of eight C1C3C2 ciphertexts to the secret key (`sm2::batch`: the IFMA
/// lanes where the CPU has them, natively under dudect; memcheck's CPU has no AVX-512, so it
/// sees the scalar path).
fn decrypt_batch<B: Backend>(s: &Secret) -> Prepared {
    let sk = secret_key::<B>(s);
    let pk: PublicKey<B> = *sk.public_key();
    let mut r = public_rng(3);
    let cts: Vec<Vec<u8>> = (0..8)
        .map(|_| pk.encrypt(&mut r, MSG, Mode::C1C3C2).expect("encrypt"))
        .collect();
    Prepared::new(
        move || {
            let items: Vec<_> = cts
                .iter()
                .map(|c| (&sk, &c[..], Mode::C1C3C2.into()))
                .collect();
            sm2::batch::decrypt_batch(&items)
                .into_iter()
                .flat_map(|m| m.expect("decrypts").to_vec())
                .collect()
        },
        |_, out| ensure(out == MSG.repeat(8), "wrong plaintexts"),
    )
}

/// Batch encryption of eight messages with secret ephemeral keys from the secret seed.
fn encrypt_batch<B: Backend>(s: &Secret) -> Prepared {
    let recipient = peer_key::<B>();
    let pk: PublicKey<B> = *recipient.public_key();
    let s = s.clone();
    Prepared::new(
        move || {
            let items: Vec<_> = (0..8).map(|_| (&pk, MSG, Mode::C1C3C2.into())).collect();
            sm2::batch::encrypt_batch(&items, &mut s.rng())
                .into_iter()
                .flat_map(|c| c.expect("encrypt"))
                .collect()
        },
        move |_, out| {
            let ok = out.chunks(out.len() / 8).all(|c| {
                recipient
                    .decrypt(c, Mode::C1C3C2)
                    .is_ok_and(|m| m.as_slice() == MSG)
            });
            ensure(out.len() % 8 == 0 && ok, "does not decrypt")
        },
    )
}

/// The initiator's side: static key and ephemeral secret; the responder is public. Setup runs
/// the protocol once to get the responder's reply (the same for the same seeds), so the timed
/// part holds only the initiator's own steps (A1-A3 and A4-A10), not the peer's variable-time
/// work on the initiator's published values.
fn exchange_initiator<B: Backend>(s: &Secret) -> Prepared {
    let a = secret_key::<B>(s);
    let b = peer_key::<B>();
    let alice = Initiator::new(&a, b"alice", b.public_key(), b"bob").expect("new");
    let (alice, ra) = alice.start(&mut s.rng());
    declassify(&ra); // DECLASSIFY: R_A is sent to the responder.
    let bob = Responder::new(&b, b"bob", a.public_key(), b"alice").expect("new");
    let (bob, rb, sb) = bob.respond(&mut public_rng(2), &ra, 16).expect("respond");
    let (_, sa) = alice.finish(&rb, &sb, 16).expect("finish");
    declassify(&sa); // DECLASSIFY: S_A is sent to the responder.
    let key_b = bob.confirm(&sa).expect("confirm").to_vec();
    let s = s.clone();
    Prepared::new(
        move || {
            let alice = Initiator::new(&a, b"alice", b.public_key(), b"bob").expect("new");
            let (alice, ra) = alice.start(&mut s.rng());
            declassify(&ra); // DECLASSIFY: R_A is sent to the responder.
            let (key_a, sa) = alice.finish(&rb, &sb, 16).expect("finish");
            declassify(&sa); // DECLASSIFY: S_A is sent to the responder.
            [&key_a[..], &sa[..]].concat()
        },
        move |_, out| ensure(out[..16] == key_b[..], "keys differ"),
    )
}

/// The responder's side: static key and ephemeral secret; the initiator is public (its
/// confirmation S_A is computed in setup, as for the initiator).
fn exchange_responder<B: Backend>(s: &Secret) -> Prepared {
    let b = secret_key::<B>(s);
    let a = peer_key::<B>();
    let alice = Initiator::new(&a, b"alice", b.public_key(), b"bob").expect("new");
    let (alice, ra) = alice.start(&mut public_rng(3));
    let bob = Responder::new(&b, b"bob", a.public_key(), b"alice").expect("new");
    let (_, rb, sb) = bob.respond(&mut s.rng(), &ra, 16).expect("respond");
    // DECLASSIFY: R_B and S_B are sent to the initiator.
    declassify(&rb);
    declassify(&sb);
    let (key_a, sa) = alice.finish(&rb, &sb, 16).expect("finish");
    let key_a = key_a.to_vec();
    let s = s.clone();
    Prepared::new(
        move || {
            let bob = Responder::new(&b, b"bob", a.public_key(), b"alice").expect("new");
            let (bob, rb, sb) = bob.respond(&mut s.rng(), &ra, 16).expect("respond");
            // DECLASSIFY: R_B and S_B are sent to the initiator.
            declassify(&rb);
            declassify(&sb);
            bob.confirm(&sa).expect("confirm").to_vec()
        },
        move |_, out| ensure(out == key_a, "keys differ"),
    )
}

pub(crate) fn ops<B: Backend>() -> Vec<Op> {
    let op = Op::secret;
    vec![
        op(
            "sm2.key.from_bytes",
            "d; computes P = d·G",
            key_from_bytes::<B> as fn(&Secret) -> Prepared,
            true,
        ),
        op("sm2.key.generate", "RNG output", keygen::<B>, true),
        op(
            "sm2.key.pkcs8_der",
            "d inside PKCS#8 DER",
            parse_pkcs8_der::<B>,
            true,
        ),
        op(
            "sm2.key.sec1_der",
            "d inside SEC1 DER",
            parse_sec1_der::<B>,
            true,
        ),
        op(
            "sm2.key.pkcs8_pem",
            "base64 body of PKCS#8 PEM",
            parse_pkcs8_pem::<B>,
            true,
        ),
        op(
            "sm2.key.encrypted_pkcs8",
            "password (PBKDF2-HMAC-SM3, SM4-CBC)",
            parse_encrypted_pkcs8::<B>,
            true,
        ),
        op(
            "sm2.sign",
            "d, random nonce k",
            |s| sign_with::<B>(s, 0),
            true,
        ),
        op(
            "sm2.sign_hedged",
            "d, hedged nonce",
            |s| sign_with::<B>(s, 1),
            true,
        ),
        op(
            "sm2.sign_deterministic",
            "d (RFC 6979 nonce)",
            |s| sign_with::<B>(s, 2),
            true,
        ),
        op(
            "sm2.decrypt",
            "d (C1C3C2)",
            |s| decrypt_with::<B>(s, false, false),
            true,
        ),
        op(
            "sm2.decrypt_der",
            "d (GM/T 0009 DER)",
            |s| decrypt_with::<B>(s, true, false),
            true,
        ),
        op(
            "sm2.decrypt_in_place",
            "d (C1C3C2, decrypted in place)",
            |s| decrypt_with::<B>(s, false, true),
            true,
        ),
        op(
            "sm2.decrypt_der_in_place",
            "d (GM/T 0009 DER, decrypted in place)",
            |s| decrypt_with::<B>(s, true, true),
            true,
        ),
        op("sm2.encrypt", "ephemeral k", encrypt::<B>, true),
        op(
            "sm2.decrypt_batch",
            "d (eight C1C3C2 ciphertexts, batch::decrypt_batch)",
            decrypt_batch::<B>,
            true,
        ),
        op(
            "sm2.encrypt_batch",
            "eight ephemeral k (batch::encrypt_batch)",
            encrypt_batch::<B>,
            true,
        ),
        op(
            "sm2.exchange.initiator",
            "d_A, r_A",
            exchange_initiator::<B>,
            true,
        ),
        op(
            "sm2.exchange.responder",
            "d_B, r_B",
            exchange_responder::<B>,
            true,
        ),
    ]
}
