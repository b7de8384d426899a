//! Coverage audit additions (issue 9): secret-handling paths of sm-curve, sm-pairing, sm2 and
//! sm9 that the per-protocol operations reach only indirectly, with one particular shape of
//! input, or not at all.
//!
//! * sm-curve: the SM9 G1 GLV and G2 GLS constant-time multiplications (`mul_endo`) with a
//!   secret scalar **and** a secret point (the shape of `[l]ds` in SM9 signing), and run-time
//!   comb tables (`PrecomputedTable`) of a public point with a secret scalar (the shape of
//!   `[r]Ppub-e` in SM9 encryption, and of any caller's table of a public key).
//! * sm-pairing: `Gt::pow` and `GtTable::pow` with a full-width exponent (limbs ≥ n, top bit
//!   set), which the scalar-based operations never produce.
//! * sm2: decryption of the C1C2C3 form and of a compressed C1.
//! * sm9: signing with a prepared key (`SigningKey`: a comb table of the secret `ds`, built in
//!   setup, which memcheck checks too); PKCS#8 DER/PEM parsing of user and master keys.

use sm2::generic::{PublicKey, SecretKey};
use sm2::Mode;
use sm9::generic::{EncMasterKey, EncUserKey, SignMasterKey, SignUserKey, Signature};
use sm9::MacMode;
use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::{CombTable, CurveParams, Jacobian, PrecomputedTable, Sm2Curve};
use sm_field::{Backend, Field};
use sm_pairing::GtTable;

use crate::marks::{classify, declassify};
use crate::primitives::{coords, g, scalar};
use crate::sm2_ops::classify_part;
use crate::{ensure, public_rng, Op, Prepared, Secret};

const MSG: &[u8] = b"constant-time coverage message";

/// A second secret scalar, from the nonce seed (top bit cleared, so below n).
fn seed_scalar<C: CurveParams>(s: &Secret) -> C::Scalar {
    let mut b = s.seed;
    b[0] &= 0x7f;
    C::Scalar::read_bytes(&b).unwrap_or(<C::Scalar as Field>::ZERO)
}

/// A public point: 12345·G.
fn public_point<C: CurveParams>() -> Jacobian<C> {
    let mut b = [0u8; 32];
    b[30..].copy_from_slice(&12345u16.to_be_bytes());
    let k: C::Scalar = Option::from(C::Scalar::read_bytes(&b)).expect("small");
    Jacobian::<C>::generator().mul_vartime(&k)
}

/// `b·(a·P1)` by GLV for secret `a` (the point) and `b` (the scalar).
fn g1_mul_endo<B: Backend>(s: &Secret) -> Prepared {
    let a = scalar::<Sm9G1Curve<B>>(s);
    let b = seed_scalar::<Sm9G1Curve<B>>(s);
    let p = Sm9G1Curve::<B>::mul_generator(&a);
    Prepared::new(
        move || coords(&p.mul_endo(&b).to_affine()),
        |s, out| {
            let k = scalar::<Sm9G1Curve<B>>(s) * seed_scalar::<Sm9G1Curve<B>>(s);
            let want = Jacobian::<Sm9G1Curve<B>>::generator().mul_vartime(&k);
            ensure(out == coords(&want.to_affine()), "GLV ≠ vartime")
        },
    )
}

/// `b·(a·P2)` by GLS for secret `a` (the point) and `b` (the scalar).
fn g2_mul_endo<B: Backend>(s: &Secret) -> Prepared {
    let a = scalar::<Sm9G2Curve<B>>(s);
    let b = seed_scalar::<Sm9G2Curve<B>>(s);
    let q = Sm9G2Curve::<B>::mul_generator(&a);
    Prepared::new(
        move || coords(&q.mul_endo(&b).to_affine()),
        |s, out| {
            let k = scalar::<Sm9G2Curve<B>>(s) * seed_scalar::<Sm9G2Curve<B>>(s);
            let want = Jacobian::<Sm9G2Curve<B>>::generator().mul_vartime(&k);
            ensure(out == coords(&want.to_affine()), "GLS ≠ vartime")
        },
    )
}

/// `k·P` through a run-time comb table of a public `P`.
fn runtime_comb<C: CurveParams>(s: &Secret) -> Prepared {
    let p = public_point::<C>();
    let table = PrecomputedTable::new(&p.to_affine());
    let k = scalar::<C>(s);
    Prepared::new(
        move || coords(&table.mul(&k).to_affine()),
        move |s, out| {
            let want = p.mul_vartime(&scalar::<C>(s));
            ensure(out == coords(&want.to_affine()), "comb ≠ vartime")
        },
    )
}

