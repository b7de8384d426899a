//! Number-theoretic checks of the SM9 endomorphism constants, lattices and decompositions,
//! recomputed from first principles with `num-bigint`.

extern crate std;

use std::vec::Vec;

use num_bigint::{BigInt, BigUint, Sign};
use num_traits::{One, Signed, Zero};
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm_field::{Fp, Fp2, Modulus, Sm9N, Sm9P, U64};

use super::decompose::{decompose, Lattice, GLS, GLV, T};
use super::endo::{BETA_HEX, PSI_X_HEX, PSI_Y_HEX};
use super::{Sm9G1Curve, Sm9G2Curve};
use crate::{Affine, CurveParams, Jacobian};

fn big(l: &[u64]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::zero(), |acc, &x| (acc << 64u32) + x)
}
fn limbs(v: &BigUint) -> [u64; 4] {
    let mut out = [0u64; 4];
    for (o, d) in out.iter_mut().zip(v.iter_u64_digits()) {
        *o = d;
    }
    assert!(v.bits() <= 256);
    out
}
fn hexb(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 16).unwrap()
}
fn p() -> BigUint {
    big(&Sm9P::P)
}
fn n() -> BigUint {
    big(&Sm9N::P)
}
fn t() -> BigInt {
    BigInt::from(T)
}
fn signed(v: (u128, bool)) -> BigInt {
    let m = BigInt::from(v.0);
    if v.1 {
        -m
    } else {
        m
    }
}
fn modn(v: &BigInt) -> BigUint {
    let n = BigInt::from(n());
    (((v % &n) + &n) % &n).to_biguint().unwrap()
}

#[test]
fn bn_parameters() {
    let t = BigUint::from(T);
    let t2 = &t * &t;
    let (t3, t4) = (&t2 * &t, &t2 * &t2);
    assert_eq!(
        p(),
        &t4 * 36u32 + &t3 * 36u32 + &t2 * 24u32 + &t * 6u32 + 1u32
    );
    assert_eq!(
        n(),
        &t4 * 36u32 + &t3 * 36u32 + &t2 * 18u32 + &t * 6u32 + 1u32
    );
    assert_eq!(p() - n(), t2 * 6u32, "p ≡ 6t² (mod n)");
}

/// λ = −(36t³ + 18t² + 6t + 2) mod n.
fn lambda() -> BigUint {
    let t = t();
    let v: BigInt =
        BigInt::from(36) * &t * &t * &t + BigInt::from(18) * &t * &t + BigInt::from(6) * &t + 2;
    modn(&-v)
}

#[test]
fn endomorphism_constants() {
    let (p, n) = (p(), n());
    // β: a primitive cube root of unity in GF(p).
    let beta = hexb(BETA_HEX);
    assert_ne!(beta, BigUint::one());
    assert_eq!(beta.modpow(&BigUint::from(3u8), &p), BigUint::one());
    let lam = lambda();
    assert!(((&lam * &lam + &lam + 1u8) % &n).is_zero());
    // φ(P) = [λ]P on G1 (for this pairing of β and λ; the other root pairs with β²).
    let g = Jacobian::<Sm9G1Curve<U64>>::generator().double();
    assert_eq!(g.endomorphism(), g.mul_naive_vartime(&limbs(&lam)));
    // ψ constants: cₓ = u^((1−p)/3), c_y = u^((1−p)/2). With u² = −2, p ≡ 1 (mod 12) these are
    // (−2)^((1−p)/6) and (−2)^((1−p)/4) in GF(p): first with num-bigint, then the fast Fp2.
    assert_eq!(&p % 12u8, BigUint::one());
    let minus2 = &p - 2u8;
    let inv = |v: BigUint| v.modpow(&(&p - 2u8), &p);
    let cx_big = inv(minus2.modpow(&((&p - 1u8) / 6u8), &p));
    let cy_big = inv(minus2.modpow(&((&p - 1u8) / 4u8), &p));
    assert_eq!(cx_big, hexb(PSI_X_HEX), "cₓ (num-bigint)");
    assert_eq!(cy_big, hexb(PSI_Y_HEX), "c_y (num-bigint)");
    let u = Fp2::<U64>::U;
    let e3 = limbs(&((&p - 1u8) / 3u8));
    let e2 = limbs(&((&p - 1u8) / 2u8));
    let cx = u.pow_vartime(&e3).invert_vartime().unwrap();
    let cy = u.pow_vartime(&e2).invert_vartime().unwrap();
    let fp = |h: &str| Fp2::<U64>::from_fp(Fp::from_be_hex_const(h));
    assert_eq!(cx, fp(PSI_X_HEX));
    assert_eq!(cy, fp(PSI_Y_HEX));
    assert_eq!(cx * cx, fp(BETA_HEX), "β = cₓ²");
    assert_eq!(cx * cx * cx, -Fp2::ONE);
    assert_eq!(cy * cy, -Fp2::ONE);
}

