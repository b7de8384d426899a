//! The Miller loop of the R-ate pairing: one step schedule, one driver.
//!
//! [`LOOP_SCHEDULE`] lists the line steps: for each signed digit of a = 6t + 2 in non-adjacent
//! form below the top one, a doubling, followed by an addition of ±Q when the digit is ±1; then
//! the two Frobenius corrections T + π(Q) and (T + π(Q)) − π²(Q). The driver squares the
//! accumulator before every doubling step except the first and multiplies in one sparse line per
//! pair and step. Line sources are either computed on the fly (projective T, see `lines.rs`) or
//! read from a [`G2Prepared`]; both follow the same schedule, so the pairing, the multi-pairing
//! and the prepared pairing share all of this code. Only numerators are accumulated: vertical
//! lines lie in GF(p⁶)·… and vanish in the final exponentiation's easy part.

use alloc::boxed::Box;
use alloc::vec::Vec;

use sm_field::{Backend, Fp, Fp12, Fp2, Job, Sm9P};
use subtle::{Choice, ConditionallySelectable};

use crate::exponent::naf;
use crate::final_exp::final_exponentiation_on;
use crate::lines::{G2Projective, LineCoeffs};
use crate::{G1Affine, G2Affine, Gt, ATE_LOOP};

/// One step of the Miller loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// T ← 2T with the tangent line (preceded by f ← f² except at the start).
    Double,
    /// T ← T + Q (NAF digit +1).
    AddQ,
    /// T ← T − Q (NAF digit −1).
    SubQ,
    /// T ← T + π(Q).
    AddFrobenius,
    /// Line through T and −π²(Q) (T is not needed afterwards).
    SubFrobenius2,
}

const fn count_lines() -> usize {
    let (d, len) = naf(ATE_LOOP);
    let mut n = 0;
    let mut i = len - 1;
    while i > 0 {
        i -= 1;
        n += 1;
        if d[i] != 0 {
            n += 1;
        }
    }
    n + 2
}

/// Number of line steps (65 doublings, 10 additions for the non-zero NAF digits of 6t + 2 below
/// the top one, 2 Frobenius additions).
pub const NUM_LINES: usize = count_lines();

const fn schedule() -> [Step; NUM_LINES] {
    let (d, len) = naf(ATE_LOOP);
    let mut s = [Step::Double; NUM_LINES];
    let mut n = 0;
    let mut i = len - 1;
    while i > 0 {
        i -= 1;
        s[n] = Step::Double;
        n += 1;
        if d[i] == 1 {
            s[n] = Step::AddQ;
            n += 1;
        } else if d[i] == -1 {
            s[n] = Step::SubQ;
            n += 1;
        }
    }
    s[n] = Step::AddFrobenius;
    s[n + 1] = Step::SubFrobenius2;
    s
}

/// The Miller-loop steps for a = 6t + 2 (NAF, most significant first), then the two Frobenius
/// corrections.
pub const LOOP_SCHEDULE: [Step; NUM_LINES] = schedule();

/// π(Q) on the twist: (conj(x)·γ⁻², conj(y)·γ⁻³) with γ = w^(p−1) ∈ GF(p), and −π²(Q) =
/// (x·γ⁻⁴, y) (γ⁶ = −1); see `sm_field::Fp12` for γ.
pub(crate) fn frobenius_points<B: Backend>(x: &Fp2<B>, y: &Fp2<B>) -> [(Fp2<B>, Fp2<B>); 2] {
    let g = &Fp12::<B>::GAMMA;
    [
        (
            x.conjugate().mul_by_fp(&g[10]),
            y.conjugate().mul_by_fp(&g[9]),
        ),
        (x.mul_by_fp(&g[8]), *y),
    ]
}

/// Produces the line of each step.
pub(crate) trait LineSource<B: Backend> {
    fn line(&mut self, step: Step) -> LineCoeffs<B>;
}