/// The exponent limbs with the top bit set (≥ n for both SM9 n and any 255-bit key).
fn full_width_limbs(s: &Secret) -> [u64; 4] {
    let mut l = [0u64; 4];
    for (i, c) in s.key.rchunks_exact(8).enumerate() {
        l[i] = u64::from_be_bytes(c.try_into().expect("8 bytes"));
    }
    l[3] |= 1 << 63;
    l
}

fn gt_pow_full_width<B: Backend>(s: &Secret, table: bool) -> Prepared {
    let base = g::<B>();
    let t = table.then(|| GtTable::new(&base));
    let e = full_width_limbs(s);
    Prepared::new(
        move || match &t {
            Some(t) => t.pow(&e).to_bytes().to_vec(),
            None => base.pow(&e).to_bytes().to_vec(),
        },
        move |s, out| {
            let want = base.pow_vartime(&full_width_limbs(s));
            ensure(out == want.to_bytes(), "pow ≠ pow_vartime")
        },
    )
}

/// SM2 decryption of the C1C2C3 form, or of C1C3C2 with a compressed C1.
fn sm2_decrypt<B: Backend>(s: &Secret, compressed: bool) -> Prepared {
    let sk = SecretKey::<B>::from_bytes(&s.key).expect("1 <= key < 2^255");
    declassify(sk.public_key()); // DECLASSIFY: the public key P = d·G is published.
    let pk: PublicKey<B> = *sk.public_key();
    let ct = pk
        .encrypt_to_ciphertext(&mut public_rng(11), MSG)
        .expect("encrypt");
    let (bytes, mode) = if compressed {
        let c = ct.with_c1_compressed(true).expect("compress");
        (c.to_bytes(Mode::C1C3C2), Mode::C1C3C2)
    } else {
        (ct.to_bytes(Mode::C1C2C3), Mode::C1C2C3)
    };
    Prepared::new(
        move || sk.decrypt(&bytes, mode).expect("decrypts").to_vec(),
        |_, out| ensure(out == MSG, "wrong plaintext"),
    )
}

/// A public copy of the key bytes for building a clear-text KGC in setup.
fn public_copy(s: &Secret) -> [u8; 32] {
    let k = s.key;
    declassify(&k); // HARNESS: the clear-text KGC's master key.
    k
}

