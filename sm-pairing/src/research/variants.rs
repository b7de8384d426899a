//! Pairing variants for the optimization ledger (`cargo xtask ledger`): a small second SM9
//! pairing whose every optimization is a type parameter, so that each one can be switched off
//! alone and its cost measured and counted.
//!
//! It is written on the *public* arithmetic of `sm-field` (`Fp`/`Fp2`/`Fp4`/`Fp12` additions,
//! the GF(p²) products, Frobenius maps, conjugations) and on this crate's public step schedule
//! [`LOOP_SCHEDULE`](crate::LOOP_SCHEDULE), so it does not depend on how the production tower or the production Miller
//! loop are organised internally. The production pairing is untouched by it: nothing here is
//! called from [`crate::pairing`], and no production function takes a strategy parameter.
//!
//! A configuration is a [`Variant`] of eight strategy types (see [`Config`]); [`Production`]
//! is the configuration of the production code, and [`pairing`] with it equals
//! [`crate::pairing`] byte for byte (`tests/ledger_variants.rs` checks every variant over random
//! inputs, and the ledger checks again before it times anything). Values after the final
//! exponentiation are identical for every variant; Miller-loop values differ by factors in proper
//! subfields (line scalings, vertical lines), which the final exponentiation removes.
//!
//! For the ledger's SM9 rows, [`Prepared`] records a fixed G2 point's lines under a
//! configuration (as [`crate::G2Prepared`] does for production), [`multi_pairing_prepared`]
//! pairs with them, and [`gt_table_pow`] is [`crate::GtTable::pow`] over a configuration's tower.
//!
//! Inversions go through [`invert_fp`], which counts them ([`inversions`]): `Counting<B>` only
//! sees the multiplications of an inversion, and the constant-time inversion (safegcd) has none.
//!
//! Formulas and their sources:
//! * GF(p²), GF(p⁴) Karatsuba and complex squaring; GF(p¹²) (cubic over GF(p⁴)) Karatsuba and
//!   Chung–Hasan SQR2: Devegili, Ó hÉigeartaigh, Scott, Dahab, "Multiplication and squaring on
//!   pairing-friendly fields", ePrint 2006/471 §3–§5; Chung, Hasan, "Asymmetric squaring formulae",
//!   ARITH 2007.
//! * Projective lines: Costello, Lange, Naehrig, ePrint 2009/615 §5 (see `lines.rs`); affine lines
//!   with Montgomery's simultaneous inversion across the pairs of a multi-pairing.
//! * Sparse line product: Aranha, Karabina, Longa, Gebotys, López, ePrint 2010/354 §4.
//! * Miller loop and the R-ate corrections: GM/T 0044.1 §B.4.2; Vercauteren, ePrint 2008/096.
//! * Final exponentiation: Scott et al., ePrint 2008/490 §5 (the chain); Granger, Scott,
//!   ePrint 2009/565 (cyclotomic squaring); Karabina, ePrint 2010/542 (compressed squaring).

use alloc::vec::Vec;
use core::marker::PhantomData;
use core::sync::atomic::{AtomicU64, Ordering::Relaxed};

use sm_field::{Backend, Fp, Fp12, Fp2, Fp4, Modulus, Sm9N, Sm9P};
use subtle::ConditionallySelectable;

use crate::exponent::{naf, signed_digits, split_exponent};
use crate::gt::{ct_lookup, TABLE_ENTRIES, TABLE_ROWS, TABLE_W};
use crate::{G1Affine, G2Affine, Gt, GtTable, Step, ATE_LOOP, BN_T};

type Fp1<B> = Fp<Sm9P, B>;

static INVERSIONS: AtomicU64 = AtomicU64::new(0);

/// GF(p) inversions performed by variant code since the last [`reset_inversions`].
pub fn inversions() -> u64 {
    INVERSIONS.load(Relaxed)
}

/// Sets the inversion counter to zero.
pub fn reset_inversions() {
    INVERSIONS.store(0, Relaxed);
}

/// The one GF(p) inversion of the variant code (0 maps to 0), counted.
pub fn invert_fp<B: Backend>(a: &Fp1<B>) -> Fp1<B> {
    INVERSIONS.fetch_add(1, Relaxed);
    a.invert().unwrap_or(Fp::ZERO)
}

// ---------------------------------------------------------------------------------------------
// The tower.

/// The tower products of a configuration (each level on top of the configured lower levels).
pub trait Tower: 'static {
    /// GF(p²) product.
    fn mul2<B: Backend>(a: &Fp2<B>, b: &Fp2<B>) -> Fp2<B>;
    /// GF(p²) square.
    fn sqr2<B: Backend>(a: &Fp2<B>) -> Fp2<B>;
    /// GF(p⁴) product.
    fn mul4<B: Backend>(a: &Fp4<B>, b: &Fp4<B>) -> Fp4<B>;
    /// GF(p⁴) square.
    fn sqr4<B: Backend>(a: &Fp4<B>) -> Fp4<B>;
    /// GF(p¹²) product.
    fn mul12<B: Backend>(a: &Fp12<B>, b: &Fp12<B>) -> Fp12<B>;
    /// GF(p¹²) square.
    fn sqr12<B: Backend>(a: &Fp12<B>) -> Fp12<B>;
}

/// A GF(p²) product formula.
pub trait Fp2Mul: 'static {
    /// `a·b`.
    fn mul<B: Backend>(a: &Fp2<B>, b: &Fp2<B>) -> Fp2<B>;
}
/// A GF(p⁴) product formula over the tower `T`'s GF(p²).
pub trait Fp4Mul: 'static {
    /// `a·b`.
    fn mul<T: Tower, B: Backend>(a: &Fp4<B>, b: &Fp4<B>) -> Fp4<B>;
}
/// A GF(p¹²) product formula over the tower `T`'s GF(p⁴).
pub trait Fp12Mul: 'static {
    /// `a·b`.
    fn mul<T: Tower, B: Backend>(a: &Fp12<B>, b: &Fp12<B>) -> Fp12<B>;
}
/// A GF(p²) squaring formula.
pub trait Fp2Sqr: 'static {
    /// `a²`.
    fn sqr<T: Tower, B: Backend>(a: &Fp2<B>) -> Fp2<B>;
}
/// A GF(p⁴) squaring formula.
pub trait Fp4Sqr: 'static {
    /// `a²`.
    fn sqr<T: Tower, B: Backend>(a: &Fp4<B>) -> Fp4<B>;
}
/// A GF(p¹²) squaring formula.
pub trait Fp12Sqr: 'static {
    /// `a²`.
    fn sqr<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B>;
}

/// Karatsuba multiplication (3 instead of 4 products in a quadratic extension, 6 instead of 9 in
/// the cubic one; Devegili et al. §3, §4). GF(p²) uses the production [`Fp2::mul`].
#[derive(Debug)]
pub struct Karatsuba;
/// Schoolbook multiplication (4 products quadratic, 9 cubic).
#[derive(Debug)]
pub struct Schoolbook;
/// Complex squaring (2 products instead of 3; Devegili et al. §3). GF(p²) uses the production
/// [`Fp2::square`].
#[derive(Debug)]
pub struct Complex;
/// Chung–Hasan SQR2 for the cubic extension (2 squarings and 3 products of GF(p⁴) instead of the
/// 6 products of a Karatsuba product; Devegili et al. §4, Chung–Hasan 2007).
#[derive(Debug)]
pub struct ChungHasan;
/// Squaring as the configured product `a·a`.
#[derive(Debug)]
pub struct ByMul;

