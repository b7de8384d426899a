//! The eight-lane SM9 tower (`sm_field::lanes_tower`) against the scalar tower `Fp2`/`Fp4`/`Fp12`
//! over `U64`, lane by lane: every operation on random elements, on edge elements (0, 1, −1,
//! elements with zero coordinates) mixed into random lanes, and chained operations.
//!
//! On a CPU without AVX-512 IFMA these tests fail unless the environment declares it absent
//! (`SM_EXPECT_IFMA=0`; see `sm_testvectors::backend_runs_here`); then they pass without
//! checking anything, saying so on stderr.
#![cfg(all(target_arch = "x86_64", feature = "asm"))]

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm_field::lanes::{Ifma, Lanes8};
use sm_field::lanes_tower::{Lanes8Fp12, Lanes8Fp2, Lanes8Fp4};
use sm_field::{Fp, Fp12, Fp2, Fp4, Sm9P, U64};

type S2 = Fp2<U64>;
type S4 = Fp4<U64>;
type S12 = Fp12<U64>;

fn token(test: &str) -> Option<Ifma> {
    sm_testvectors::token_runs_here(
        &format!("{test}: IFMA lanes"),
        Ifma::detect(),
        "SM_EXPECT_IFMA",
    )
}

/// Edge elements of GF(p¹²): 0, 1, −1, u, w, and elements with only some coordinates non-zero
/// (p − 1 and 1 in various slots).
fn edges12(rng: &mut ChaCha20Rng) -> Vec<S12> {
    let m1 = -Fp::<Sm9P, U64>::ONE;
    let mut out = vec![S12::ZERO, S12::ONE, -S12::ONE];
    for k in 0..12 {
        let mut c = [Fp::ZERO; 12];
        c[k] = if k % 2 == 0 { Fp::ONE } else { m1 };
        out.push(S12::from_w_coefficients(&c));
        c[(k + 5) % 12] = Fp::random(rng);
        out.push(S12::from_w_coefficients(&c));
    }
    out
}

/// Eight random elements with edge elements in some lanes.
fn inputs(rng: &mut ChaCha20Rng, edges: &[S12]) -> [S12; 8] {
    core::array::from_fn(|_| {
        if rng.next_u32().is_multiple_of(3) {
            edges[rng.next_u32() as usize % edges.len()]
        } else {
            S12::random(rng)
        }
    })
}

fn map<T: Copy, U>(v: &[T; 8], f: impl Fn(&T) -> U) -> [U; 8] {
    core::array::from_fn(|i| f(&v[i]))
}

fn map2<T: Copy, U>(a: &[T; 8], b: &[T; 8], f: impl Fn(&T, &T) -> U) -> [U; 8] {
    core::array::from_fn(|i| f(&a[i], &b[i]))
}

fn check_fp2(t: Ifma, a: &[S2; 8], b: &[S2; 8], k: &[Fp<Sm9P, U64>; 8], mask: u8) {
    let (la, lb) = (Lanes8Fp2::from_fp2(t, a), Lanes8Fp2::from_fp2(t, b));
    let ctx = |op: &str| format!("Fp2 {op}: a = {a:?}, b = {b:?}");
    assert_eq!(la.to_fp2::<U64>(t), *a, "{}", ctx("round trip"));
    assert_eq!(
        la.add(t, &lb).to_fp2(t),
        map2(a, b, |x, y| x + y),
        "{}",
        ctx("add")
    );
    assert_eq!(
        la.sub(t, &lb).to_fp2(t),
        map2(a, b, |x, y| x - y),
        "{}",
        ctx("sub")
    );
    assert_eq!(
        la.mul(t, &lb).to_fp2(t),
        map2(a, b, |x, y| x * y),
        "{}",
        ctx("mul")
    );
    assert_eq!(la.neg(t).to_fp2(t), map(a, |x| -x), "{}", ctx("neg"));
    assert_eq!(
        la.double(t).to_fp2(t),
        map(a, S2::double),
        "{}",
        ctx("double")
    );
    assert_eq!(
        la.square(t).to_fp2(t),
        map(a, S2::square),
        "{}",
        ctx("square")
    );
    assert_eq!(
        la.mul_by_u(t).to_fp2(t),
        map(a, S2::mul_by_u),
        "{}",
        ctx("mul_by_u")
    );
    assert_eq!(
        la.add_mul_by_u(t, &lb).to_fp2(t),
        map2(a, b, S2::add_mul_by_u),
        "{}",
        ctx("add_mul_by_u")
    );
    assert_eq!(
        la.sub_mul_by_u(t, &lb).to_fp2(t),
        map2(a, b, S2::sub_mul_by_u),
        "{}",
        ctx("sub_mul_by_u")
    );
    assert_eq!(
        la.conjugate(t).to_fp2(t),
        map(a, S2::conjugate),
        "{}",
        ctx("conj")
    );
    let lk = Lanes8::from_fp(t, k);
    let want: [S2; 8] = core::array::from_fn(|i| a[i].mul_by_fp(&k[i]));
    assert_eq!(la.mul_by_fp(t, &lk).to_fp2(t), want, "{}", ctx("mul_by_fp"));
    let inv = map(a, |x| x.invert().unwrap_or(S2::ZERO));
    assert_eq!(la.invert(t).to_fp2(t), inv, "{}", ctx("invert"));
    let sel: [S2; 8] = core::array::from_fn(|i| if mask >> i & 1 == 1 { b[i] } else { a[i] });
    assert_eq!(
        Lanes8Fp2::select(t, mask, &la, &lb).to_fp2(t),
        sel,
        "{}",
        ctx("select")
    );
    let eq = (0..8).fold(0u8, |m, i| m | ((a[i] == b[i]) as u8) << i);
    assert_eq!(la.eq(t, &lb), eq, "{}", ctx("eq"));
}