/// SM9 signing with a prepared key: `ds` imported from classified bytes, its comb table built
/// in setup (checked by memcheck), then `sign_prepared`.
fn sm9_sign_prepared<B: Backend>(s: &Secret) -> Prepared {
    let kgc = SignMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let master = *kgc.public_key();
    let ds = kgc.extract(b"Alice").expect("extract").ds_bytes();
    classify(&ds[1..]);
    let key = SignUserKey::<B>::from_parts(&ds[..], &master).expect("import");
    let signing = key.prepare();
    let prepared = master.prepare();
    let s = s.clone();
    Prepared::new(
        move || {
            sm9::sign_prepared(&signing, &prepared, MSG, &mut s.rng())
                .expect("sign")
                .to_bytes()
                .to_vec()
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

/// `pem` with the base64 characters that encode only bytes of `der[at..at + len]` classified
/// (64 characters per line, LF endings; the armour and framing stay public).
fn classify_pem_span(pem: &str, at: usize, len: usize) {
    let body_start = pem.find('\n').expect("header line") + 1;
    let (first_group, end_group) = (at.div_ceil(3), (at + len) / 3);
    for c in 4 * first_group..4 * end_group {
        let pos = body_start + c + c / 64;
        classify(&pem.as_bytes()[pos..pos + 1]);
    }
}

/// `de` inside the PKCS#8 DER of an encryption user key.
fn sm9_enc_user_pkcs8_der<B: Backend>(s: &Secret) -> Prepared {
    let kgc = EncMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let bob = kgc.extract(b"Bob").expect("extract");
    let de = bob.de_bytes();
    let der = classify_part(bob.to_pkcs8_der().expect("der").to_vec(), &de[1..]);
    Prepared::new(
        move || {
            EncUserKey::<B>::from_pkcs8_der(&der)
                .expect("decode")
                .de_bytes()
                .to_vec()
        },
        move |_, out| ensure(out == &de[..], "de differs"),
    )
}

/// `ds` inside the PKCS#8 PEM of a signing user key.
fn sm9_sign_user_pkcs8_pem<B: Backend>(s: &Secret) -> Prepared {
    let kgc = SignMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let alice = kgc.extract(b"Alice").expect("extract");
    let ds = alice.ds_bytes();
    let der = alice.to_pkcs8_der().expect("der").to_vec();
    let at = der
        .windows(64)
        .position(|w| w == &ds[1..])
        .expect("ds in DER");
    let pem = alice.to_pkcs8_pem().expect("pem").to_string();
    classify_pem_span(&pem, at, 64);
    Prepared::new(
        move || {
            SignUserKey::<B>::from_pkcs8_pem(&pem)
                .expect("decode")
                .ds_bytes()
                .to_vec()
        },
        move |_, out| ensure(out == &ds[..], "ds differs"),
    )
}

/// `ke` inside the PKCS#8 DER of an encryption master key.
fn sm9_enc_master_pkcs8_der<B: Backend>(s: &Secret) -> Prepared {
    let kgc = EncMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let ke = kgc.to_bytes();
    let first = ke.iter().position(|&b| b != 0).unwrap_or(31);
    let der = classify_part(kgc.to_pkcs8_der().expect("der").to_vec(), &ke[first..]);
    Prepared::new(
        move || {
            let k = EncMasterKey::<B>::from_pkcs8_der(&der).expect("decode");
            declassify(k.public_key()); // DECLASSIFY: Ppub-e.
            k.to_bytes().to_vec()
        },
        |s, out| ensure(out == s.key, "ke differs"),
    )
}

/// SM9 decryption with the GmSSL MAC (HMAC-SM3) in the KDF stream mode (the MAC comparison and
/// the HMAC key schedule on K2 are secret).
fn sm9_decrypt_hmac<B: Backend>(s: &Secret) -> Prepared {
    let kgc = EncMasterKey::<B>::from_bytes(&public_copy(s)).expect("valid");
    let master = *kgc.public_key();
    let de = kgc.extract(b"Bob").expect("extract").de_bytes().to_vec();
    classify(&de[1..]);
    let ct = sm9::encrypt(
        &master.prepare(),
        b"Bob",
        MSG,
        sm9::EncryptionMode::KdfStream,
        MacMode::HmacSm3,
        &mut public_rng(12),
    )
    .expect("encrypt");
    Prepared::new(
        move || {
            let bob = EncUserKey::<B>::from_parts(&de, &master).expect("import");
            sm9::decrypt(&bob.prepare(), b"Bob", &ct, MacMode::HmacSm3)
                .expect("decrypt")
                .to_vec()
        },
        |_, out| ensure(out == MSG, "wrong plaintext"),
    )
}

pub(crate) fn ops<B: Backend>() -> Vec<Op> {
    let op = Op::secret;
    vec![
        op(
            "sm9.g1.mul_endo",
            "k and P of k·P (GLV, secret point)",
            g1_mul_endo::<B> as fn(&Secret) -> Prepared,
            true,
        ),
        op(
            "sm9.g2.mul_endo",
            "k and Q of k·Q (GLS, secret point)",
            g2_mul_endo::<B>,
            true,
        ),
        op(
            "sm2.comb.runtime_table",
            "k of k·P (run-time comb table of a public P)",
            runtime_comb::<Sm2Curve<B>>,
            true,
        ),
        op(
            "sm9.g1.comb.runtime_table",
            "k of k·P (run-time comb table of a public P)",
            runtime_comb::<Sm9G1Curve<B>>,
            true,
        ),
        op(
            "gt.pow_full_width",
            "256-bit exponent >= n of g^k",
            |s| gt_pow_full_width::<B>(s, false),
            true,
        ),
        op(
            "gt.table_pow_full_width",
            "256-bit exponent >= n of g^k (fixed-base table)",
            |s| gt_pow_full_width::<B>(s, true),
            true,
        ),
        op(
            "sm2.decrypt.c1c2c3",
            "d (C1C2C3)",
            |s| sm2_decrypt::<B>(s, false),
            true,
        ),
        op(
            "sm2.decrypt.compressed_c1",
            "d (C1C3C2, compressed C1)",
            |s| sm2_decrypt::<B>(s, true),
            true,
        ),
        op(
            "sm9.sign_prepared",
            "ds (imported; secret comb table), nonce r",
            sm9_sign_prepared::<B>,
            false,
        ),
        op(
            "sm9.decrypt.hmac_sm3",
            "de (imported, prepared), HMAC-SM3 MAC",
            sm9_decrypt_hmac::<B>,
            false,
        ),
        op(
            "sm9.user_key.enc_pkcs8_der",
            "de inside PKCS#8 DER",
            sm9_enc_user_pkcs8_der::<B>,
            true,
        ),
        op(
            "sm9.user_key.sign_pkcs8_pem",
            "base64 of ds inside PKCS#8 PEM",
            sm9_sign_user_pkcs8_pem::<B>,
            true,
        ),
        // Not in the default dudect set: ke is a DER INTEGER, so the document's (public) length
        // follows the key's magnitude, and the fixed class (ke = 1, one content byte) parses
        // measurably faster than full-width keys (|t| 46 over 10^6 measurements): a difference
        // in public length, not a leak. memcheck checks it like every other operation.
        op(
            "sm9.master.enc_pkcs8_der",
            "ke inside PKCS#8 DER",
            sm9_enc_master_pkcs8_der::<B>,
            false,
        ),
    ]
}
