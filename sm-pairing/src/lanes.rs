//! Eight independent pairings at once, one per AVX-512 IFMA lane: the whole Miller loop and the
//! final exponentiation on `sm_field::lanes_tower` (eight GF(p¹²) elements in radix-2^52
//! lanes), for throughput where many pairings are needed (batch signature verification).
//!
//! * [`pairing_lanes`]: `e(Pᵢ, Qᵢ)` for eight pairs, the G2 side (projective T, lines) in lanes.
//! * [`multi_miller_loop_prepared_lanes`]: per lane `i`, `Π_j f(P_{j,i}, Q_{j,i})` over prepared
//!   G2 points ([`G2Prepared`]: the lines are read from the tables and moved into lanes).
//! * [`final_exponentiation_lanes`]: eight final exponentiations.
//!
//! The algorithms are those of the scalar code, step for step: the one schedule
//! [`LOOP_SCHEDULE`], the projective line formulas of `lines.rs` (ePrint 2010/354 Alg. 26/27,
//! M-type twist), the sparse line product `mul_by_023`, the easy part and the hard-part chain of
//! `final_exp.rs` (ePrint 2008/490 §5) with Granger–Scott cyclotomic squarings (ePrint 2009/565
//! §3.2). The scalar exponentiation by t compresses the squarings of t's long zero run (Karabina);
//! in lanes that would cost a GF(p⁴) inversion by Fermat (≈ 1,400 lane multiplications) to save
//! ≈ 230, so the lanes square uncompressed. Every value is fully reduced in every lane, so lane
//! `i`'s result equals the scalar [`pairing`](crate::pairing) of pair `i` byte for byte (tested
//! in `tests/lanes.rs`).
//!
//! **Identities** are handled as in the scalar code: Q = O is replaced by P2 for the G2
//! arithmetic and the lane's lines are masked to 1 (also when P = O), by mask blends; the result
//! is then the identity of GT in that lane.
//!
//! **Constant time.** The lane code is straight-line (fixed schedule, public exponents, mask
//! blends for the identities); only the conversions into and out of the lanes touch the points,
//! by copies. The functions take an [`Ifma`] token: callers detect IFMA once per batch
//! ([`Ifma::detect`]) and keep a scalar path for CPUs without it.

use sm_field::lanes::{Ifma, Lanes8};
use sm_field::lanes_tower::{Lanes8Fp, Lanes8Fp12, Lanes8Fp2, Lanes8Fp4};
use sm_field::{Backend, Fp12, Fp2};
use subtle::ConditionallySelectable;

use crate::exponent::naf;
use crate::lines::LineCoeffs;
use crate::miller::frobenius_points;
use crate::{G1Affine, G2Affine, G2Prepared, Gt, Step, BN_T, LOOP_SCHEDULE};

/// Eight points of the twist in homogeneous projective coordinates (see `lines.rs`).
struct G2ProjectiveLanes {
    x: Lanes8Fp2,
    y: Lanes8Fp2,
    z: Lanes8Fp2,
}

/// Eight lines `c0 + (c2·x̃P)·w² + (c3·yP)·w³` (see [`LineCoeffs`]).
struct LineLanes {
    c0: Lanes8Fp2,
    c2: Lanes8Fp2,
    c3: Lanes8Fp2,
}

impl LineLanes {
    /// Lane `i` = `l[i]`.
    #[inline(always)]
    fn from_coeffs<B: Backend>(t: Ifma, l: &[&LineCoeffs<B>; 8]) -> Self {
        // No closure around the conversions: they must inline into the caller's
        // AVX-512-compiled body (see `Ifma::run`).
        Self {
            c0: Lanes8Fp2::from_fp2(t, &core::array::from_fn(|i| l[i].c0)),
            c2: Lanes8Fp2::from_fp2(t, &core::array::from_fn(|i| l[i].c2)),
            c3: Lanes8Fp2::from_fp2(t, &core::array::from_fn(|i| l[i].c3)),
        }
    }
}

/// `3b' = 15u` times `c`: `16·(c·u) − c·u`.
#[inline(always)]
fn mul_by_3b(t: Ifma, c: &Lanes8Fp2) -> Lanes8Fp2 {
    let cu = c.mul_by_u(t);
    let x16 = cu.double(t).double(t).double(t).double(t);
    x16.sub(t, &cu)
}

