//! Field inversion, exponentiation, scalar multiplication (SM2, SM9 G1/G2), GT exponentiation
//! and pairings with a secret argument, on the backend `B`.

use sm_curve::sm9::{G1Affine, G2Affine, Sm9G1Curve, Sm9G2Curve};
use sm_curve::{Affine, CurveParams, Jacobian, Sm2Curve};
use sm_field::{Backend, Field, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P};
use sm_pairing::{G2Prepared, Gt, GtTable};

use crate::{ensure, Op, Prepared, Secret};

type Sm9Scalar<B> = Fp<Sm9N, B>;

fn field_invert<M: Modulus + 'static, B: Backend>(s: &Secret) -> Prepared {
    let a = Fp::<M, B>::from_bytes_reduced(&s.key);
    Prepared::new(
        move || a.invert().unwrap_or(Fp::ZERO).to_bytes().to_vec(),
        |s, out| {
            let a = Fp::<M, B>::from_bytes_reduced(&s.key);
            let inv: Option<Fp<M, B>> = Fp::from_bytes(out.try_into().map_err(|_| "len")?).into();
            ensure(inv.is_some_and(|i| a * i == Fp::ONE), "a·a⁻¹ ≠ 1")
        },
    )
}

fn limbs_of(bytes: &[u8; 32]) -> [u64; 4] {
    let mut l = [0u64; 4];
    for (i, c) in bytes.rchunks_exact(8).enumerate() {
        l[i] = u64::from_be_bytes(c.try_into().expect("8 bytes"));
    }
    l
}

fn field_pow<B: Backend>(s: &Secret) -> Prepared {
    let e = limbs_of(&s.key);
    let base = Fp::<Sm2P, B>::from_u64(3);
    Prepared::new(
        move || base.pow(&e).to_bytes().to_vec(),
        move |s, out| {
            let want = base.pow_vartime(&limbs_of(&s.key)).to_bytes();
            ensure(out == want, "pow ≠ pow_vartime")
        },
    )
}

/// The affine coordinates `x ‖ y` (the output compared by the point operations).
pub(super) fn coords<C: CurveParams>(p: &Affine<C>) -> Vec<u8> {
    let l = <C::Base as Field>::ENCODED_LEN;
    let mut out = vec![0u8; 2 * l];
    p.x().write_bytes(&mut out[..l]);
    p.y().write_bytes(&mut out[l..]);
    out
}

/// The secret key as a scalar of `C`.
pub(super) fn scalar<C: CurveParams>(s: &Secret) -> C::Scalar {
    // `key < 2^255 < n`, so this never falls back (and selects without branching).
    C::Scalar::read_bytes(&s.key).unwrap_or(<C::Scalar as Field>::ZERO)
}

/// `k·G` through the curve's fixed-base path (comb table for SM2/SM9), then to affine.
fn mul_generator<C: CurveParams>(s: &Secret) -> Prepared {
    let k = scalar::<C>(s);
    Prepared::new(
        move || coords(&C::mul_generator(&k).to_affine()),
        |s, out| {
            let want = Jacobian::<C>::generator().mul_vartime(&scalar::<C>(s));
            ensure(out == coords(&want.to_affine()), "comb ≠ vartime")
        },
    )
}

/// `k·P` for a public `P` (fixed-window ladder), then to affine.
fn mul_point<C: CurveParams>(s: &Secret) -> Prepared {
    let p = Jacobian::<C>::generator().mul_vartime(&C::Scalar::from_u64_like(12345));
    let k = scalar::<C>(s);
    Prepared::new(
        move || coords(&p.mul(&k).to_affine()),
        move |s, out| {
            let want = p.mul_vartime(&scalar::<C>(s));
            ensure(out == coords(&want.to_affine()), "ladder ≠ vartime")
        },
    )
}

/// Small public scalars for building test points.
trait FromU64Like {
    fn from_u64_like(v: u64) -> Self;
}
impl<F: Field> FromU64Like for F {
    fn from_u64_like(v: u64) -> Self {
        let mut b = [0u8; 32];
        b[24..].copy_from_slice(&v.to_be_bytes());
        Option::from(F::read_bytes(&b)).expect("small")
    }
}

/// The generator `e(P1, P2)` of GT on `B`.
pub(super) fn g<B: Backend>() -> Gt<B> {
    sm_pairing::pairing(&G1Affine::<B>::GENERATOR, &G2Affine::<B>::GENERATOR)
}

