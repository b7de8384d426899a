//! Algebraic laws of the pairing and of GT (proptest), identity handling and cross-backend
//! equality. Scalar multiplication here is a plain affine double-and-add test helper (sm-curve
//! owns the real one).

use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_field::{Fp, Fp12, Fp2, Sm9P, U64};
use sm_pairing::{
    final_exponentiation, miller_loop, multi_miller_loop, multi_miller_loop_prepared,
    multi_pairing, pairing, pairing_prepared, Backend, G1Affine, G2Affine, G2Prepared, Gt, GtTable,
};
use subtle::ConstantTimeEq;

/// Minimal affine arithmetic over any tower field used by the tests.
trait Coord:
    Copy
    + PartialEq
    + core::ops::Add<Output = Self>
    + core::ops::Sub<Output = Self>
    + core::ops::Mul<Output = Self>
    + core::ops::Neg<Output = Self>
{
    fn inv(&self) -> Self;
    fn small(k: u64) -> Self;
}
impl<B: Backend> Coord for Fp<Sm9P, B> {
    fn inv(&self) -> Self {
        self.invert_vartime().unwrap()
    }
    fn small(k: u64) -> Self {
        Fp::from_u64(k)
    }
}
impl<B: Backend> Coord for Fp2<B> {
    fn inv(&self) -> Self {
        self.invert_vartime().unwrap()
    }
    fn small(k: u64) -> Self {
        Fp2::from_fp(Fp::from_u64(k))
    }
}

/// k·(x, y) on y² = x³ + b, `None` = infinity.
fn mul_affine<F: Coord>(x: F, y: F, k: &[u64; 4]) -> Option<(F, F)> {
    let add = |a: Option<(F, F)>, b: Option<(F, F)>| -> Option<(F, F)> {
        match (a, b) {
            (None, q) | (q, None) => q,
            (Some((x1, y1)), Some((x2, y2))) => {
                let lambda = if x1 == x2 {
                    if y1 != y2 || y1 == F::small(0) {
                        return None;
                    }
                    F::small(3) * x1 * x1 * (F::small(2) * y1).inv()
                } else {
                    (y2 - y1) * (x2 - x1).inv()
                };
                let x3 = lambda * lambda - x1 - x2;
                Some((x3, lambda * (x1 - x3) - y1))
            }
        }
    };
    let mut acc = None;
    for i in (0..256).rev() {
        acc = add(acc, acc);
        if (k[i / 64] >> (i % 64)) & 1 == 1 {
            acc = add(acc, Some((x, y)));
        }
    }
    acc
}

fn g1_mul<B: Backend>(p: &G1Affine<B>, k: &[u64; 4]) -> G1Affine<B> {
    mul_affine(p.x(), p.y(), k).map_or(G1Affine::IDENTITY, |(x, y)| {
        G1Affine::from_coordinates_unchecked(x, y)
    })
}

fn g2_mul<B: Backend>(q: &G2Affine<B>, k: &[u64; 4]) -> G2Affine<B> {
    mul_affine(q.x(), q.y(), k).map_or(G2Affine::IDENTITY, |(x, y)| {
        G2Affine::from_coordinates_unchecked(x, y)
    })
}

/// a·b mod n as limbs, via Fp<Sm9N>.
fn mul_mod_n(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
    type S = Fp<sm_field::Sm9N, U64>;
    let a = S::from_canonical_limbs(*a).unwrap();
    let b = S::from_canonical_limbs(*b).unwrap();
    (a * b).to_canonical_limbs()
}