#[test]
fn psi_is_p_on_g2_and_powers_compose() {
    let q = Jacobian::<Sm9G2Curve<U64>>::generator().double();
    let six_t2 = limbs(&(BigUint::from(T) * BigUint::from(T) * 6u8));
    assert_eq!(q.psi(), q.mul_naive_vartime(&six_t2));
    assert_eq!(q.psi(), q.mul_naive_vartime(&Sm9P::P));
    // On arbitrary points of the twist (not only G2), ψ², ψ³ are the compositions and affine
    // and Jacobian forms agree.
    let mut rng = ChaCha20Rng::seed_from_u64(5);
    for _ in 0..8 {
        let r = random_twist_point(&mut rng);
        let j = r.to_jacobian().double(); // a non-normalised Z
        let ja = j.to_affine();
        assert_eq!(j.psi().to_affine(), ja.psi());
        assert_eq!(j.psi2(), j.psi().psi());
        assert_eq!(j.psi3(), j.psi().psi().psi());
        assert_eq!(ja.psi2(), ja.psi().psi());
        assert_eq!(ja.psi3(), ja.psi().psi().psi());
        assert!(bool::from(ja.psi().is_on_curve()));
    }
}

pub(crate) fn random_twist_point(rng: &mut ChaCha20Rng) -> Affine<Sm9G2Curve<U64>> {
    loop {
        let x = Fp2::<U64>::random(rng);
        let rhs = x.square() * x + Sm9G2Curve::<U64>::B;
        if let Some(y) = Option::<Fp2<U64>>::from(rhs.sqrt()) {
            return Affine::from_coordinates(x, y).unwrap();
        }
    }
}

fn det(m: &[Vec<BigInt>]) -> BigInt {
    if m.len() == 1 {
        return m[0][0].clone();
    }
    (0..m.len())
        .map(|j| {
            let minor: Vec<Vec<BigInt>> = m[1..]
                .iter()
                .map(|r| {
                    (0..m.len())
                        .filter(|&c| c != j)
                        .map(|c| r[c].clone())
                        .collect()
                })
                .collect();
            let s = if j % 2 == 0 { 1 } else { -1 };
            BigInt::from(s) * &m[0][j] * det(&minor)
        })
        .sum()
}

/// `adj[i][j]` of the basis matrix (so `B⁻¹ = adj / det`).
fn adjugate(m: &[Vec<BigInt>]) -> Vec<Vec<BigInt>> {
    let d = m.len();
    (0..d)
        .map(|i| {
            (0..d)
                .map(|j| {
                    // cofactor C_{j,i}
                    let minor: Vec<Vec<BigInt>> = (0..d)
                        .filter(|&r| r != j)
                        .map(|r| {
                            (0..d)
                                .filter(|&c| c != i)
                                .map(|c| m[r][c].clone())
                                .collect()
                        })
                        .collect();
                    let s = if (i + j) % 2 == 0 { 1 } else { -1 };
                    if d == 1 {
                        BigInt::one()
                    } else {
                        BigInt::from(s) * det(&minor)
                    }
                })
                .collect()
        })
        .collect()
}

#[allow(clippy::needless_range_loop)] // matrix code reads better with indices
fn check_lattice<const D: usize>(lat: &Lattice<D>, mu: &BigUint, part_bits: u64, min_bits: u32) {
    let n = n();
    let b: Vec<Vec<BigInt>> = lat
        .basis
        .iter()
        .map(|r| r.iter().map(|&v| signed(v)).collect())
        .collect();
    // Rows lie in the kernel of (v ↦ Σ vᵢ μⁱ mod n) and form a basis of it (|det| = n).
    for row in &b {
        let s: BigInt = row
            .iter()
            .enumerate()
            .map(|(i, v)| v * BigInt::from(mu.modpow(&BigUint::from(i), &n)))
            .sum();
        assert!(modn(&s).is_zero());
    }
    let dt = det(&b);
    assert_eq!(dt.abs(), BigInt::from(n.clone()));
    let adj = adjugate(&b);
    // gⱼ = round(2^319·αⱼ), αⱼ = (B⁻¹)₀ⱼ = adj[0][j]/det.
    for (j, (g, g_neg)) in lat.g.iter().enumerate() {
        let num = &adj[0][j] << 319u32;
        let (q, r) = (num.abs() / dt.abs(), num.abs() % dt.abs());
        let rounded = if r * 2 >= dt.abs() { q + 1 } else { q };
        assert_eq!(rounded, BigInt::from(big(g)), "g[{j}]");
        assert_eq!(
            *g_neg,
            (adj[0][j].sign() == Sign::Minus) ^ (dt.sign() == Sign::Minus)
        );
    }
    // Part bound: |kᵢ| ≤ (1/2 + 2^−64)·Σⱼ |Bⱼᵢ| < 2^part_bits.
    for i in 0..D {
        let col: BigInt = b.iter().map(|r| r[i].abs()).sum();
        assert!(col * ((BigInt::one() << 63u32) + 1) < (BigInt::one() << (part_bits + 64)));
    }
    // Every nonzero lattice vector x = c·B has ‖x‖∞ ≥ 2^min_bits: otherwise
    // |cⱼ| ≤ Σᵢ |xᵢ|·|adj[i][j]|/|det| < 2^min_bits·Σᵢ |adj[i][j]|/|det| < 1.
    for j in 0..D {
        let s: BigInt = (0..D).map(|i| adj[i][j].abs()).sum();
        assert!((s << min_bits) < dt.abs(), "column {j}");
    }
    // Decompositions of edge and random scalars.
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let mut ks: Vec<BigUint> = [0u32, 1, 2, 3]
        .iter()
        .map(|&v| BigUint::from(v))
        .chain([
            &n - 1u8,
            &n - 2u8,
            &n >> 1u32,
            (&n >> 1u32) + 1u8,
            &n / 3u8,
            mu.clone(),
        ])
        .collect();
    for _ in 0..2000 {
        let mut w = [0u64; 4];
        for x in w.iter_mut() {
            *x = rng.next_u64();
        }
        ks.push(big(&w) % &n);
    }
    for k in ks {
        let (parts, signs) = decompose(&limbs(&k), lat);
        let mut acc = BigInt::zero();
        for i in 0..D {
            let m = BigInt::from(big(&parts[i]));
            assert!(m.bits() <= part_bits, "part {i} of {k:x}");
            let v = if bool::from(signs[i]) { -m } else { m };
            acc += v * BigInt::from(mu.modpow(&BigUint::from(i), &n));
        }
        assert_eq!(modn(&acc), k);
    }
}

