//! The algebraic structure of the SM4 S-box, computed at compile time.
//!
//! GB/T 32907-2016 §6.2 gives the S-box as a table. It is affine-equivalent to inversion in
//! GF(2^8) = GF(2)[x]/(f), f = x^8+x^7+x^6+x^5+x^4+x^2+1 (0x1F5):
//!
//! ```text
//! S(x) = A·I(A·x ⊕ C) ⊕ C,   A = the circulant matrix whose row i is rotl8(0xA7, i),  C = 0xD3
//! ```
//!
//! (I(0) = 0). The tests rebuild the standard's 256-entry table from this form. Everything else
//! here is derived from it by `const fn`s:
//!
//! * the GFNI matrices: GF(2)[x]/(f) is isomorphic to the AES field GF(2)[x]/(x^8+x^4+x^3+x+1);
//!   with β a root of f in the AES field, the map M: Σ aᵢxⁱ ↦ Σ aᵢβⁱ is a field isomorphism, so
//!   I = M⁻¹·I_AES·M and S(x) = (A·M⁻¹)·I_AES((M·A)·x ⊕ M·C) ⊕ C: one `GF2P8AFFINEQB` with
//!   (M·A, M·C), one `GF2P8AFFINEINVQB` with (A·M⁻¹, C);
//! * the bitsliced circuit's maps: the same construction into the tower field
//!   GF((2^4)^2) = GF(2^4)[Y]/(Y^2+Y+ν), GF(2^4) = GF(2)[z]/(z^4+z+1), where inversion costs
//!   three GF(2^4) products and one GF(2^4) inversion (see `portable.rs`).
//!
//! A matrix is `[u8; 8]`, row `i` being the mask of input bits that are XORed into output bit
//! `i` (bit 0 = least significant = coefficient of x^0).

/// An 8×8 matrix over GF(2): `m[i]` = mask of the input bits summed into output bit `i`.
pub(crate) type Mat = [u8; 8];

/// f = x^8+x^7+x^6+x^5+x^4+x^2+1, the SM4 S-box field polynomial.
pub(crate) const SM4_POLY: u16 = 0x1F5;
/// x^8+x^4+x^3+x+1, the AES field polynomial (the one GFNI's `GF2P8AFFINEINVQB` inverts in).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const AES_POLY: u16 = 0x11B;
/// The affine constant C of the S-box.
pub(crate) const C: u8 = 0xD3;
/// The linear part A of the S-box: row i = rotl8(0xA7, i).
pub(crate) const A: Mat = {
    let mut m = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        m[i] = 0xA7u8.rotate_left(i as u32);
        i += 1;
    }
    m
};

/// a·b in GF(2)[x]/(poly) (degree-8 poly).
pub(crate) const fn gf_mul(a: u8, b: u8, poly: u16) -> u8 {
    let mut r: u16 = 0;
    let mut a = a as u16;
    let mut b = b;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        b >>= 1;
        a <<= 1;
        if a & 0x100 != 0 {
            a ^= poly;
        }
    }
    r as u8
}

/// a^254 = a⁻¹ (0 ↦ 0) in GF(2)[x]/(poly) (tests: the reference S-box).
#[cfg(test)]
pub(crate) const fn gf_inv(a: u8, poly: u16) -> u8 {
    let mut r = 1u8;
    let mut i = 0;
    while i < 254 {
        r = gf_mul(r, a, poly);
        i += 1;
    }
    r
}

/// m·x.
pub(crate) const fn mat_apply(m: &Mat, x: u8) -> u8 {
    let mut y = 0u8;
    let mut i = 0;
    while i < 8 {
        y |= (((m[i] & x).count_ones() & 1) as u8) << i;
        i += 1;
    }
    y
}

/// The matrix whose column j is `cols[j]` (the image of the basis vector 2^j).
pub(crate) const fn mat_from_columns(cols: &[u8; 8]) -> Mat {
    let mut m = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        let mut j = 0;
        while j < 8 {
            m[i] |= ((cols[j] >> i) & 1) << j;
            j += 1;
        }
        i += 1;
    }
    m
}

/// a·b (apply b first).
pub(crate) const fn mat_mul(a: &Mat, b: &Mat) -> Mat {
    let mut cols = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        cols[j] = mat_apply(a, mat_apply(b, 1 << j));
        j += 1;
    }
    mat_from_columns(&cols)
}

/// m⁻¹ by exhaustive preimage search (compile time only); panics (at compile time) when m is
/// singular.
pub(crate) const fn mat_inv(m: &Mat) -> Mat {
    let mut cols = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        let mut x = 0u16;
        let mut found = false;
        while x < 256 {
            if mat_apply(m, x as u8) == 1 << j {
                cols[j] = x as u8;
                found = true;
            }
            x += 1;
        }
        assert!(found, "singular matrix");
        j += 1;
    }
    mat_from_columns(&cols)
}

/// rⁱ for i = 0..8 with multiplication `mul` (by polynomial `poly`, or the tower field when
/// `poly == 0`).
const fn powers(r: u8, poly: u16) -> [u8; 9] {
    let mut p = [0u8; 9];
    p[0] = 1;
    let mut i = 1;
    while i < 9 {
        p[i] = if poly == 0 {
            tower_mul(p[i - 1], r)
        } else {
            gf_mul(p[i - 1], r, poly)
        };
        i += 1;
    }
    p
}

/// Whether r is a root of f (with the multiplication selected as in [`powers`]).
const fn is_root_of_f(r: u8, poly: u16) -> bool {
    let p = powers(r, poly);
    let mut acc = 0u8;
    let mut i = 0;
    while i < 9 {
        if (SM4_POLY >> i) & 1 != 0 {
            acc ^= p[i];
        }
        i += 1;
    }
    acc == 0
}

