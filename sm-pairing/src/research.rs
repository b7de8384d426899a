//! Step diagnostics for comparing this pairing with another implementation (feature
//! `research`): the Miller loop's state after every step and the final exponentiation's
//! intermediates, produced by the production code itself (the one driver in `miller.rs` with an
//! observer, the same line and exponentiation functions), not by a copy of it.
//!
//! Conventions, so that values can be matched against another implementation:
//! * T is homogeneous projective on the twist E': y² = x³ + 5u, affine (X/Z, Y/Z).
//! * A line is [`LineCoeffs`] `(c0, c2, c3)`; its value at P is `c0 + (c2·x̃P)·w² + (c3·yP)·w³`
//!   with x̃P = −3·xP after a doubling and −xP after an addition. It equals the textbook line
//!   through the untwisted points, evaluated at P, times a factor in GF(p⁴) (w³ and GF(p²)
//!   scalings), which the final exponentiation removes; the accumulator f differs from the
//!   textbook Miller function by the product of those factors.
//! * GF(p¹²) elements use `sm_field::Fp12` (384-byte encoding `c2 ‖ c1 ‖ c0`).
//!
//! Everything here is for public test inputs: the trace keeps copies of intermediate values.

pub mod variants;

use alloc::vec::Vec;

use sm_field::{Backend, Fp12, Fp2};

use crate::cyclotomic::exp_by_t;
use crate::final_exp::{easy_part, hard_part};
use crate::lines::LineCoeffs;
use crate::miller::{drive_observed, G1Side, LineSource, OnTheFly, Step, LOOP_SCHEDULE};
use crate::{G1Affine, G2Affine, Gt};

/// A twist point in homogeneous projective coordinates `(X, Y, Z)`.
pub type TwistPoint<B> = (Fp2<B>, Fp2<B>, Fp2<B>);

/// The Miller loop's state after one step of [`LOOP_SCHEDULE`].
#[derive(Clone, Copy, Debug)]
pub struct MillerStep<B: Backend> {
    /// Index of the step in [`LOOP_SCHEDULE`].
    pub index: usize,
    /// What the step did.
    pub step: Step,
    /// T after the step, homogeneous projective `(X, Y, Z)` on the twist.
    pub t: TwistPoint<B>,
    /// The step's line, independent of P.
    pub line: LineCoeffs<B>,
    /// The line evaluated at P (a sparse GF(p¹²) element, written densely).
    pub line_at_p: Fp12<B>,
    /// The accumulator f after the step (after the squaring that precedes a doubling and the
    /// line product).
    pub f: Fp12<B>,
}

/// Records the line and T of every step while the production source computes them.
struct Recording<B: Backend> {
    inner: OnTheFly<B>,
    log: Vec<(LineCoeffs<B>, TwistPoint<B>)>,
}

impl<B: Backend> LineSource<B> for Recording<B> {
    fn line(&mut self, step: Step) -> LineCoeffs<B> {
        let l = self.inner.line(step);
        let t = &self.inner.t;
        self.log.push((l, (t.x, t.y, t.z)));
        l
    }
}

/// The state after every step of the Miller loop of e(P, Q); the last entry's `f` is
/// [`miller_loop`](crate::miller_loop)`(P, Q)`.
pub fn miller_trace<B: Backend>(p: &G1Affine<B>, q: &G2Affine<B>) -> Vec<MillerStep<B>> {
    let side = G1Side::new(p, q.is_identity());
    let source = Recording {
        inner: OnTheFly::new(q),
        log: Vec::with_capacity(LOOP_SCHEDULE.len()),
    };
    let mut pairs = [(side, source)];
    let mut fs = Vec::with_capacity(LOOP_SCHEDULE.len());
    drive_observed(&mut pairs, |_, f| fs.push(*f));
    let [(side, source)] = pairs;
    source
        .log
        .into_iter()
        .zip(fs)
        .enumerate()
        .map(|(index, ((line, t), f))| {
            let step = LOOP_SCHEDULE[index];
            MillerStep {
                index,
                step,
                t,
                line,
                line_at_p: side.first(&line, step),
                f,
            }
        })
        .collect()
}

/// The intermediates of the final exponentiation f ↦ f^((p¹² − 1)/n) (see `final_exp.rs`).
#[derive(Clone, Copy, Debug)]
pub struct FinalExpTrace<B: Backend> {
    /// The easy part f^((p⁶ − 1)(p² + 1)), in the cyclotomic subgroup.
    pub easy: Fp12<B>,
    /// `easy^t`, `easy^(t²)`, `easy^(t³)`: the three exponentiations by t of the hard part.
    pub t_powers: [Fp12<B>; 3],
    /// The result, `easy^((p⁴ − p² + 1)/n)`.
    pub result: Gt<B>,
}

/// The final exponentiation of `f` with its intermediates; `result` equals
/// [`final_exponentiation`](crate::final_exponentiation)`(f)`.
pub fn final_exp_trace<B: Backend>(f: &Fp12<B>) -> FinalExpTrace<B> {
    let easy = easy_part(f);
    let fx = exp_by_t(&easy);
    let fx2 = exp_by_t(&fx);
    let fx3 = exp_by_t(&fx2);
    FinalExpTrace {
        easy,
        t_powers: [fx, fx2, fx3],
        result: Gt::from_fp12_unchecked(hard_part(&easy)),
    }
}
