//! Group laws, scalar-multiplication agreement and encodings for the SM2 curve, on every compiled
//! backend, with `num-bigint` as the independent reference for scalars.

use num_bigint::BigUint;
use proptest::prelude::*;
use sm_curve::{Affine, CombTable, CurveParams, Error, Jacobian, PrecomputedTable, Sm2Curve};
use sm_field::{Backend, Field, Fp, Sm2N, Sm2P, U64};

fn n_big() -> BigUint {
    BigUint::from_bytes_be(&sm_testvectors::hex_at(
        &sm_testvectors::sm2_sm3(),
        "/sm2_curve_recommended/n",
    ))
}

fn scalar<B: Backend>(v: &BigUint) -> Fp<Sm2N, B> {
    let b = (v % n_big()).to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    Fp::from_bytes(&out).unwrap()
}

fn limbs(v: &BigUint) -> [u64; 4] {
    let mut l = [0u64; 4];
    for (i, d) in v.iter_u64_digits().enumerate() {
        l[i] = d;
    }
    l
}

macro_rules! suite {
    ($m:ident, $B:ty) => {
        mod $m {
            use super::*;
            type C = Sm2Curve<$B>;
            type J = Jacobian<C>;
            type A = Affine<C>;
            type S = Fp<Sm2N, $B>;

            fn g() -> J {
                J::generator()
            }
            fn pt(k: &[u8; 32]) -> J {
                C::mul_generator(&S::from_bytes_reduced(k))
            }

            /// The exceptional inputs of the addition formulas (P + P, P + (−P), the identity on
            /// either side, a non-normalised Z), variable-time and constant-time alike.
            #[test]
            fn additions_handle_the_exceptional_cases() {
                let p = pt(&[7; 32]);
                let q = pt(&[9; 32]);
                let o = J::IDENTITY;
                // The same point with another Z: (X·λ², Y·λ³, Z·λ).
                let (x, y, z) = p.raw_coordinates();
                let l = Fp::<Sm2P, $B>::from_u64(5);
                let p2 = J::from_raw_unchecked(x * l.square(), y * l.square() * l, z * l);
                let (pa, qa, oa) = (p.to_affine(), q.to_affine(), A::IDENTITY);
                let dbl = p.double();
                for (a, b, want) in [
                    (p, p2, dbl),
                    (p, -p2, o),
                    (o, p, p),
                    (p, o, p),
                    (o, o, o),
                    (p, q, q.add(&p)),
                ] {
                    assert_eq!(a.add_vartime(&b), want);
                    assert_eq!(a.add(&b), want);
                }
                for (a, b, want) in [
                    (p2, pa, dbl),
                    (-p2, pa, o),
                    (o, pa, p),
                    (p, oa, p),
                    (o, oa, o),
                    (p, qa, q.add(&p)),
                ] {
                    assert_eq!(a.add_affine_vartime(&b), want);
                    assert_eq!(a.add_affine(&b), want);
                }
                assert!(bool::from(dbl.is_on_curve()) && !bool::from(dbl.is_identity()));
            }

            #[test]
            fn generator_matches_vector_and_is_on_curve() {
                let v = sm_testvectors::sm2_sm3();
                let gx = sm_testvectors::hex_at(&v, "/sm2_curve_recommended/Gx");
                let gy = sm_testvectors::hex_at(&v, "/sm2_curve_recommended/Gy");
                let a = A::GENERATOR;
                assert_eq!(a.x().to_bytes().to_vec(), gx);
                assert_eq!(a.y().to_bytes().to_vec(), gy);
                assert!(bool::from(a.is_on_curve()));
                let b = sm_testvectors::hex_at(&v, "/sm2_curve_recommended/b");
                assert_eq!(C::B.to_bytes().to_vec(), b);
                assert_eq!(C::A, -Fp::<Sm2P, $B>::from_u64(3));
            }

            #[test]
            fn order_times_generator_is_identity() {
                let n = limbs(&n_big());
                assert!(bool::from(g().mul_naive_vartime(&n).is_identity()));
                assert!(bool::from(g().mul_limbs(&n).is_identity()));
                assert!(bool::from(g().mul_limbs_vartime(&n).is_identity()));
                let nm1 = limbs(&(n_big() - 1u8));
                assert_eq!(g().mul_limbs(&nm1), g().neg());
                assert_eq!(C::mul_generator(&(-S::ONE)), g().neg());
            }

            #[test]
            fn edge_scalars_agree() {
                // n − 6 hits the doubling case in the last window of the fixed-window ladder;
                // small scalars and scalars near n exercise identities and the top comb row.
                let n = n_big();
                let mut ks: Vec<BigUint> = (0u32..40).map(BigUint::from).collect();
                for d in 1u32..40 {
                    ks.push(&n - d);
                }
                ks.push(BigUint::from(1u8) << 255);
                ks.push((BigUint::from(1u8) << 256) - 1u8);
                for k in ks {
                    let l = limbs(&k);
                    let naive = g().mul_naive_vartime(&l);
                    assert_eq!(g().mul_limbs(&l), naive, "ct k = {k:x}");
                    assert_eq!(g().mul_limbs_vartime(&l), naive, "wnaf k = {k:x}");
                    let s = scalar::<$B>(&k);
                    assert_eq!(C::mul_generator(&s), naive, "comb k = {k:x}");
                    assert_eq!(C::mul_generator_vartime(&s), naive, "comb vt k = {k:x}");
                    // Same on a non-generator base.
                    let p = g().double().double().add(&g());
                    assert_eq!(p.mul_limbs(&l), p.mul_naive_vartime(&l), "ct on 5G k = {k:x}");
                }
            }

            #[test]
            fn identity_handling() {
                let id = J::IDENTITY;
                let p = g();
                assert_eq!(id.add(&p), p);
                assert_eq!(p.add(&id), p);
                assert_eq!(p.add(&p.neg()), id);
                assert_eq!(p.add(&p), p.double());
                assert_eq!(p.add_affine(&p.to_affine()), p.double());
                assert_eq!(id.add_affine(&A::GENERATOR), p);
                assert_eq!(p.add_affine(&A::IDENTITY), p);
                assert_eq!(p.add_assume_distinct(&id), p);
                assert_eq!(id.double(), id);
                assert!(bool::from(id.to_affine().is_identity()));
                assert_eq!(id.mul(&S::from_u64(5)), id);
                assert_eq!(p.mul(&S::ZERO), id);
                assert!(bool::from(id.is_on_curve()));
            }

            #[test]
            fn batch_normalisation() {
                let pts: Vec<J> = (0..9u64)
                    .map(|i| if i == 4 { J::IDENTITY } else { g().mul(&S::from_u64(i * 7 + 1)) })
                    .collect();
                let mut out = vec![A::IDENTITY; pts.len()];
                J::batch_to_affine(&pts, &mut out);
                for (p, a) in pts.iter().zip(&out) {
                    assert_eq!(p.to_affine(), *a);
                }
            }

            #[test]
            fn precomputed_table_matches() {
                let base = g().mul(&S::from_u64(0xdead_beef)).to_affine();
                let t = PrecomputedTable::<C>::new(&base);
                for k in [0u64, 1, 2, 31, 32, 33, 0xffff_ffff] {
                    let s = S::from_u64(k);
                    let e = base.to_jacobian().mul(&s);
                    assert_eq!(t.mul(&s), e);
                    assert_eq!(t.mul_vartime(&s), e);
                }
                let s = -S::from_u64(6);
                assert_eq!(t.mul(&s), base.to_jacobian().mul(&s));
            }

            #[test]
            fn precomputed_table_on_another_backend() {
                // A table built on U64, read as one of this backend: same multiples, same limbs.
                let base = g().mul(&S::from_u64(0x1234_5678_9abc)).to_affine();
                let t = PrecomputedTable::<Sm2Curve<U64>>::new(&base.to_backend::<U64>());
                let view = t.on_backend::<$B>();
                let s = -S::from_u64(6);
                for k in [S::from_u64(33), S::from_u64(0xffff_ffff), s, S::from_bytes_reduced(&[0xa5; 32])] {
                    let e = base.to_jacobian().mul(&k);
                    assert_eq!(view.mul(&k), e);
                    assert_eq!(view.mul_vartime(&k), e);
                    assert_eq!(view.mul(&k).to_affine(), t.mul(&k.to_backend::<U64>()).to_affine().to_backend::<$B>());
                }
            }

            #[test]
            fn encodings() {
                let a = g().mul(&S::from_u64(77)).to_affine();
                let mut buf = [0u8; 65];
                assert_eq!(a.write_sec1(false, &mut buf), Ok(65));
                assert_eq!(buf[0], 4);
                assert_eq!(A::from_sec1(&buf), Ok(a));
                let c = a.to_sec1_vec(true);
                assert_eq!(c.len(), 33);
                assert_eq!(c[0], 2 | a.y().is_odd().unwrap_u8());
                assert_eq!(A::from_sec1(&c), Ok(a));
                // Wrong parity gives the negated point.
                let mut c2 = c.clone();
                c2[0] ^= 1;
                assert_eq!(A::from_sec1(&c2), Ok(a.neg()));
                // Invalid encodings.
                assert_eq!(A::from_sec1(&[]), Err(Error::Length));
                assert_eq!(A::from_sec1(&[0]), Err(Error::Identity));
                assert_eq!(A::from_sec1(&buf[..64]), Err(Error::Length));
                assert_eq!(A::from_sec1(&c[..32]), Err(Error::Length));
                let mut bad = buf;
                bad[0] = 6;
                assert_eq!(A::from_sec1(&bad), Err(Error::Tag));
                let mut bad = buf;
                bad[64] ^= 1;
                assert_eq!(A::from_sec1(&bad), Err(Error::NotOnCurve));
                let mut bad = buf;
                bad[1..33].fill(0xff);
                assert_eq!(A::from_sec1(&bad), Err(Error::FieldRange));
                assert_eq!(A::IDENTITY.to_sec1_vec(false), vec![0u8]);
                // An x with no point: find one.
                let mut x = Fp::<Sm2P, $B>::from_u64(1);
                loop {
                    if A::decompress(&x, false).is_none() {
                        break;
                    }
                    x += Fp::ONE;
                }
                let mut cx = [0u8; 33];
                cx[0] = 2;
                cx[1..].copy_from_slice(&x.to_bytes());
                assert_eq!(A::from_sec1(&cx), Err(Error::NotOnCurve));
            }

            proptest! {
                #![proptest_config(ProptestConfig::with_cases(24))]

                #[test]
                fn group_laws(a in any::<[u8; 32]>(), b in any::<[u8; 32]>(), c in any::<[u8; 32]>()) {
                    let (p, q, r) = (pt(&a), pt(&b), pt(&c));
                    prop_assert_eq!(p.add(&q).add(&r), p.add(&q.add(&r)));
                    prop_assert_eq!(p.add(&q), q.add(&p));
                    prop_assert_eq!(p.add(&J::IDENTITY), p);
                    prop_assert!(bool::from(p.add(&p.neg()).is_identity()));
                    prop_assert_eq!(p.double(), p.add(&p));
                    prop_assert_eq!(p.add_affine(&q.to_affine()), p.add(&q));
                    prop_assert!(bool::from(p.is_on_curve()));
                    prop_assert!(bool::from(p.add(&q).to_affine().is_on_curve()));
                }

                #[test]
                fn scalar_mults_agree(a in any::<[u8; 32]>(), b in any::<[u8; 32]>()) {
                    let sa = S::from_bytes_reduced(&a);
                    let sb = S::from_bytes_reduced(&b);
                    let la = sm_curve::scalar_to_limbs(&sa);
                    let naive = g().mul_naive_vartime(&la);
                    prop_assert_eq!(g().mul(&sa), naive);
                    prop_assert_eq!(g().mul_vartime(&sa), naive);
                    prop_assert_eq!(C::mul_generator(&sa), naive);
                    prop_assert_eq!(C::mul_generator_vartime(&sa), naive);
                    // (a + b)P = aP + bP on a random base P.
                    let p = pt(&b);
                    prop_assert_eq!(p.mul(&(sa + sb)), p.mul(&sa).add(&p.mul(&sb)));
                    prop_assert_eq!(p.mul(&(sa * sb)), p.mul(&sa).mul(&sb));
                    prop_assert_eq!(g().double_mul_vartime(&sa, &p, &sb), g().mul(&sa).add(&p.mul(&sb)));
                }

                #[test]
                fn encoding_round_trip(a in any::<[u8; 32]>(), compress: bool) {
                    let p = pt(&a).to_affine();
                    let mut buf = [0u8; 65];
                    let n = p.write_sec1(compress, &mut buf).unwrap();
                    prop_assert_eq!(A::from_sec1(&buf[..n]), Ok(p));
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

#[test]
fn backends_agree_on_whole_scalar_mult() {
    let k = Fp::<Sm2N, U64>::from_u64(0x1234_5678_9abc_def0).square();
    let p = Sm2Curve::<U64>::mul_generator(&k).to_affine();
    #[cfg(feature = "u32")]
    {
        let k32 = k.to_backend::<sm_field::U32>();
        let p32 = Sm2Curve::<sm_field::U32>::mul_generator(&k32).to_affine();
        assert_eq!(p32.x().to_mont_limbs(), p.x().to_mont_limbs());
    }
    assert!(bool::from(p.is_on_curve()));
    let _ = <Fp<Sm2P, U64> as Field>::ONE;
}

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm-curve curve_laws",
        &[
            "u64",
            #[cfg(feature = "u32")]
            "u32",
            #[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
            "asm",
        ],
    );
}
