//! Final exponentiation f ↦ f^((p¹² − 1)/n).
//!
//! (p¹² − 1)/n = (p⁶ − 1)(p² + 1) · (p⁴ − p² + 1)/n.
//! * Easy part: f ← conj(f)·f⁻¹ (= f^(p⁶−1)), then f ← f^(p²)·f. The result lies in the
//!   cyclotomic subgroup G_{Φ₆(p²)}, where inversion is conjugation and squaring is cheap.
//! * Hard part: (p⁴ − p² + 1)/n = λ₀ + λ₁p + λ₂p² + λ₃p³ with λ₃ = 1, λ₂ = 6t² + 1,
//!   λ₁ = −36t³ − 18t² − 12t + 1, λ₀ = −36t³ − 30t² − 18t − 2 (exactly, not a multiple), evaluated
//!   with three exponentiations by t and the vectorial addition chain of Scott, Benger, Charlemagne,
//!   Dominguez Perez, Kachisa, "On the final exponentiation for calculating pairings on ordinary
//!   elliptic curves", ePrint 2008/490 §5 (BN curves).

use sm_field::{Backend, Fp12, Job};

use crate::cyclotomic::{exp_by_t, square as cyclotomic_square};
use crate::Gt;

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
    let fx = exp_by_t(f);
    let fx2 = exp_by_t(&fx);
    let fx3 = exp_by_t(&fx2);
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

/// [`final_exponentiation`] on `B` itself (no dispatch: for code already inside a job).
pub(crate) fn final_exponentiation_on<B: Backend>(f: &Fp12<B>) -> Gt<B> {
    Gt::from_fp12_unchecked(hard_part(&easy_part(f)))
}

/// f^((p¹² − 1)/n): maps a Miller-loop value to GT. Constant time. Dispatches once
/// (`Backend::dispatch`).
pub fn final_exponentiation<B: Backend>(f: &Fp12<B>) -> Gt<B> {
    struct FinalExp<'a, B: Backend>(&'a Fp12<B>);
    impl<B: Backend> Job for FinalExp<'_, B> {
        type Output = Gt<B>;
        fn run<B2: Backend>(self) -> Gt<B> {
            final_exponentiation_on(&self.0.to_backend::<B2>()).to_backend()
        }
    }
    B::dispatch(FinalExp(f))
}