/// Lines computed on the fly from a projective T.
pub(crate) struct OnTheFly<B: Backend> {
    pub(crate) t: G2Projective<B>,
    qx: Fp2<B>,
    qy: Fp2<B>,
    frob: [(Fp2<B>, Fp2<B>); 2],
}

impl<B: Backend> OnTheFly<B> {
    /// Q = identity is replaced by P2 (a valid point, so no exceptional case arises); the
    /// caller masks its lines.
    pub(crate) fn new(q: &G2Affine<B>) -> Self {
        let inf = q.is_identity();
        let g = G2Affine::<B>::GENERATOR;
        let qx = Fp2::conditional_select(&q.x(), &g.x(), inf);
        let qy = Fp2::conditional_select(&q.y(), &g.y(), inf);
        Self {
            t: G2Projective::from_affine(&qx, &qy),
            qx,
            qy,
            frob: frobenius_points(&qx, &qy),
        }
    }
}

impl<B: Backend> LineSource<B> for OnTheFly<B> {
    #[inline]
    fn line(&mut self, step: Step) -> LineCoeffs<B> {
        match step {
            Step::Double => self.t.double_step(),
            Step::AddQ => self.t.add_step(&self.qx, &self.qy),
            Step::SubQ => self.t.add_step(&self.qx, &self.qy.neg()),
            Step::AddFrobenius => self.t.add_step(&self.frob[0].0, &self.frob[0].1),
            Step::SubFrobenius2 => self.t.add_step(&self.frob[1].0, &self.frob[1].1),
        }
    }
}

/// Lines read back from a [`G2Prepared`] built on backend `BS`, copied to the backend the loop
/// runs on (a limb copy per line: the prepared lines serve every backend).
struct Replay<'a, BS: Backend> {
    lines: &'a [LineCoeffs<BS>; NUM_LINES],
    next: usize,
}

impl<'a, BS: Backend> Replay<'a, BS> {
    fn new(q: &'a G2Prepared<BS>) -> Self {
        Self {
            lines: &q.lines,
            next: 0,
        }
    }
}

impl<BS: Backend, B: Backend> LineSource<B> for Replay<'_, BS> {
    #[inline]
    fn line(&mut self, _step: Step) -> LineCoeffs<B> {
        let l = self.lines[self.next].to_backend();
        self.next += 1;
        l
    }
}

/// The G1 side of a pair: P's scaled x-coordinates, y-coordinate, and whether the pair
/// contributes 1.
pub(crate) struct G1Side<B: Backend> {
    /// −3·xP, for tangent lines.
    xp_dbl: Fp<Sm9P, B>,
    /// −xP, for addition lines.
    xp_add: Fp<Sm9P, B>,
    yp: Fp<Sm9P, B>,
    trivial: Choice,
}

impl<B: Backend> G1Side<B> {
    pub(crate) fn new(p: &G1Affine<B>, q_infinity: Choice) -> Self {
        let xp_add = p.x().neg();
        Self {
            xp_dbl: xp_add.double().add(&xp_add),
            xp_add,
            yp: p.y(),
            trivial: p.is_identity() | q_infinity,
        }
    }

    /// The line masked to 1 in constant time when the pair is trivial, and the x̃P it needs.
    #[inline]
    fn masked(&self, l: &LineCoeffs<B>, step: Step) -> (LineCoeffs<B>, &Fp<Sm9P, B>) {
        let l = LineCoeffs {
            c0: Fp2::conditional_select(&l.c0, &Fp2::ONE, self.trivial),
            c2: Fp2::conditional_select(&l.c2, &Fp2::ZERO, self.trivial),
            c3: Fp2::conditional_select(&l.c3, &Fp2::ZERO, self.trivial),
        };
        let xp = if step == Step::Double {
            &self.xp_dbl
        } else {
            &self.xp_add
        };
        (l, xp)
    }

    /// `f · l(P)`, or `f` when the pair is trivial.
    #[inline]
    fn apply(&self, f: &Fp12<B>, l: &LineCoeffs<B>, step: Step) -> Fp12<B> {
        let (l, xp) = self.masked(l, step);
        l.evaluate_into(f, xp, &self.yp)
    }