impl Fp2Mul for Karatsuba {
    fn mul<B: Backend>(a: &Fp2<B>, b: &Fp2<B>) -> Fp2<B> {
        a.mul(b)
    }
}
impl Fp2Mul for Schoolbook {
    fn mul<B: Backend>(a: &Fp2<B>, b: &Fp2<B>) -> Fp2<B> {
        // u² = −2: (a0 + a1u)(b0 + b1u) = a0b0 − 2a1b1 + (a0b1 + a1b0)u.
        let v0 = a.c0.mul(&b.c0);
        let v1 = a.c1.mul(&b.c1);
        Fp2::new(v0.sub(&v1.double()), a.c0.mul(&b.c1).add(&a.c1.mul(&b.c0)))
    }
}
impl Fp4Mul for Karatsuba {
    fn mul<T: Tower, B: Backend>(a: &Fp4<B>, b: &Fp4<B>) -> Fp4<B> {
        let v0 = T::mul2(&a.c0, &b.c0);
        let v1 = T::mul2(&a.c1, &b.c1);
        let s = T::mul2(&a.c0.add(&a.c1), &b.c0.add(&b.c1));
        Fp4::new(v0.add_mul_by_u(&v1), s.sub(&v0).sub(&v1))
    }
}
impl Fp4Mul for Schoolbook {
    fn mul<T: Tower, B: Backend>(a: &Fp4<B>, b: &Fp4<B>) -> Fp4<B> {
        let v0 = T::mul2(&a.c0, &b.c0);
        let v1 = T::mul2(&a.c1, &b.c1);
        let c1 = T::mul2(&a.c0, &b.c1).add(&T::mul2(&a.c1, &b.c0));
        Fp4::new(v0.add_mul_by_u(&v1), c1)
    }
}
impl Fp12Mul for Karatsuba {
    fn mul<T: Tower, B: Backend>(a: &Fp12<B>, b: &Fp12<B>) -> Fp12<B> {
        let v0 = T::mul4(&a.c0, &b.c0);
        let v1 = T::mul4(&a.c1, &b.c1);
        let v2 = T::mul4(&a.c2, &b.c2);
        let t0 = T::mul4(&a.c1.add(&a.c2), &b.c1.add(&b.c2))
            .sub(&v1)
            .sub(&v2);
        let t1 = T::mul4(&a.c0.add(&a.c1), &b.c0.add(&b.c1))
            .sub(&v0)
            .sub(&v1);
        let t2 = T::mul4(&a.c0.add(&a.c2), &b.c0.add(&b.c2))
            .sub(&v0)
            .sub(&v2);
        Fp12::new(v0.add_mul_by_v(&t0), t1.add_mul_by_v(&v2), t2.add(&v1))
    }
}
impl Fp12Mul for Schoolbook {
    fn mul<T: Tower, B: Backend>(a: &Fp12<B>, b: &Fp12<B>) -> Fp12<B> {
        let m = |x: &Fp4<B>, y: &Fp4<B>| T::mul4(x, y);
        let c0 = m(&a.c1, &b.c2).add(&m(&a.c2, &b.c1));
        let c1 = m(&a.c0, &b.c1).add(&m(&a.c1, &b.c0));
        let c2 = m(&a.c0, &b.c2).add(&m(&a.c1, &b.c1)).add(&m(&a.c2, &b.c0));
        Fp12::new(
            m(&a.c0, &b.c0).add_mul_by_v(&c0),
            c1.add_mul_by_v(&m(&a.c2, &b.c2)),
            c2,
        )
    }
}
impl Fp2Sqr for Complex {
    fn sqr<T: Tower, B: Backend>(a: &Fp2<B>) -> Fp2<B> {
        a.square()
    }
}
impl Fp4Sqr for Complex {
    fn sqr<T: Tower, B: Backend>(a: &Fp4<B>) -> Fp4<B> {
        // m = a0·a1, c0 = (a0 + a1)(a0 + u·a1) − m − u·m, c1 = 2m.
        let m = T::mul2(&a.c0, &a.c1);
        let t = T::mul2(&a.c0.add(&a.c1), &a.c0.add_mul_by_u(&a.c1));
        Fp4::new(t.sub(&m).sub_mul_by_u(&m), m.double())
    }
}
impl Fp12Sqr for ChungHasan {
    fn sqr<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
        let s0 = T::sqr4(&a.c0);
        let s1 = T::mul4(&a.c1, &a.c2).double();
        let s2 = T::sqr4(&a.c0.sub(&a.c1).add(&a.c2));
        let s3 = T::mul4(&a.c0, &a.c1).double();
        let s4 = T::sqr4(&a.c2);
        Fp12::new(
            s0.add_mul_by_v(&s1),
            s3.add_mul_by_v(&s4),
            s1.add(&s2).add(&s3).sub(&s0).sub(&s4),
        )
    }
}
impl Fp2Sqr for ByMul {
    fn sqr<T: Tower, B: Backend>(a: &Fp2<B>) -> Fp2<B> {
        T::mul2(a, a)
    }
}
impl Fp4Sqr for ByMul {
    fn sqr<T: Tower, B: Backend>(a: &Fp4<B>) -> Fp4<B> {
        T::mul4(a, a)
    }
}
impl Fp12Sqr for ByMul {
    fn sqr<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
        T::mul12(a, a)
    }
}

/// A tower from one formula per level and operation.
pub struct Tw<M2, S2, M4, S4, M12, S12>(PhantomData<(M2, S2, M4, S4, M12, S12)>);

impl<M2: Fp2Mul, S2: Fp2Sqr, M4: Fp4Mul, S4: Fp4Sqr, M12: Fp12Mul, S12: Fp12Sqr> Tower
    for Tw<M2, S2, M4, S4, M12, S12>
{
    fn mul2<B: Backend>(a: &Fp2<B>, b: &Fp2<B>) -> Fp2<B> {
        M2::mul(a, b)
    }
    fn sqr2<B: Backend>(a: &Fp2<B>) -> Fp2<B> {
        S2::sqr::<Self, B>(a)
    }
    fn mul4<B: Backend>(a: &Fp4<B>, b: &Fp4<B>) -> Fp4<B> {
        M4::mul::<Self, B>(a, b)
    }
    fn sqr4<B: Backend>(a: &Fp4<B>) -> Fp4<B> {
        S4::sqr::<Self, B>(a)
    }
    fn mul12<B: Backend>(a: &Fp12<B>, b: &Fp12<B>) -> Fp12<B> {
        M12::mul::<Self, B>(a, b)
    }
    fn sqr12<B: Backend>(a: &Fp12<B>) -> Fp12<B> {
        S12::sqr::<Self, B>(a)
    }
}

/// The production tower's formulas.
pub type ProductionTower = Tw<Karatsuba, Complex, Karatsuba, Complex, Karatsuba, ChungHasan>;

fn mul4_by_fp2<T: Tower, B: Backend>(a: &Fp4<B>, k: &Fp2<B>) -> Fp4<B> {
    Fp4::new(T::mul2(&a.c0, k), T::mul2(&a.c1, k))
}

fn invert2<B: Backend>(a: &Fp2<B>) -> Fp2<B> {
    a.conjugate().mul_by_fp(&invert_fp(&a.norm()))
}

fn invert4<T: Tower, B: Backend>(a: &Fp4<B>) -> Fp4<B> {
    // (a0 + a1v)⁻¹ = (a0 − a1v)/(a0² − u·a1²).
    let n = T::sqr2(&a.c0).sub(&T::sqr2(&a.c1).mul_by_u());
    mul4_by_fp2::<T, B>(&a.conjugate(), &invert2(&n))
}

fn invert12<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
    // The production formula (see `Fp12::invert`) over the configured GF(p⁴).
    let (a0, a1, a2) = (&a.c0, &a.c1, &a.c2);
    let t0 = T::sqr4(a0).sub(&T::mul4(a1, a2).mul_by_v());
    let t1 = T::sqr4(a2).mul_by_v().sub(&T::mul4(a0, a1));
    let t2 = T::sqr4(a1).sub(&T::mul4(a0, a2));
    let n = T::mul4(a0, &t0).add(&T::mul4(a2, &t1).add(&T::mul4(a1, &t2)).mul_by_v());
    let ni = invert4::<T, B>(&n);
    Fp12::new(T::mul4(&t0, &ni), T::mul4(&t1, &ni), T::mul4(&t2, &ni))
}

