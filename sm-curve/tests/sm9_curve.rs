//! SM9 G1/G2 (sm-curve's `sm9` module) on every compiled backend: GLV/GLS and fixed-base scalar
//! multiplication against plain double-and-add, the GM/T 0044.5 master and user keys as known
//! answers (Ppub-s = ks·P2, Ppub-e = ke·P1, ds = t2·P1, de = t2·P2), subgroup checks that reject
//! points of E'(GF(p²)) outside G2, and encodings.

use num_bigint::BigUint;
use proptest::prelude::*;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_curve::sm9::{g2_from_sec1, Sm9G1Curve, Sm9G2Curve, Sm9P1Table, Sm9P2Table};
use sm_curve::{Affine, CombTable, CurveParams, Error, Jacobian};
use sm_field::{Backend, Fp, Fp2, Modulus, Sm9N, Sm9P, U64};

fn hex_at(ptr: &str) -> Vec<u8> {
    sm_testvectors::hex_at(&sm_testvectors::sm9(), ptr)
}

fn big(l: &[u64; 4]) -> BigUint {
    l.iter()
        .rev()
        .fold(BigUint::default(), |acc, &x| (acc << 64u32) + x)
}

fn n_big() -> BigUint {
    big(&Sm9N::P)
}

/// λ (φ = [λ] on G1) and μ = 6t² (ψ = [μ] on G2).
fn lambda() -> BigUint {
    let t = BigUint::from(0x6000_0000_0058_F98Au64);
    let v = BigUint::from(36u8) * &t * &t * &t + BigUint::from(18u8) * &t * &t + &t * 6u8 + 2u8;
    n_big() - v
}
fn mu() -> BigUint {
    let t = BigUint::from(0x6000_0000_0058_F98Au64);
    &t * &t * 6u8
}

/// Scalars near the edges of the decompositions: `a + b·λ` and `Σ aᵢ·μⁱ` for small and
/// window-sized `aᵢ` (exercising the identity, the top and the last Booth windows, and the
/// complete additions of window 0), plus small scalars and scalars near n.
fn edge_scalars(base: &BigUint, dims: u32) -> Vec<BigUint> {
    let n = n_big();
    let smalls: Vec<BigUint> = [0u64, 1, 2, 15, 16, 17, 31, 32, 33]
        .iter()
        .map(|&v| BigUint::from(v))
        .collect();
    let mut out: Vec<BigUint> = Vec::new();
    for s in &smalls {
        out.push(s.clone());
        out.push((&n - s) % &n);
    }
    let top = if dims == 2 {
        BigUint::from(1u8) << 126u32
    } else {
        BigUint::from(1u8) << 64u32
    };
    for i in 0..dims {
        let bi = base.modpow(&BigUint::from(i), &n);
        for a in [
            BigUint::from(1u8),
            BigUint::from(16u8),
            BigUint::from(17u8),
            top.clone(),
        ] {
            out.push(&a * &bi % &n);
            out.push((&n - &a * &bi % &n) % &n);
            // a·μ^i + 16 and a·μ^i − 16
            out.push((&a * &bi + 16u8) % &n);
            out.push((&n + &a * &bi - 16u8) % &n);
        }
    }
    out.push(&n >> 1u32);
    out.push(&n / 3u8);
    // 22·2^252 − n = a + 11·2^252 with a ≡ 11·2^252 (mod n): the top comb row (6-bit and 7-bit
    // windows both put it at 2^252) meets the doubling case.
    out.push((BigUint::from(22u8) << 252u32) - &n);
    out
}

