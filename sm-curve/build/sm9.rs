//! Build-time fixed-base comb tables of the SM9 generators P1 ∈ G1 = E(GF(p)) and
//! P2 ∈ G2 ⊂ E'(GF(p²)) (GM/T 0044.5 §A.1), computed with plain `num-bigint` affine arithmetic
//! (independent of the crate's field code) and written as Montgomery limbs (x·2^256 mod p,
//! little-endian u64), identical for every limb backend.
//!
//! Layout (signed Booth windows): `SM9_P1_COMB[i][j − 1] = j·2^(6i)·P1` as `[x0..x3, y0..y3]`
//! for `i` in `0..43`, `j` in `1..=32` (the layout of `comb.rs`), and
//! `SM9_P2_COMB[i][j − 1] = j·2^(7i)·P2` as `[x.c0, x.c1, y.c0, y.c1]` (4 limbs each; an element
//! of GF(p²) is c0 + c1·u, u² = −2) for `i` in `0..37`, `j` in `1..=64`.

use std::fmt::Write as _;

use num_bigint::BigUint;
use num_traits::Zero;

const P: &str = "B640000002A3A6F1D603AB4FF58EC74521F2934B1A7AEEDBE56F9B27E351457D";
const P1X: &str = "93DE051D62BF718FF5ED0704487D01D6E1E4086909DC3280E8C4E4817C66DDDD";
const P1Y: &str = "21FE8DDA4F21E607631065125C395BBC1C1C00CBFA6024350C464CD70A3EA616";
// P2 coordinates as (c0, c1) = (a0, a1): the standard prints the u-coefficient a1 first.
const P2X: (&str, &str) = (
    "3722755292130B08D2AAB97FD34EC120EE265948D19C17ABF9B7213BAF82D65B",
    "85AEF3D078640C98597B6027B441A01FF1DD2C190F5E93C454806C11D8806141",
);
const P2Y: (&str, &str) = (
    "A7CF28D519BE3DA65F3170153D278FF247EFBA98A71A08116215BBA5C999A7C7",
    "17509B092E845C1266BA0D262CBEE6ED0736A96FA347C8BD856DC76B84EBEB96",
);
/// Comb shapes: P1 uses the 6-bit layout of `comb.rs` (43 rows of 32 points); P2, whose
/// additions cost about three times more, uses 7-bit windows (37 rows of 64 points, 7 · 37 =
/// 259 ≥ 257 recoded bits), trading a larger table for six fewer additions.
const P1_SHAPE: (u32, usize, usize) = (6, 43, 32);
const P2_SHAPE: (u32, usize, usize) = (7, 37, 64);

fn hex(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).expect("hex constant")
}

/// The little field interface the chord-and-tangent formulas need.
trait F: Clone + PartialEq {
    fn add(&self, o: &Self, p: &BigUint) -> Self;
    fn sub(&self, o: &Self, p: &BigUint) -> Self;
    fn mul(&self, o: &Self, p: &BigUint) -> Self;
    fn inv(&self, p: &BigUint) -> Self;
    fn is_zero(&self) -> bool;
    fn small(v: u32) -> Self;
    fn mont_limbs(&self, p: &BigUint) -> Vec<u64>;
}

fn mont(v: &BigUint, p: &BigUint) -> Vec<u64> {
    let m = (v << 256u32) % p;
    let mut out = vec![0u64; 4];
    for (i, d) in m.iter_u64_digits().enumerate() {
        out[i] = d;
    }
    out
}

impl F for BigUint {
    fn add(&self, o: &Self, p: &BigUint) -> Self {
        (self + o) % p
    }
    fn sub(&self, o: &Self, p: &BigUint) -> Self {
        (self + p - o) % p
    }
    fn mul(&self, o: &Self, p: &BigUint) -> Self {
        self * o % p
    }
    fn inv(&self, p: &BigUint) -> Self {
        self.modpow(&(p - 2u8), p)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(self)
    }
    fn small(v: u32) -> Self {
        BigUint::from(v)
    }
    fn mont_limbs(&self, p: &BigUint) -> Vec<u64> {
        mont(self, p)
    }
}

/// c0 + c1·u with u² = −2.
#[derive(Clone, PartialEq)]
struct Fp2(BigUint, BigUint);