// ---------------------------------------------------------------------------------------------
// Lines.

/// One line `c0 + (c2·x̃P)·w² + (c3·yP)·w³` (see [`crate::LineCoeffs`]); `x̃P = −3·xP` when
/// `tangent3` is set, else `−xP`.
#[derive(Clone, Copy, Debug)]
pub struct Line<B: Backend> {
    /// Constant term.
    pub c0: Fp2<B>,
    /// Coefficient of x̃P.
    pub c2: Fp2<B>,
    /// Coefficient of yP.
    pub c3: Fp2<B>,
    /// Whether x̃P is −3·xP (projective tangent lines) rather than −xP.
    pub tangent3: bool,
}

/// How the Miller loop represents T and computes its lines.
pub trait Lines: 'static {
    /// The running point T.
    type Point<B: Backend>: Copy;
    /// T = Q.
    fn start<B: Backend>(x: &Fp2<B>, y: &Fp2<B>) -> Self::Point<B>;
    /// Doubles every T (`None` as addend) or adds the affine addend to it, writing the lines.
    fn step<T: Tower, B: Backend>(
        pts: &mut [Self::Point<B>],
        addends: Option<&[(Fp2<B>, Fp2<B>)]>,
        lines: &mut Vec<Line<B>>,
    );
    /// The vertical line through T as `(a, b)` with value `a + (b·xP)·w²` (up to a GF(p²)
    /// factor).
    fn vertical<B: Backend>(pt: &Self::Point<B>) -> (Fp2<B>, Fp2<B>);
}

/// Homogeneous projective T, lines without inversions (the production formulas of `lines.rs`,
/// Costello–Lange–Naehrig ePrint 2009/615 §5 / Aranha et al. ePrint 2010/354 Alg. 26, 27).
#[derive(Debug)]
pub struct Projective;

/// Affine T: one slope per step, the inversions of all pairs of a multi-pairing shared by
/// Montgomery's simultaneous inversion (one GF(p) inversion per step).
#[derive(Debug)]
pub struct Affine;

/// `15u·c` (= 3b'·c for b' = 5u).
fn mul_by_3b<B: Backend>(c: &Fp2<B>) -> Fp2<B> {
    let cu = c.mul_by_u();
    cu.double().double().double().double().sub(&cu)
}

impl Lines for Projective {
    type Point<B: Backend> = (Fp2<B>, Fp2<B>, Fp2<B>);
    fn start<B: Backend>(x: &Fp2<B>, y: &Fp2<B>) -> Self::Point<B> {
        (*x, *y, Fp2::ONE)
    }
    fn step<T: Tower, B: Backend>(
        pts: &mut [Self::Point<B>],
        addends: Option<&[(Fp2<B>, Fp2<B>)]>,
        lines: &mut Vec<Line<B>>,
    ) {
        for (i, (x, y, z)) in pts.iter_mut().enumerate() {
            let l = match addends {
                None => {
                    let b = T::sqr2(y);
                    let c = T::sqr2(z);
                    let e = mul_by_3b(&c);
                    let f = e.double().add(&e);
                    let h = T::sqr2(&y.add(z)).sub(&b).sub(&c);
                    let l = Line {
                        c0: b.sub(&e),
                        c2: T::sqr2(x),
                        c3: h,
                        tangent3: true,
                    };
                    let e2 = T::sqr2(&e);
                    *x = T::mul2(&T::mul2(x, y).double(), &b.sub(&f));
                    *y = T::sqr2(&b.add(&f)).sub(&e2.double().add(&e2).double().double());
                    *z = T::mul2(&b.double().double(), &h);
                    l
                }
                Some(q) => {
                    let (x2, y2) = &q[i];
                    let theta = y.sub(&T::mul2(y2, z));
                    let lambda = x.sub(&T::mul2(x2, z));
                    let c = T::sqr2(&theta);
                    let d = T::sqr2(&lambda);
                    let e = T::mul2(&lambda, &d);
                    let f = T::mul2(z, &c);
                    let g = T::mul2(x, &d);
                    let h = e.add(&f).sub(&g.double());
                    let l = Line {
                        c0: T::mul2(&theta, x2).sub(&T::mul2(&lambda, y2)),
                        c2: theta,
                        c3: lambda,
                        tangent3: false,
                    };
                    *y = T::mul2(&theta, &g.sub(&h)).sub(&T::mul2(y, &e));
                    *x = T::mul2(&lambda, &h);
                    *z = T::mul2(z, &e);
                    l
                }
            };
            lines.push(l);
        }
    }
    fn vertical<B: Backend>(pt: &Self::Point<B>) -> (Fp2<B>, Fp2<B>) {
        (pt.0.neg(), pt.2)
    }
}

impl Lines for Affine {
    type Point<B: Backend> = (Fp2<B>, Fp2<B>);
    fn start<B: Backend>(x: &Fp2<B>, y: &Fp2<B>) -> Self::Point<B> {
        (*x, *y)
    }
    fn step<T: Tower, B: Backend>(
        pts: &mut [Self::Point<B>],
        addends: Option<&[(Fp2<B>, Fp2<B>)]>,
        lines: &mut Vec<Line<B>>,
    ) {
        // Slope λ = num/den: 3x²/(2y) (tangent) or (y − y2)/(x − x2) (chord).
        let (mut num, mut den): (Vec<Fp2<B>>, Vec<Fp2<B>>) = pts
            .iter()
            .enumerate()
            .map(|(i, (x, y))| match addends {
                None => {
                    let x2 = T::sqr2(x);
                    (x2.double().add(&x2), y.double())
                }
                Some(q) => (y.sub(&q[i].1), x.sub(&q[i].0)),
            })
            .unzip();
        // Montgomery's trick: prefix products, one inversion, then back.
        let mut prefix = Vec::with_capacity(den.len());
        let mut acc = Fp2::ONE;
        for d in &den {
            prefix.push(acc);
            acc = T::mul2(&acc, d);
        }
        let mut inv = invert2(&acc);
        for (d, pre) in den.iter_mut().zip(prefix).rev() {
            let di = T::mul2(&inv, &pre);
            inv = T::mul2(&inv, d);
            *d = di;
        }
        for (i, ((x, y), (n, di))) in pts.iter_mut().zip(num.iter_mut().zip(&den)).enumerate() {
            let lambda = T::mul2(n, di);
            let x_other = addends.map_or(*x, |q| q[i].0);
            let x3 = T::sqr2(&lambda).sub(x).sub(&x_other);
            // The line y − yT − λ(x − xT), scaled like the projective one: c0 = λ·xT − yT,
            // c2 = λ (times −xP), c3 = 1.
            lines.push(Line {
                c0: T::mul2(&lambda, x).sub(y),
                c2: lambda,
                c3: Fp2::ONE,
                tangent3: false,
            });
            *y = T::mul2(&lambda, &x.sub(&x3)).sub(y);
            *x = x3;
        }
    }
    fn vertical<B: Backend>(pt: &Self::Point<B>) -> (Fp2<B>, Fp2<B>) {
        (pt.0.neg(), Fp2::ONE)
    }
}

/// How a line (or vertical line) is multiplied into the accumulator.
pub trait LineProduct: 'static {
    /// `f · (a + b·w² + c·w³)`.
    fn mul<T: Tower, B: Backend>(f: &Fp12<B>, a: &Fp2<B>, b: &Fp2<B>, c: &Fp2<B>) -> Fp12<B>;
}

/// The sparse product of `Fp12::mul_by_023`: 3 GF(p⁴) products and 2 GF(p⁴)×GF(p²) scalings,
/// 13 GF(p²) products instead of 18 (Aranha et al. ePrint 2010/354 §4, for this tower).
#[derive(Debug)]
pub struct Sparse;
/// The line written as a dense GF(p¹²) element and multiplied by the configured product.
#[derive(Debug)]
pub struct Dense;