macro_rules! suite {
    ($m:ident, $B:ty) => {
        mod $m {
            use super::*;
            type B = $B;
            type G1 = Jacobian<Sm9G1Curve<B>>;
            type G2 = Jacobian<Sm9G2Curve<B>>;
            type G1A = Affine<Sm9G1Curve<B>>;
            type G2A = Affine<Sm9G2Curve<B>>;
            type S = Fp<Sm9N, B>;

            fn scalar(v: &BigUint) -> S {
                let b = (v % n_big()).to_bytes_be();
                let mut out = [0u8; 32];
                out[32 - b.len()..].copy_from_slice(&b);
                S::from_bytes(&out).unwrap()
            }
            fn scalar_at(ptr: &str) -> S {
                scalar(&BigUint::from_bytes_be(&hex_at(ptr)))
            }
            fn g1_bytes(p: &G1) -> Vec<u8> {
                p.to_affine().to_sec1_vec(false)[1..].to_vec()
            }
            fn g2_bytes(p: &G2) -> Vec<u8> {
                p.to_affine().to_sec1_vec(false)[1..].to_vec()
            }

            /// All ways to compute k·P1 agree with double-and-add; returns it.
            fn all_g1(p: &G1, k: &S) -> G1 {
                let naive = p.mul_naive_vartime(&sm_curve::scalar_to_limbs(k));
                assert_eq!(p.mul_endo(k), naive);
                assert_eq!(p.mul_endo_vartime(k), naive);
                naive
            }
            fn all_g2(q: &G2, k: &S) -> G2 {
                let naive = q.mul_naive_vartime(&sm_curve::scalar_to_limbs(k));
                assert_eq!(q.mul_endo(k), naive);
                assert_eq!(q.mul_endo_vartime(k), naive);
                naive
            }
            fn gen_g1(k: &S) -> G1 {
                let r = all_g1(&G1::generator(), k);
                assert_eq!(Sm9G1Curve::<B>::mul_generator(k), r);
                assert_eq!(Sm9G1Curve::<B>::mul_generator_vartime(k), r);
                assert_eq!(CombTable::<Sm9G1Curve<B>>::mul(&Sm9P1Table, k), r);
                r
            }
            fn gen_g2(k: &S) -> G2 {
                let r = all_g2(&G2::generator(), k);
                assert_eq!(Sm9G2Curve::<B>::mul_generator(k), r);
                assert_eq!(Sm9G2Curve::<B>::mul_generator_vartime(k), r);
                assert_eq!(Sm9P2Table.mul(k), r);
                assert_eq!(Sm9P2Table.mul_vartime(k), r);
                r
            }

            #[test]
            fn generators_match_vectors() {
                let p1 = G1A::GENERATOR;
                assert_eq!(
                    p1.to_sec1_vec(false)[1..].to_vec(),
                    [hex_at("/curve/P1_x"), hex_at("/curve/P1_y")].concat()
                );
                let p2 = G2A::GENERATOR;
                let want = [
                    hex_at("/curve/P2_x_a1"),
                    hex_at("/curve/P2_x_a0"),
                    hex_at("/curve/P2_y_a1"),
                    hex_at("/curve/P2_y_a0"),
                ]
                .concat();
                assert_eq!(p2.to_sec1_vec(false)[1..].to_vec(), want);
                assert!(bool::from(p1.is_on_curve() & p2.is_on_curve()));
                assert!(bool::from(p2.is_in_subgroup()));
            }

            #[test]
            fn master_public_keys_known_answers() {
                // Annex A: Ppub-s = ks·P2.
                let ks = scalar_at("/sign_annexA/ks");
                assert_eq!(g2_bytes(&gen_g2(&ks)), hex_at("/sign_annexA/Ppubs"));
                // Annexes B, C, D: Ppub-e = ke·P1.
                for annex in ["key_exchange_annexB", "kem_annexC", "encrypt_annexD"] {
                    let ke = scalar_at(&format!("/{annex}/ke"));
                    assert_eq!(
                        g1_bytes(&gen_g1(&ke)),
                        hex_at(&format!("/{annex}/Ppube")),
                        "{annex}"
                    );
                }
            }

            #[test]
            fn user_keys_known_answers() {
                // ds_A = t2·P1 with t2 = ks·(h1 + ks)⁻¹ (Annex A, t2 printed).
                let t2 = scalar_at("/sign_annexA/derived/t2=ks*t1^-1 mod n");
                assert_eq!(g1_bytes(&gen_g1(&t2)), hex_at("/sign_annexA/dsA"));
                // de = t2·P2, t2 = ke·(H1(ID‖hid) + ke)⁻¹ (Annexes B and C).
                let de = |ke: &str, h1: &str| {
                    let ke = scalar_at(ke);
                    let t1 = scalar_at(h1) + ke;
                    let t2 = ke * t1.invert().unwrap();
                    g2_bytes(&gen_g2(&t2))
                };
                assert_eq!(
                    de("/kem_annexC/ke", "/kem_annexC/derived/H1(Bob||03)"),
                    hex_at("/kem_annexC/deB")
                );
                assert_eq!(
                    de(
                        "/key_exchange_annexB/ke",
                        "/key_exchange_annexB/H1(Alice||02)"
                    ),
                    hex_at("/key_exchange_annexB/deA")
                );
                assert_eq!(
                    de(
                        "/key_exchange_annexB/ke",
                        "/key_exchange_annexB/derived/H1(Bob||02)"
                    ),
                    hex_at("/key_exchange_annexB/deB")
                );
            }

            #[test]
            fn edge_scalars_agree() {
                let p = G1::generator().double().double();
                for k in edge_scalars(&lambda(), 2) {
                    let s = scalar(&k);
                    all_g1(&p, &s);
                    gen_g1(&s);
                }
                let q = G2::generator().double().double();
                for k in edge_scalars(&mu(), 4) {
                    let s = scalar(&k);
                    all_g2(&q, &s);
                    gen_g2(&s);
                }
            }

            #[test]
            fn identity_and_order() {
                let k = scalar(&BigUint::from(12345u32));
                assert!(bool::from(G1::IDENTITY.mul_endo(&k).is_identity()));
                assert!(bool::from(G2::IDENTITY.mul_endo(&k).is_identity()));
                assert!(bool::from(G1::IDENTITY.mul_endo_vartime(&k).is_identity()));
                assert!(bool::from(G2::IDENTITY.mul_endo_vartime(&k).is_identity()));
                // n·P = O through the limb ladders, (n − 1)·P = −P through the endomorphisms.
                assert!(bool::from(
                    G1::generator().mul_limbs(&Sm9N::P).is_identity()
                ));
                assert!(bool::from(
                    G2::generator().mul_limbs(&Sm9N::P).is_identity()
                ));
                let m1 = -S::ONE;
                assert_eq!(G1::generator().mul_endo(&m1), G1::generator().neg());
                assert_eq!(G2::generator().mul_endo(&m1), G2::generator().neg());
            }

            fn random_twist_point(rng: &mut ChaCha20Rng) -> G2A {
                loop {
                    let x = Fp2::<B>::random(rng);
                    let rhs = x.square() * x + Sm9G2Curve::<B>::B;
                    if let Some(y) = Option::<Fp2<B>>::from(rhs.sqrt()) {
                        return Option::from(G2A::from_coordinates(x, y)).unwrap();
                    }
                }
            }

            #[test]
            fn subgroup_checks() {
                let mut rng = ChaCha20Rng::seed_from_u64(3);
                let q = gen_g2(&scalar(&BigUint::from(777u32))).to_affine();
                assert!(bool::from(q.is_in_subgroup()));
                let enc = q.to_sec1_vec(false);
                assert_eq!(g2_from_sec1::<B>(&enc), Ok(q));
                assert_eq!(g2_from_sec1::<B>(&q.to_sec1_vec(true)), Ok(q));
                for _ in 0..16 {
                    // Random points of E'(GF(p²)) are in G2 with probability 1/h ≈ 2^−256.
                    let r = random_twist_point(&mut rng);
                    assert!(bool::from(r.is_on_curve()));
                    assert!(!bool::from(r.is_in_subgroup()));
                    assert!(!bool::from(r.to_jacobian().is_in_subgroup()));
                    assert_eq!(
                        g2_from_sec1::<B>(&r.to_sec1_vec(false)),
                        Err(Error::NotOnCurve)
                    );
                    assert_eq!(
                        g2_from_sec1::<B>(&r.to_sec1_vec(true)),
                        Err(Error::NotOnCurve)
                    );
                    // Its cofactor multiple n·R has no G2 component and is also rejected
                    // (unless it is the identity, which has probability ≈ 2^−160 here).
                    let nr = r.to_jacobian().mul_limbs_vartime(&Sm9N::P);
                    assert!(!bool::from(nr.is_identity()));
                    assert!(!bool::from(nr.is_in_subgroup()));
                    // h·R lies in G2 (the cofactor clears the rest).
                    let h = big(&Sm9P::P) * 2u8 - n_big();
                    let hl = {
                        let mut l = [0u64; 4];
                        for (i, d) in h.iter_u64_digits().enumerate() {
                            l[i] = d;
                        }
                        l
                    };
                    assert!(bool::from(
                        r.to_jacobian().mul_naive_vartime(&hl).is_in_subgroup()
                    ));
                }
                assert_eq!(g2_from_sec1::<B>(&[0]), Err(Error::Identity));
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(48))]
                #[test]
                fn random_scalars_agree(k in any::<[u8; 32]>(), j in any::<[u8; 32]>()) {
                    let k = S::from_bytes_reduced(&k);
                    let j = S::from_bytes_reduced(&j);
                    // Variable bases: j·P1 and j·P2, then k times them.
                    let p = gen_g1(&j);
                    let q = gen_g2(&j);
                    let kp = all_g1(&p, &k);
                    let kq = all_g2(&q, &k);
                    // (k·j)·P = k·(j·P)
                    prop_assert_eq!(Sm9G1Curve::<B>::mul_generator(&(k * j)), kp);
                    prop_assert_eq!(Sm9G2Curve::<B>::mul_generator(&(k * j)), kq);
                    prop_assert!(bool::from(kq.is_in_subgroup()));
                }

                #[test]
                fn random_g1_points(x in any::<[u8; 32]>(), k in any::<[u8; 32]>()) {
                    // Any point of E(GF(p)) is in G1 (cofactor 1).
                    let x = Fp::<sm_field::Sm9P, B>::from_bytes_reduced(&x);
                    if let Some(p) = G1A::decompress(&x, false) {
                        all_g1(&p.to_jacobian(), &S::from_bytes_reduced(&k));
                        let enc = p.to_sec1_vec(true);
                        prop_assert_eq!(G1A::from_sec1(&enc), Ok(p));
                    }
                }
            }
        }
    };
}

