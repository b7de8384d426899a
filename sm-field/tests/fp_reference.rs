//! Every `Fp` operation against an independent `num-bigint` computation, for every modulus and
//! every compiled backend, on edge and random inputs.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use proptest::prelude::*;
use sm_conformance::big as limbs_big;
use sm_field::{Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

fn p_big<M: Modulus>() -> BigUint {
    limbs_big(&M::P)
}

fn big_bytes(v: &BigUint) -> [u8; 32] {
    let b = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

fn fp<M: Modulus, B: Backend>(v: &BigUint) -> Fp<M, B> {
    Fp::from_bytes(&big_bytes(v)).unwrap()
}

fn big<M: Modulus, B: Backend>(x: &Fp<M, B>) -> BigUint {
    BigUint::from_bytes_be(&x.to_bytes())
}

/// Edge values: 0, 1, 2, p−1, p−2, 2^255 mod p, all-ones mod p, R mod p, (p−1)/2.
fn edges<M: Modulus>() -> Vec<BigUint> {
    let p = p_big::<M>();
    let one = BigUint::one();
    vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u8),
        &p - 1u8,
        &p - 2u8,
        (one.clone() << 255) % &p,
        ((one.clone() << 256) - 1u8) % &p,
        (one.clone() << 256) % &p,
        (&p - 1u8) >> 1,
        BigUint::from(u64::MAX),
    ]
}

fn check_all<M: Modulus, B: Backend>(a: &BigUint, b: &BigUint) {
    let p = p_big::<M>();
    let (fa, fb) = (fp::<M, B>(a), fp::<M, B>(b));
    assert_eq!(big(&(fa + fb)), (a + b) % &p, "add {a:x} {b:x}");
    assert_eq!(big(&(fa - fb)), (a + &p - b) % &p, "sub");
    assert_eq!(big(&(-fa)), (&p - a) % &p, "neg");
    assert_eq!(big(&fa.double()), (a * 2u8) % &p, "double");
    assert_eq!(big(&(fa * fb)), (a * b) % &p, "mul");
    assert_eq!(big(&fa.square()), (a * a) % &p, "square");
    assert_eq!(
        big(&fa.square_n(5)),
        a.modpow(&BigUint::from(32u8), &p),
        "square_n"
    );
    // Montgomery limbs are a·2^256 mod p.
    assert_eq!(
        limbs_big(&fa.to_mont_limbs()),
        (a << 256) % &p,
        "montgomery form"
    );
    // The zero tests and equality against the reference (a and b are below p).
    assert_eq!(bool::from(fa.is_zero()), a.is_zero(), "is_zero");
    assert_eq!(fa.is_zero_vartime(), a.is_zero(), "is_zero_vartime");
    assert_eq!(
        bool::from(subtle::ConstantTimeEq::ct_eq(&fa, &fb)),
        a == b,
        "ct_eq"
    );
    assert!(
        bool::from(subtle::ConstantTimeEq::ct_eq(&fa, &fa)),
        "ct_eq self"
    );
    if !a.is_zero() {
        let inv = a.modpow(&(&p - 2u8), &p);
        assert_eq!(big(&fa.invert().unwrap()), inv, "invert");
        assert_eq!(big(&fa.invert_vartime().unwrap()), inv, "invert_vartime");
    } else {
        assert!(bool::from(fa.invert().is_none()));
        assert!(fa.invert_vartime().is_none());
    }
    let e = [b.iter_u64_digits().next().unwrap_or(0), 0x1234, 0, 7];
    let e_big = limbs_big(&e);
    assert_eq!(big(&fa.pow(&e)), a.modpow(&e_big, &p), "pow");
    assert_eq!(
        big(&fa.pow_vartime(&e)),
        a.modpow(&e_big, &p),
        "pow_vartime"
    );
    // Square roots: a² always has one; the root squares back to a² mod p (num-bigint).
    let sq = fa.square();
    let r = sq.sqrt().unwrap();
    assert_eq!((big(&r) * big(&r)) % &p, (big(&fa) * big(&fa)) % &p, "sqrt");
    let euler = a.modpow(&((&p - 1u8) >> 1), &p);
    let is_qr = a.is_zero() || euler.is_one();
    assert_eq!(bool::from(fa.sqrt().is_some()), is_qr, "sqrt existence");
    assert_eq!(bool::from(fa.is_square()), is_qr, "is_square");
    // Byte round trip and parity.
    assert_eq!(Fp::<M, B>::from_bytes(&fa.to_bytes()).unwrap(), fa);
    assert_eq!(bool::from(fa.is_odd()), a.bit(0));
    // Wide reduction of a 64-byte and a 40-byte string.
    let mut wide = big_bytes(a).to_vec();
    wide.extend_from_slice(&big_bytes(b));
    let w = BigUint::from_bytes_be(&wide);
    assert_eq!(big(&Fp::<M, B>::from_wide_bytes(&wide)), &w % &p, "wide 64");
    assert_eq!(
        big(&Fp::<M, B>::from_wide_bytes(&wide[..40])),
        BigUint::from_bytes_be(&wide[..40]) % &p,
        "wide 40"
    );
    // Cross-backend: identical Montgomery limbs to the u64 backend.
    assert_eq!(
        (fa * fb).to_mont_limbs(),
        (fp::<M, U64>(a) * fp::<M, U64>(b)).to_mont_limbs()
    );
}

