//! Final exponentiation f ↦ f^((p¹² − 1)/n) and cyclotomic-subgroup helpers.
//!
//! (p¹² − 1)/n = (p⁶ − 1)(p² + 1) · (p⁴ − p² + 1)/n.
//! * Easy part: f ← conj(f)·f⁻¹ (= f^(p⁶−1)), then f ← f^(p²)·f. The result lies in the
//!   cyclotomic subgroup G_{Φ₆(p²)}, where inversion is conjugation and squaring is cheap.
//! * Hard part: (p⁴ − p² + 1)/n = λ₀ + λ₁p + λ₂p² + λ₃p³ with λ₃ = 1, λ₂ = 6t² + 1,
//!   λ₁ = −36t³ − 18t² − 12t + 1, λ₀ = −36t³ − 30t² − 18t − 2 (exactly, not a multiple), evaluated
//!   with three exponentiations by t and the vectorial addition chain of Scott, Benger, Charlemagne,
//!   Dominguez Perez, Kachisa, "On the final exponentiation for calculating pairings on ordinary
//!   elliptic curves", ePrint 2008/490 §5 (BN curves).

use sm_field::{Backend, Fp12, Fp4};

use crate::{Gt, BN_T};

/// Granger–Scott squaring in the cyclotomic subgroup ("Faster squaring in the cyclotomic
/// subgroup of sixth degree extensions", ePrint 2009/565 §3.2), with GF(p¹²) = GF(q²)[w]/(w³ − v)
/// for q = p² (GF(q²) = GF(p⁴)): for a = a0 + a1·w + a2·w² with a^(q²−q+1) = 1,
/// `a² = (3a0² − 2·conj(a0)) + (3v·a2² + 2·conj(a1))·w + (3a1² − 2·conj(a2))·w²`,
/// conj being the GF(p⁴)/GF(p²) conjugation. 3 GF(p⁴) squarings = 6 GF(p²) multiplications.
/// Only valid on the cyclotomic subgroup (e.g. after the easy part, and on GT).
#[inline]
pub(crate) fn cyclotomic_square<B: Backend>(a: &Fp12<B>) -> Fp12<B> {
    #[inline(always)]
    fn three_minus_two<B2: Backend>(s: &Fp4<B2>, c: &Fp4<B2>) -> Fp4<B2> {
        // 3s − 2c = 2(s − c) + s
        s.sub(c).double().add(s)
    }
    #[inline(always)]
    fn three_plus_two<B2: Backend>(s: &Fp4<B2>, c: &Fp4<B2>) -> Fp4<B2> {
        // 3s + 2c = 2(s + c) + s
        s.add(c).double().add(s)
    }
    let s0 = a.c0.square();
    let s1 = a.c1.square();
    let s2 = a.c2.square().mul_by_v();
    Fp12::new(
        three_minus_two(&s0, &a.c0.conjugate()),
        three_plus_two(&s2, &a.c1.conjugate()),
        three_minus_two(&s1, &a.c2.conjugate()),
    )
}

/// NAF digits of t (little-endian) and their count.
const fn naf_t() -> ([i8; 66], usize) {
    let mut k = BN_T as u128;
    let mut d = [0i8; 66];
    let mut i = 0;
    while k != 0 {
        if k & 1 == 1 {
            let z = 2 - (k % 4) as i8;
            d[i] = z;
            if z == 1 {
                k -= 1;
            } else {
                k += 1;
            }
        }
        k >>= 1;
        i += 1;
    }
    (d, i)
}

const T_NAF: ([i8; 66], usize) = naf_t();

/// `a^t` in the cyclotomic subgroup: NAF of t (64 digits, 11 non-zero), 63 cyclotomic squarings
/// and 10 multiplications; digit −1 multiplies by conj(a) = a⁻¹. t is public.
pub(crate) fn cyclotomic_exp_by_t<B: Backend>(a: &Fp12<B>) -> Fp12<B> {
    let (d, len) = T_NAF;
    let a_inv = a.conjugate();
    let mut acc = *a; // top digit is +1
    let mut i = len - 1;
    while i > 0 {
        i -= 1;
        acc = cyclotomic_square(&acc);
        if d[i] == 1 {
            acc = acc.mul(a);
        } else if d[i] == -1 {
            acc = acc.mul(&a_inv);
        }
    }
    acc
}

/// The easy part f^((p⁶ − 1)(p² + 1)); the result is in the cyclotomic subgroup (0 maps to 0).
pub(crate) fn easy_part<B: Backend>(f: &Fp12<B>) -> Fp12<B> {
    let inv = f.invert().unwrap_or(Fp12::ZERO);
    let f1 = f.conjugate().mul(&inv);
    f1.frobenius_map(2).mul(&f1)
}

/// The hard part f^((p⁴ − p² + 1)/n) for f in the cyclotomic subgroup (ePrint 2008/490 §5):
/// 1. fx = f^t, fx2 = fx^t, fx3 = fx2^t
/// 2. y0 = f^p·f^(p²)·f^(p³), y1 = f⁻¹, y2 = fx2^(p²), y3 = (fx^p)⁻¹, y4 = (fx·fx2^p)⁻¹,
///    y5 = fx2⁻¹, y6 = (fx3·fx3^p)⁻¹
/// 3. result = y0·y1²·y2⁶·y3¹²·y4¹⁸·y5³⁰·y6³⁶ by the chain T0 = y6²·y4·y5, T1 = y3·y5·T0,
///    T0 = T0·y2, T1 = (T1²·T0)², T0 = T1·y1, T1 = T1·y0, result = T0²·T1.
pub(crate) fn hard_part<B: Backend>(f: &Fp12<B>) -> Fp12<B> {
    let fx = cyclotomic_exp_by_t(f);
    let fx2 = cyclotomic_exp_by_t(&fx);
    let fx3 = cyclotomic_exp_by_t(&fx2);
    let y0 = f
        .frobenius_map(1)
        .mul(&f.frobenius_map(2))
        .mul(&f.frobenius_map(3));
    let y1 = f.conjugate();
    let y2 = fx2.frobenius_map(2);
    let y3 = fx.frobenius_map(1).conjugate();
    let y4 = fx.mul(&fx2.frobenius_map(1)).conjugate();
    let y5 = fx2.conjugate();
    let y6 = fx3.mul(&fx3.frobenius_map(1)).conjugate();
    let mut t0 = cyclotomic_square(&y6).mul(&y4).mul(&y5);
    let mut t1 = y3.mul(&y5).mul(&t0);
    t0 = t0.mul(&y2);
    t1 = cyclotomic_square(&cyclotomic_square(&t1).mul(&t0));
    t0 = t1.mul(&y1);
    t1 = t1.mul(&y0);
    cyclotomic_square(&t0).mul(&t1)
}

/// f^((p¹² − 1)/n): maps a Miller-loop value to GT. Constant time.
pub fn final_exponentiation<B: Backend>(f: &Fp12<B>) -> Gt<B> {
    Gt::from_fp12_unchecked(hard_part(&easy_part(f)))
}