fn gt_pow<B: Backend>(s: &Secret) -> Prepared {
    let base = g::<B>();
    let k = Sm9Scalar::<B>::from_bytes_reduced(&s.key);
    Prepared::new(
        move || base.pow_scalar(&k).to_bytes().to_vec(),
        move |s, out| {
            let want = base.pow_vartime(&limbs_of(&s.key));
            ensure(out == want.to_bytes(), "pow ≠ pow_vartime")
        },
    )
}

fn gt_table_pow<B: Backend>(s: &Secret) -> Prepared {
    let base = g::<B>();
    let table = GtTable::new(&base);
    let k = Sm9Scalar::<B>::from_bytes_reduced(&s.key);
    Prepared::new(
        move || table.pow_scalar(&k).to_bytes().to_vec(),
        move |s, out| {
            let want = base.pow_vartime(&limbs_of(&s.key));
            ensure(out == want.to_bytes(), "table pow ≠ pow_vartime")
        },
    )
}

/// `e(P1, Q)` for a secret `Q = k·P2` (the shape of SM9 decryption: lines of the secret
/// user key, then a pairing with a public G1 point).
fn pairing_secret_g2<B: Backend>(s: &Secret) -> Prepared {
    let k = Sm9Scalar::<B>::from_bytes_reduced(&s.key);
    let q = Sm9G2Curve::<B>::mul_generator(&k).to_affine();
    Prepared::new(
        move || {
            let prepared = G2Prepared::new(&q);
            sm_pairing::pairing_prepared(&G1Affine::<B>::GENERATOR, &prepared)
                .to_bytes()
                .to_vec()
        },
        |s, out| {
            let want = g::<B>().pow_vartime(&limbs_of(&s.key));
            ensure(out == want.to_bytes(), "e(P1, kP2) ≠ g^k")
        },
    )
}

/// `e(P, P2)` for a secret `P = k·P1`.
fn pairing_secret_g1<B: Backend>(s: &Secret) -> Prepared {
    let k = Sm9Scalar::<B>::from_bytes_reduced(&s.key);
    let p = Sm9G1Curve::<B>::mul_generator(&k).to_affine();
    Prepared::new(
        move || {
            sm_pairing::pairing(&p, &G2Affine::<B>::GENERATOR)
                .to_bytes()
                .to_vec()
        },
        |s, out| {
            let want = g::<B>().pow_vartime(&limbs_of(&s.key));
            ensure(out == want.to_bytes(), "e(kP1, P2) ≠ g^k")
        },
    )
}

pub(crate) fn ops<B: Backend>() -> Vec<Op> {
    let op = Op::secret;
    vec![
        op(
            "field.invert.sm2p",
            "a in GF(p) of SM2",
            field_invert::<Sm2P, B> as fn(&Secret) -> Prepared,
            true,
        ),
        op(
            "field.invert.sm2n",
            "a mod n of SM2",
            field_invert::<Sm2N, B>,
            true,
        ),
        op(
            "field.invert.sm9p",
            "a in GF(p) of SM9",
            field_invert::<Sm9P, B>,
            true,
        ),
        op(
            "field.invert.sm9n",
            "a mod n of SM9",
            field_invert::<Sm9N, B>,
            true,
        ),
        op(
            "field.pow.sm2p",
            "exponent of 3^e in GF(p)",
            field_pow::<B>,
            true,
        ),
        op(
            "sm2.mul_generator",
            "k of k·G (comb)",
            mul_generator::<Sm2Curve<B>>,
            true,
        ),
        op(
            "sm2.mul_point",
            "k of k·P (fixed window)",
            mul_point::<Sm2Curve<B>>,
            true,
        ),
        op(
            "sm9.g1.mul_generator",
            "k of k·P1",
            mul_generator::<Sm9G1Curve<B>>,
            true,
        ),
        op(
            "sm9.g1.mul_point",
            "k of k·P",
            mul_point::<Sm9G1Curve<B>>,
            true,
        ),
        op(
            "sm9.g2.mul_generator",
            "k of k·P2",
            mul_generator::<Sm9G2Curve<B>>,
            true,
        ),
        op(
            "sm9.g2.mul_point",
            "k of k·Q",
            mul_point::<Sm9G2Curve<B>>,
            true,
        ),
        op("gt.pow", "exponent of g^k", gt_pow::<B>, true),
        op(
            "gt.table_pow",
            "exponent of g^k (fixed-base table)",
            gt_table_pow::<B>,
            true,
        ),
        op(
            "pairing.secret_g2",
            "Q of e(P1, Q) with prepared lines",
            pairing_secret_g2::<B>,
            false,
        ),
        op(
            "pairing.secret_g1",
            "P of e(P, P2)",
            pairing_secret_g1::<B>,
            false,
        ),
    ]
}