suite!(u64_backend, sm_field::U64);
#[cfg(feature = "u32")]
suite!(u32_backend, sm_field::U32);
#[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
suite!(asm_backend, sm_field::Asm);

/// Every backend computes the same limbs for the same scalar multiplications.
#[test]
fn backends_agree() {
    fn run<B: Backend>(k: &[u8; 32]) -> Vec<[u64; 4]> {
        let k = Fp::<Sm9N, B>::from_bytes_reduced(k);
        let p = Sm9G1Curve::<B>::mul_generator(&k).to_affine();
        let q = Sm9G2Curve::<B>::mul_generator(&k).to_affine();
        let pe = Jacobian::<Sm9G1Curve<B>>::generator()
            .mul_endo(&k)
            .to_affine();
        let qe = Jacobian::<Sm9G2Curve<B>>::generator()
            .mul_endo(&(k * k))
            .to_affine();
        [p.x(), p.y(), pe.x(), pe.y()]
            .iter()
            .map(|v| v.to_mont_limbs())
            .chain(
                [q.x(), q.y(), qe.x(), qe.y()]
                    .iter()
                    .flat_map(|v| [v.c0.to_mont_limbs(), v.c1.to_mont_limbs()]),
            )
            .collect()
    }
    let k = [0x5au8; 32];
    let want = run::<U64>(&k);
    #[cfg(feature = "u32")]
    assert_eq!(run::<sm_field::U32>(&k), want);
    #[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
    assert_eq!(run::<sm_field::Asm>(&k), want);
    assert_eq!(want.len(), 12);
}

