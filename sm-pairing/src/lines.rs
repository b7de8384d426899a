//! Line functions of the Miller loop in homogeneous projective coordinates on the twist, without
//! inversions.
//!
//! T = (X : Y : Z) on E': y² = x³ + b', b' = 5u, represents (X/Z, Y/Z). The untwisting map
//! ψ(x', y') = (x'·w⁻², y'·w⁻³) sends E' to E over GF(p¹²) (w⁶ = u). A line through ψ-images
//! evaluated at P = (xP, yP) ∈ E(GF(p)), multiplied by w³ and by factors in GF(p²) (which the
//! final exponentiation removes, as GF(p⁴) ⊂ GF(p¹²) is killed by p⁴ − 1 | (p¹²−1)/n), becomes
//! `l = c0 + (c2·x̃P)·w² + (c3·yP)·w³` with c0, c2, c3 ∈ GF(p²) and x̃P = −3·xP for tangent
//! lines, x̃P = −xP for addition lines (the constants move to P, once per pairing, instead of
//! being applied to every line): the sparse shape consumed by
//! [`Fp12::mul_by_023`]. The formulas follow Costello, Lange, Naehrig, "Faster pairing
//! computations on curves with high-degree twists", ePrint 2009/615 §5, in the arrangement of
//! Aranha, Karabina, Longa, Gebotys, López, ePrint 2010/354 Alg. 26 (doubling) and Alg. 27
//! (mixed addition), adapted to the M-type twist (w³ instead of w multiplies yP) and scaled by 4
//! in doubling to avoid halvings.

use sm_field::{Backend, Fp, Fp12, Fp2, Fp4, Sm9P};

/// The GF(p²) coefficients of one line, independent of P: `l(P) = c0 + (c2·x̃P)·w² + (c3·yP)·w³`
/// with x̃P = −3·xP for a doubling (tangent) line and x̃P = −xP for an addition line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineCoeffs<B: Backend> {
    /// Constant term (slot w⁰).
    pub c0: Fp2<B>,
    /// Multiplied by x̃P (slot w²): −3·xP for doubling lines, −xP for addition lines.
    pub c2: Fp2<B>,
    /// Multiplied by yP (slot w³).
    pub c3: Fp2<B>,
}

impl<B: Backend> LineCoeffs<B> {
    /// The same line over backend `B2` (a limb copy).
    #[inline(always)]
    pub fn to_backend<B2: Backend>(&self) -> LineCoeffs<B2> {
        LineCoeffs {
            c0: self.c0.to_backend(),
            c2: self.c2.to_backend(),
            c3: self.c3.to_backend(),
        }
    }

    /// `f · l(P)`: `xp` is x̃P (−3·xP or −xP, see the type docs), `yp` is P's y-coordinate
    /// (4 GF(p) multiplications + a 13-multiplication sparse GF(p¹²) product).
    #[inline]
    pub fn evaluate_into(&self, f: &Fp12<B>, xp: &Fp<Sm9P, B>, yp: &Fp<Sm9P, B>) -> Fp12<B> {
        f.mul_by_023(&self.c0, &self.c2.mul_by_fp(xp), &self.c3.mul_by_fp(yp))
    }

    /// `l(P)` as a dense GF(p¹²) element (the first line of a Miller loop, where f = 1).
    #[inline]
    pub fn evaluate(&self, xp: &Fp<Sm9P, B>, yp: &Fp<Sm9P, B>) -> Fp12<B> {
        Fp12::new(
            Fp4::new(self.c0, self.c3.mul_by_fp(yp)),
            Fp4::ZERO,
            Fp4::new(self.c2.mul_by_fp(xp), Fp2::ZERO),
        )
    }
}

/// A point of the twist in homogeneous projective coordinates.
#[derive(Clone, Copy, Debug)]
pub(crate) struct G2Projective<B: Backend> {
    pub x: Fp2<B>,
    pub y: Fp2<B>,
    pub z: Fp2<B>,
}

/// `3b' = 15u` times `c`: `15·(c·u)` with `c·u = −2·c1 + c0·u` and `15x = 16x − x`.
#[inline(always)]
fn mul_by_3b<B: Backend>(c: &Fp2<B>) -> Fp2<B> {
    let cu = c.mul_by_u();
    let x16 = cu.double().double().double().double();
    x16.sub(&cu)
}

impl<B: Backend> G2Projective<B> {
    pub fn from_affine(x: &Fp2<B>, y: &Fp2<B>) -> Self {
        Self {
            x: *x,
            y: *y,
            z: Fp2::ONE,
        }
    }

    /// T ← 2T and the tangent line at T (ePrint 2010/354 Alg. 26, scaled by 4):
    /// 1. B = Y², C = Z², E = 3b'·C, F = 3E, H = (Y + Z)² − B − C (= 2YZ)
    /// 2. X₃ = 2·X·Y·(B − F), Y₃ = (B + F)² − 12·E², Z₃ = 4·B·H
    /// 3. line: c0 = B − E (= Y² − 3b'Z²), c2 = X² (times −3xP), c3 = H.
    pub fn double_step(&mut self) -> LineCoeffs<B> {
        let (x, y, z) = (self.x, self.y, self.z);
        let b = y.square();
        let c = z.square();
        let e = mul_by_3b(&c);
        let f = e.double().add(&e);
        let h = y.add(&z).square().sub(&b).sub(&c);
        let xy = x.mul(&y);
        self.x = xy.double().mul(&b.sub(&f));
        let e2 = e.square();
        let e2_12 = e2.double().add(&e2).double().double();
        self.y = b.add(&f).square().sub(&e2_12);
        self.z = b.double().double().mul(&h);
        LineCoeffs {
            c0: b.sub(&e),
            c2: x.square(),
            c3: h,
        }
    }

    /// T ← T + Q for affine Q = (x2, y2) and the line through T and Q (ePrint 2010/354 Alg. 27):
    /// 1. θ = Y − y2·Z, λ = X − x2·Z
    /// 2. C = θ², D = λ², E = λ·D, F = Z·C, G = X·D, H = E + F − 2G
    /// 3. X₃ = λ·H, Y₃ = θ·(G − H) − Y·E, Z₃ = Z·E
    /// 4. line: c0 = θ·x2 − λ·y2, c2 = θ (times −xP), c3 = λ.
    ///
    /// Requires T ≠ ±Q (true for every addition of the R-ate loop on points of G2).
    pub fn add_step(&mut self, x2: &Fp2<B>, y2: &Fp2<B>) -> LineCoeffs<B> {
        let (x, y, z) = (self.x, self.y, self.z);
        let theta = y.sub(&y2.mul(&z));
        let lambda = x.sub(&x2.mul(&z));
        let c = theta.square();
        let d = lambda.square();
        let e = lambda.mul(&d);
        let f = z.mul(&c);
        let g = x.mul(&d);
        let h = e.add(&f).sub(&g.double());
        self.x = lambda.mul(&h);
        self.y = theta.mul(&g.sub(&h)).sub(&y.mul(&e));
        self.z = z.mul(&e);
        LineCoeffs {
            c0: theta.mul(x2).sub(&lambda.mul(y2)),
            c2: theta,
            c3: lambda,
        }
    }
}