fn small_scalar(rng: &mut ChaCha20Rng) -> [u64; 4] {
    use rand_chacha::rand_core::Rng;
    // below n: top limb under n's top limb
    [
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64(),
        rng.next_u64() >> 2,
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    #[test]
    fn bilinearity(seed in any::<u64>()) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let (a, b) = (small_scalar(&mut rng), small_scalar(&mut rng));
        let p = G1Affine::<U64>::GENERATOR;
        let q = G2Affine::<U64>::GENERATOR;
        let ap = g1_mul(&p, &a);
        let bq = g2_mul(&q, &b);
        prop_assert!(bool::from(ap.is_on_curve()) && bool::from(bq.is_on_curve()));
        let lhs = pairing(&ap, &bq);
        let e = pairing(&p, &q);
        prop_assert_eq!(lhs, e.pow(&mul_mod_n(&a, &b)));
        prop_assert_eq!(pairing(&ap, &q), pairing(&p, &g2_mul(&q, &a)));
        // Multi-pairing = product; prepared = plain.
        let prod = multi_pairing(&[(ap, bq), (p, q)]);
        prop_assert_eq!(prod, lhs * e);
        let prep = G2Prepared::new(&bq);
        prop_assert_eq!(pairing_prepared(&ap, &prep), lhs);
        prop_assert_eq!(
            final_exponentiation(&multi_miller_loop_prepared(&[(ap, &prep), (p, &G2Prepared::new(&q))])),
            prod
        );
        prop_assert_eq!(final_exponentiation(&multi_miller_loop(&[(ap, bq)])), lhs);
        // e(−P, Q) = e(P, Q)⁻¹ and e(P, Q)·e(−P, Q) = 1 through one multi-pairing.
        prop_assert_eq!(pairing(&ap.neg(), &bq), lhs.invert());
        prop_assert!(bool::from(multi_pairing(&[(ap, bq), (ap.neg(), bq)]).is_identity()));
    }

    #[test]
    fn gt_exponentiation(seed in any::<u64>()) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        let e = pairing(&G1Affine::<U64>::GENERATOR, &G2Affine::GENERATOR);
        let g = e.pow(&small_scalar(&mut rng));
        let k = [rng.next_u64_(), rng.next_u64_(), rng.next_u64_(), rng.next_u64_()];
        let ct = g.pow(&k);
        prop_assert_eq!(ct, g.pow_vartime(&k));
        prop_assert_eq!(ct, GtTable::new(&g).pow(&k));
        prop_assert_eq!(ct, Gt::from_fp12(&g.as_fp12().pow_vartime(&k)));
        // Squaring, inverse, Frobenius.
        prop_assert_eq!(g.square(), g * g);
        prop_assert_eq!(Gt::from_fp12(&g.as_fp12().square()), g.square());
        prop_assert!(bool::from((g * g.invert()).is_identity()));
        prop_assert_eq!(g.frobenius_map(1), g.pow_vartime(&<Sm9P as sm_field::Modulus>::P));
        // Encoding round trip and tamper rejection.
        let bytes = g.to_bytes();
        prop_assert_eq!(Gt::<U64>::from_bytes_checked(&bytes).unwrap(), g);
        let mut bad = bytes;
        bad[100] ^= 1;
        prop_assert!(Gt::<U64>::from_bytes_checked(&bad).is_err());
        prop_assert!(bool::from(Gt::<U64>::from_bytes(&bad).is_none()));
    }
}

trait NextU64 {
    fn next_u64_(&mut self) -> u64;
}
impl NextU64 for ChaCha20Rng {
    fn next_u64_(&mut self) -> u64 {
        rand_chacha::rand_core::Rng::next_u64(self)
    }
}

trait FromFp12 {
    fn from_fp12(f: &Fp12<U64>) -> Self;
}
impl FromFp12 for Gt<U64> {
    fn from_fp12(f: &Fp12<U64>) -> Self {
        // Round trip through the checked decoder: f must be in GT.
        Gt::from_bytes_checked(&f.to_bytes()).unwrap()
    }
}

