//! Fixed-base comb tables: signed 6-bit windows (Booth recoding), one table row per window.
//!
//! Row `i` holds `j·2^(6i)·B` for `j = 1..=32`, so `k·B = Σ_i d_i·2^(6i)·B` costs 43 mixed additions
//! and no doublings. Constant-time lookups read the whole row (`subtle` selection); the sign is
//! applied by a constant-time negation.
//!
//! **Exceptional cases.** Before row `i` is added the accumulator is `a·B` with
//! `|a| ≤ Σ_{j<i} 32·2^(6j) < 2^(6i)`, and the addend is `d·2^(6i)·B` with `1 ≤ |d| ≤ 32`. While
//! `2^(6(i+1)) ≤ 2^255 < n`, `a ≡ ±d·2^(6i) (mod n)` would be an integer equality, impossible as
//! `|a| < 2^(6i) ≤ |d|·2^(6i)`. So only the top row (i = 42) uses the complete mixed addition.

use subtle::ConditionallySelectable;
#[cfg(feature = "alloc")]
use subtle::ConstantTimeEq;

use zeroize::Zeroize;

use crate::scalar_mul::{booth_digit, scalar_to_limbs};
#[cfg(feature = "alloc")]
use crate::ChangeBackend;
use crate::{Affine, CurveParams, Jacobian};

/// Window width of comb tables.
pub const COMB_WINDOW: u32 = 6;
/// Number of windows (rows): 6 · 43 = 258 ≥ 257 recoded bits.
pub const COMB_WINDOWS: usize = 43;
/// Entries per row (`1·…32·` the row base).
pub const COMB_ENTRIES: usize = 32;

/// A fixed-base comb table for some base point `B` (see the module docs for the layout).
pub trait CombTable<C: CurveParams> {
    /// `abs·2^(6·window)·B` for `abs` in `0..=32` (the identity for 0), reading every entry of the
    /// row in constant time.
    fn select(&self, window: usize, abs: u8) -> Affine<C>;

    /// `abs·2^(6·window)·B` for `abs` in `1..=32` by direct indexing (public data only).
    fn get_vartime(&self, window: usize, abs: u8) -> Affine<C>;

    /// `k·B` in constant time.
    fn mul(&self, k: &C::Scalar) -> Jacobian<C> {
        let mut l = scalar_to_limbs(k);
        let mut acc = Jacobian::<C>::IDENTITY;
        for i in 0..COMB_WINDOWS {
            let (abs, neg) = booth_digit(&l, COMB_WINDOW, i);
            let mut t = self.select(i, abs);
            let ny = -t.y;
            t.y.conditional_assign(&ny, neg);
            acc = if i + 1 == COMB_WINDOWS {
                acc.add_affine(&t)
            } else {
                acc.add_affine_assume_distinct(&t)
            };
        }
        l.zeroize();
        acc
    }

    /// `k·B` with time depending on `k` (public scalars only).
    fn mul_vartime(&self, k: &C::Scalar) -> Jacobian<C> {
        let l = scalar_to_limbs(k);
        let mut acc = Jacobian::<C>::IDENTITY;
        for i in 0..COMB_WINDOWS {
            let (abs, neg) = booth_digit(&l, COMB_WINDOW, i);
            if abs == 0 {
                continue;
            }
            let t = self.get_vartime(i, abs);
            let t = if bool::from(neg) { t.neg() } else { t };
            acc = acc.add_affine_vartime(&t);
        }
        acc
    }
}

/// All-ones when `a == b`, else zero, by arithmetic only (no branch, no table index).
#[inline(always)]
pub(crate) fn eq_mask(a: u64, b: u64) -> u64 {
    let d = a ^ b;
    // (d | −d) has its top bit set iff d ≠ 0.
    ((d | d.wrapping_neg()) >> 63).wrapping_sub(1)
}

/// Constant-time selection of `row[abs − 1]` from rows of raw limbs (every entry is read and
/// masked; the loop vectorises); all-zero limbs when `abs = 0`.
#[inline(always)]
pub(crate) fn select_raw<const L: usize>(row: &[[u64; L]; COMB_ENTRIES], abs: u8) -> [u64; L] {
    let abs = abs as u64;
    let mut masks = [0u64; COMB_ENTRIES];
    for (j, m) in masks.iter_mut().enumerate() {
        *m = eq_mask(j as u64 + 1, abs);
    }
    // The masks go through `black_box` (once per row, as an array): with the masks visible, LLVM
    // recognised `eq_mask` as `(j + 1 == abs) ? !0 : 0` and compiled the masked OR into a branch
    // that loads only the matching entry (a secret-dependent branch and memory access, found by
    // `cargo xtask ct` under valgrind). Opaque masks leave only the branch-free AND/OR, which
    // vectorises over the entry's limbs.
    let masks = core::hint::black_box(masks);
    let mut out = [0u64; L];
    for (e, &mask) in row.iter().zip(masks.iter()) {
        for (o, v) in out.iter_mut().zip(e.iter()) {
            *o |= v & mask;
        }
    }
    out
}

