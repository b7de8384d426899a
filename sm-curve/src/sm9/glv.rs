//! GLV scalar multiplication on SM9 G1 (Gallant–Lambert–Vanstone, CRYPTO 2001).
//!
//! `k·P = k₁·P + k₂·φ(P)` with `|k₁|, |k₂| < 2^127` from [`decompose`](super::decompose).
//!
//! **Constant time** ([`Jacobian::mul_endo`]): one table `P, 2P, …, 16P` (co-Z chain, affine
//! after one inversion: `multiples.rs`), both parts recoded into signed 5-bit Booth digits
//! (26 windows cover 130 bits), per window 5 doublings and two mixed additions of `±|d|·P` and
//! `±|d|·φ(P)` (masked whole-table selection, φ applied to the selected entry, sign by
//! conditional negation). That is 125 doublings and 51 additions instead of 255 and 52.
//!
//! **Exceptional cases of the incomplete addition.** Before an addition in window `i` the
//! accumulator is `x₁·P + x₂·φ(P)` and the addend `±d·P` or `±d·φ(P)`; the doubling case means
//! that `(x₁ ∓ d, x₂)` (or `(x₁, x₂ ∓ d)`) is in the lattice `{(a, b) : a + bλ ≡ 0 mod n}`. For
//! `i ≥ 1` both coordinates are below `2^127/2^5 + 2^5 < 2^123`, while every nonzero lattice
//! vector has a coordinate of at least 2^125 (checked in `src/sm9/tests.rs`), so the
//! vector is zero, which forces `d = 0` (the identity, handled). Only the two additions of window
//! 0 use the complete formula.
//!
//! **Variable time** ([`Jacobian::mul_endo_vartime`]): Straus interleaving of the width-5 NAFs of
//! `|k₁|` and `|k₂|` over affine odd multiples (public scalars only).

use sm_field::{Backend, Fp, Sm9N};
use subtle::{ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use super::decompose::{decompose, GLV};
use super::multiples::{conditional_negate, multiples, select};
use super::Sm9G1Curve;
use crate::scalar_mul::{booth_digit, scalar_to_limbs, wnaf_vartime};
use crate::{Affine, Jacobian};

type G1<B> = Jacobian<Sm9G1Curve<B>>;

/// Window width and windows of the constant-time ladder (5 · 26 = 130 ≥ 128 bits: a part below
/// 2^127 has Booth digits up to window 25 only).
const W: u32 = 5;
const WINDOWS: usize = 26;

impl<B: Backend> Jacobian<Sm9G1Curve<B>> {
    /// `k·P` in constant time by the GLV method: `k = k₁ + k₂·λ` with `|kᵢ| < 2^127`, signed
    /// 5-bit windows, φ applied to table entries (125 doublings, 51 mixed additions). `P` must
    /// be in G1 (every point of E(GF(p)) is: the cofactor is 1).
    pub fn mul_endo(&self, k: &Fp<Sm9N, B>) -> Self {
        let mut l = scalar_to_limbs(k);
        let (mut parts, signs) = decompose(&l, &GLV);
        l.zeroize();
        let mut mults = multiples(self);
        let mut table = [[0u64; 8]; 16];
        for (raw, e) in table.iter_mut().zip(mults.iter()) {
            raw[..4].copy_from_slice(&e.x.to_mont_limbs());
            raw[4..].copy_from_slice(&e.y.to_mont_limbs());
        }
        let mut acc = G1::<B>::IDENTITY;
        for i in (0..WINDOWS).rev() {
            if i + 1 != WINDOWS {
                for _ in 0..W {
                    acc = acc.double();
                }
            }
            for (part, (k_i, s_i)) in parts.iter().zip(signs.iter()).enumerate() {
                let (abs, neg) = booth_digit(k_i, W, i);
                let raw = select(&table, abs);
                let x = Fp::from_mont_limbs([raw[0], raw[1], raw[2], raw[3]]).unwrap_or(Fp::ZERO);
                let y = Fp::from_mont_limbs([raw[4], raw[5], raw[6], raw[7]]).unwrap_or(Fp::ZERO);
                let mut t = Affine::from_coordinates_unchecked(x, y);
                t.infinity = abs.ct_eq(&0).unwrap_u8();
                if part == 1 {
                    t = t.endomorphism();
                }
                conditional_negate(&mut t, neg ^ *s_i);
                acc = if i + 1 == WINDOWS && part == 0 {
                    Jacobian::from_affine(&t)
                } else if i == 0 {
                    acc.add_affine(&t)
                } else {
                    acc.add_affine_assume_distinct(&t)
                };
            }
        }
        parts.zeroize();
        table.zeroize();
        mults.zeroize();
        // A table built from the identity holds zeros, not identities.
        acc.conditional_assign(&G1::<B>::IDENTITY, self.is_identity());
        acc
    }

    /// `k·P` by GLV with interleaved width-5 NAFs; time depends on `k` (public scalars only).
    pub fn mul_endo_vartime(&self, k: &Fp<Sm9N, B>) -> Self {
        let (parts, signs) = decompose(&scalar_to_limbs(k), &GLV);
        // Odd multiples P, 3P, …, 15P (affine) and their images under φ.
        let all = multiples(self);
        let mut t1 = [Affine::IDENTITY; 8];
        for (o, e) in t1.iter_mut().zip(all.iter().step_by(2)) {
            *o = *e;
        }
        let mut t2 = t1;
        for e in t2.iter_mut() {
            *e = e.endomorphism();
        }
        let mut tables = [t1, t2];
        for (t, s) in tables.iter_mut().zip(signs.iter()) {
            if bool::from(*s) {
                for e in t.iter_mut() {
                    *e = e.neg();
                }
            }
        }
        let nafs = [wnaf_vartime(&parts[0], 5), wnaf_vartime(&parts[1], 5)];
        straus_vartime(&tables, &nafs)
    }
}

/// `Σᵢ Σⱼ nafᵢ[j]·2^j·Tᵢ[0]` where `Tᵢ[m] = (2m + 1)·Tᵢ[0]` (public data only).
pub(crate) fn straus_vartime<C: crate::CurveParams, const D: usize>(
    tables: &[[Affine<C>; 8]; D],
    nafs: &[([i8; 258], usize); D],
) -> Jacobian<C> {
    let len = nafs.iter().map(|n| n.1).max().unwrap_or(0);
    let mut acc = Jacobian::<C>::IDENTITY;
    for i in (0..len).rev() {
        acc = acc.double();
        for (t, (naf, _)) in tables.iter().zip(nafs.iter()) {
            let d = naf[i];
            if d > 0 {
                acc = acc.add_affine_vartime(&t[(d / 2) as usize]);
            } else if d < 0 {
                acc = acc.add_affine_vartime(&t[(-d / 2) as usize].neg());
            }
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CurveParams;
    use sm_field::U64;

    #[test]
    fn glv_matches_fixed_window() {
        let p = G1::<U64>::generator().double();
        for k in [0u64, 1, 2, 15, 16, 17, 0xdead_beef] {
            let k = Fp::<Sm9N, U64>::from_u64(k);
            assert_eq!(p.mul_endo(&k), p.mul(&k));
            assert_eq!(p.mul_endo_vartime(&k), p.mul(&k));
        }
        let minus_one = -Fp::<Sm9N, U64>::ONE;
        assert_eq!(p.mul_endo(&minus_one), p.neg());
        assert_eq!(
            Sm9G1Curve::<U64>::mul_generator(&minus_one),
            G1::<U64>::generator().neg()
        );
    }
}