#[test]
fn non_degeneracy_and_identities() {
    let p = G1Affine::<U64>::GENERATOR;
    let q = G2Affine::<U64>::GENERATOR;
    let e = pairing(&p, &q);
    assert!(!bool::from(e.is_identity()));
    // e has order n: e^(n−1)·e = 1.
    let nm1 = (Fp::<sm_field::Sm9N, U64>::ZERO - Fp::ONE).to_canonical_limbs();
    assert!(bool::from((e.pow_vartime(&nm1) * e).is_identity()));
    assert!(bool::from(pairing(&G1Affine::IDENTITY, &q).is_identity()));
    assert!(bool::from(pairing(&p, &G2Affine::IDENTITY).is_identity()));
    assert!(bool::from(
        pairing_prepared(&p, &G2Prepared::new(&G2Affine::IDENTITY)).is_identity()
    ));
    assert_eq!(
        multi_pairing(&[(p, q), (G1Affine::IDENTITY, q), (p, G2Affine::IDENTITY)]),
        e
    );
    assert!(bool::from(multi_pairing::<U64>(&[]).is_identity()));
    // Miller loop value is not yet in GT, but its final exponentiation is.
    let f = miller_loop(&p, &q);
    assert!(!bool::from(f.ct_eq(&Fp12::ONE)));
    assert_eq!(final_exponentiation(&f), e);
    // Exponent edge cases.
    assert!(bool::from(e.pow(&[0; 4]).is_identity()));
    assert_eq!(e.pow(&[1, 0, 0, 0]), e);
    assert_eq!(e.pow(&[u64::MAX; 4]), e.pow_vartime(&[u64::MAX; 4]));
    assert_eq!(
        GtTable::new(&e).pow(&[u64::MAX; 4]),
        e.pow_vartime(&[u64::MAX; 4])
    );
    assert_eq!(
        e.pow(&[0x8888_8888_8888_8888; 4]),
        e.pow_vartime(&[0x8888_8888_8888_8888; 4])
    );
    // Points off the curve are rejected by the decoders.
    let mut b = [0u8; 65];
    b[0] = 4;
    b[32] = 1;
    assert_eq!(
        G1Affine::<U64>::from_sec1(&b),
        Err(sm_curve::Error::NotOnCurve)
    );
}

/// Every compiled backend gives the same bytes for the pairing and GT exponentiation.
#[cfg(feature = "all-backends")]
#[test]
fn backends_agree() {
    fn run<B: Backend>() -> ([u8; 384], [u8; 384]) {
        let e = pairing(&G1Affine::<B>::GENERATOR, &G2Affine::GENERATOR);
        (e.to_bytes(), e.pow(&[3, 5, 7, 11]).to_bytes())
    }
    let r = run::<U64>();
    assert_eq!(run::<sm_field::U32>(), r);
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    assert_eq!(run::<sm_field::Asm>(), r);
    #[cfg(target_arch = "x86_64")]
    {
        use sm_field::backend::cpu;
        if sm_testvectors::backend_runs_here("Mulx", cpu::has_mulx_adx(), "SM_EXPECT_MULX") {
            assert_eq!(run::<sm_field::Mulx>(), r);
        }
        let here = cpu::has_mulx_adx() && cpu::has_ifma();
        if sm_testvectors::backend_runs_here("MulxIfma", here, "SM_EXPECT_IFMA") {
            assert_eq!(run::<sm_field::MulxIfma>(), r);
        }
    }
}

/// Values cross backends by limb copy: a prepared point, a GT table and points built on one
/// backend serve the entry points of another, with the same bytes.
#[cfg(feature = "all-backends")]
#[test]
fn values_move_between_backends() {
    use sm_field::U32;
    use sm_pairing::{pairing_prepared, G2Prepared, GtTable};
    let (p, q) = (G1Affine::<U64>::GENERATOR, G2Affine::<U64>::GENERATOR);
    let e = pairing(&p, &q);
    let (p32, q32) = (p.to_backend::<U32>(), q.to_backend::<U32>());
    assert_eq!(p32, G1Affine::<U32>::GENERATOR);
    assert_eq!(q32.to_backend::<U64>(), q);
    assert_eq!(pairing(&p32, &q32).to_backend::<U64>(), e);
    let prepared = G2Prepared::new(&q32);
    assert_eq!(pairing_prepared(&p32, &prepared).to_bytes(), e.to_bytes());
    let k = [3, 5, 7, 11];
    let table = GtTable::new(&e.to_backend::<U32>());
    assert_eq!(table.pow(&k).to_bytes(), e.pow(&k).to_bytes());
    assert_eq!(e.mul(&e), e.square());
    assert_eq!(
        Gt::<U32>::from_bytes_checked(&e.to_bytes())
            .unwrap()
            .to_backend::<U64>(),
        e
    );
}

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm-pairing laws",
        &[
            "u64",
            #[cfg(feature = "all-backends")]
            "u32",
            #[cfg(all(
                feature = "all-backends",
                any(target_arch = "x86_64", target_arch = "aarch64")
            ))]
            "asm",
        ],
    );
}