    /// `l(P)`, or 1 when the pair is trivial (the first line, while f = 1).
    #[inline]
    pub(crate) fn first(&self, l: &LineCoeffs<B>, step: Step) -> Fp12<B> {
        let (l, xp) = self.masked(l, step);
        l.evaluate(xp, &self.yp)
    }
}

/// The one Miller-loop driver: runs [`LOOP_SCHEDULE`] over all pairs with a shared accumulator
/// (the first line of the first pair is taken as f instead of multiplying it into f = 1).
#[inline]
fn drive<B: Backend, S: LineSource<B>>(pairs: &mut [(G1Side<B>, S)]) -> Fp12<B> {
    drive_observed(pairs, |_, _| {})
}

/// [`drive`] calling `observe(i, f)` after step `i` of [`LOOP_SCHEDULE`] (every pair's line of
/// that step multiplied in). The production paths pass a no-op, which compiles away; the
/// `research` feature's step trace records f.
#[inline(always)]
pub(crate) fn drive_observed<B: Backend, S: LineSource<B>>(
    pairs: &mut [(G1Side<B>, S)],
    mut observe: impl FnMut(usize, &Fp12<B>),
) -> Fp12<B> {
    let mut f = Fp12::ONE;
    for (i, step) in LOOP_SCHEDULE.iter().enumerate() {
        if *step == Step::Double && i != 0 {
            f = f.square();
        }
        for (j, (p, src)) in pairs.iter_mut().enumerate() {
            let l = src.line(*step);
            f = if i == 0 && j == 0 {
                p.first(&l, *step)
            } else {
                p.apply(&f, &l, *step)
            };
        }
        observe(i, &f);
    }
    f
}

/// The pairs' Miller loops on backend `B` (no dispatch: the jobs below call it).
fn miller_on<B: Backend, BS: Backend>(pairs: &[(G1Affine<BS>, G2Affine<BS>)]) -> Fp12<B> {
    if let [(p, q)] = pairs {
        let (p, q) = (p.to_backend::<B>(), q.to_backend::<B>());
        return drive(&mut [(G1Side::new(&p, q.is_identity()), OnTheFly::new(&q))]);
    }
    let mut v: Vec<_> = pairs
        .iter()
        .map(|(p, q)| {
            let (p, q) = (p.to_backend::<B>(), q.to_backend::<B>());
            (G1Side::new(&p, q.is_identity()), OnTheFly::new(&q))
        })
        .collect();
    drive(&mut v)
}

/// The prepared pairs' Miller loops on backend `B`.
fn miller_prepared_on<B: Backend, BS: Backend>(
    pairs: &[(G1Affine<BS>, &G2Prepared<BS>)],
) -> Fp12<B> {
    if let [(p, q)] = pairs {
        return miller_views_on(&[(p.to_backend::<B>(), q.on_backend::<B>())]);
    }
    let v: Vec<_> = pairs
        .iter()
        .map(|(p, q)| (p.to_backend::<B>(), q.on_backend::<B>()))
        .collect();
    miller_views_on(&v)
}

/// [`miller_prepared_on`] for prepared points already viewed on `B` ([`G2Prepared::on_backend`]).
fn miller_views_on<B: Backend, BS: Backend>(
    pairs: &[(G1Affine<B>, G2PreparedOn<'_, BS, B>)],
) -> Fp12<B> {
    if let [(p, q)] = pairs {
        return drive(&mut [(G1Side::new(p, q.q.infinity), Replay::new(q.q))]);
    }
    let mut v: Vec<_> = pairs
        .iter()
        .map(|(p, q)| (G1Side::new(p, q.q.infinity), Replay::new(q.q)))
        .collect();
    drive(&mut v)
}

/// A product of Miller loops (and optionally the final exponentiation) as one dispatched job.
struct MillerJob<'a, B: Backend> {
    pairs: &'a [(G1Affine<B>, G2Affine<B>)],
}

impl<B: Backend> Job for MillerJob<'_, B> {
    type Output = Fp12<B>;
    fn run<B2: Backend>(self) -> Fp12<B> {
        miller_on::<B2, B>(self.pairs).to_backend()
    }
}

