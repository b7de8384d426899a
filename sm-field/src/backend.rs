//! Limb backends: the only place where field arithmetic touches machine words.
//!
//! Every backend works on **fully reduced Montgomery residues with R = 2^256** stored as four
//! little-endian 64-bit limbs, so the limbs of a value are identical on every backend and can be
//! compared bit for bit (`cargo xtask check` does). How a backend computes internally (8 × 32-bit
//! limbs, `u128` products, MULX/ADCX/ADOX) is its own business.
//!
//! All operations are constant time: no branch or memory index depends on operand values.

use crate::{Limbs, Modulus};

#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub mod asm;
#[cfg(all(target_arch = "aarch64", any(feature = "asm", sm_backend = "asm")))]
#[path = "backend/asm_aarch64.rs"]
pub mod asm;
#[cfg(all(target_arch = "x86_64", any(feature = "asm", sm_backend = "asm")))]
pub(crate) mod ifma;
#[cfg(any(feature = "u32", sm_backend = "u32", target_pointer_width = "32"))]
pub mod u32;
pub mod u64;

/// Limb arithmetic modulo `M::P` on fully reduced Montgomery residues (R = 2^256).
///
/// Inputs must be below `M::P`; outputs are below `M::P`.
pub trait Backend:
    'static + Copy + Clone + Default + Send + Sync + core::fmt::Debug + PartialEq + Eq
{
    /// Short name (`"u32"`, `"u64"`, `"asm"`).
    const NAME: &'static str;

    /// `a + b mod p`.
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs;
    /// `a - b mod p`.
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs;
    /// `-a mod p` (0 maps to 0).
    #[inline(always)]
    fn neg<M: Modulus>(a: &Limbs) -> Limbs {
        Self::sub::<M>(&[0; 4], a)
    }
    /// `2a mod p`.
    #[inline(always)]
    fn double<M: Modulus>(a: &Limbs) -> Limbs {
        Self::add::<M>(a, a)
    }
    /// Montgomery product `a·b·R^-1 mod p`.
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs;
    /// Montgomery products `out[i] = a[i]·b[i]·R^-1 mod p` for `i < min(a.len(), b.len(),
    /// out.len())`, bit-identical to [`mul`](Self::mul) on each pair. Tower formulas hand their
    /// independent products over in one call so that a backend can compute several at once
    /// (`Asm` on x86_64 with AVX-512 IFMA: eight per vector pass); the default multiplies one
    /// pair after the other.
    #[inline]
    fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
        for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
            *o = Self::mul::<M>(x, y);
        }
    }
    /// Whether [`mul_batch`](Self::mul_batch) is faster than one [`mul`](Self::mul) per pair, so
    /// that tower formulas should stage their products in batches (which costs some memory
    /// traffic). `false` by default; `Asm` answers at run time (AVX-512 IFMA present). The
    /// answer depends on the CPU only, never on data.
    #[inline(always)]
    fn batch_preferred() -> bool {
        false
    }
    /// Montgomery square `a^2·R^-1 mod p`.
    #[inline(always)]
    fn square<M: Modulus>(a: &Limbs) -> Limbs {
        Self::mul::<M>(a, a)
    }
}
