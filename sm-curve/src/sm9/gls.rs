//! GLS scalar multiplication and the subgroup test on SM9 G2 (Galbraith–Lin–Scott,
//! EUROCRYPT 2009; four-dimensional for BN curves: Galbraith–Scott, "Exponentiation in
//! pairing-friendly groups using homomorphisms", Pairing 2008, §4).
//!
//! `k·Q = k₀·Q + k₁·ψ(Q) + k₂·ψ²(Q) + k₃·ψ³(Q)` with `|kᵢ| < 2^64` from
//! [`decompose`](super::decompose).
//!
//! **Constant time** ([`Jacobian::mul_endo`]): one table `Q, 2Q, …, 16Q` (co-Z chain, affine after
//! one inversion: `multiples.rs`), so that every addition is a mixed one; the four parts are
//! recoded into signed 5-bit Booth digits (13 windows cover 65 bits); per window 5 doublings and
//! four mixed additions of `±ψⁱ(|d|·Q)` (masked whole-table selection, ψⁱ applied to the
//! selected entry, sign by conditional negation): 60 doublings and 51 additions instead of 255
//! and 52.
//!
//! **Exceptional cases.** As in `glv.rs`: before an addition in window `i ≥ 1` the accumulator
//! minus the addend is `Σ xⱼ·ψʲ(Q)` with `|xⱼ| < 2^64/2^5 + 2^5 < 2^60`; the doubling case needs
//! `(xⱼ)` in the lattice of [`GLS`](super::decompose::GLS), whose nonzero vectors have a
//! coordinate of at least 2^62 (checked in `src/sm9/tests.rs`). Only the four additions
//! of window 0 use the complete formula. `Q` must lie in G2 (ψ = [6t²] holds only there): decode
//! with [`Affine::is_in_subgroup`] first.
//!
//! **Subgroup test** ([`Affine::is_in_subgroup`]): `Q ∈ G2` iff
//! `[t + 1]Q + ψ([t]Q) + ψ²([t]Q) = ψ³([2t]Q)`, the lattice vector `(t + 1, t, t, −2t)` of
//! `GLS` applied to Q (Scott, "A note on group membership tests for G1, G2 and GT on BLS
//! pairing-friendly curves", ePrint 2021/1130, §5 for BN curves; El Housni–Guillevic–Piellard,
//! ePrint 2022/352). It holds on G2; conversely `E'(GF(p²))` is cyclic of order `n·h` with `h`
//! square-free and prime to n, and the test rejects a point of each prime order dividing `h`
//! (checked in `src/sm9/tests.rs`), so its kernel is exactly G2. Cost: one 63-bit
//! multiplication instead of a 256-bit one.

use sm_field::{Backend, Fp, Fp2, Sm9N};
use subtle::{Choice, ConditionallySelectable, ConstantTimeEq};
use zeroize::Zeroize;

use super::decompose::{decompose, GLS, T};
use super::glv::straus_vartime;
use super::multiples::{conditional_negate, multiples, select};
use super::Sm9G2Curve;
use crate::scalar_mul::{booth_digit, scalar_to_limbs, wnaf_vartime};
use crate::{Affine, Jacobian};

type G2<B> = Jacobian<Sm9G2Curve<B>>;
type G2Affine<B> = Affine<Sm9G2Curve<B>>;

/// Window width and windows (5 · 13 = 65 bits: a part below 2^64 has Booth digits up to
/// window 12 only).
const W: u32 = 5;
const WINDOWS: usize = 13;