impl G2ProjectiveLanes {
    /// T ← 2T and the tangent line (the formulas of `G2Projective::double_step`).
    #[inline(always)]
    fn double_step(&mut self, t: Ifma) -> LineLanes {
        let (x, y, z) = (self.x, self.y, self.z);
        let b = y.square(t);
        let c = z.square(t);
        let e = mul_by_3b(t, &c);
        let f = e.double(t).add(t, &e);
        let h = y.add(t, &z).square(t).sub(t, &b).sub(t, &c);
        let xy = x.mul(t, &y);
        self.x = xy.double(t).mul(t, &b.sub(t, &f));
        let e2 = e.square(t);
        let e2_12 = e2.double(t).add(t, &e2).double(t).double(t);
        self.y = b.add(t, &f).square(t).sub(t, &e2_12);
        self.z = b.double(t).double(t).mul(t, &h);
        LineLanes {
            c0: b.sub(t, &e),
            c2: x.square(t),
            c3: h,
        }
    }

    /// T ← T + (x2, y2) and the line through them (the formulas of `G2Projective::add_step`).
    #[inline(always)]
    fn add_step(&mut self, t: Ifma, x2: &Lanes8Fp2, y2: &Lanes8Fp2) -> LineLanes {
        let (x, y, z) = (self.x, self.y, self.z);
        let theta = y.sub(t, &y2.mul(t, &z));
        let lambda = x.sub(t, &x2.mul(t, &z));
        let c = theta.square(t);
        let d = lambda.square(t);
        let e = lambda.mul(t, &d);
        let f = z.mul(t, &c);
        let g = x.mul(t, &d);
        let h = e.add(t, &f).sub(t, &g.double(t));
        self.x = lambda.mul(t, &h);
        self.y = theta.mul(t, &g.sub(t, &h)).sub(t, &y.mul(t, &e));
        self.z = z.mul(t, &e);
        LineLanes {
            c0: theta.mul(t, x2).sub(t, &lambda.mul(t, y2)),
            c2: theta,
            c3: lambda,
        }
    }
}

/// The G1 side of eight pairs: −3·xP, −xP, yP per lane and the lanes whose pair is trivial.
struct G1SideLanes {
    xp_dbl: Lanes8Fp,
    xp_add: Lanes8Fp,
    yp: Lanes8Fp,
    trivial: u8,
}

impl G1SideLanes {
    /// `trivial`: bit `i` set where pair `i` contributes 1 (P or Q the identity).
    #[inline(always)]
    fn new<B: Backend>(t: Ifma, p: &[G1Affine<B>; 8], trivial: u8) -> Self {
        let xp_add = Lanes8::from_fp(t, &core::array::from_fn(|i| p[i].x())).neg(t);
        let trivial = (0..8).fold(trivial, |m, i| m | p[i].is_identity().unwrap_u8() << i);
        Self {
            xp_dbl: xp_add.double(t).add(t, &xp_add),
            xp_add,
            yp: Lanes8::from_fp(t, &core::array::from_fn(|i| p[i].y())),
            trivial,
        }
    }

    /// The sparse factors `(c0, c2·x̃P, c3·yP)` of the line, 1 in the trivial lanes.
    #[inline(always)]
    fn factors(&self, t: Ifma, l: &LineLanes, step: Step) -> [Lanes8Fp2; 3] {
        let xp = if step == Step::Double {
            &self.xp_dbl
        } else {
            &self.xp_add
        };
        let (one, zero) = (Lanes8Fp2::one(t), Lanes8Fp2::zero(t));
        [
            Lanes8Fp2::select(t, self.trivial, &l.c0, &one),
            Lanes8Fp2::select(t, self.trivial, &l.c2.mul_by_fp(t, xp), &zero),
            Lanes8Fp2::select(t, self.trivial, &l.c3.mul_by_fp(t, &self.yp), &zero),
        ]
    }

    /// `f · l(P)` per lane (`f` = `None` stands for 1: the dense line itself).
    #[inline(always)]
    fn apply(&self, t: Ifma, f: Option<&Lanes8Fp12>, l: &LineLanes, step: Step) -> Lanes8Fp12 {
        let [a, b, c] = self.factors(t, l, step);
        match f {
            Some(f) => f.mul_by_023(t, &a, &b, &c),
            None => {
                let z4 = Lanes8Fp4::zero(t);
                let z2 = Lanes8Fp2::zero(t);
                Lanes8Fp12::new(Lanes8Fp4::new(a, c), z4, Lanes8Fp4::new(b, z2))
            }
        }
    }
}

/// The Miller-loop driver of `miller.rs` in lanes: [`LOOP_SCHEDULE`] over the terms, one shared
/// accumulator per lane; `line(j, step)` gives term `j`'s eight lines of `step`.
#[inline(always)]
fn drive(
    t: Ifma,
    sides: &[G1SideLanes],
    mut line: impl FnMut(usize, Step) -> LineLanes,
) -> Lanes8Fp12 {
    let mut f: Option<Lanes8Fp12> = None;
    for (i, step) in LOOP_SCHEDULE.iter().enumerate() {
        if *step == Step::Double && i != 0 {
            f = f.map(|f| f.square(t));
        }
        for (j, side) in sides.iter().enumerate() {
            let l = line(j, *step);
            f = Some(side.apply(t, f.as_ref(), &l, *step));
        }
    }
    f.unwrap_or(Lanes8Fp12::one(t))
}

