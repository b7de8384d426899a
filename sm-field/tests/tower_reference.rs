//! The Fp2/Fp4/Fp12 tower against an independent model: GF(p¹²) as polynomials over GF(p) in w
//! modulo w¹² + 2, with `num-bigint` arithmetic and no tower formula. The map from tower slots to
//! powers of w is derived here from the tower definition alone: u = w⁶ (Fp2 = Fp[u]/(u² + 2)),
//! v = w³ (Fp4 = Fp2[v]/(v² − u)), and Fp12 = Fp4[w]/(w³ − v).
//!
//! Checked on random inputs: multiplication, squaring, sparse line multiplication, Frobenius maps
//! (as x^(p^k) computed in the model), conjugation (x^(p⁶)), inversion, the Frobenius constants
//! γ^i = (−2)^(i(p−1)/12) and the 384-byte GT encoding order w^[11,5,8,2,10,4,7,1,9,3,6,0].

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_field::{Backend, Fp, Fp12, Fp2, Modulus, Sm9P, U64};

type Poly = [BigUint; 12];

fn p() -> BigUint {
    let mut b = [0u8; 32];
    for i in 0..4 {
        b[i * 8..i * 8 + 8].copy_from_slice(&Sm9P::P[i].to_le_bytes());
    }
    BigUint::from_bytes_le(&b)
}

fn big<B: Backend>(x: &Fp<Sm9P, B>) -> BigUint {
    BigUint::from_bytes_be(&x.to_bytes())
}

fn fp<B: Backend>(v: &BigUint) -> Fp<Sm9P, B> {
    let b = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    Fp::from_bytes(&out).unwrap()
}

/// Tower element → coefficients of w^0 … w^11, from u = w⁶, v = w³ and the w-basis 1, w, w².
fn to_poly<B: Backend>(x: &Fp12<B>) -> Poly {
    let mut out: Poly = Default::default();
    for (i, c4) in [&x.c0, &x.c1, &x.c2].into_iter().enumerate() {
        for (j, c2) in [&c4.c0, &c4.c1].into_iter().enumerate() {
            for (k, c) in [&c2.c0, &c2.c1].into_iter().enumerate() {
                out[i + 3 * j + 6 * k] = big(c);
            }
        }
    }
    out
}

fn from_poly<B: Backend>(a: &Poly) -> Fp12<B> {
    let mut x = Fp12::<B>::ZERO;
    for (i, c4) in [&mut x.c0, &mut x.c1, &mut x.c2].into_iter().enumerate() {
        for (j, c2) in [&mut c4.c0, &mut c4.c1].into_iter().enumerate() {
            for (k, c) in [&mut c2.c0, &mut c2.c1].into_iter().enumerate() {
                *c = fp(&a[i + 3 * j + 6 * k]);
            }
        }
    }
    x
}

/// Schoolbook product modulo w¹² + 2.
fn pmul(a: &Poly, b: &Poly) -> Poly {
    let p = p();
    let mut wide: Vec<BigUint> = vec![BigUint::zero(); 23];
    for i in 0..12 {
        for j in 0..12 {
            wide[i + j] += &a[i] * &b[j];
        }
    }
    let mut out: Poly = Default::default();
    for k in 0..12 {
        // w^(k+12) = −2·w^k
        let hi = if k + 12 < 23 {
            (&wide[k + 12] % &p) * 2u8
        } else {
            BigUint::zero()
        };
        out[k] = (&wide[k] % &p + &p * 2u8 - hi % &p) % &p;
    }
    out
}

fn ppow(a: &Poly, e: &BigUint) -> Poly {
    let mut acc: Poly = Default::default();
    acc[0] = BigUint::one();
    for i in (0..e.bits()).rev() {
        acc = pmul(&acc, &acc);
        if e.bit(i) {
            acc = pmul(&acc, a);
        }
    }
    acc
}

fn one_poly() -> Poly {
    let mut o: Poly = Default::default();
    o[0] = BigUint::one();
    o
}

fn random<B: Backend>(seed: u64) -> Fp12<B> {
    Fp12::random(&mut ChaCha20Rng::seed_from_u64(seed))
}

