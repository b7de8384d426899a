//! The four prime moduli of SM2 and SM9 and their Montgomery constants.
//!
//! Every derived constant is computed at compile time by the `const fn`s below from the prime alone
//! (R = 2^256): `R mod p`, `R^2 mod p`, `R^3 mod p` and `-p^-1 mod 2^64`. `cargo xtask check`
//! recomputes all of them independently with `num-bigint`.

use crate::Limbs;

/// A 256-bit odd prime modulus with its Montgomery constants (R = 2^256).
///
/// All moduli used here have their top bit set (p > 2^255), which the backends rely on:
/// a 256-bit value is always below 2p, so one conditional subtraction reduces it.
pub trait Modulus: 'static + Copy + Clone + Send + Sync + core::fmt::Debug + Default + Eq {
    /// Short name, e.g. `"sm9-p"`.
    const NAME: &'static str;
    /// The prime, little-endian 64-bit limbs.
    const P: Limbs;
    /// `-p^-1 mod 2^64`.
    const INV: u64 = neg_inv64(Self::P[0]);
    /// `R mod p` (the Montgomery form of 1).
    const R: Limbs = r_mod(&Self::P);
    /// `R^2 mod p` (converts into Montgomery form).
    const R2: Limbs = r2_mod(&Self::P);
    /// `R^3 mod p` (used to fold wide inputs).
    const R3: Limbs = mont_mul_const(&Self::R2, &Self::R2, &Self::P, Self::INV);
    /// Which special-form reduction a backend may use.
    const SHAPE: Shape = Shape::Generic;
}

/// Special forms of a modulus that a backend can exploit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// No special structure: general Montgomery reduction.
    Generic,
    /// SM2's p = 2^256 - 2^224 - 2^96 + 2^64 - 1: `-p^-1 mod 2^64 = 1` and `m·p` is made of shifts.
    Sm2P,
}

macro_rules! modulus {
    ($(#[$doc:meta])* $name:ident, $str:literal, $hex:literal, $shape:expr) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        pub struct $name;
        impl Modulus for $name {
            const NAME: &'static str = $str;
            const P: Limbs = limbs_from_be_hex($hex);
            const SHAPE: Shape = $shape;
        }
    };
}

modulus!(
    /// SM2 field prime p = 2^256 − 2^224 − 2^96 + 2^64 − 1 (GB/T 32918.5 recommended curve).
    Sm2P,
    "sm2-p",
    "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFF",
    Shape::Sm2P
);
modulus!(
    /// SM2 group order n (GB/T 32918.5).
    Sm2N,
    "sm2-n",
    "FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFF7203DF6B21C6052B53BBF40939D54123",
    Shape::Generic
);
modulus!(
    /// SM9 BN256 field prime p = 36t^4 + 36t^3 + 24t^2 + 6t + 1, t = 0x600000000058F98A (GM/T 0044.5).
    Sm9P,
    "sm9-p",
    "B640000002A3A6F1D603AB4FF58EC74521F2934B1A7AEEDBE56F9B27E351457D",
    Shape::Generic
);
modulus!(
    /// SM9 group order n = 36t^4 + 36t^3 + 18t^2 + 6t + 1 (GM/T 0044.5).
    Sm9N,
    "sm9-n",
    "B640000002A3A6F1D603AB4FF58EC74449F2934B18EA8BEEE56EE19CD69ECF25",
    Shape::Generic
);

/// Parses 64 hex digits (big-endian) into little-endian limbs at compile time.
pub const fn limbs_from_be_hex(s: &str) -> Limbs {
    let b = s.as_bytes();
    assert!(b.len() == 64, "expected 64 hex digits");
    let mut out = [0u64; 4];
    let mut i = 0;
    while i < 64 {
        let c = b[i];
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            _ => panic!("bad hex digit"),
        } as u64;
        let limb = 3 - i / 16;
        out[limb] = (out[limb] << 4) | v;
        i += 1;
    }
    out
}

/// `-p0^-1 mod 2^64` by Newton iteration (each step doubles the number of correct bits).
pub const fn neg_inv64(p0: u64) -> u64 {
    let mut x: u64 = 1; // correct to 1 bit since p0 is odd
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(p0.wrapping_mul(x)));
        i += 1;
    }
    x.wrapping_neg()
}

const fn sub_const(a: &Limbs, b: &Limbs) -> (Limbs, u64) {
    let mut r = [0u64; 4];
    let mut borrow = 0u64;
    let mut i = 0;
    while i < 4 {
        let t = (a[i] as u128)
            .wrapping_sub(b[i] as u128)
            .wrapping_sub(borrow as u128);
        r[i] = t as u64;
        borrow = ((t >> 64) as u64) & 1;
        i += 1;
    }
    (r, borrow)
}

/// `2a mod p` for `a < p` (p > 2^255), at compile time.
const fn double_mod_const(a: &Limbs, p: &Limbs) -> Limbs {
    let top = a[3] >> 63;
    let d = [
        a[0] << 1,
        (a[1] << 1) | (a[0] >> 63),
        (a[2] << 1) | (a[1] >> 63),
        (a[3] << 1) | (a[2] >> 63),
    ];
    let (s, borrow) = sub_const(&d, p);
    if top == 1 || borrow == 0 {
        s
    } else {
        d
    }
}

/// `2^256 mod p` = `2^256 - p` when p > 2^255.
const fn r_mod(p: &Limbs) -> Limbs {
    assert!(p[3] >> 63 == 1, "modulus must have its top bit set");
    sub_const(&[0, 0, 0, 0], p).0
}

/// `2^512 mod p` by 256 modular doublings of `R mod p`.
const fn r2_mod(p: &Limbs) -> Limbs {
    let mut x = r_mod(p);
    let mut i = 0;
    while i < 256 {
        x = double_mod_const(&x, p);
        i += 1;
    }
    x
}

/// Montgomery product `a·b·R^-1 mod p` at compile time (operands below p).
pub const fn mont_mul_const(a: &Limbs, b: &Limbs, p: &Limbs, inv: u64) -> Limbs {
    let mut t = [0u64; 6];
    let mut i = 0;
    while i < 4 {
        let mut c: u64 = 0;
        let mut j = 0;
        while j < 4 {
            let v = t[j] as u128 + (a[j] as u128) * (b[i] as u128) + c as u128;
            t[j] = v as u64;
            c = (v >> 64) as u64;
            j += 1;
        }
        let v = t[4] as u128 + c as u128;
        t[4] = v as u64;
        t[5] = (v >> 64) as u64;
        let m = t[0].wrapping_mul(inv);
        let v = t[0] as u128 + (m as u128) * (p[0] as u128);
        let mut c = (v >> 64) as u64;
        let mut j = 1;
        while j < 4 {
            let v = t[j] as u128 + (m as u128) * (p[j] as u128) + c as u128;
            t[j - 1] = v as u64;
            c = (v >> 64) as u64;
            j += 1;
        }
        let v = t[4] as u128 + c as u128;
        t[3] = v as u64;
        t[4] = t[5] + (v >> 64) as u64;
        i += 1;
    }
    let r = [t[0], t[1], t[2], t[3]];
    let (s, borrow) = sub_const(&r, p);
    if t[4] == 1 || borrow == 0 {
        s
    } else {
        r
    }
}

/// Converts canonical limbs (below p) into Montgomery form at compile time.
pub const fn to_mont_const<M: Modulus>(a: &Limbs) -> Limbs {
    mont_mul_const(a, &M::R2, &M::P, M::INV)
}