fn edge_cases<M: Modulus, B: Backend>() {
    for a in edges::<M>() {
        for b in edges::<M>() {
            check_all::<M, B>(&a, &b);
        }
    }
}

fn out_of_range_rejected<M: Modulus, B: Backend>() {
    let p = p_big::<M>();
    for v in [p.clone(), &p + 1u8, (BigUint::one() << 256) - 1u8] {
        assert!(bool::from(Fp::<M, B>::from_bytes(&big_bytes(&v)).is_none()));
        assert_eq!(
            big(&Fp::<M, B>::from_bytes_reduced(&big_bytes(&v))),
            &v % &p
        );
    }
}

macro_rules! suite {
    ($name:ident, $B:ty) => {
        mod $name {
            use super::*;
            type Be = $B;
            #[test]
            fn edges_all_moduli() {
                edge_cases::<Sm2P, Be>();
                edge_cases::<Sm2N, Be>();
                edge_cases::<Sm9P, Be>();
                edge_cases::<Sm9N, Be>();
            }
            #[test]
            fn range_checks() {
                out_of_range_rejected::<Sm2P, Be>();
                out_of_range_rejected::<Sm2N, Be>();
                out_of_range_rejected::<Sm9P, Be>();
                out_of_range_rejected::<Sm9N, Be>();
            }
            proptest! {
                #![proptest_config(ProptestConfig::with_cases(64))]
                #[test]
                fn random_ops(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
                    let (a, b) = (BigUint::from_bytes_be(&a), BigUint::from_bytes_be(&b));
                    check_all::<Sm2P, Be>(&(&a % p_big::<Sm2P>()), &(&b % p_big::<Sm2P>()));
                    check_all::<Sm2N, Be>(&(&a % p_big::<Sm2N>()), &(&b % p_big::<Sm2N>()));
                    check_all::<Sm9P, Be>(&(&a % p_big::<Sm9P>()), &(&b % p_big::<Sm9P>()));
                    check_all::<Sm9N, Be>(&(&a % p_big::<Sm9N>()), &(&b % p_big::<Sm9N>()));
                }
            }
        }
    };
}

suite!(u64_backend, sm_field::U64);
#[cfg(feature = "u32")]
suite!(u32_backend, sm_field::U32);
#[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
suite!(asm_backend, sm_field::Asm);

#[test]
fn batch_inversion_matches_single() {
    let mut v: Vec<Fp<Sm9P>> = (0..9u64).map(|i| Fp::from_u64(i * 1_000_003)).collect();
    let expect: Vec<_> = v.iter().map(|x| x.invert().unwrap_or(Fp::ZERO)).collect();
    let mut scratch = vec![Fp::ZERO; v.len()];
    Fp::batch_invert_with_scratch(&mut v, &mut scratch);
    assert_eq!(v, expect);
}

#[test]
fn constants_match_definitions() {
    fn one<M: Modulus>() {
        let p = p_big::<M>();
        let r = BigUint::one() << 256;
        assert_eq!(limbs_big(&M::R), &r % &p);
        assert_eq!(limbs_big(&M::R2), (&r * &r) % &p);
        assert_eq!(limbs_big(&M::R3), (&r * &r * &r) % &p);
        let inv: BigUint = (BigUint::from(M::INV) * &p + 1u8) % (BigUint::one() << 64u32);
        assert!(inv.is_zero(), "INV is -p^-1 mod 2^64");
    }
    one::<Sm2P>();
    one::<Sm2N>();
    one::<Sm9P>();
    one::<Sm9N>();
}

#[test]
fn debug_is_hex() {
    let s = format!("{:?}", Fp::<Sm9P>::from_u64(255));
    assert!(s.ends_with("00ff)"), "{s}");
}

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm-field fp_reference",
        &[
            "u64",
            #[cfg(feature = "u32")]
            "u32",
            #[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
            "asm",
        ],
    );
}