/// Eight Miller loops of `(Pᵢ, Qᵢ)` with the G2 arithmetic in lanes.
#[inline(always)]
fn miller_lanes<B: Backend>(t: Ifma, pairs: &[(G1Affine<B>, G2Affine<B>); 8]) -> Lanes8Fp12 {
    // Q = O is replaced by P2 (its lines are masked to 1).
    let g = G2Affine::<B>::GENERATOR;
    let q: [(Fp2<B>, Fp2<B>); 8] = core::array::from_fn(|i| {
        let inf = pairs[i].1.is_identity();
        (
            Fp2::conditional_select(&pairs[i].1.x(), &g.x(), inf),
            Fp2::conditional_select(&pairs[i].1.y(), &g.y(), inf),
        )
    });
    let q_inf = (0..8).fold(0u8, |m, i| m | pairs[i].1.is_identity().unwrap_u8() << i);
    let frob: [_; 8] = core::array::from_fn(|i| frobenius_points(&q[i].0, &q[i].1));
    let lanes2 = |v: [Fp2<B>; 8]| Lanes8Fp2::from_fp2(t, &v);
    let (qx, qy) = (lanes2(q.map(|q| q.0)), lanes2(q.map(|q| q.1)));
    let qy_neg = qy.neg(t);
    let (f1x, f1y) = (lanes2(frob.map(|f| f[0].0)), lanes2(frob.map(|f| f[0].1)));
    let (f2x, f2y) = (lanes2(frob.map(|f| f[1].0)), lanes2(frob.map(|f| f[1].1)));
    let mut tp = G2ProjectiveLanes {
        x: qx,
        y: qy,
        z: Lanes8Fp2::one(t),
    };
    let side = G1SideLanes::new(t, &core::array::from_fn(|i| pairs[i].0), q_inf);
    drive(
        t,
        core::slice::from_ref(&side),
        #[inline(always)]
        |_, step| match step {
            Step::Double => tp.double_step(t),
            Step::AddQ => tp.add_step(t, &qx, &qy),
            Step::SubQ => tp.add_step(t, &qx, &qy_neg),
            Step::AddFrobenius => tp.add_step(t, &f1x, &f1y),
            Step::SubFrobenius2 => tp.add_step(t, &f2x, &f2y),
        },
    )
}

/// `3s − 2·conj(c)` over GF(p⁴)/GF(p²) (as `cyclotomic.rs`).
#[inline(always)]
fn three_minus_two_conj(t: Ifma, s: &Lanes8Fp4, c: &Lanes8Fp4) -> Lanes8Fp4 {
    Lanes8Fp4::new(
        s.c0.sub(t, &c.c0).double(t).add(t, &s.c0),
        s.c1.add(t, &c.c1).double(t).add(t, &s.c1),
    )
}

/// `3s + 2·conj(c)`.
#[inline(always)]
fn three_plus_two_conj(t: Ifma, s: &Lanes8Fp4, c: &Lanes8Fp4) -> Lanes8Fp4 {
    Lanes8Fp4::new(
        s.c0.add(t, &c.c0).double(t).add(t, &s.c0),
        s.c1.sub(t, &c.c1).double(t).add(t, &s.c1),
    )
}

/// Granger–Scott squaring in the cyclotomic subgroup (ePrint 2009/565 §3.2; `cyclotomic.rs`):
/// `(3a0² − 2·conj(a0)) + (3v·a2² + 2·conj(a1))·w + (3a1² − 2·conj(a2))·w²`.
#[inline(always)]
fn cyclotomic_square(t: Ifma, a: &Lanes8Fp12) -> Lanes8Fp12 {
    let (s0, s1, s2) = (a.c0.square(t), a.c1.square(t), a.c2.square(t));
    Lanes8Fp12::new(
        three_minus_two_conj(t, &s0, &a.c0),
        three_plus_two_conj(t, &s2.mul_by_v(t), &a.c1),
        three_minus_two_conj(t, &s1, &a.c2),
    )
}

/// NAF digits of t (little-endian) and their count.
const T_NAF: ([i8; 72], usize) = naf(BN_T as u128);

