//! The SM9 endomorphisms.
//!
//! * G1: φ(x, y) = (β·x, y) with β a primitive cube root of unity in GF(p) (the curve has
//!   j-invariant 0); on G1 it is `[λ]`, λ = −(36t³ + 18t² + 6t + 2) mod n, a root of
//!   λ² + λ + 1 ≡ 0 (mod n) (Gallant–Lambert–Vanstone, CRYPTO 2001, Example 4).
//! * G2: ψ = twist ∘ Frobenius ∘ untwist (Galbraith–Scott, "Exponentiation in pairing-friendly
//!   groups using homomorphisms", §4). With Fp12 = Fp4[w]/(w³ − v), w⁶ = u, the untwist is
//!   (x, y) ↦ (x·w⁻², y·w⁻³), so ψ(x, y) = (cₓ·x̄, c_y·ȳ) with x̄ the conjugate (the p-power
//!   Frobenius of GF(p²)), cₓ = u^((1−p)/3) and c_y = u^((1−p)/2); for SM9 both lie in GF(p).
//!   On G2, ψ is `[p] = [6t²]` (p ≡ 6t² mod n). Its powers: ψ²(x, y) = (cₓ²·x, −y) and
//!   ψ³(x, y) = (−x̄, −c_y·ȳ) (cₓ³ = c_y² = u^(1−p) = −1).
//!
//! The constants are recomputed from these definitions in `src/sm9/tests.rs`.

use sm_field::{Backend, Fp, Fp2, Sm9P};

use crate::sm9::{Sm9G1Curve, Sm9G2Curve};
use crate::{Affine, Jacobian};

/// β = u^(2(1−p)/3) = cₓ², the primitive cube root of unity in GF(p) for which φ = [λ] on G1.
pub(crate) const BETA_HEX: &str =
    "B640000002A3A6F0E303AB4FF2EB2052A9F02115CAEF75E70F738991676AF249";
/// cₓ = u^((1−p)/3) ∈ GF(p).
pub(crate) const PSI_X_HEX: &str =
    "B640000002A3A6F0E303AB4FF2EB2052A9F02115CAEF75E70F738991676AF24A";
/// c_y = u^((1−p)/2) ∈ GF(p).
pub(crate) const PSI_Y_HEX: &str =
    "49DB721A269967C4E0A8DEBC0783182F82555233139E9D63EFBD7B54092C756C";

#[inline(always)]
fn beta<B: Backend>() -> Fp<Sm9P, B> {
    const { Fp::from_be_hex_const(BETA_HEX) }
}
#[inline(always)]
fn psi_x<B: Backend>() -> Fp<Sm9P, B> {
    const { Fp::from_be_hex_const(PSI_X_HEX) }
}
#[inline(always)]
fn psi_y<B: Backend>() -> Fp<Sm9P, B> {
    const { Fp::from_be_hex_const(PSI_Y_HEX) }
}

/// `c·x̄` for `c ∈ GF(p)`.
#[inline(always)]
fn conj_mul<B: Backend>(x: &Fp2<B>, c: &Fp<Sm9P, B>) -> Fp2<B> {
    Fp2::new(x.c0 * c, -(x.c1 * c))
}

impl<B: Backend> Affine<Sm9G1Curve<B>> {
    /// The GLV endomorphism φ(x, y) = (βx, y), equal to `[λ]` on G1 (λ² + λ + 1 ≡ 0 mod n).
    pub fn endomorphism(&self) -> Self {
        Self {
            x: self.x * beta::<B>(),
            y: self.y,
            infinity: self.infinity,
        }
    }
}

impl<B: Backend> Jacobian<Sm9G1Curve<B>> {
    /// The GLV endomorphism φ(X : Y : Z) = (βX : Y : Z), equal to `[λ]` on G1.
    #[inline]
    pub fn endomorphism(&self) -> Self {
        Self {
            x: self.x * beta::<B>(),
            y: self.y,
            z: self.z,
        }
    }
}

impl<B: Backend> Affine<Sm9G2Curve<B>> {
    /// The GLS endomorphism ψ (untwist–Frobenius–twist), equal to `[p] = [6t²]` on G2.
    pub fn psi(&self) -> Self {
        Self {
            x: conj_mul(&self.x, &psi_x::<B>()),
            y: conj_mul(&self.y, &psi_y::<B>()),
            infinity: self.infinity,
        }
    }

    /// ψ² (x, y) = (cₓ²·x, −y).
    pub fn psi2(&self) -> Self {
        Self {
            x: self.x.mul_by_fp(&beta::<B>()),
            y: -self.y,
            infinity: self.infinity,
        }
    }

    /// ψ³ (x, y) = (−x̄, −c_y·ȳ).
    pub fn psi3(&self) -> Self {
        Self {
            x: Fp2::new(-self.x.c0, self.x.c1),
            y: conj_mul(&self.y, &-psi_y::<B>()),
            infinity: self.infinity,
        }
    }
}

impl<B: Backend> Jacobian<Sm9G2Curve<B>> {
    /// ψ in Jacobian coordinates: (cₓ·X̄ : c_y·Ȳ : Z̄) (ψ is p-semilinear, so it commutes with
    /// the Z-scaling).
    #[inline]
    pub fn psi(&self) -> Self {
        Self {
            x: conj_mul(&self.x, &psi_x::<B>()),
            y: conj_mul(&self.y, &psi_y::<B>()),
            z: self.z.conjugate(),
        }
    }

    /// ψ² in Jacobian coordinates: (cₓ²·X : −Y : Z).
    #[inline]
    pub fn psi2(&self) -> Self {
        Self {
            x: self.x.mul_by_fp(&beta::<B>()),
            y: -self.y,
            z: self.z,
        }
    }

    /// ψ³ in Jacobian coordinates: (−X̄ : −c_y·Ȳ : Z̄).
    #[inline]
    pub fn psi3(&self) -> Self {
        Self {
            x: Fp2::new(-self.x.c0, self.x.c1),
            y: conj_mul(&self.y, &-psi_y::<B>()),
            z: self.z.conjugate(),
        }
    }
}