/// `Affine::to_backend` copies the limbs: the point is the same on the other backend and back.
#[test]
fn points_move_between_backends() {
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
    struct Other;
    impl Backend for Other {
        const NAME: &'static str = "other";
        fn add<M: sm_field::Modulus>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
            U64::add::<M>(a, b)
        }
        fn sub<M: sm_field::Modulus>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
            U64::sub::<M>(a, b)
        }
        fn mul<M: sm_field::Modulus>(a: &[u64; 4], b: &[u64; 4]) -> [u64; 4] {
            U64::mul::<M>(a, b)
        }
    }
    let k = Fp::<Sm9N, U64>::from_u64(0x1234_5678);
    let p = Sm9G1Curve::<U64>::mul_generator(&k).to_affine();
    let q = Sm9G2Curve::<U64>::mul_generator(&k).to_affine();
    let (p2, q2) = (p.to_backend::<Other>(), q.to_backend::<Other>());
    let k2 = k.to_backend::<Other>();
    assert_eq!(p2, Sm9G1Curve::<Other>::mul_generator(&k2).to_affine());
    assert_eq!(q2, Sm9G2Curve::<Other>::mul_generator(&k2).to_affine());
    assert_eq!((p2.to_backend::<U64>(), q2.to_backend::<U64>()), (p, q));
    let id = sm_curve::sm9::G1Affine::<U64>::IDENTITY.to_backend::<Other>();
    assert!(bool::from(id.is_identity()));
    let s = sm_curve::Affine::<sm_curve::Sm2Curve<U64>>::GENERATOR.to_backend::<Other>();
    assert_eq!(s, sm_curve::Affine::<sm_curve::Sm2Curve<Other>>::GENERATOR);
}

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm-curve sm9_curve",
        &[
            "u64",
            #[cfg(feature = "u32")]
            "u32",
            #[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
            "asm",
        ],
    );
}