fn check_fp4(t: Ifma, a: &[S4; 8], b: &[S4; 8], k: &[S2; 8]) {
    let (la, lb) = (Lanes8Fp4::from_fp4(t, a), Lanes8Fp4::from_fp4(t, b));
    let ctx = |op: &str| format!("Fp4 {op}: a = {a:?}, b = {b:?}");
    assert_eq!(la.to_fp4::<U64>(t), *a, "{}", ctx("round trip"));
    assert_eq!(
        la.add(t, &lb).to_fp4(t),
        map2(a, b, |x, y| x + y),
        "{}",
        ctx("add")
    );
    assert_eq!(
        la.sub(t, &lb).to_fp4(t),
        map2(a, b, |x, y| x - y),
        "{}",
        ctx("sub")
    );
    assert_eq!(
        la.mul(t, &lb).to_fp4(t),
        map2(a, b, |x, y| x * y),
        "{}",
        ctx("mul")
    );
    assert_eq!(la.neg(t).to_fp4(t), map(a, |x| -x), "{}", ctx("neg"));
    assert_eq!(
        la.double(t).to_fp4(t),
        map(a, S4::double),
        "{}",
        ctx("double")
    );
    assert_eq!(
        la.square(t).to_fp4(t),
        map(a, S4::square),
        "{}",
        ctx("square")
    );
    assert_eq!(
        la.mul_by_v(t).to_fp4(t),
        map(a, S4::mul_by_v),
        "{}",
        ctx("mul_by_v")
    );
    assert_eq!(
        la.add_mul_by_v(t, &lb).to_fp4(t),
        map2(a, b, S4::add_mul_by_v),
        "{}",
        ctx("add_mul_by_v")
    );
    assert_eq!(
        la.conjugate(t).to_fp4(t),
        map(a, S4::conjugate),
        "{}",
        ctx("conj")
    );
    let lk = Lanes8Fp2::from_fp2(t, k);
    let want: [S4; 8] = core::array::from_fn(|i| a[i].mul_by_fp2(&k[i]));
    assert_eq!(
        la.mul_by_fp2(t, &lk).to_fp4(t),
        want,
        "{}",
        ctx("mul_by_fp2")
    );
    let inv = map(a, |x| x.invert().unwrap_or(S4::ZERO));
    assert_eq!(la.invert(t).to_fp4(t), inv, "{}", ctx("invert"));
    let sel: [S4; 8] = core::array::from_fn(|i| if i % 3 == 0 { b[i] } else { a[i] });
    assert_eq!(
        Lanes8Fp4::select(t, 0b0100_1001, &la, &lb).to_fp4(t),
        sel,
        "{}",
        ctx("select")
    );
}