/// `a^t` on the cyclotomic subgroup: NAF of t, cyclotomic squarings, digit −1 by conj(a).
#[inline(always)]
fn exp_by_t(t: Ifma, a: &Lanes8Fp12) -> Lanes8Fp12 {
    let (d, len) = T_NAF;
    let a_inv = a.conjugate(t);
    let mut acc = *a; // top digit +1
    for i in (0..len - 1).rev() {
        acc = cyclotomic_square(t, &acc);
        if d[i] == 1 {
            acc = acc.mul(t, a);
        } else if d[i] == -1 {
            acc = acc.mul(t, &a_inv);
        }
    }
    acc
}

/// The final exponentiation of `final_exp.rs` (easy part, then the hard-part chain of ePrint
/// 2008/490 §5) in lanes.
#[inline(always)]
fn final_exp(t: Ifma, f: &Lanes8Fp12) -> Lanes8Fp12 {
    // Easy part: f^((p⁶ − 1)(p² + 1)).
    let f1 = f.conjugate(t).mul(t, &f.invert(t));
    let f = f1.frobenius_map(t, 2).mul(t, &f1);
    // Hard part.
    let fx = exp_by_t(t, &f);
    let fx2 = exp_by_t(t, &fx);
    let fx3 = exp_by_t(t, &fx2);
    let y0 = f
        .frobenius_map(t, 1)
        .mul(t, &f.frobenius_map(t, 2))
        .mul(t, &f.frobenius_map(t, 3));
    let y1 = f.conjugate(t);
    let y2 = fx2.frobenius_map(t, 2);
    let y3 = fx.frobenius_map(t, 1).conjugate(t);
    let y4 = fx.mul(t, &fx2.frobenius_map(t, 1)).conjugate(t);
    let y5 = fx2.conjugate(t);
    let y6 = fx3.mul(t, &fx3.frobenius_map(t, 1)).conjugate(t);
    let mut t0 = cyclotomic_square(t, &y6).mul(t, &y4).mul(t, &y5);
    let mut t1 = y3.mul(t, &y5).mul(t, &t0);
    t0 = t0.mul(t, &y2);
    t1 = cyclotomic_square(t, &cyclotomic_square(t, &t1).mul(t, &t0));
    t0 = t1.mul(t, &y1);
    t1 = t1.mul(t, &y0);
    cyclotomic_square(t, &t0).mul(t, &t1)
}

/// The eight lanes as GT elements (the final exponentiation's output is in GT).
#[inline(always)]
fn to_gt<B: Backend>(t: Ifma, f: &Lanes8Fp12) -> [Gt<B>; 8] {
    f.to_fp12::<B>(t).map(Gt::from_fp12_unchecked)
}

/// `e(Pᵢ, Qᵢ)` for eight pairs, lane `i` = pair `i` (byte for byte the scalar
/// [`pairing`](crate::pairing)). Constant time in the points.
pub fn pairing_lanes<B: Backend>(t: Ifma, pairs: &[(G1Affine<B>, G2Affine<B>); 8]) -> [Gt<B>; 8] {
    t.run(
        #[inline(always)]
        |t| to_gt(t, &final_exp(t, &miller_lanes(t, pairs))),
    )
}

/// Lane `i` = `Π_j f(P_{j,i}, Q_{j,i})`: the Miller loops (numerators, as
/// [`multi_miller_loop_prepared`](crate::multi_miller_loop_prepared)) of term `j` =
/// `terms[j]`, one pair per lane, over prepared G2 points. Constant time in the points.
pub fn multi_miller_loop_prepared_lanes<B: Backend>(
    t: Ifma,
    terms: &[[(G1Affine<B>, &G2Prepared<B>); 8]],
) -> [Fp12<B>; 8] {
    t.run(
        #[inline(always)]
        |t| {
            let sides: alloc::vec::Vec<G1SideLanes> = terms
                .iter()
                .map(|term| {
                    let q_inf = (0..8).fold(0u8, |m, i| m | term[i].1.infinity.unwrap_u8() << i);
                    G1SideLanes::new(t, &core::array::from_fn(|i| term[i].0), q_inf)
                })
                .collect();
            let mut next = alloc::vec![0usize; terms.len()];
            let f = drive(
                t,
                &sides,
                #[inline(always)]
                |j, _| {
                    let k = next[j];
                    next[j] += 1;
                    LineLanes::from_coeffs(t, &core::array::from_fn(|i| &terms[j][i].1.lines()[k]))
                },
            );
            f.to_fp12(t)
        },
    )
}

/// Eight final exponentiations f ↦ f^((p¹² − 1)/n), lane `i` = `f[i]` (byte for byte the scalar
/// [`final_exponentiation`](crate::final_exponentiation)). Constant time.
pub fn final_exponentiation_lanes<B: Backend>(t: Ifma, f: &[Fp12<B>; 8]) -> [Gt<B>; 8] {
    t.run(
        #[inline(always)]
        |t| to_gt(t, &final_exp(t, &Lanes8Fp12::from_fp12(t, f))),
    )
}
