//! A small, Miri-sized check of the portable backends (`u64`, and `u32` when compiled): every
//! `Fp` primitive that carries limb arithmetic (from_bytes range check, mul, square, invert,
//! sqrt, pow with a secret-style full-width exponent) on a few edge and pseudo-random inputs
//! per modulus, against a plain `num-bigint` reference. `ct-check/miri.sh` runs this file under
//! `cargo +nightly miri test` (undefined behaviour, out-of-bounds and overflow checks in the
//! limb code); natively it is one more reference test and takes milliseconds.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use sm_field::{Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

fn p_big<M: Modulus>() -> BigUint {
    let mut b = [0u8; 32];
    for (i, l) in M::P.iter().enumerate() {
        b[i * 8..i * 8 + 8].copy_from_slice(&l.to_le_bytes());
    }
    BigUint::from_bytes_le(&b)
}

fn be32(v: &BigUint) -> [u8; 32] {
    let b = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

fn big<M: Modulus, B: Backend>(x: &Fp<M, B>) -> BigUint {
    BigUint::from_bytes_be(&x.to_bytes())
}

/// A fixed pseudo-random 256-bit value (splitmix64; no RNG crate work under Miri).
fn pseudo(seed: u64) -> BigUint {
    let mut s = seed;
    let mut out = [0u8; 32];
    for chunk in out.chunks_mut(8) {
        s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = s;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        chunk.copy_from_slice(&(z ^ (z >> 31)).to_be_bytes());
    }
    BigUint::from_bytes_be(&out)
}

/// Inputs: 0, 1, p − 1 and a pseudo-random residue.
fn inputs<M: Modulus>(tag: u64) -> Vec<BigUint> {
    let p = p_big::<M>();
    vec![BigUint::zero(), BigUint::one(), &p - 1u8, pseudo(tag) % &p]
}

/// Little-endian limbs of a value below 2^256.
fn limbs(v: &BigUint) -> [u64; 4] {
    let b = be32(v);
    let mut l = [0u64; 4];
    for (k, limb) in l.iter_mut().enumerate() {
        *limb = u64::from_be_bytes(b[24 - 8 * k..32 - 8 * k].try_into().unwrap());
    }
    l
}

/// The references are kept cheap under Miri: products and one reduction each, except for a
/// single full-width `modpow` per modulus (the `pow` check); inversion and square roots are
/// checked by multiplying back.
fn check_modulus<M: Modulus, B: Backend>(tag: u64) {
    let p = p_big::<M>();
    // Range check of the 32-byte decoding: p − 1 accepted, p and 2^256 − 1 rejected.
    assert!(bool::from(
        Fp::<M, B>::from_bytes(&be32(&(&p - 1u8))).is_some()
    ));
    for bad in [p.clone(), (BigUint::one() << 256) - 1u8] {
        assert!(bool::from(Fp::<M, B>::from_bytes(&be32(&bad)).is_none()));
        assert_eq!(big(&Fp::<M, B>::from_bytes_reduced(&be32(&bad))), &bad % &p);
    }
    let xs = inputs::<M>(tag);
    for (i, a) in xs.iter().enumerate() {
        let fa = Fp::<M, B>::from_bytes(&be32(a)).unwrap();
        assert_eq!(big(&fa), *a, "round trip");
        let b = &xs[(i + 1) % xs.len()];
        let fb = Fp::<M, B>::from_bytes(&be32(b)).unwrap();
        assert_eq!(big(&(fa * fb)), (a * b) % &p, "mul");
        assert_eq!(big(&fa.square()), (a * a) % &p, "square");
        assert_eq!(big(&(fa + fb)), (a + b) % &p, "add");
        assert_eq!(big(&(fa - fb)), (a + &p - b) % &p, "sub");
        // Inversion: none for 0, else a·a⁻¹ ≡ 1.
        let inv: Option<Fp<M, B>> = fa.invert().into();
        if a.is_zero() {
            assert!(inv.is_none());
        } else {
            assert!((a * big(&inv.unwrap()) % &p).is_one(), "invert");
        }
        // sqrt of a square a²: exists and squares back to a².
        let sq = fa.square();
        let root: Option<Fp<M, B>> = sq.sqrt().into();
        let r = big(&root.expect("a square has a root"));
        assert_eq!(&r * &r % &p, (a * a) % &p, "sqrt");
        // Cross-backend: identical Montgomery limbs.
        let fu = Fp::<M, U64>::from_bytes(&be32(a)).unwrap();
        assert_eq!(fa.to_mont_limbs(), fu.to_mont_limbs());
    }
    // pow with a full-width exponent (the constant-time window method) against modpow, once;
    // a small exponent against repeated multiplication.
    let a = &xs[3];
    let fa = Fp::<M, B>::from_bytes(&be32(a)).unwrap();
    let exp = pseudo(tag ^ 0xE);
    assert_eq!(big(&fa.pow(&limbs(&exp))), a.modpow(&exp, &p), "pow");
    let mut acc = BigUint::one();
    for _ in 0..5 {
        acc = acc * a % &p;
    }
    assert_eq!(big(&fa.pow(&[5, 0, 0, 0])), acc, "pow 5");
    // A non-residue c·a² (c the smallest non-residue, by Euler's criterion) has no root.
    let half = (&p - 1u8) >> 1;
    let c = (2u64..)
        .map(BigUint::from)
        .find(|c| !c.modpow(&half, &p).is_one())
        .unwrap();
    let t = &c * a * a % &p;
    let ft = Fp::<M, B>::from_bytes(&be32(&t)).unwrap();
    assert!(bool::from(ft.sqrt().is_none()), "non-residue has no root");
}

fn all_moduli<B: Backend>() {
    check_modulus::<Sm2P, B>(1);
    check_modulus::<Sm2N, B>(2);
    check_modulus::<Sm9P, B>(3);
    check_modulus::<Sm9N, B>(4);
}

#[test]
fn u64_backend() {
    all_moduli::<U64>();
}

#[cfg(feature = "u32")]
#[test]
fn u32_backend() {
    all_moduli::<sm_field::U32>();
}