impl LineProduct for Sparse {
    fn mul<T: Tower, B: Backend>(f: &Fp12<B>, a: &Fp2<B>, b: &Fp2<B>, c: &Fp2<B>) -> Fp12<B> {
        let l0 = Fp4::new(*a, *c);
        let f0l0 = T::mul4(&f.c0, &l0);
        let f2l2 = mul4_by_fp2::<T, B>(&f.c2, b);
        let f1l0 = T::mul4(&f.c1, &l0);
        let f1l2 = mul4_by_fp2::<T, B>(&f.c1, b);
        let cross = T::mul4(&f.c0.add(&f.c2), &Fp4::new(a.add(b), *c));
        Fp12::new(
            f0l0.add_mul_by_v(&f1l2),
            f1l0.add_mul_by_v(&f2l2),
            cross.sub(&f0l0).sub(&f2l2),
        )
    }
}
impl LineProduct for Dense {
    fn mul<T: Tower, B: Backend>(f: &Fp12<B>, a: &Fp2<B>, b: &Fp2<B>, c: &Fp2<B>) -> Fp12<B> {
        T::mul12(f, &sparse_as_dense(a, b, c))
    }
}

fn sparse_as_dense<B: Backend>(a: &Fp2<B>, b: &Fp2<B>, c: &Fp2<B>) -> Fp12<B> {
    Fp12::new(Fp4::new(*a, *c), Fp4::ZERO, Fp4::new(*b, Fp2::ZERO))
}

/// Whether the Miller loop also accumulates the vertical lines (denominators).
pub trait MillerForm: 'static {
    /// Denominators accumulated and divided out at the end.
    const DENOMINATORS: bool;
}
/// Numerators only (vertical lines lie in GF(p⁶) and vanish in the final exponentiation).
#[derive(Debug)]
pub struct NumeratorOnly;
/// The textbook form: f/g with g the product of the vertical lines, one GF(p¹²) inversion at
/// the end.
#[derive(Debug)]
pub struct WithDenominators;
impl MillerForm for NumeratorOnly {
    const DENOMINATORS: bool = false;
}
impl MillerForm for WithDenominators {
    const DENOMINATORS: bool = true;
}

/// Digit schedules of public exponents (6t + 2 for the Miller loop, t for the final
/// exponentiation).
pub trait Digits: 'static {
    /// Little-endian signed digits of `k` and their count.
    fn digits(k: u128) -> ([i8; 72], usize);
}
/// Non-adjacent form.
#[derive(Debug)]
pub struct Naf;
/// Plain binary.
#[derive(Debug)]
pub struct Binary;
impl Digits for Naf {
    fn digits(k: u128) -> ([i8; 72], usize) {
        naf(k)
    }
}
impl Digits for Binary {
    fn digits(k: u128) -> ([i8; 72], usize) {
        let mut d = [0i8; 72];
        let len = 128 - k.leading_zeros() as usize;
        for (i, di) in d.iter_mut().enumerate().take(len) {
            *di = ((k >> i) & 1) as i8;
        }
        (d, len)
    }
}

/// The Miller-loop steps for the digits `D` of 6t + 2 (for [`Naf`] this is [`LOOP_SCHEDULE`](crate::LOOP_SCHEDULE)).
pub fn schedule<D: Digits>() -> Vec<Step> {
    let (d, len) = D::digits(ATE_LOOP);
    let mut s = Vec::with_capacity(2 * len);
    for i in (0..len - 1).rev() {
        s.push(Step::Double);
        match d[i] {
            1 => s.push(Step::AddQ),
            -1 => s.push(Step::SubQ),
            _ => {}
        }
    }
    s.push(Step::AddFrobenius);
    s.push(Step::SubFrobenius2);
    s
}

// ---------------------------------------------------------------------------------------------
// Final exponentiation.

/// Squaring in the cyclotomic subgroup, and whether exponentiation by t compresses its long
/// zero run.
pub trait CycSquare: 'static {
    /// Karabina compression across t's longest run of zero digits.
    const COMPRESS: bool;
    /// `a²` for a in the cyclotomic subgroup.
    fn sqr<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B>;
}
/// Granger–Scott squaring (ePrint 2009/565 §3.2), plus Karabina's compressed squaring (ePrint
/// 2010/542) across the longest zero run of t, with one decompression (the production choice).
#[derive(Debug)]
pub struct GsKarabina;
/// Granger–Scott squaring everywhere.
#[derive(Debug)]
pub struct GrangerScott;
/// The generic GF(p¹²) squaring of the tower.
#[derive(Debug)]
pub struct GenericSquare;

/// `3s − 2·conj(c)` over GF(p⁴) (conj: v ↦ −v).
fn three_minus_two_conj<B: Backend>(s: &Fp4<B>, c: &Fp4<B>) -> Fp4<B> {
    Fp4::new(
        s.c0.sub(&c.c0).double().add(&s.c0),
        s.c1.add(&c.c1).double().add(&s.c1),
    )
}

/// `3s + 2·conj(c)`.
fn three_plus_two_conj<B: Backend>(s: &Fp4<B>, c: &Fp4<B>) -> Fp4<B> {
    Fp4::new(
        s.c0.add(&c.c0).double().add(&s.c0),
        s.c1.sub(&c.c1).double().add(&s.c1),
    )
}

fn gs_compressed<T: Tower, B: Backend>(a1: &Fp4<B>, a2: &Fp4<B>) -> (Fp4<B>, Fp4<B>) {
    let s1 = T::sqr4(a1);
    let s2 = T::sqr4(a2);
    (
        three_plus_two_conj(&s2.mul_by_v(), a1),
        three_minus_two_conj(&s1, a2),
    )
}

fn gs_square<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
    let (c1, c2) = gs_compressed::<T, B>(&a.c1, &a.c2);
    Fp12::new(three_minus_two_conj(&T::sqr4(&a.c0), &a.c0), c1, c2)
}

impl CycSquare for GsKarabina {
    const COMPRESS: bool = true;
    fn sqr<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
        gs_square::<T, B>(a)
    }
}
impl CycSquare for GrangerScott {
    const COMPRESS: bool = false;
    fn sqr<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
        gs_square::<T, B>(a)
    }
}
impl CycSquare for GenericSquare {
    const COMPRESS: bool = false;
    fn sqr<T: Tower, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
        T::sqr12(a)
    }
}

/// The hard part f^((p⁴ − p² + 1)/n) on the cyclotomic subgroup.
pub trait HardPart: 'static {
    /// The hard part of `f` under configuration `C`.
    fn hard<C: Config, B: Backend>(f: &Fp12<B>) -> Fp12<B>;
}
/// The production chain: three exponentiations by t and the vectorial addition chain of Scott
/// et al., ePrint 2008/490 §5.
#[derive(Debug)]
pub struct Chain;
/// Square and multiply by the 766-bit exponent (p⁴ − p² + 1)/n.
#[derive(Debug)]
pub struct PlainPow;

/// `a^t` with the digits and squaring of `C` (t public). With compression, the squarings of
/// the longest zero run of the digits are Karabina's, followed by one decompression
/// (a0 = (a1² − conj(a2))/a2, see `cyclotomic.rs`; a2 ≠ 0 for every value reached here except 1).
pub fn exp_by_t<C: Config, B: Backend>(a: &Fp12<B>) -> Fp12<B> {
    let (d, len) = C::TDigits::digits(BN_T as u128);
    // The longest zero run below the top digit: digits top, top − 1, …, top − run + 1.
    let (mut top, mut run, mut cur) = (0, 0, 0);
    for i in (0..len - 1).rev() {
        cur = if d[i] == 0 { cur + 1 } else { 0 };
        if cur > run {
            (run, top) = (cur, i + cur - 1);
        }
    }
    let a_inv = a.conjugate();
    let mut acc = *a;
    let mut i = len - 1;
    while i > 0 {
        i -= 1;
        if C::Cyc::COMPRESS && i == top && run > 0 {
            let (mut c1, mut c2) = (acc.c1, acc.c2);
            for _ in 0..=run {
                (c1, c2) = gs_compressed::<C::Tower, B>(&c1, &c2);
            }
            let num = C::Tower::sqr4(&c1).sub(&c2.conjugate());
            let a0 = C::Tower::mul4(&num, &invert4::<C::Tower, B>(&c2));
            acc = Fp12::new(
                Fp4::conditional_select(&a0, &Fp4::ONE, c2.is_zero()),
                c1,
                c2,
            );
            i -= run;
        } else {
            acc = C::Cyc::sqr::<C::Tower, B>(&acc);
        }
        match d[i] {
            1 => acc = C::Tower::mul12(&acc, a),
            -1 => acc = C::Tower::mul12(&acc, &a_inv),
            _ => {}
        }
    }
    acc
}

