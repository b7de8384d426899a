//! The variable-base tables `Q, 2Q, …, 16Q` of the GLV/GLS ladders, built with co-Z additions
//! and normalised to affine coordinates with one inversion, and constant-time lookups on their
//! raw Montgomery limbs.
//!
//! Co-Z chain (Meloni, "New point addition formulae for ECC applications", WAIFI 2007;
//! Goundar–Rivain–Verneuil, CHES 2010, Alg. 19 "ZADDU"): with `P = (X₁ : Y₁ : Z)` and
//! `R = (X₂ : Y₂ : Z)` sharing Z, `h = X₁ − X₂`, `C = h²`, `W₁ = X₁C`, `W₂ = X₂C`,
//! `A₁ = Y₁(W₁ − W₂)`: `P + R = ((Y₁ − Y₂)² − W₁ − W₂ : (Y₁ − Y₂)(W₁ − X₃) − A₁ : Z·h)` and
//! `P = (W₁ : A₁ : Z·h)` share the new Z (5M + 2S instead of 11M + 5S). The chain starts from
//! the doubling "dbl-2009-l" (a = 0), whose intermediate values `4X₁Y₁²` and `8Y₁⁴` are Q
//! rescaled to the Z of 2Q. Since every Z is the previous one times `h`, the inverse Z's follow
//! from the last one by one multiplication each.
//!
//! The chain needs `jQ ≠ ±Q` for `2 ≤ j ≤ 15`, true for Q of prime order n (or the identity,
//! which yields a table of identities).

use sm_field::Field;
use subtle::ConditionallySelectable;
use zeroize::Zeroize;

use crate::comb::eq_mask;
use crate::{AKind, Affine, CurveParams, Jacobian};

/// `[Q, 2Q, …, 16Q]` in affine coordinates (see the module docs); constant time. The caller
/// zeroizes the result when Q is secret.
pub(crate) fn multiples<C: CurveParams>(q: &Jacobian<C>) -> [Affine<C>; 16] {
    debug_assert!(C::A_KIND == AKind::Zero, "dbl-2009-l needs a = 0");
    let (x1, y1, z1) = q.raw_coordinates();
    // dbl-2009-l, keeping D = 4X₁Y₁² and 8C = 8Y₁⁴ (Q rescaled by 2Y₁).
    let a = x1.square();
    let b = y1.square();
    let c = b.square();
    let d = ((x1 + b).square() - a - c).double();
    let e = a.double() + a;
    let x3 = e.square() - d.double();
    let c8 = c.double().double().double();
    let y3 = e * (d - x3) - c8;
    let z = (y1 * z1).double();
    // t[j] = (j + 1)·Q as raw Jacobian coordinates; h[j] links the Z of t[j] to the previous.
    let mut t = [(x3, y3, z); 16];
    let mut h = [C::Base::ONE; 16];
    let (mut qx, mut qy) = (d, c8); // Q with the Z of the latest sum
    let mut z = z;
    for j in 2..16 {
        let (rx, ry, _) = t[j - 1];
        let hj = qx - rx;
        let cc = hj.square();
        let w1 = qx * cc;
        let w2 = rx * cc;
        let dy = qy - ry;
        let a1 = qy * (w1 - w2);
        let x = dy.square() - w1 - w2;
        let y = dy * (w1 - x) - a1;
        z *= hj;
        t[j] = (x, y, z);
        h[j] = hj;
        qx = w1;
        qy = a1;
    }
    t[0] = (qx, qy, z);
    // 1/Z of t[15] (and t[0]); then 1/Z(t[j − 1]) = h[j]/Z(t[j]).
    let mut zinv = z.invert().unwrap_or(C::Base::ZERO);
    let inf = q.is_identity().unwrap_u8();
    let mut out = [Affine::<C>::IDENTITY; 16];
    let norm = |(x, y, _): (C::Base, C::Base, C::Base), zi: &C::Base| {
        let zi2 = zi.square();
        let mut p = Affine::from_coordinates_unchecked(x * zi2, y * zi2 * zi);
        p.infinity = inf;
        p
    };
    out[0] = norm(t[0], &zinv);
    for j in (1..16).rev() {
        out[j] = norm(t[j], &zinv);
        zinv *= h[j];
    }
    // The base point may be secret (a user's signing key).
    for (x, y, z) in t.iter_mut() {
        x.zeroize();
        y.zeroize();
        z.zeroize();
    }
    h.zeroize();
    out
}

/// Constant-time `rows[abs − 1]` (all-zero limbs for `abs = 0`): every entry is read and
/// masked arithmetically (see `comb::select_raw`).
#[inline(always)]
pub(crate) fn select<const N: usize, const L: usize>(rows: &[[u64; L]; N], abs: u8) -> [u64; L] {
    let abs = core::hint::black_box(abs as u64);
    let mut out = [0u64; L];
    for (j, e) in rows.iter().enumerate() {
        let mask = core::hint::black_box(eq_mask(j as u64 + 1, abs));
        for (o, v) in out.iter_mut().zip(e.iter()) {
            *o |= v & mask;
        }
    }
    out
}

/// `t` with `y` negated when `neg` is set (constant time).
#[inline(always)]
pub(crate) fn conditional_negate<C: CurveParams>(t: &mut Affine<C>, neg: subtle::Choice) {
    let ny = -t.y;
    t.y.conditional_assign(&ny, neg);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sm9::{Sm9G1Curve, Sm9G2Curve};
    use sm_field::U64;

    #[test]
    fn multiples_are_multiples() {
        let p = Jacobian::<Sm9G1Curve<U64>>::generator().double();
        let q = Jacobian::<Sm9G2Curve<U64>>::generator().double().double();
        let (tp, tq) = (multiples(&p), multiples(&q));
        for j in 0..16u64 {
            assert_eq!(
                tp[j as usize],
                p.mul_naive_vartime(&[j + 1, 0, 0, 0]).to_affine()
            );
            assert_eq!(
                tq[j as usize],
                q.mul_naive_vartime(&[j + 1, 0, 0, 0]).to_affine()
            );
        }
        let ti = multiples(&Jacobian::<Sm9G2Curve<U64>>::IDENTITY);
        assert!(ti.iter().all(|e| bool::from(e.is_identity())));
        let rows = [[7u64, 9]; 16];
        assert_eq!(select(&rows, 0), [0, 0]);
        assert_eq!(select(&rows, 16), [7, 9]);
    }
}