fn check_fp12(t: Ifma, a: &[S12; 8], b: &[S12; 8], l: &[[S2; 3]; 8]) {
    let (la, lb) = (Lanes8Fp12::from_fp12(t, a), Lanes8Fp12::from_fp12(t, b));
    let ctx = |op: &str| format!("Fp12 {op}: a = {a:?}, b = {b:?}");
    assert_eq!(la.to_fp12::<U64>(t), *a, "{}", ctx("round trip"));
    assert_eq!(
        la.mul(t, &lb).to_fp12(t),
        map2(a, b, |x, y| x * y),
        "{}",
        ctx("mul")
    );
    assert_eq!(
        la.square(t).to_fp12(t),
        map(a, S12::square),
        "{}",
        ctx("square")
    );
    assert_eq!(
        la.conjugate(t).to_fp12(t),
        map(a, S12::conjugate),
        "{}",
        ctx("conj")
    );
    for k in 0..12 {
        assert_eq!(
            la.frobenius_map(t, k).to_fp12(t),
            map(a, |x| x.frobenius_map(k)),
            "{}",
            ctx(&format!("frobenius_map({k})"))
        );
    }
    let inv = map(a, |x| x.invert().unwrap_or(S12::ZERO));
    assert_eq!(la.invert(t).to_fp12(t), inv, "{}", ctx("invert"));
    let lane = |j: usize| Lanes8Fp2::from_fp2(t, &core::array::from_fn(|i| l[i][j]));
    let want: [S12; 8] = core::array::from_fn(|i| a[i].mul_by_023(&l[i][0], &l[i][1], &l[i][2]));
    assert_eq!(
        la.mul_by_023(t, &lane(0), &lane(1), &lane(2)).to_fp12(t),
        want,
        "{}",
        ctx("mul_by_023")
    );
    let sel: [S12; 8] = core::array::from_fn(|i| if i >= 4 { b[i] } else { a[i] });
    assert_eq!(
        Lanes8Fp12::select(t, 0xf0, &la, &lb).to_fp12(t),
        sel,
        "{}",
        ctx("select")
    );
}

#[test]
fn tower_ops_match_scalar() {
    let Some(t) = token("tower_ops_match_scalar") else {
        return;
    };
    let mut rng = ChaCha20Rng::seed_from_u64(0x1a9e_5012);
    let edges = edges12(&mut rng);
    for _ in 0..60 {
        let a = inputs(&mut rng, &edges);
        let b = inputs(&mut rng, &edges);
        // GF(p²) and GF(p⁴) inputs from the coordinates of the GF(p¹²) ones (edges included).
        let k: [Fp<Sm9P, U64>; 8] = map(&b, |x| x.c1.c1.c0);
        check_fp2(
            t,
            &map(&a, |x| x.c0.c0),
            &map(&b, |x| x.c2.c1),
            &k,
            rng.next_u32() as u8,
        );
        check_fp2(t, &map(&a, |x| x.c1.c1), &map(&a, |x| x.c1.c1), &k, 0x0f);
        check_fp4(
            t,
            &map(&a, |x| x.c1),
            &map(&b, |x| x.c2),
            &map(&b, |x| x.c0.c1),
        );
        let l: [[S2; 3]; 8] = map(&b, |x| [x.c0.c0, x.c1.c1, x.c2.c0]);
        check_fp12(t, &a, &b, &l);
    }
}

/// A long chain of operations in lanes and in scalar code ends with the same values (catches
/// anything a single operation on fresh inputs would not, such as a non-canonical lane value
/// that only a later operation exposes).
#[test]
fn chained_ops_match_scalar() {
    let Some(t) = token("chained_ops_match_scalar") else {
        return;
    };
    let mut rng = ChaCha20Rng::seed_from_u64(77);
    let edges = edges12(&mut rng);
    let a = inputs(&mut rng, &edges);
    let b: [S12; 8] = core::array::from_fn(|_| S12::random(&mut rng));
    let lb = Lanes8Fp12::from_fp12(t, &b);
    // The same chain, lane by lane.
    let mut sa = a;
    let mut la = Lanes8Fp12::from_fp12(t, &a);
    for i in 0..40 {
        la = la
            .square(t)
            .mul(t, &lb)
            .frobenius_map(t, i % 4)
            .conjugate(t);
        sa = map2(&sa, &b, |x, y| {
            x.square().mul(y).frobenius_map(i % 4).conjugate()
        });
        if i % 10 == 9 {
            la = la.invert(t);
            sa = map(&sa, |x| x.invert().unwrap_or(S12::ZERO));
        }
    }
    assert_eq!(la.to_fp12::<U64>(t), sa);
    assert_eq!(Lanes8Fp12::one(t).to_fp12::<U64>(t), [S12::ONE; 8]);
}