impl HardPart for Chain {
    fn hard<C: Config, B: Backend>(f: &Fp12<B>) -> Fp12<B> {
        let m = |a: &Fp12<B>, b: &Fp12<B>| C::Tower::mul12(a, b);
        let sq = |a: &Fp12<B>| C::Cyc::sqr::<C::Tower, B>(a);
        let fx = exp_by_t::<C, B>(f);
        let fx2 = exp_by_t::<C, B>(&fx);
        let fx3 = exp_by_t::<C, B>(&fx2);
        let y0 = m(
            &m(&f.frobenius_map(1), &f.frobenius_map(2)),
            &f.frobenius_map(3),
        );
        let y1 = f.conjugate();
        let y2 = fx2.frobenius_map(2);
        let y3 = fx.frobenius_map(1).conjugate();
        let y4 = m(&fx, &fx2.frobenius_map(1)).conjugate();
        let y5 = fx2.conjugate();
        let y6 = m(&fx3, &fx3.frobenius_map(1)).conjugate();
        let mut t0 = m(&m(&sq(&y6), &y4), &y5);
        let mut t1 = m(&m(&y3, &y5), &t0);
        t0 = m(&t0, &y2);
        t1 = sq(&m(&sq(&t1), &t0));
        t0 = m(&t1, &y1);
        t1 = m(&t1, &y0);
        m(&sq(&t0), &t1)
    }
}

/// Little-endian 64-bit limbs of `a·b`.
fn big_mul(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut r = alloc::vec![0u64; a.len() + b.len()];
    for (i, x) in a.iter().enumerate() {
        let mut carry = 0u128;
        for (j, y) in b.iter().enumerate() {
            let t = r[i + j] as u128 + (*x as u128) * (*y as u128) + carry;
            r[i + j] = t as u64;
            carry = t >> 64;
        }
        r[i + b.len()] = carry as u64;
    }
    r
}

/// `a + s·b` for s = ±1 (the result must be non-negative), in place.
fn big_add_signed(a: &mut [u64], b: &[u64], negative: bool) {
    let mut carry = 0i128;
    for (i, x) in a.iter_mut().enumerate() {
        let y = b.get(i).copied().unwrap_or(0) as i128;
        let t = *x as i128 + if negative { -y } else { y } + carry;
        *x = t as u64;
        carry = t >> 64;
    }
}

/// The exponent (p⁴ − p² + 1)/n of the hard part (exact division, checked by the
/// equality of [`PlainPow`] with [`Chain`]), little-endian limbs.
pub fn hard_exponent() -> Vec<u64> {
    let p2 = big_mul(&Sm9P::P, &Sm9P::P);
    let mut e = big_mul(&p2, &p2);
    big_add_signed(&mut e, &p2, true);
    big_add_signed(&mut e, &[1], false);
    // Restoring binary long division by n.
    let n = Sm9N::P;
    let mut q = alloc::vec![0u64; e.len()];
    let mut rem = [0u64; 5];
    for bit in (0..64 * e.len()).rev() {
        for k in (1..5).rev() {
            rem[k] = (rem[k] << 1) | (rem[k - 1] >> 63);
        }
        rem[0] = (rem[0] << 1) | ((e[bit / 64] >> (bit % 64)) & 1);
        let below_n = rem[4] == 0 && rem[..4].iter().rev().lt(n.iter().rev());
        if !below_n {
            big_add_signed(&mut rem, &n, true);
            q[bit / 64] |= 1 << (bit % 64);
        }
    }
    while q.last() == Some(&0) {
        q.pop();
    }
    q
}

impl HardPart for PlainPow {
    fn hard<C: Config, B: Backend>(f: &Fp12<B>) -> Fp12<B> {
        let e = hard_exponent();
        let mut acc = Fp12::ONE;
        for bit in (0..64 * e.len()).rev() {
            acc = C::Cyc::sqr::<C::Tower, B>(&acc);
            if (e[bit / 64] >> (bit % 64)) & 1 == 1 {
                acc = C::Tower::mul12(&acc, f);
            }
        }
        acc
    }
}

// ---------------------------------------------------------------------------------------------
// Configurations and the pairing.

/// One choice per optimization.
pub trait Config: 'static {
    /// Tower formulas.
    type Tower: Tower;
    /// Point representation and line formulas.
    type Lines: Lines;
    /// Line product.
    type Product: LineProduct;
    /// Numerator-only or textbook Miller loop.
    type Form: MillerForm;
    /// Digits of 6t + 2.
    type LoopDigits: Digits;
    /// Hard part of the final exponentiation.
    type Hard: HardPart;
    /// Cyclotomic squaring.
    type Cyc: CycSquare;
    /// Digits of t.
    type TDigits: Digits;
}

/// The configuration with the given strategies.
// One marker for the eight strategy parameters, which are the point of the type.
#[allow(clippy::type_complexity)]
pub struct Variant<T, L, P, F, LD, H, Cy, TD>(PhantomData<(T, L, P, F, LD, H, Cy, TD)>);

impl<T, L, P, F, LD, H, Cy, TD> Config for Variant<T, L, P, F, LD, H, Cy, TD>
where
    T: Tower,
    L: Lines,
    P: LineProduct,
    F: MillerForm,
    LD: Digits,
    H: HardPart,
    Cy: CycSquare,
    TD: Digits,
{
    type Tower = T;
    type Lines = L;
    type Product = P;
    type Form = F;
    type LoopDigits = LD;
    type Hard = H;
    type Cyc = Cy;
    type TDigits = TD;
}

/// The production configuration (equals [`crate::pairing`]).
pub type Production =
    Variant<ProductionTower, Projective, Sparse, NumeratorOnly, Naf, Chain, GsKarabina, Naf>;

/// [`Production`] with the tower `T`.
pub type WithTower<T> = Variant<T, Projective, Sparse, NumeratorOnly, Naf, Chain, GsKarabina, Naf>;

/// P's affine coordinates (the one place that reads the G1 point type's fields).
fn g1_xy<B: Backend>(p: &G1Affine<B>) -> (Fp1<B>, Fp1<B>) {
    (p.x(), p.y())
}

/// Q's affine coordinates (the one place that reads the G2 point type's fields).
fn g2_xy<B: Backend>(q: &G2Affine<B>) -> (Fp2<B>, Fp2<B>) {
    (q.x(), q.y())
}

/// The π(Q) and −π²(Q) addends (see `miller.rs`).
fn frobenius_addends<B: Backend>(x: &Fp2<B>, y: &Fp2<B>) -> [(Fp2<B>, Fp2<B>); 2] {
    let g = &Fp12::<B>::GAMMA;
    [
        (
            x.conjugate().mul_by_fp(&g[10]),
            y.conjugate().mul_by_fp(&g[9]),
        ),
        (x.mul_by_fp(&g[8]), *y),
    ]
}