/// A comb table built at run time for any base point (88 KB for 256-bit coordinates); for
/// long-lived public points such as a verifying key or an SM9 master public key.
#[cfg(feature = "alloc")]
#[derive(Clone)]
pub struct PrecomputedTable<C: CurveParams> {
    rows: alloc::vec::Vec<[Affine<C>; COMB_ENTRIES]>,
}

#[cfg(feature = "alloc")]
impl<C: CurveParams> PrecomputedTable<C> {
    /// Builds the table for `base` (1,376 additions and one batched inversion).
    pub fn new(base: &Affine<C>) -> Self {
        let mut points = comb_points(base, COMB_WINDOW, COMB_WINDOWS, COMB_ENTRIES, false);
        let rows = points
            .chunks_exact(COMB_ENTRIES)
            .map(|c| <[Affine<C>; COMB_ENTRIES]>::try_from(c).expect("row length"))
            .collect();
        // The base may be secret (`SecretPrecomputedTable`): wipe the flat copy.
        points.iter_mut().for_each(Zeroize::zeroize);
        Self { rows }
    }
}

/// A comb table of a **secret** base point (an SM9 signing key `ds`): the layout of
/// [`PrecomputedTable`], built by the same constant-time code, but every lookup reads the whole
/// row (also [`get_vartime`](CombTable::get_vartime)), the build's scratch points are wiped,
/// and the table is zeroized on drop. Keep it with the key it derives from; never cache it
/// globally.
#[cfg(feature = "alloc")]
pub struct SecretPrecomputedTable<C: CurveParams>(PrecomputedTable<C>);

#[cfg(feature = "alloc")]
impl<C: CurveParams> SecretPrecomputedTable<C> {
    /// Builds the table for the secret `base` (constant time in `base`).
    pub fn new(base: &Affine<C>) -> Self {
        Self(PrecomputedTable::new(base))
    }
}

#[cfg(feature = "alloc")]
impl<C: CurveParams> CombTable<C> for SecretPrecomputedTable<C> {
    fn select(&self, window: usize, abs: u8) -> Affine<C> {
        self.0.select(window, abs)
    }

    /// Constant time like [`select`](CombTable::select): the base is secret.
    fn get_vartime(&self, window: usize, abs: u8) -> Affine<C> {
        self.0.select(window, abs)
    }
}

#[cfg(feature = "alloc")]
impl<C: CurveParams> Drop for SecretPrecomputedTable<C> {
    fn drop(&mut self) {
        for row in self.0.rows.iter_mut() {
            row.zeroize();
        }
    }
}

#[cfg(feature = "alloc")]
impl<C: CurveParams> zeroize::ZeroizeOnDrop for SecretPrecomputedTable<C> {}

#[cfg(feature = "alloc")]
impl<C: CurveParams> core::fmt::Debug for SecretPrecomputedTable<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SecretPrecomputedTable<{}>(..)", C::NAME)
    }
}

/// The points of a comb over `base`, row after row: row `i` holds `m·2^(window·i)·base` for
/// `m = 1, 2, …, entries` (`odd = false`) or `m = 1, 3, …, 2·entries − 1` (`odd = true`).
/// Constant time in `base` (complete additions, doublings, a constant-time batched
/// inversion; the loop counts depend only on the public shape), and the Jacobian scratch is
/// wiped, so [`SecretPrecomputedTable`] uses it for secret bases.
#[cfg(feature = "alloc")]
pub(crate) fn comb_points<C: CurveParams>(
    base: &Affine<C>,
    window: u32,
    rows: usize,
    entries: usize,
    odd: bool,
) -> alloc::vec::Vec<Affine<C>> {
    use alloc::vec::Vec;
    let mut pts: Vec<Jacobian<C>> = Vec::with_capacity(rows * entries);
    let mut row_base = base.to_jacobian();
    for _ in 0..rows {
        let step = if odd { row_base.double() } else { row_base };
        let mut acc = row_base;
        pts.push(acc);
        for _ in 1..entries {
            acc = acc.add(&step);
            pts.push(acc);
        }
        for _ in 0..window {
            row_base = row_base.double();
        }
    }
    let mut aff = alloc::vec![Affine::<C>::IDENTITY; pts.len()];
    Jacobian::batch_to_affine(&pts, &mut aff);
    pts.iter_mut().for_each(Zeroize::zeroize);
    row_base.zeroize();
    aff
}

/// A comb of `E` entries per row in the raw layout of the build-time tables (build.rs), built
/// at run time (feature `runtime-tables`): `raw` writes a point's Montgomery limbs.
#[cfg(any(all(test, feature = "alloc"), feature = "runtime-tables"))]
pub(crate) fn comb_rows_raw<C: CurveParams, const L: usize, const E: usize>(
    base: &Affine<C>,
    window: u32,
    rows: usize,
    odd: bool,
    raw: impl Fn(&Affine<C>) -> [u64; L],
) -> alloc::vec::Vec<[[u64; L]; E]> {
    comb_points(base, window, rows, E, odd)
        .chunks_exact(E)
        .map(|c| core::array::from_fn(|j| raw(&c[j])))
        .collect()
}