impl<B: Backend> Jacobian<Sm9G2Curve<B>> {
    /// `k·Q` in constant time by the 4-dimensional GLS method: `k = Σ kᵢ·(6t²)ⁱ` with
    /// `|kᵢ| < 2^64`, signed 5-bit windows, ψ applied to table entries (60 doublings, 51 mixed
    /// additions).
    /// `Q` must be in G2.
    pub fn mul_endo(&self, k: &Fp<Sm9N, B>) -> Self {
        let mut l = scalar_to_limbs(k);
        let (mut parts, signs) = decompose(&l, &GLS);
        l.zeroize();
        let mut mults = multiples(self);
        let mut table = [[0u64; 16]; 16];
        for (raw, e) in table.iter_mut().zip(mults.iter()) {
            for (dst, v) in raw
                .chunks_exact_mut(4)
                .zip([e.x.c0, e.x.c1, e.y.c0, e.y.c1])
            {
                dst.copy_from_slice(&v.to_mont_limbs());
            }
        }
        let fp = |l: &[u64]| Fp::from_mont_limbs([l[0], l[1], l[2], l[3]]).unwrap_or(Fp::ZERO);
        let mut acc = G2::<B>::IDENTITY;
        for i in (0..WINDOWS).rev() {
            if i + 1 != WINDOWS {
                for _ in 0..W {
                    acc = acc.double();
                }
            }
            for (part, (k_i, s_i)) in parts.iter().zip(signs.iter()).enumerate() {
                let (abs, neg) = booth_digit(k_i, W, i);
                let raw = select(&table, abs);
                let mut t = G2Affine::<B>::from_coordinates_unchecked(
                    Fp2::new(fp(&raw[0..4]), fp(&raw[4..8])),
                    Fp2::new(fp(&raw[8..12]), fp(&raw[12..16])),
                );
                t.infinity = abs.ct_eq(&0).unwrap_u8();
                t = match part {
                    0 => t,
                    1 => t.psi(),
                    2 => t.psi2(),
                    _ => t.psi3(),
                };
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
        acc.conditional_assign(&G2::<B>::IDENTITY, self.is_identity());
        acc
    }

    /// `k·Q` by GLS with four interleaved width-5 NAFs; time depends on `k` (public scalars only).
    /// `Q` must be in G2.
    pub fn mul_endo_vartime(&self, k: &Fp<Sm9N, B>) -> Self {
        let (parts, signs) = decompose(&scalar_to_limbs(k), &GLS);
        let all = multiples(self);
        let mut t0 = [G2Affine::<B>::IDENTITY; 8];
        for (o, e) in t0.iter_mut().zip(all.iter().step_by(2)) {
            *o = *e;
        }
        let mut tables = [t0; 4];
        for (i, (t, s)) in tables.iter_mut().zip(signs.iter()).enumerate() {
            for e in t.iter_mut() {
                *e = match i {
                    0 => *e,
                    1 => e.psi(),
                    2 => e.psi2(),
                    _ => e.psi3(),
                };
                if bool::from(*s) {
                    *e = e.neg();
                }
            }
        }
        let nafs = [
            wnaf_vartime(&parts[0], 5),
            wnaf_vartime(&parts[1], 5),
            wnaf_vartime(&parts[2], 5),
            wnaf_vartime(&parts[3], 5),
        ];
        straus_vartime(&tables, &nafs)
    }

    /// `[t]Q` for the BN parameter t by double-and-add with the complete addition (constant
    /// time in Q; t is public).
    fn mul_by_t(&self) -> Self {
        let mut acc = *self; // the top bit of t
        for i in (0..(127 - T.leading_zeros())).rev() {
            acc = acc.double();
            if (T >> i) & 1 == 1 {
                acc = acc.add(self);
            }
        }
        acc
    }

    /// Whether the point lies in G2, the order-n subgroup, by the endomorphism test
    /// `[t + 1]Q + ψ([t]Q) + ψ²([t]Q) = ψ³([2t]Q)` (exact for SM9: see `src/sm9/gls.rs`);
    /// constant time. Does not check the curve equation.
    pub fn is_in_subgroup(&self) -> Choice {
        let a = self.mul_by_t();
        let lhs = a.add(self).add(&a.psi()).add(&a.psi2());
        let rhs = a.double().psi3();
        lhs.ct_eq(&rhs)
    }
}

impl<B: Backend> Affine<Sm9G2Curve<B>> {
    /// Whether the point lies in G2 (see [`Jacobian::is_in_subgroup`]); constant time. Does not
    /// check the curve equation ([`Affine::from_coordinates`] and the decoders do).
    pub fn is_in_subgroup(&self) -> Choice {
        self.to_jacobian().is_in_subgroup()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sm_field::U64;

    #[test]
    fn gls_matches_fixed_window() {
        let q = G2::<U64>::generator().double();
        for k in [0u64, 1, 2, 15, 16, 17, 0xdead_beef] {
            let k = Fp::<Sm9N, U64>::from_u64(k);
            assert_eq!(q.mul_endo(&k), q.mul(&k));
            assert_eq!(q.mul_endo_vartime(&k), q.mul(&k));
        }
        let minus_one = -Fp::<Sm9N, U64>::ONE;
        assert_eq!(q.mul_endo(&minus_one), q.neg());
        assert!(bool::from(q.is_in_subgroup()));
        assert!(bool::from(G2::<U64>::IDENTITY.is_in_subgroup()));
    }
}