/// The product of the Miller loops of the pairs under `C` (points must not be the identity).
/// For [`Production`] this equals [`crate::multi_miller_loop`]. Like the production entry points,
/// the public functions of this block dispatch once per call ([`Backend::dispatch`]), so the
/// ledger times variants and production on the same pure backend.
pub fn multi_miller_loop<C: Config, B: Backend>(pairs: &[(G1Affine<B>, G2Affine<B>)]) -> Fp12<B> {
    B::dispatch(Stages::<C, B> {
        pairs,
        f: None,
        finish: false,
        _c: PhantomData,
    })
    .0
}

/// The stages of the variant pairing as one dispatched job: the Miller loop of `pairs` (or `f`
/// when given), then the final exponentiation when `finish`.
struct Stages<'a, C, B: Backend> {
    pairs: &'a [(G1Affine<B>, G2Affine<B>)],
    f: Option<&'a Fp12<B>>,
    finish: bool,
    _c: PhantomData<C>,
}

impl<C: Config, B: Backend> sm_field::Job for Stages<'_, C, B> {
    type Output = (Fp12<B>, Option<Gt<B>>);
    fn run<B2: Backend>(self) -> (Fp12<B>, Option<Gt<B>>) {
        let f = match self.f {
            Some(f) => f.to_backend::<B2>(),
            None => {
                let pairs: Vec<_> = self
                    .pairs
                    .iter()
                    .map(|(p, q)| (p.to_backend::<B2>(), q.to_backend::<B2>()))
                    .collect();
                multi_miller_loop_on::<C, B2>(&pairs)
            }
        };
        let e = self
            .finish
            .then(|| final_exponentiation_on::<C, B2>(&f).to_backend());
        (f.to_backend(), e)
    }
}

/// One step's lines (one per pair) and, with denominators, the vertical lines through each
/// pair's new T.
type StepLines<B> = (Vec<Line<B>>, Vec<(Fp2<B>, Fp2<B>)>);

/// The lines of the pairs' Q computed on the fly under `C`: `next(step, out)` advances every T
/// by one step of the schedule and writes its lines into `out`.
struct OnTheFly<C: Config, B: Backend> {
    pts: Vec<<C::Lines as Lines>::Point<B>>,
    q: Vec<(Fp2<B>, Fp2<B>)>,
    q_neg: Vec<(Fp2<B>, Fp2<B>)>,
    frob1: Vec<(Fp2<B>, Fp2<B>)>,
    frob2: Vec<(Fp2<B>, Fp2<B>)>,
}

impl<C: Config, B: Backend> OnTheFly<C, B> {
    fn new(qs: &[G2Affine<B>]) -> Self {
        let q: Vec<_> = qs.iter().map(g2_xy).collect();
        let frob: Vec<_> = q.iter().map(|(x, y)| frobenius_addends(x, y)).collect();
        Self {
            pts: q.iter().map(|(x, y)| C::Lines::start(x, y)).collect(),
            q_neg: q.iter().map(|(x, y)| (*x, y.neg())).collect(),
            frob1: frob.iter().map(|f| f[0]).collect(),
            frob2: frob.iter().map(|f| f[1]).collect(),
            q,
        }
    }

    fn next(&mut self, step: Step, out: &mut StepLines<B>) {
        let addends = match step {
            Step::Double => None,
            Step::AddQ => Some(&self.q[..]),
            Step::SubQ => Some(&self.q_neg[..]),
            Step::AddFrobenius => Some(&self.frob1[..]),
            Step::SubFrobenius2 => Some(&self.frob2[..]),
        };
        out.0.clear();
        out.1.clear();
        C::Lines::step::<C::Tower, B>(&mut self.pts, addends, &mut out.0);
        if C::Form::DENOMINATORS {
            out.1.extend(self.pts.iter().map(C::Lines::vertical));
        }
    }
}

/// The product of the Miller loops of P's (affine coordinates) whose lines `source(i, step,
/// out)` writes for step `i` of `C`'s schedule.
fn accumulate<C: Config, B: Backend>(
    p: &[(Fp1<B>, Fp1<B>)],
    mut source: impl FnMut(usize, Step, &mut StepLines<B>),
) -> Fp12<B> {
    let xp3: Vec<_> = p
        .iter()
        .map(|(x, _)| {
            let x = x.neg();
            (x, x.double().add(&x))
        })
        .collect();
    let mut f = Fp12::ONE;
    let mut g = Fp12::ONE;
    let mut out = (Vec::with_capacity(p.len()), Vec::with_capacity(p.len()));
    for (i, step) in schedule::<C::LoopDigits>().iter().enumerate() {
        if *step == Step::Double && i != 0 {
            f = C::Tower::sqr12(&f);
            if C::Form::DENOMINATORS {
                g = C::Tower::sqr12(&g);
            }
        }
        source(i, *step, &mut out);
        for (j, (l, (px, py))) in out.0.iter().zip(p).enumerate() {
            let xp = if l.tangent3 { xp3[j].1 } else { xp3[j].0 };
            let (b, c) = (l.c2.mul_by_fp(&xp), l.c3.mul_by_fp(py));
            f = if i == 0 && j == 0 {
                sparse_as_dense(&l.c0, &b, &c)
            } else {
                C::Product::mul::<C::Tower, B>(&f, &l.c0, &b, &c)
            };
            if C::Form::DENOMINATORS && *step != Step::SubFrobenius2 {
                let (va, vb) = out.1[j];
                g = C::Product::mul::<C::Tower, B>(&g, &va, &vb.mul_by_fp(px), &Fp2::ZERO);
            }
        }
    }
    if C::Form::DENOMINATORS {
        f = C::Tower::mul12(&f, &invert12::<C::Tower, B>(&g));
    }
    f
}

fn multi_miller_loop_on<C: Config, B: Backend>(pairs: &[(G1Affine<B>, G2Affine<B>)]) -> Fp12<B> {
    let qs: Vec<_> = pairs.iter().map(|(_, q)| *q).collect();
    let mut lines = OnTheFly::<C, B>::new(&qs);
    let p: Vec<_> = pairs.iter().map(|(p, _)| g1_xy(p)).collect();
    accumulate::<C, B>(&p, |_, step, out| lines.next(step, out))
}

/// The lines of a fixed G2 point under `C` (its schedule, its line formulas and, with
/// denominators, its vertical lines), recorded once like [`crate::G2Prepared`], so that
/// pairings with it do no G2 arithmetic: what SM9 verification (lines of P2 and Ppub-s) and
/// decryption (lines of the user key) time per call. The point must not be the identity.
pub struct Prepared<C: Config, B: Backend> {
    lines: Vec<Line<B>>,
    verticals: Vec<(Fp2<B>, Fp2<B>)>,
    _c: PhantomData<C>,
}

impl<C: Config, B: Backend> Prepared<C, B> {
    /// Runs `C`'s schedule once on Q and records its lines (on `B` itself, not dispatched: a
    /// precomputation, not timed).
    pub fn new(q: &G2Affine<B>) -> Self {
        let mut src = OnTheFly::<C, B>::new(&[*q]);
        let (mut lines, mut verticals) = (Vec::new(), Vec::new());
        let mut out = (Vec::with_capacity(1), Vec::with_capacity(1));
        for step in schedule::<C::LoopDigits>() {
            src.next(step, &mut out);
            lines.push(out.0[0]);
            verticals.extend(out.1.first());
        }
        Self {
            lines,
            verticals,
            _c: PhantomData,
        }
    }
}

/// [`Prepared`] pairs' Miller loops and final exponentiation as one dispatched job.
struct PreparedStages<'a, C: Config, B: Backend> {
    pairs: &'a [(G1Affine<B>, &'a Prepared<C, B>)],
}