/// [`MillerJob`] followed by the final exponentiation.
struct PairingJob<'a, B: Backend> {
    pairs: &'a [(G1Affine<B>, G2Affine<B>)],
}

impl<B: Backend> Job for PairingJob<'_, B> {
    type Output = Gt<B>;
    fn run<B2: Backend>(self) -> Gt<B> {
        final_exponentiation_on(&miller_on::<B2, B>(self.pairs)).to_backend()
    }
}

/// Miller loops over prepared G2 points, optionally followed by the final exponentiation.
struct PreparedJob<'a, 'b, B: Backend, const FINAL: bool> {
    pairs: &'a [(G1Affine<B>, &'b G2Prepared<B>)],
}

impl<B: Backend> Job for PreparedJob<'_, '_, B, false> {
    type Output = Fp12<B>;
    fn run<B2: Backend>(self) -> Fp12<B> {
        miller_prepared_on::<B2, B>(self.pairs).to_backend()
    }
}

impl<B: Backend> Job for PreparedJob<'_, '_, B, true> {
    type Output = Gt<B>;
    fn run<B2: Backend>(self) -> Gt<B> {
        final_exponentiation_on(&miller_prepared_on::<B2, B>(self.pairs)).to_backend()
    }
}

// The entry points below dispatch once per call (`Backend::dispatch`): with `Auto` the whole
// call runs on the pure backend the CPU supports (the IFMA-batched tower where it has IFMA).

/// The Miller loop f_{a,Q}(P)·l_{aQ,π(Q)}(P)·l_{aQ+π(Q),−π²(Q)}(P) (numerators only), before the
/// final exponentiation. Constant time in P and Q.
pub fn miller_loop<B: Backend>(p: &G1Affine<B>, q: &G2Affine<B>) -> Fp12<B> {
    B::dispatch(MillerJob { pairs: &[(*p, *q)] })
}

/// The product of the Miller loops of all pairs, sharing one squaring chain.
pub fn multi_miller_loop<B: Backend>(pairs: &[(G1Affine<B>, G2Affine<B>)]) -> Fp12<B> {
    B::dispatch(MillerJob { pairs })
}

/// The product of the Miller loops for P's paired with prepared G2 points.
pub fn multi_miller_loop_prepared<B: Backend>(pairs: &[(G1Affine<B>, &G2Prepared<B>)]) -> Fp12<B> {
    B::dispatch(PreparedJob::<B, false> { pairs })
}

/// The SM9 pairing e(P, Q) (R-ate; GM/T 0044.1 §B.4.2 defines e with P ∈ G1, Q ∈ G2 on E').
pub fn pairing<B: Backend>(p: &G1Affine<B>, q: &G2Affine<B>) -> Gt<B> {
    B::dispatch(PairingJob { pairs: &[(*p, *q)] })
}

/// ∏ e(Pᵢ, Qᵢ) with one shared Miller loop and one final exponentiation.
pub fn multi_pairing<B: Backend>(pairs: &[(G1Affine<B>, G2Affine<B>)]) -> Gt<B> {
    B::dispatch(PairingJob { pairs })
}

/// e(P, Q) for a prepared Q.
pub fn pairing_prepared<B: Backend>(p: &G1Affine<B>, q: &G2Prepared<B>) -> Gt<B> {
    B::dispatch(PreparedJob::<B, true> { pairs: &[(*p, q)] })
}

/// The line coefficients of the Miller loop for a fixed G2 point ([`NUM_LINES`] lines, ≈ 14.8 KB),
/// independent of P: pairings with it skip all G2 arithmetic. Holds data derived from Q; for a
/// secret Q (an SM9 decryption key) keep it with the key and zeroize it on drop.
#[derive(Clone)]
pub struct G2Prepared<B: Backend> {
    lines: Box<[LineCoeffs<B>; NUM_LINES]>,
    pub(crate) infinity: Choice,
}

