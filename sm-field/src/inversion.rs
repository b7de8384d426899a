//! Modular inversion by Bernstein–Yang "safegcd" divsteps (ePrint 2019/266), in the batched
//! form with signed 62-bit limbs and 2×2 transition matrices described in libsecp256k1's
//! `doc/safegcd_implementation.md` (this is an independent implementation of that description).
//!
//! * [`invert`]: constant time. Ten batches of 59 "half-delta" divsteps (δ starts at ½; 590
//!   divsteps suffice for every 256-bit modulus and input, safegcd bound §8 of the document),
//!   each divstep branch-free with masks.
//! * [`invert_vartime`]: variable time (public inputs only). Divsteps with δ starting at 1, runs
//!   of even `g` skipped with trailing-zero counts, stops as soon as `g = 0`.
//!
//! Both return the plain inverse `x⁻¹ mod p` of `0 < x < p` (0 for 0); the caller converts
//! Montgomery residues.

use crate::{Limbs, Modulus};

const M62: u64 = u64::MAX >> 2;

/// A signed integer as five 62-bit limbs: limbs 0..4 in `[0, 2^62)`, limb 4 signed.
type Signed62 = [i64; 5];

/// 2×2 transition matrix `[u v; q r]` of a batch of 62 divsteps, scaled by 2^62:
/// `2^62·(f', g') = (u·f + v·g, q·f + r·g)`.
#[derive(Clone, Copy)]
struct Trans {
    u: i64,
    v: i64,
    q: i64,
    r: i64,
}

const fn to_signed62(a: &Limbs) -> Signed62 {
    [
        (a[0] & M62) as i64,
        (((a[0] >> 62) | (a[1] << 2)) & M62) as i64,
        (((a[1] >> 60) | (a[2] << 4)) & M62) as i64,
        (((a[2] >> 58) | (a[3] << 6)) & M62) as i64,
        (a[3] >> 56) as i64,
    ]
}

/// Inverse of a value in `[0, 2^256)` held as signed-62 limbs.
fn from_signed62(d: &Signed62) -> Limbs {
    let d = d.map(|x| x as u64);
    [
        d[0] | (d[1] << 62),
        (d[1] >> 2) | (d[2] << 60),
        (d[2] >> 4) | (d[3] << 58),
        (d[3] >> 6) | (d[4] << 56),
    ]
}

/// Per-modulus constants.
struct Consts<M>(core::marker::PhantomData<M>);
impl<M: Modulus> Consts<M> {
    /// p in signed-62 limbs.
    const P: Signed62 = to_signed62(&M::P);
    /// p⁻¹ mod 2^62.
    const PINV62: i64 = (M::INV.wrapping_neg() & M62) as i64;
}

/// 59 constant-time half-delta divsteps on the low 64 bits of `f` (odd) and `g`, with
/// `zeta = −(δ + ½)`. Returns the new zeta and the transition matrix scaled by 2^62 (it starts
/// at 8·I, and each divstep doubles one row).
#[inline(always)]
fn divsteps_59(mut zeta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (mut u, mut v, mut q, mut r) = (8i64, 0i64, 0i64, 8i64);
    let (mut f, mut g) = (f0 as i64, g0 as i64);
    for _ in 0..59 {
        // c1: δ > 0; c2: g odd. If both: (f, g) ← (g, (g − f)/2), else if g odd: g ← (g + f)/2,
        // else g ← g/2 (with the matching matrix rows).
        let c1 = zeta >> 63;
        let c2 = -(g & 1);
        let x = (f ^ c1).wrapping_sub(c1);
        let y = (u ^ c1).wrapping_sub(c1);
        let z = (v ^ c1).wrapping_sub(c1);
        g = g.wrapping_add(x & c2);
        q = q.wrapping_add(y & c2);
        r = r.wrapping_add(z & c2);
        let c1 = c1 & c2;
        zeta = (zeta ^ c1).wrapping_sub(1);
        f = f.wrapping_add(g & c1);
        u = u.wrapping_add(q & c1);
        v = v.wrapping_add(r & c1);
        g >>= 1;
        u = u.wrapping_shl(1);
        v = v.wrapping_shl(1);
    }
    (zeta, Trans { u, v, q, r })
}

/// Variable-time divsteps (δ = −eta) until 62 of them are done; returns the new eta and the
/// matrix scaled by 2^62.
#[inline(always)]
fn divsteps_62_vartime(mut eta: i64, f0: u64, g0: u64) -> (i64, Trans) {
    let (mut u, mut v, mut q, mut r) = (1i64, 0i64, 0i64, 1i64);
    let (mut f, mut g) = (f0, g0);
    let mut left = 62u32;
    loop {
        // Skip the run of zero bits of g (each is a divstep g ← g/2, δ ← δ + 1), at most `left`.
        let zeros = (g | (u64::MAX << left)).trailing_zeros();
        g >>= zeros;
        u <<= zeros;
        v <<= zeros;
        eta -= zeros as i64;
        left -= zeros;
        if left == 0 {
            break;
        }
        // g is odd. δ > 0: swap to (g, −f) and negate δ, so that the step below is g ← (g + f)/2.
        if eta < 0 {
            eta = -eta;
            (f, g) = (g, f.wrapping_neg());
            (u, q) = (q, u.wrapping_neg());
            (v, r) = (r, v.wrapping_neg());
        }
        g = g.wrapping_add(f);
        q = q.wrapping_add(u);
        r = r.wrapping_add(v);
    }
    (eta, Trans { u, v, q, r })
}