impl<C: Config, B: Backend> sm_field::Job for PreparedStages<'_, C, B> {
    type Output = Gt<B>;
    fn run<B2: Backend>(self) -> Gt<B> {
        let p: Vec<_> = self
            .pairs
            .iter()
            .map(|(p, _)| g1_xy(&p.to_backend::<B2>()))
            .collect();
        let f = accumulate::<C, B2>(&p, |i, _, out| {
            // A limb copy per line, as the production `G2Prepared` replay does.
            out.0.clear();
            out.1.clear();
            for (_, q) in self.pairs {
                let l = &q.lines[i];
                out.0.push(Line {
                    c0: l.c0.to_backend(),
                    c2: l.c2.to_backend(),
                    c3: l.c3.to_backend(),
                    tangent3: l.tangent3,
                });
                if C::Form::DENOMINATORS {
                    let (a, b) = &q.verticals[i];
                    out.1.push((a.to_backend(), b.to_backend()));
                }
            }
        });
        final_exponentiation_on::<C, B2>(&f).to_backend()
    }
}

/// ∏ e(Pᵢ, Qᵢ) under `C` for prepared Qᵢ (like [`crate::multi_miller_loop_prepared`] followed
/// by [`crate::final_exponentiation`]; the P's must not be the identity).
pub fn multi_pairing_prepared<C: Config, B: Backend>(
    pairs: &[(G1Affine<B>, &Prepared<C, B>)],
) -> Gt<B> {
    B::dispatch(PreparedStages { pairs })
}

/// e(P, Q) under `C` for a prepared Q (like [`crate::pairing_prepared`]).
pub fn pairing_prepared<C: Config, B: Backend>(p: &G1Affine<B>, q: &Prepared<C, B>) -> Gt<B> {
    multi_pairing_prepared(&[(*p, q)])
}

/// The Miller loop of e(P, Q) under `C`.
pub fn miller_loop<C: Config, B: Backend>(p: &G1Affine<B>, q: &G2Affine<B>) -> Fp12<B> {
    multi_miller_loop::<C, B>(&[(*p, *q)])
}

fn final_exponentiation_on<C: Config, B: Backend>(f: &Fp12<B>) -> Gt<B> {
    let f1 = C::Tower::mul12(&f.conjugate(), &invert12::<C::Tower, B>(f));
    let easy = C::Tower::mul12(&f1.frobenius_map(2), &f1);
    Gt::from_fp12_unchecked(C::Hard::hard::<C, B>(&easy))
}

/// The final exponentiation under `C`: easy part f^((p⁶ − 1)(p² + 1)), then `C::Hard`.
pub fn final_exponentiation<C: Config, B: Backend>(f: &Fp12<B>) -> Gt<B> {
    let (_, e) = B::dispatch(Stages::<C, B> {
        pairs: &[],
        f: Some(f),
        finish: true,
        _c: PhantomData,
    });
    e.expect("finish was asked")
}

/// e(P, Q) under `C`.
pub fn pairing<C: Config, B: Backend>(p: &G1Affine<B>, q: &G2Affine<B>) -> Gt<B> {
    multi_pairing::<C, B>(&[(*p, *q)])
}

/// ∏ e(Pᵢ, Qᵢ) under `C`.
pub fn multi_pairing<C: Config, B: Backend>(pairs: &[(G1Affine<B>, G2Affine<B>)]) -> Gt<B> {
    let (_, e) = B::dispatch(Stages::<C, B> {
        pairs,
        f: None,
        finish: true,
        _c: PhantomData,
    });
    e.expect("finish was asked")
}

// ---------------------------------------------------------------------------------------------
// GT and backends.

/// `g^k` in GT like [`Gt::pow`] but without the 2-way Frobenius split: one chain of 256
/// cyclotomic squarings over 65 signed radix-16 digits of k mod n (same table size, same
/// constant-time table scan).
pub fn gt_pow_unsplit<B: Backend>(g: &Gt<B>, k: &[u64; 4]) -> Gt<B> {
    let mut be = [0u8; 32];
    for (i, l) in k.iter().enumerate() {
        be[24 - 8 * i..32 - 8 * i].copy_from_slice(&l.to_be_bytes());
    }
    // k mod n < 2²⁵⁶: 64 nibbles and a carry digit.
    let k = Fp::<Sm9N, B>::from_bytes_reduced(&be).to_canonical_limbs();
    let mut d = [0i8; 65];
    for (i, di) in d.iter_mut().enumerate().take(64) {
        *di = ((k[i / 16] >> (4 * (i % 16))) & 0xf) as i8;
    }
    for i in 0..64 {
        let carry = (d[i] + 8) >> 4;
        d[i] -= carry << 4;
        d[i + 1] += carry;
    }
    let mut table = [*g; 8];
    for j in 1..8 {
        table[j] = table[j - 1].mul(g);
    }
    let lookup = |d: i8| {
        let abs = d.unsigned_abs();
        let mut r = Gt::IDENTITY;
        for (j, e) in table.iter().enumerate() {
            r.conditional_assign(e, subtle::ConstantTimeEq::ct_eq(&abs, &(j as u8 + 1)));
        }
        Gt::conditional_select(&r, &r.invert(), subtle::Choice::from((d < 0) as u8))
    };
    let mut acc = lookup(d[64]);
    for i in (0..64).rev() {
        for _ in 0..4 {
            acc = acc.square();
        }
        acc = acc.mul(&lookup(d[i]));
    }
    acc
}

/// [`GtTable::pow`] with its products taken by the tower `T`: the same table (the production
/// one), the same 2-way Frobenius split and signed radix-32 digits, the same constant-time
/// lookups; SM9 signing's `w = g^r`, where the tower's products are all the GT work.
pub fn gt_table_pow<T: Tower, B: Backend>(table: &GtTable<B>, k: &[u64; 4]) -> Gt<B> {
    struct Pow<'a, T, B: Backend>(&'a GtTable<B>, &'a [u64; 4], PhantomData<T>);
    impl<T: Tower, B: Backend> sm_field::Job for Pow<'_, T, B> {
        type Output = Gt<B>;
        fn run<B2: Backend>(self) -> Gt<B> {
            let lookup =
                |row: &[Fp12<B>; TABLE_ENTRIES], d: i8| ct_lookup::<B2, B, TABLE_ENTRIES>(row, d);
            let (k0, k1) = split_exponent(self.1);
            let d0 = signed_digits::<TABLE_W, TABLE_ROWS>(k0);
            let d1 = signed_digits::<TABLE_W, TABLE_ROWS>(k1);
            let rows = &self.0.rows;
            let mut acc0 = lookup(&rows[0], d0[0]);
            let mut acc1 = lookup(&rows[0], d1[0]);
            for (i, row) in rows.iter().enumerate().skip(1) {
                acc0 = T::mul12(&acc0, &lookup(row, d0[i]));
                acc1 = T::mul12(&acc1, &lookup(row, d1[i]));
            }
            Gt::from_fp12_unchecked(T::mul12(&acc0, &acc1.frobenius_map(1)).to_backend())
        }
    }
    B::dispatch(Pow::<T, B>(table, k, PhantomData))
}

/// A backend that forwards to `B` but never batches products ([`Backend::mul_batch`] one pair
/// at a time, [`Backend::BATCH`] false): `NoBatch<MulxIfma>` is the x86_64 backend without its
/// AVX-512 IFMA batching. Its [`Backend::dispatch`] follows `B`'s and keeps the wrapper, so
/// `NoBatch<Asm>` runs entry points on `NoBatch<MulxIfma>` on an IFMA CPU.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoBatch<B: Backend>(PhantomData<fn() -> B>);