/// The smallest root (as a byte) of f in the field selected as in [`powers`].
const fn smallest_root(poly: u16) -> u8 {
    let mut r = 2u16;
    while r < 256 {
        if is_root_of_f(r as u8, poly) {
            return r as u8;
        }
        r += 1;
    }
    panic!("f has no root")
}

/// The isomorphism matrix into the field selected as in [`powers`].
const fn iso(poly: u16) -> Mat {
    let p = powers(smallest_root(poly), poly);
    let mut cols = [0u8; 8];
    let mut i = 0;
    while i < 8 {
        cols[i] = p[i];
        i += 1;
    }
    mat_from_columns(&cols)
}

// ---------------------------------------------------------------------------------------------
// GF(2^4) = GF(2)[z]/(z^4+z+1) and the tower GF(2^4)[Y]/(Y^2+Y+ν): an element is a byte with
// a0 in the low nibble and a1 in the high nibble, a = a1·Y + a0.

/// a·b in GF(2)[z]/(z^4+z+1).
pub(crate) const fn gf16_mul(a: u8, b: u8) -> u8 {
    let mut r = 0u8;
    let mut a = a & 15;
    let mut b = b & 15;
    while b != 0 {
        if b & 1 != 0 {
            r ^= a;
        }
        b >>= 1;
        a <<= 1;
        if a & 0x10 != 0 {
            a ^= 0x13;
        }
    }
    r
}

/// The smallest ν ∈ GF(2^4) with Y^2+Y+ν irreducible (no root y: y^2+y = ν).
const fn find_nu() -> u8 {
    let mut nu = 1u8;
    while nu < 16 {
        let mut y = 0u8;
        let mut has_root = false;
        while y < 16 {
            if gf16_mul(y, y) ^ y == nu {
                has_root = true;
            }
            y += 1;
        }
        if !has_root {
            return nu;
        }
        nu += 1;
    }
    panic!("no irreducible Y^2+Y+nu")
}

/// ν of the tower polynomial Y^2+Y+ν.
pub(crate) const NU: u8 = find_nu();

/// (a1 Y + a0)(b1 Y + b0) with Y^2 = Y + ν:
/// high = a1b1 + a1b0 + a0b1, low = a0b0 + ν a1b1.
pub(crate) const fn tower_mul(a: u8, b: u8) -> u8 {
    let (a1, a0, b1, b0) = (a >> 4, a & 15, b >> 4, b & 15);
    let hh = gf16_mul(a1, b1);
    let hi = hh ^ gf16_mul(a1, b0) ^ gf16_mul(a0, b1);
    let lo = gf16_mul(a0, b0) ^ gf16_mul(NU, hh);
    (hi << 4) | lo
}

/// Φ: GF(2)[x]/(f) → tower field isomorphism.
pub(crate) const PHI: Mat = iso(0);
/// Bitsliced S-box input map Φ·A and constant Φ·C: the tower-field operand is PHI_A·x ⊕ PHI_C.
pub(crate) const PHI_A: Mat = mat_mul(&PHI, &A);
/// Φ·C.
pub(crate) const PHI_C: u8 = mat_apply(&PHI, C);
/// Bitsliced S-box output map A·Φ⁻¹ (then ⊕ C).
pub(crate) const A_PHI_INV: Mat = mat_mul(&A, &mat_inv(&PHI));

/// The linear map (a1, a0) ↦ ν·a1² + a0² of GF(2^4)^2 → GF(2^4) (rows 0..4; rows 4..8 zero),
/// the linear part of the tower norm Δ = ν a1² + a1 a0 + a0².
pub(crate) const NORM_LIN: Mat = {
    let mut cols = [0u8; 8];
    let mut j = 0;
    while j < 8 {
        let a = 1u8 << j;
        let (a1, a0) = (a >> 4, a & 15);
        cols[j] = gf16_mul(NU, gf16_mul(a1, a1)) ^ gf16_mul(a0, a0);
        j += 1;
    }
    mat_from_columns(&cols)
};

// ---------------------------------------------------------------------------------------------
// GFNI.

/// M: GF(2)[x]/(f) → AES field isomorphism.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const M_AES: Mat = iso(AES_POLY);
/// `GF2P8AFFINEQB` matrix M·A (as GFNI's qword: row i in byte 7−i).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const GFNI_IN: u64 = gfni_qword(&mat_mul(&M_AES, &A));
/// `GF2P8AFFINEQB` constant M·C.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const GFNI_IN_C: u8 = mat_apply(&M_AES, C);
/// `GF2P8AFFINEINVQB` matrix A·M⁻¹.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const GFNI_OUT: u64 = gfni_qword(&mat_mul(&A, &mat_inv(&M_AES)));
/// `GF2P8AFFINEINVQB` constant C.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const GFNI_OUT_C: u8 = C;

/// The GFNI encoding of a matrix: output bit i is parity(byte[7−i] & x) (Intel SDM,
/// GF2P8AFFINEQB).
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) const fn gfni_qword(m: &Mat) -> u64 {
    let mut q = 0u64;
    let mut i = 0;
    while i < 8 {
        q |= (m[i] as u64) << (8 * (7 - i));
        i += 1;
    }
    q
}

/// Software model of `GF2P8AFFINEQB` on one byte (tests).
#[cfg(test)]
pub(crate) const fn gfni_affine(x: u8, q: u64, c: u8) -> u8 {
    let mut y = 0u8;
    let mut i = 0;
    while i < 8 {
        let row = (q >> (8 * (7 - i))) as u8;
        y |= (((row & x).count_ones() & 1) as u8) << i;
        i += 1;
    }
    y ^ c
}
