//! Fp2 = Fp[u]/(u² + 2): field laws, square roots, the compression sign and the encoding, on
//! every compiled backend.

use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_field::{Backend, Field, Fp, Fp2, Sm9P, U64};
use subtle::ConditionallySelectable;

fn rand2<B: Backend>(seed: u64) -> (Fp2<B>, Fp2<B>, Fp2<B>) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (
        Fp2::random(&mut rng),
        Fp2::random(&mut rng),
        Fp2::random(&mut rng),
    )
}

fn laws<B: Backend>(seed: u64) {
    let (a, b, c) = rand2::<B>(seed);
    assert_eq!(a * b, b * a);
    assert_eq!((a * b) * c, a * (b * c));
    assert_eq!(a * (b + c), a * b + a * c);
    assert_eq!(a.square(), a * a);
    assert_eq!(a.double(), a + a);
    assert_eq!(a - b + b, a);
    assert_eq!(a + (-a), Fp2::ZERO);
    // u² = −2
    assert_eq!(Fp2::<B>::U.square(), -Fp2::from_fp(Fp::from_u64(2)));
    assert_eq!(a.mul_by_u(), a * Fp2::U);
    assert_eq!(a.mul_by_fp(&b.c0), a * Fp2::from_fp(b.c0));
    let ai = a.invert().unwrap();
    assert_eq!(a * ai, Fp2::ONE);
    assert_eq!(a.invert_vartime().unwrap(), ai);
    assert_eq!(a.norm(), (a * a.conjugate()).c0);
    // Frobenius = x^p = conjugation.
    assert_eq!(a.pow_vartime(&Sm9P::P_LIMBS), a.conjugate());
    // Encoding round trip, u-coefficient first.
    let bytes = a.to_bytes();
    assert_eq!(&bytes[..32], &a.c1.to_bytes());
    assert_eq!(Fp2::from_bytes(&bytes).unwrap(), a);
    let mut buf = [0u8; 64];
    Field::write_bytes(&a, &mut buf);
    assert_eq!(<Fp2<B> as Field>::read_bytes(&buf).unwrap(), a);
    // Square roots.
    let sq = a.square();
    let r = sq.sqrt().unwrap();
    assert!(r == a || r == -a);
    assert!(bool::from(sq.is_square()));
    // A non-square: u·(square)·… the norm of u is 2, a non-square mod p.
    let ns = sq * Fp2::U;
    assert!(!bool::from(ns.is_square()));
    assert!(bool::from(ns.sqrt().is_none()));
    // Sign: a and −a have opposite signs (a ≠ 0).
    assert_ne!(bool::from(a.is_odd()), bool::from((-a).is_odd()));
}

trait PLimbs {
    const P_LIMBS: [u64; 4];
}
impl PLimbs for Sm9P {
    const P_LIMBS: [u64; 4] = <Sm9P as sm_field::Modulus>::P;
}

#[test]
fn fp2_edge_cases() {
    type F = Fp2<U64>;
    assert!(bool::from(F::ZERO.invert().is_none()));
    assert_eq!(F::ZERO.sqrt().unwrap(), F::ZERO);
    assert_eq!(F::ONE.sqrt().unwrap().square(), F::ONE);
    // Purely real inputs: squares and non-squares of Fp.
    for k in 1..40u64 {
        let x = F::from_fp(Fp::from_u64(k));
        let r = x.sqrt().unwrap();
        assert_eq!(r.square(), x, "sqrt of {k}");
        let y = F::new(Fp::ZERO, Fp::from_u64(k));
        let r = y.sqrt();
        if bool::from(r.is_some()) {
            assert_eq!(r.unwrap().square(), y);
        }
        assert_eq!(bool::from(r.is_some()), bool::from(y.is_square()));
    }
    // Sign: sgn0 of (0 + 1·u) is the parity of c1 = 1.
    assert!(bool::from(F::U.is_odd()));
    assert!(bool::from(F::ONE.is_odd()));
    assert!(!bool::from(F::from_fp(Fp::from_u64(2)).is_odd()));
    // Out-of-range coefficient rejected.
    let mut b = [0xffu8; 64];
    assert!(bool::from(F::from_bytes(&b).is_none()));
    b[..32].fill(0);
    assert!(bool::from(F::from_bytes(&b).is_none()));
    let sel = F::conditional_select(&F::ONE, &F::U, 1.into());
    assert_eq!(sel, F::U);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    #[test]
    fn fp2_laws_u64(seed in any::<u64>()) {
        laws::<U64>(seed);
    }
}

#[cfg(feature = "u32")]
#[test]
fn fp2_backends_agree() {
    for seed in 0..16 {
        let (a, b, _) = rand2::<U64>(seed);
        let (a32, b32) = (
            a.to_backend::<sm_field::U32>(),
            b.to_backend::<sm_field::U32>(),
        );
        assert_eq!((a * b).to_backend::<sm_field::U32>(), a32 * b32);
        assert_eq!(a.square().to_backend::<sm_field::U32>(), a32.square());
        laws::<sm_field::U32>(seed);
    }
}