impl<B: Backend> Backend for NoBatch<B> {
    const NAME: &'static str = "nobatch";
    fn dispatch<J: sm_field::Job>(job: J) -> J::Output {
        struct Wrap<J>(J);
        impl<J: sm_field::Job> sm_field::Job for Wrap<J> {
            type Output = J::Output;
            fn run<B2: Backend>(self) -> J::Output {
                self.0.run::<NoBatch<B2>>()
            }
        }
        B::dispatch(Wrap(job))
    }
    fn add<M: Modulus>(a: &sm_field::Limbs, b: &sm_field::Limbs) -> sm_field::Limbs {
        B::add::<M>(a, b)
    }
    fn sub<M: Modulus>(a: &sm_field::Limbs, b: &sm_field::Limbs) -> sm_field::Limbs {
        B::sub::<M>(a, b)
    }
    fn neg<M: Modulus>(a: &sm_field::Limbs) -> sm_field::Limbs {
        B::neg::<M>(a)
    }
    fn double<M: Modulus>(a: &sm_field::Limbs) -> sm_field::Limbs {
        B::double::<M>(a)
    }
    fn mul<M: Modulus>(a: &sm_field::Limbs, b: &sm_field::Limbs) -> sm_field::Limbs {
        B::mul::<M>(a, b)
    }
    fn square<M: Modulus>(a: &sm_field::Limbs) -> sm_field::Limbs {
        B::square::<M>(a)
    }
}

// ---------------------------------------------------------------------------------------------
// The ledger's rows.

/// The operation a ledger row times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// [`miller_loop`] of one pair.
    Miller,
    /// [`final_exponentiation`].
    FinalExp,
    /// [`pairing`].
    Pairing,
    /// [`multi_pairing`] of two pairs (as in SM9 verification's product of pairings).
    MultiPairing2,
}

/// One optimization of the pairing: the row that compares [`Production`] with a configuration
/// where only this optimization is switched off.
#[derive(Clone, Copy, Debug)]
pub struct Row {
    /// The optimization (what production does).
    pub optimization: &'static str,
    /// What replaces it in the "off" configuration.
    pub off: &'static str,
    /// The operation timed.
    pub stage: Stage,
    /// Where the optimization comes from.
    pub source: &'static str,
}

/// Receives every configuration of the ledger.
pub trait Visitor {
    /// Called with the "off" configuration `C` of one row.
    fn visit<C: Config>(&mut self, row: Row);
}

/// Calls `v` once per optimization, with the configuration that switches only it off. Adding a
/// variant is one strategy type (implementing the strategy trait of its stage) and one call
/// here; the ledger (`cargo xtask ledger`: its pairing-stage row and its SM9 sign / verify /
/// decrypt rows) and `tests/ledger_variants.rs` pick it up.
pub fn visit_rows(v: &mut impl Visitor) {
    type V<T, L, P, F, LD, H, Cy, TD> = Variant<T, L, P, F, LD, H, Cy, TD>;
    type Kt = Karatsuba;
    type Sb = Schoolbook;
    type Cx = Complex;
    let dsd = "Devegili–Scott–Dahab ePrint 2006/471";
    v.visit::<WithTower<Tw<Sb, Cx, Kt, Cx, Kt, ChungHasan>>>(Row {
        optimization: "Karatsuba GF(p²) product",
        off: "schoolbook (4 products)",
        stage: Stage::Pairing,
        source: dsd,
    });
    v.visit::<WithTower<Tw<Kt, Cx, Sb, Cx, Kt, ChungHasan>>>(Row {
        optimization: "Karatsuba GF(p⁴) product",
        off: "schoolbook (4 GF(p²) products)",
        stage: Stage::Pairing,
        source: dsd,
    });
    v.visit::<WithTower<Tw<Kt, Cx, Kt, Cx, Sb, ChungHasan>>>(Row {
        optimization: "Karatsuba GF(p¹²) product",
        off: "schoolbook (9 GF(p⁴) products)",
        stage: Stage::Pairing,
        source: dsd,
    });
    v.visit::<WithTower<Tw<Sb, ByMul, Sb, ByMul, Sb, ByMul>>>(Row {
        optimization: "Karatsuba + complex/Chung–Hasan squaring, whole tower",
        off: "schoolbook products, squarings as products",
        stage: Stage::Pairing,
        source: "Devegili–Scott–Dahab ePrint 2006/471 §3–§5; Chung–Hasan ARITH 2007",
    });
    v.visit::<WithTower<Tw<Kt, ByMul, Kt, Cx, Kt, ChungHasan>>>(Row {
        optimization: "complex GF(p²) squaring",
        off: "square as product",
        stage: Stage::Pairing,
        source: dsd,
    });
    v.visit::<WithTower<Tw<Kt, Cx, Kt, ByMul, Kt, ChungHasan>>>(Row {
        optimization: "complex GF(p⁴) squaring",
        off: "square as product",
        stage: Stage::Pairing,
        source: dsd,
    });
    v.visit::<WithTower<Tw<Kt, Cx, Kt, Cx, Kt, ByMul>>>(Row {
        optimization: "Chung–Hasan GF(p¹²) squaring",
        off: "square as product",
        stage: Stage::Miller,
        source: "Chung–Hasan ARITH 2007 (SQR2); Devegili–Scott–Dahab §4",
    });
    v.visit::<V<ProductionTower, Affine, Sparse, NumeratorOnly, Naf, Chain, GsKarabina, Naf>>(
        Row {
            optimization: "projective lines (no inversion)",
            off: "affine T, one inversion per step",
            stage: Stage::Miller,
            source: "Costello–Lange–Naehrig ePrint 2009/615 §5",
        },
    );
    v.visit::<V<ProductionTower, Affine, Sparse, NumeratorOnly, Naf, Chain, GsKarabina, Naf>>(
        Row {
            optimization: "projective lines, 2-pair product",
            off: "affine, inversions of both pairs shared (Montgomery)",
            stage: Stage::MultiPairing2,
            source: "Costello–Lange–Naehrig ePrint 2009/615 §5",
        },
    );
    v.visit::<V<ProductionTower, Projective, Dense, NumeratorOnly, Naf, Chain, GsKarabina, Naf>>(
        Row {
            optimization: "sparse line product (13 GF(p²) products)",
            off: "dense GF(p¹²) product (18)",
            stage: Stage::Miller,
            source: "Aranha et al. ePrint 2010/354 §4",
        },
    );
    v.visit::<V<ProductionTower, Projective, Sparse, WithDenominators, Naf, Chain, GsKarabina, Naf>>(
        Row {
            optimization: "numerator-only Miller loop",
            off: "numerators and vertical-line denominators, one division",
            stage: Stage::Miller,
            source: "GM/T 0044.1 §B.4.2; Barreto–Naehrig (verticals in GF(p⁶))",
        },
    );
    v.visit::<V<ProductionTower, Projective, Sparse, NumeratorOnly, Binary, Chain, GsKarabina, Naf>>(
        Row {
            optimization: "NAF of 6t + 2",
            off: "binary 6t + 2",
            stage: Stage::Miller,
            source: "GM/T 0044.1 §B.4.2 (R-ate loop)",
        },
    );
    v.visit::<V<ProductionTower, Projective, Sparse, NumeratorOnly, Naf, PlainPow, GsKarabina, Naf>>(
        Row {
            optimization: "hard part by t-chain",
            off: "square-and-multiply by (p⁴ − p² + 1)/n",
            stage: Stage::FinalExp,
            source: "Scott et al. ePrint 2008/490 §5",
        },
    );
    v.visit::<V<ProductionTower, Projective, Sparse, NumeratorOnly, Naf, Chain, GrangerScott, Naf>>(
        Row {
            optimization: "Karabina compressed squaring (t's zero run)",
            off: "Granger–Scott squaring only",
            stage: Stage::FinalExp,
            source: "Karabina ePrint 2010/542",
        },
    );
    v.visit::<V<ProductionTower, Projective, Sparse, NumeratorOnly, Naf, Chain, GenericSquare, Naf>>(
        Row {
            optimization: "cyclotomic squaring",
            off: "generic GF(p¹²) squaring",
            stage: Stage::FinalExp,
            source: "Granger–Scott ePrint 2009/565 §3.2; Karabina ePrint 2010/542",
        },
    );
    v.visit::<V<ProductionTower, Projective, Sparse, NumeratorOnly, Naf, Chain, GsKarabina, Binary>>(
        Row {
            optimization: "NAF of t",
            off: "binary t",
            stage: Stage::FinalExp,
            source: "Scott et al. ePrint 2008/490 §5",
        },
    );
}