fn check<B: Backend>(seed: u64, with_frobenius: bool) {
    let p = p();
    let a = random::<B>(seed);
    let b = random::<B>(seed ^ 0x5555_5555);
    let (pa, pb) = (to_poly(&a), to_poly(&b));
    assert_eq!(from_poly::<B>(&pa), a, "slot map round trip");
    let w: Vec<BigUint> = a.to_w_coefficients().iter().map(big).collect();
    assert_eq!(w.as_slice(), pa.as_slice(), "to_w_coefficients");
    assert_eq!(to_poly(&(a * b)), pmul(&pa, &pb), "mul");
    assert_eq!(to_poly(&a.square()), pmul(&pa, &pa), "square");
    assert_eq!(
        to_poly(&(a + b)),
        core::array::from_fn::<_, 12, _>(|i| (&pa[i] + &pb[i]) % &p)
    );
    // Sparse line a + b·w² + c·w³.
    let (l0, l2, l3) = (b.c0.c0, b.c1.c0, b.c2.c1);
    let mut line: Poly = Default::default();
    for (pos, c) in [(0, l0), (2, l2), (3, l3)] {
        line[pos] = big(&c.c0);
        line[pos + 6] = big(&c.c1);
    }
    assert_eq!(
        to_poly(&a.mul_by_023(&l0, &l2, &l3)),
        pmul(&pa, &line),
        "mul_by_023"
    );
    // Inverse.
    let inv = a.invert().unwrap();
    assert_eq!(pmul(&to_poly(&inv), &pa), one_poly(), "invert");
    // Conjugation = x^(p⁶): on the model, negate odd powers of w (w^(p⁶) = −w since w ∉ GF(p⁶)).
    let conj: Poly = core::array::from_fn(|i| {
        if i % 2 == 1 {
            (&p - &pa[i]) % &p
        } else {
            pa[i].clone()
        }
    });
    assert_eq!(to_poly(&a.conjugate()), conj, "conjugate");
    if with_frobenius {
        let mut e = BigUint::one();
        for k in 1..=3usize {
            e *= &p;
            assert_eq!(
                to_poly(&a.frobenius_map(k)),
                ppow(&pa, &e),
                "frobenius p^{k}"
            );
        }
        // p⁶ via the model as well.
        assert_eq!(to_poly(&a.frobenius_map(6)), conj, "frobenius p^6");
    } else {
        assert_eq!(a.frobenius_map(1).frobenius_map(2), a.frobenius_map(3));
        assert_eq!(a.frobenius_map(3).frobenius_map(3), a.conjugate());
    }
}

#[test]
fn gamma_constants() {
    let p = p();
    let g = (&p - 2u8).modpow(&((&p - 1u8) / 12u8), &p);
    for i in 0..12u32 {
        assert_eq!(
            big(&Fp12::<U64>::GAMMA[i as usize]),
            g.modpow(&BigUint::from(i), &p),
            "γ^{i}"
        );
    }
    assert_eq!(big(&Fp12::<U64>::GAMMA[6]), &p - 1u8, "γ⁶ = −1");
}

#[test]
fn gt_encoding_order() {
    let a = random::<U64>(7);
    let bytes = a.to_bytes();
    let pa = to_poly(&a);
    for (slot, k) in [11, 5, 8, 2, 10, 4, 7, 1, 9, 3, 6, 0]
        .into_iter()
        .enumerate()
    {
        let mut c = [0u8; 32];
        let be = pa[k].to_bytes_be();
        c[32 - be.len()..].copy_from_slice(&be);
        assert_eq!(&bytes[32 * slot..32 * slot + 32], &c, "slot {slot} = w^{k}");
    }
    assert_eq!(Fp12::from_bytes(&bytes).unwrap(), a);
    let mut bad = bytes;
    bad[0..32].fill(0xff);
    assert!(bool::from(Fp12::<U64>::from_bytes(&bad).is_none()));
}

#[test]
fn tower_vs_polynomial_model_u64() {
    for seed in 0..24 {
        check::<U64>(seed, seed < 3);
    }
    // Zero and one.
    assert!(bool::from(Fp12::<U64>::ZERO.invert().is_none()));
    assert_eq!(Fp12::<U64>::ONE.invert().unwrap(), Fp12::ONE);
    let _ = Fp2::<U64>::ONE;
}

#[cfg(feature = "u32")]
#[test]
fn tower_vs_polynomial_model_u32() {
    for seed in 100..108 {
        check::<sm_field::U32>(seed, seed == 100);
    }
}

#[cfg(all(any(target_arch = "x86_64", target_arch = "aarch64"), feature = "asm"))]
#[test]
fn tower_vs_polynomial_model_asm() {
    for seed in 200..208 {
        check::<sm_field::Asm>(seed, seed == 200);
    }
}

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm-field tower_reference",
        &[
            "u64",
            #[cfg(feature = "u32")]
            "u32",
            #[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
            "asm",
        ],
    );
}