impl F for Fp2 {
    fn add(&self, o: &Self, p: &BigUint) -> Self {
        Fp2(self.0.add(&o.0, p), F::add(&self.1, &o.1, p))
    }
    fn sub(&self, o: &Self, p: &BigUint) -> Self {
        Fp2(F::sub(&self.0, &o.0, p), F::sub(&self.1, &o.1, p))
    }
    fn mul(&self, o: &Self, p: &BigUint) -> Self {
        // (a0 + a1 u)(b0 + b1 u) = a0 b0 − 2 a1 b1 + (a0 b1 + a1 b0) u
        let c0 = (&self.0 * &o.0 + p * p * 2u8 - &self.1 * &o.1 * 2u8) % p;
        let c1 = (&self.0 * &o.1 + &self.1 * &o.0) % p;
        Fp2(c0, c1)
    }
    fn inv(&self, p: &BigUint) -> Self {
        // 1/(a0 + a1 u) = (a0 − a1 u)/(a0² + 2 a1²)
        let norm = (&self.0 * &self.0 + &self.1 * &self.1 * 2u8) % p;
        let ni = F::inv(&norm, p);
        Fp2(&self.0 * &ni % p, (p - &self.1 * &ni % p) % p)
    }
    fn is_zero(&self) -> bool {
        Zero::is_zero(&self.0) && Zero::is_zero(&self.1)
    }
    fn small(v: u32) -> Self {
        Fp2(BigUint::from(v), BigUint::zero())
    }
    fn mont_limbs(&self, p: &BigUint) -> Vec<u64> {
        let mut v = mont(&self.0, p);
        v.extend(mont(&self.1, p));
        v
    }
}

type Pt<T> = Option<(T, T)>;

/// Affine addition on y² = x³ + b (a = 0; textbook chord-and-tangent).
fn add<T: F>(p1: &Pt<T>, p2: &Pt<T>, p: &BigUint) -> Pt<T> {
    let (x1, y1) = match p1 {
        None => return p2.clone(),
        Some(v) => v,
    };
    let (x2, y2) = match p2 {
        None => return p1.clone(),
        Some(v) => v,
    };
    let lambda = if x1 == x2 {
        if y1.add(y2, p).is_zero() {
            return None;
        }
        // 3x² / 2y
        let num = x1.mul(x1, p).mul(&T::small(3), p);
        num.mul(&y1.add(y1, p).inv(p), p)
    } else {
        y2.sub(y1, p).mul(&x2.sub(x1, p).inv(p), p)
    };
    let x3 = lambda.mul(&lambda, p).sub(x1, p).sub(x2, p);
    let y3 = lambda.mul(&x1.sub(&x3, p), p).sub(y1, p);
    Some((x3, y3))
}

fn comb<T: F>(
    src: &mut String,
    name: &str,
    doc: &str,
    g: Pt<T>,
    (w, windows, entries): (u32, usize, usize),
    p: &BigUint,
) {
    let limbs = g.as_ref().expect("generator").0.mont_limbs(p).len() * 2;
    writeln!(
        src,
        "/// {doc}\npub(crate) static {name}: [[[u64; {limbs}]; {entries}]; {windows}] = ["
    )
    .unwrap();
    let mut base = g;
    for _ in 0..windows {
        src.push('[');
        let mut acc: Pt<T> = None;
        for _ in 1..=entries {
            acc = add(&acc, &base, p);
            let (x, y) = acc
                .as_ref()
                .expect("multiples below the order are not infinity");
            src.push('[');
            for l in x.mont_limbs(p).iter().chain(y.mont_limbs(p).iter()) {
                write!(src, "{l:#018x},").unwrap();
            }
            src.push_str("],");
        }
        src.push_str("],\n");
        for _ in 0..w {
            base = add(&base, &base, p);
        }
    }
    src.push_str("];\n");
}

/// Writes `$OUT_DIR/sm9_comb.rs`.
pub fn generate(out_dir: &std::path::Path) {
    println!("cargo:rerun-if-changed=build/sm9.rs");
    let p = hex(P);
    let mut src = String::new();
    comb(
        &mut src,
        "SM9_P1_COMB",
        "`SM9_P1_COMB[i][j − 1] = j·2^(6i)·P1` as Montgomery limbs `[x, y]` (generated by build.rs).",
        Some((hex(P1X), hex(P1Y))),
        P1_SHAPE,
        &p,
    );
    comb(
        &mut src,
        "SM9_P2_COMB",
        "`SM9_P2_COMB[i][j − 1] = j·2^(7i)·P2` as Montgomery limbs `[x.c0, x.c1, y.c0, y.c1]` (generated by build.rs).",
        Some((
            Fp2(hex(P2X.0), hex(P2X.1)),
            Fp2(hex(P2Y.0), hex(P2Y.1)),
        )),
        P2_SHAPE,
        &p,
    );
    std::fs::write(out_dir.join("sm9_comb.rs"), src).expect("write table");
}