impl<B: Backend> G2Prepared<B> {
    /// Runs the schedule once on Q and records its lines. Constant time in Q. Dispatches once
    /// (`Backend::dispatch`); the lines are stored as `B` limbs and serve every backend.
    pub fn new(q: &G2Affine<B>) -> Self {
        struct Prepare<'a, B: Backend>(&'a G2Affine<B>);
        impl<B: Backend> Job for Prepare<'_, B> {
            type Output = G2Prepared<B>;
            fn run<B2: Backend>(self) -> G2Prepared<B> {
                G2Prepared::new_on::<B2>(self.0)
            }
        }
        B::dispatch(Prepare(q))
    }

    /// [`new`](Self::new) computed on backend `B2` itself, without dispatch (for code already
    /// running inside a job); the lines are stored as `B` limbs.
    pub fn new_on<B2: Backend>(q: &G2Affine<B>) -> Self {
        let mut src = OnTheFly::new(&q.to_backend::<B2>());
        let mut lines = Box::new([LineCoeffs::default(); NUM_LINES]);
        for (l, step) in lines.iter_mut().zip(LOOP_SCHEDULE.iter()) {
            *l = src.line(*step).to_backend();
        }
        Self {
            lines,
            infinity: q.is_identity(),
        }
    }

    /// The recorded lines, in [`LOOP_SCHEDULE`] order.
    pub fn lines(&self) -> &[LineCoeffs<B>; NUM_LINES] {
        &self.lines
    }
}

impl<B: Backend> G2Prepared<B> {
    /// These lines read over backend `B2`, for code already running inside a job on `B2` (no
    /// copy of the table; each line is copied as it is read). Nothing it does dispatches.
    pub fn on_backend<B2: Backend>(&self) -> G2PreparedOn<'_, B, B2> {
        G2PreparedOn {
            q: self,
            backend: core::marker::PhantomData,
        }
    }
}

/// A [`G2Prepared`] read over backend `B2` ([`G2Prepared::on_backend`]): its pairings run on
/// `B2` itself, without dispatch.
pub struct G2PreparedOn<'a, BS: Backend, B2> {
    q: &'a G2Prepared<BS>,
    backend: core::marker::PhantomData<B2>,
}

impl<BS: Backend, B2> Clone for G2PreparedOn<'_, BS, B2> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<BS: Backend, B2> Copy for G2PreparedOn<'_, BS, B2> {}

impl<BS: Backend, B2: Backend> G2PreparedOn<'_, BS, B2> {
    /// e(P, Q) on `B2` ([`pairing_prepared`] without dispatch).
    pub fn pairing(&self, p: &G1Affine<B2>) -> Gt<B2> {
        final_exponentiation_on(&miller_views_on(&[(*p, *self)]))
    }
}

/// [`multi_miller_loop_prepared`] on `B2` itself, without dispatch, over prepared points viewed
/// on `B2` ([`G2Prepared::on_backend`]): for code already running inside a job.
pub fn multi_miller_loop_prepared_on<B2: Backend, BS: Backend>(
    pairs: &[(G1Affine<B2>, G2PreparedOn<'_, BS, B2>)],
) -> Fp12<B2> {
    miller_views_on(pairs)
}

impl<B: Backend> From<&G2Affine<B>> for G2Prepared<B> {
    fn from(q: &G2Affine<B>) -> Self {
        Self::new(q)
    }
}

impl<B: Backend> zeroize::Zeroize for G2Prepared<B> {
    fn zeroize(&mut self) {
        for l in self.lines.iter_mut() {
            l.c0.zeroize();
            l.c2.zeroize();
            l.c3.zeroize();
        }
    }
}

impl<B: Backend> Drop for G2Prepared<B> {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(self);
    }
}

impl<B: Backend> core::fmt::Debug for G2Prepared<B> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("G2Prepared")
            .field("lines", &NUM_LINES)
            .finish_non_exhaustive()
    }
}