/// `(f, g) ← t·(f, g) / 2^62` (exact division).
#[inline(always)]
fn update_fg(f: &mut Signed62, g: &mut Signed62, t: &Trans) {
    let (u, v, q, r) = (t.u as i128, t.v as i128, t.q as i128, t.r as i128);
    let mut cf = u * f[0] as i128 + v * g[0] as i128;
    let mut cg = q * f[0] as i128 + r * g[0] as i128;
    debug_assert!(cf as u64 & M62 == 0 && cg as u64 & M62 == 0);
    cf >>= 62;
    cg >>= 62;
    for i in 1..5 {
        let (fi, gi) = (f[i] as i128, g[i] as i128);
        cf += u * fi + v * gi;
        cg += q * fi + r * gi;
        f[i - 1] = (cf as u64 & M62) as i64;
        g[i - 1] = (cg as u64 & M62) as i64;
        cf >>= 62;
        cg >>= 62;
    }
    f[4] = cf as i64;
    g[4] = cg as i64;
}

/// `(d, e) ← t·(d, e) / 2^62 mod p`, keeping both in (−2p, p): a multiple of p is added so that
/// the low 62 bits vanish, plus p for each negative input (document §5, "update_de").
#[inline(always)]
fn update_de<M: Modulus>(d: &mut Signed62, e: &mut Signed62, t: &Trans) {
    let p = &Consts::<M>::P;
    let (sd, se) = (d[4] >> 63, e[4] >> 63);
    let mut md = (t.u & sd).wrapping_add(t.v & se);
    let mut me = (t.q & sd).wrapping_add(t.r & se);
    let (u, v, q, r) = (t.u as i128, t.v as i128, t.q as i128, t.r as i128);
    let mut cd = u * d[0] as i128 + v * e[0] as i128;
    let mut ce = q * d[0] as i128 + r * e[0] as i128;
    // Choose md ≡ −cd/p (mod 2^62) (and me likewise) so that cd + p·md ≡ 0.
    md = md.wrapping_sub(
        (Consts::<M>::PINV62.wrapping_mul(cd as i64).wrapping_add(md) as u64 & M62) as i64,
    );
    me = me.wrapping_sub(
        (Consts::<M>::PINV62.wrapping_mul(ce as i64).wrapping_add(me) as u64 & M62) as i64,
    );
    cd += p[0] as i128 * md as i128;
    ce += p[0] as i128 * me as i128;
    debug_assert!(cd as u64 & M62 == 0 && ce as u64 & M62 == 0);
    cd >>= 62;
    ce >>= 62;
    for i in 1..5 {
        let (di, ei, pi) = (d[i] as i128, e[i] as i128, p[i] as i128);
        cd += u * di + v * ei + pi * md as i128;
        ce += q * di + r * ei + pi * me as i128;
        d[i - 1] = (cd as u64 & M62) as i64;
        e[i - 1] = (ce as u64 & M62) as i64;
        cd >>= 62;
        ce >>= 62;
    }
    d[4] = cd as i64;
    e[4] = ce as i64;
}

/// Adds `p & mask` and renormalises the limbs.
#[inline(always)]
fn add_masked_p<M: Modulus>(d: &mut Signed62, mask: i64) {
    let p = &Consts::<M>::P;
    let mut c = 0i64;
    for i in 0..4 {
        c += d[i] + (p[i] & mask);
        d[i] = (c as u64 & M62) as i64;
        c >>= 62;
    }
    d[4] += c + (p[4] & mask);
}

/// Negates when `mask` is all ones and renormalises the limbs.
#[inline(always)]
fn cond_negate(d: &mut Signed62, mask: i64) {
    let mut c = 0i64;
    for limb in d.iter_mut().take(4) {
        c += (*limb ^ mask) - mask;
        *limb = (c as u64 & M62) as i64;
        c >>= 62;
    }
    d[4] = ((d[4] ^ mask) - mask) + c;
}

/// `d·sign(f) mod p` into `[0, p)` for `d ∈ (−2p, p)`, constant time.
fn normalize<M: Modulus>(d: &mut Signed62, f: &Signed62) {
    add_masked_p::<M>(d, d[4] >> 63);
    cond_negate(d, f[4] >> 63);
    add_masked_p::<M>(d, d[4] >> 63);
}

/// `x⁻¹ mod p` in constant time for `x < p`; 0 maps to 0.
pub(crate) fn invert<M: Modulus>(x: &Limbs) -> Limbs {
    let mut f = Consts::<M>::P;
    let mut g = to_signed62(x);
    let (mut d, mut e): (Signed62, Signed62) = ([0; 5], [1, 0, 0, 0, 0]);
    let mut zeta = -1i64;
    for _ in 0..10 {
        let (z, t) = divsteps_59(zeta, f[0] as u64, g[0] as u64);
        zeta = z;
        update_de::<M>(&mut d, &mut e, &t);
        update_fg(&mut f, &mut g, &t);
    }
    // Now g = 0 and f = ±1 (or ±p when x = 0, where d = 0).
    normalize::<M>(&mut d, &f);
    from_signed62(&d)
}

/// `x⁻¹ mod p` for `x < p` in variable time (public inputs only); 0 maps to 0.
pub(crate) fn invert_vartime<M: Modulus>(x: &Limbs) -> Limbs {
    let mut f = Consts::<M>::P;
    let mut g = to_signed62(x);
    let (mut d, mut e): (Signed62, Signed62) = ([0; 5], [1, 0, 0, 0, 0]);
    let mut eta = -1i64;
    while g != [0; 5] {
        let (z, t) = divsteps_62_vartime(eta, f[0] as u64, g[0] as u64);
        eta = z;
        update_de::<M>(&mut d, &mut e, &t);
        update_fg(&mut f, &mut g, &t);
    }
    normalize::<M>(&mut d, &f);
    from_signed62(&d)
}