#[test]
fn glv_lattice_and_decomposition() {
    check_lattice(&GLV, &lambda(), 127, 125);
}

#[test]
fn gls_lattice_and_decomposition() {
    let mu = BigUint::from(T) * BigUint::from(T) * 6u8;
    check_lattice(&GLS, &mu, 64, 62);
}

/// Miller–Rabin with fixed bases (a test helper, not for adversarial inputs).
fn is_probable_prime(m: &BigUint) -> bool {
    let one = BigUint::one();
    let m1 = m - 1u8;
    let s = m1.trailing_zeros().unwrap();
    let d = &m1 >> s;
    [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37]
        .iter()
        .all(|&a| {
            let a = BigUint::from(a);
            if (&a % m).is_zero() {
                return a == *m;
            }
            let mut x = a.modpow(&d, m);
            if x == one || x == m1 {
                return true;
            }
            for _ in 1..s {
                x = x.modpow(&BigUint::from(2u8), m);
                if x == m1 {
                    return true;
                }
            }
            false
        })
}

#[test]
fn subgroup_test_is_exact() {
    // #E'(GF(p²)) = n·h with h = 2p − n square-free and prime to n, so E'(GF(p²)) is cyclic and
    // the kernel of the test is G2 iff the test rejects a point of each prime order r | h.
    let (p, n) = (p(), n());
    let h = &p * 2u8 - &n;
    let factors: Vec<BigUint> = [
        "D",
        "655",
        "2F8B7CDDD",
        "3AE35E171BA9",
        "33D2E5DAD7517E6E9CF623974B88469A4A50DD6E1",
    ]
    .iter()
    .map(|s| hexb(s))
    .collect();
    assert_eq!(factors.iter().product::<BigUint>(), h);
    for f in &factors {
        assert!(is_probable_prime(f), "{f:x}");
    }
    assert!(is_probable_prime(&n));
    let mut rng = ChaCha20Rng::seed_from_u64(13);
    let g = Jacobian::<Sm9G2Curve<U64>>::generator().double();
    for _ in 0..4 {
        let r = random_twist_point(&mut rng).to_jacobian();
        // The group order is n·h.
        let nr = r.mul_naive_vartime(&Sm9N::P);
        assert!(bool::from(nr.mul_naive_vartime(&limbs(&h)).is_identity()));
        assert!(!bool::from(r.is_in_subgroup()));
        assert!(!bool::from(r.to_affine().is_in_subgroup()));
    }
    for f in &factors {
        // A point of order exactly f: [n·h/f]R ≠ O.
        let t = loop {
            let r = random_twist_point(&mut rng).to_jacobian();
            let t = r
                .mul_naive_vartime(&Sm9N::P)
                .mul_naive_vartime(&limbs(&(&h / f)));
            if !bool::from(t.is_identity()) {
                break t;
            }
        };
        assert!(bool::from(t.mul_naive_vartime(&limbs(f)).is_identity()));
        assert!(!bool::from(t.is_in_subgroup()), "order {f:x}");
        assert!(!bool::from(g.add(&t).is_in_subgroup()), "G2 + order {f:x}");
    }
    assert!(bool::from(g.is_in_subgroup()));
    assert!(bool::from(
        Affine::<Sm9G2Curve<U64>>::GENERATOR.is_in_subgroup()
    ));
}

#[test]
fn generator_orders() {
    let p1 = Jacobian::<Sm9G1Curve<U64>>::generator();
    let p2 = Jacobian::<Sm9G2Curve<U64>>::generator();
    assert!(bool::from(p1.mul_naive_vartime(&Sm9N::P).is_identity()));
    assert!(bool::from(p2.mul_naive_vartime(&Sm9N::P).is_identity()));
    assert_eq!(<Sm9G1Curve<U64> as CurveParams>::ORDER, Sm9N::P);
}