#[cfg(feature = "alloc")]
impl<C: CurveParams> CombTable<C> for PrecomputedTable<C> {
    fn select(&self, window: usize, abs: u8) -> Affine<C> {
        let mut r = Affine::<C>::IDENTITY;
        for (j, e) in self.rows[window].iter().enumerate() {
            r.conditional_assign(e, abs.ct_eq(&(j as u8 + 1)));
        }
        r
    }

    fn get_vartime(&self, window: usize, abs: u8) -> Affine<C> {
        self.rows[window][abs as usize - 1]
    }
}

/// A [`PrecomputedTable`] read as a table of the same curve over another backend `B2`
/// ([`PrecomputedTable::on_backend`]): each entry read is converted by a limb copy
/// ([`Affine::to_backend`]), so an entry point that dispatches once per call
/// (`sm_field::Backend::dispatch`) uses a table built on its caller's backend.
#[cfg(feature = "alloc")]
pub struct OnBackend<'a, C: ChangeBackend, B2> {
    table: &'a PrecomputedTable<C>,
    backend: core::marker::PhantomData<B2>,
}

#[cfg(feature = "alloc")]
impl<C: ChangeBackend> PrecomputedTable<C> {
    /// This table as one over backend `B2` (no copy of the table: limbs are bit-identical on
    /// every backend).
    pub fn on_backend<B2: sm_field::Backend>(&self) -> OnBackend<'_, C, B2> {
        OnBackend {
            table: self,
            backend: core::marker::PhantomData,
        }
    }
}

#[cfg(feature = "alloc")]
impl<C: ChangeBackend> PrecomputedTable<C> {
    /// A copy of this table over backend `B2` (limb copies): for a table built inside a job
    /// on one backend and kept on another.
    pub fn to_backend<B2: sm_field::Backend>(&self) -> PrecomputedTable<C::On<B2>> {
        PrecomputedTable {
            rows: self
                .rows
                .iter()
                .map(|row| row.map(|e| e.to_backend()))
                .collect(),
        }
    }
}

#[cfg(feature = "alloc")]
impl<C: ChangeBackend, B2: sm_field::Backend> CombTable<C::On<B2>> for OnBackend<'_, C, B2> {
    #[inline]
    fn select(&self, window: usize, abs: u8) -> Affine<C::On<B2>> {
        self.table.select(window, abs).to_backend()
    }

    #[inline]
    fn get_vartime(&self, window: usize, abs: u8) -> Affine<C::On<B2>> {
        self.table.get_vartime(window, abs).to_backend()
    }
}

/// A [`SecretPrecomputedTable`] read over another backend `B2`
/// ([`SecretPrecomputedTable::on_backend`]), as [`OnBackend`] does for public tables; every
/// lookup still reads the whole row.
#[cfg(feature = "alloc")]
pub struct SecretOnBackend<'a, C: ChangeBackend, B2> {
    table: &'a SecretPrecomputedTable<C>,
    backend: core::marker::PhantomData<B2>,
}

#[cfg(feature = "alloc")]
impl<C: ChangeBackend> SecretPrecomputedTable<C> {
    /// This table as one over backend `B2` (no copy of the table).
    pub fn on_backend<B2: sm_field::Backend>(&self) -> SecretOnBackend<'_, C, B2> {
        SecretOnBackend {
            table: self,
            backend: core::marker::PhantomData,
        }
    }

    /// A copy of this table over backend `B2` (limb copies; the copy is zeroized on drop like
    /// the original): for a table built inside a job on one backend and kept on another.
    pub fn to_backend<B2: sm_field::Backend>(&self) -> SecretPrecomputedTable<C::On<B2>> {
        SecretPrecomputedTable(self.0.to_backend())
    }
}

#[cfg(feature = "alloc")]
impl<C: ChangeBackend, B2: sm_field::Backend> CombTable<C::On<B2>> for SecretOnBackend<'_, C, B2> {
    #[inline]
    fn select(&self, window: usize, abs: u8) -> Affine<C::On<B2>> {
        let mut e = self.table.select(window, abs);
        let r = e.to_backend();
        e.zeroize();
        r
    }

    /// Constant time like [`select`](CombTable::select): the base is secret.
    #[inline]
    fn get_vartime(&self, window: usize, abs: u8) -> Affine<C::On<B2>> {
        self.select(window, abs)
    }
}

#[cfg(feature = "alloc")]
impl<C: CurveParams> core::fmt::Debug for PrecomputedTable<C> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PrecomputedTable<{}>({:?})", C::NAME, self.rows[0][0])
    }
}
