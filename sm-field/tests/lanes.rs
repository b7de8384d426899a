//! The eight-lane IFMA field type `Lanes8` against the scalar `Fp<M, U64>`, lane by lane, for all
//! four moduli: every operation on random values and on edge values (0, 1, 2, p − 1, p − 2,
//! values near 2^256 and near limb boundaries) at every lane position, with each input lane held
//! either as its representative below p or as the one in [p, 2p) (the lazy reduction lets lanes
//! hold either), and every result checked to keep the bound (limbs below 2^52, value below 2p).
//!
//! On a CPU without AVX-512 IFMA these tests fail unless the environment declares it absent
//! (`SM_EXPECT_IFMA=0`, which `cargo xtask test` sets from /proc/cpuinfo; see
//! `sm_testvectors::backend_runs_here`); then they pass without checking anything, saying so on
//! stderr.
#![cfg(all(target_arch = "x86_64", feature = "asm"))]

use num_bigint::BigUint;
use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm_field::lanes::{Ifma, Lanes8, Wide8};
use sm_field::{Fp, Limbs, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

type F<M> = Fp<M, U64>;

/// The token, or `None` where the CPU lacks IFMA and `SM_EXPECT_IFMA=0` declares it; panics
/// otherwise (`sm_testvectors::token_runs_here`).
fn token(test: &str) -> Option<Ifma> {
    sm_testvectors::token_runs_here(
        &format!("{test}: IFMA lanes"),
        Ifma::detect(),
        "SM_EXPECT_IFMA",
    )
}

/// Values below p that stress carries, limb boundaries and the final subtractions.
fn edges<M: Modulus>() -> Vec<F<M>> {
    let p = M::P;
    let minus = |k: u64| {
        let mut r = p;
        let mut borrow = k;
        for limb in r.iter_mut() {
            let (v, b) = limb.overflowing_sub(borrow);
            *limb = v;
            borrow = b as u64;
        }
        r
    };
    let m = u64::MAX;
    let candidates: [Limbs; 16] = [
        [0; 4],
        [1, 0, 0, 0],
        [2, 0, 0, 0],
        minus(1),
        minus(2),
        minus(3),
        [0, 0, 0, 1 << 63],
        [m, m, m, (1 << 63) - 1],
        [m, m, m, 0],
        [(1 << 52) - 1, 0, 0, 0],
        [1 << 52, 0, 0, 0],
        [m, (1 << 40) - 1, 0, 0],
        [0, 0, 0, 1 << 48],
        [0x5555_5555_5555_5555; 4],
        [m, m, m, p[3] - 1],
        [p[0], p[1], p[2], p[3] - 1],
    ];
    let mut out: Vec<F<M>> = candidates
        .into_iter()
        .filter_map(|c| Option::from(F::<M>::from_canonical_limbs(c)))
        .collect();
    // The same limbs as Montgomery residues (values whose R = 2^256 form is an edge).
    out.extend(
        candidates
            .into_iter()
            .filter_map(|c| Option::<F<M>>::from(F::<M>::from_mont_limbs(c))),
    );
    assert!(out.len() >= 28, "{}: {} edge values", M::NAME, out.len());
    out
}

fn lanes<M: Modulus>(t: Ifma, v: &[F<M>; 8]) -> Lanes8<M> {
    bounded(Lanes8::from_fp(t, v), "from_fp")
}

fn modulus<M: Modulus>() -> BigUint {
    M::P.iter()
        .rev()
        .fold(BigUint::ZERO, |acc, &w| (acc << 64u32) + BigUint::from(w))
}

/// Lane `i`'s representative as an integer.
fn representative<M: Modulus>(x: &Lanes8<M>, i: usize) -> BigUint {
    x.raw_limbs52()[i]
        .iter()
        .rev()
        .fold(BigUint::ZERO, |acc, &l| (acc << 52u32) + BigUint::from(l))
}

/// Bit `i` set where lane `i`'s representative is at least p.
fn above_p<M: Modulus>(x: &Lanes8<M>) -> u8 {
    (0..8).fold(0, |m, i| {
        m | ((representative(x, i) >= modulus::<M>()) as u8) << i
    })
}

/// `x` after asserting the lazy-reduction invariant: every limb below 2^52, every lane's
/// representative below 2p.
fn bounded<M: Modulus>(x: Lanes8<M>, what: &str) -> Lanes8<M> {
    let two_p = modulus::<M>() * 2u32;
    for (i, r) in x.raw_limbs52().iter().enumerate() {
        assert!(
            r.iter().all(|&l| l < 1 << 52),
            "{} {what}: lane {i} limbs {r:x?}",
            M::NAME
        );
        let v = representative(&x, i);
        assert!(v < two_p, "{} {what}: lane {i} = {v:x} ≥ 2p", M::NAME);
    }
    x
}

type Unary<'a, M> = &'a dyn Fn(&F<M>) -> F<M>;
type Binary<'a, M> = &'a dyn Fn(&F<M>, &F<M>) -> F<M>;

/// Every lane operation on inputs `a`, `b` (and mask `mask`) against the scalar field; the lanes
/// of `lift.0` (of `a`) and `lift.1` (of `b`) held as their representatives in [p, 2p).
fn check_all<M: Modulus>(t: Ifma, a: &[F<M>; 8], b: &[F<M>; 8], mask: u8, lift: (u8, u8)) {
    let la = bounded(lanes(t, a).lift_to_p_2p(t, lift.0), "lift a");
    let lb = bounded(lanes(t, b).lift_to_p_2p(t, lift.1), "lift b");
    let ctx = |op: &str| format!("{} {op}: a = {a:?}, b = {b:?}, lift {lift:?}", M::NAME);
    assert_eq!(la.to_fp::<U64>(t), *a, "{}", ctx("round trip"));
    assert_eq!(lb.to_fp::<U64>(t), *b, "{}", ctx("round trip"));
    assert_eq!((above_p(&la), above_p(&lb)), lift, "{}", ctx("lift"));
    let un = |f: Unary<M>| -> [F<M>; 8] { core::array::from_fn(|i| f(&a[i])) };
    let bin = |f: Binary<M>| -> [F<M>; 8] { core::array::from_fn(|i| f(&a[i], &b[i])) };
    assert_eq!(
        bounded(la.add(t, &lb), "op").to_fp(t),
        bin(&|x, y| x + y),
        "{}",
        ctx("add")
    );
    assert_eq!(
        bounded(la.sub(t, &lb), "op").to_fp(t),
        bin(&|x, y| x - y),
        "{}",
        ctx("sub")
    );
    assert_eq!(
        bounded(la.mul(t, &lb), "op").to_fp(t),
        bin(&|x, y| x * y),
        "{}",
        ctx("mul")
    );
    assert_eq!(
        bounded(la.neg(t), "neg").to_fp(t),
        un(&|x| -x),
        "{}",
        ctx("neg")
    );
    assert_eq!(
        bounded(la.double(t), "op").to_fp(t),
        un(&|x| x.double()),
        "{}",
        ctx("double")
    );
    let small = |k: u64| -> [F<M>; 8] { core::array::from_fn(|i| F::<M>::from_u64(k) * a[i]) };
    for (k, got) in [
        (2, la.mul_small::<2>(t)),
        (3, la.mul_small::<3>(t)),
        (4, la.mul_small::<4>(t)),
        (7, la.mul_small::<7>(t)),
        (8, la.mul_small::<8>(t)),
    ] {
        assert_eq!(
            bounded(got, "op").to_fp(t),
            small(k),
            "{}",
            ctx(&format!("{k}a"))
        );
    }
    // Linear combinations: the extreme coefficients and those of the SM2 point formulas, on
    // (a, b, a) and (b, a, b).
    let k = |v: i64| {
        let f = F::<M>::from_u64(v.unsigned_abs());
        if v < 0 {
            -f
        } else {
            f
        }
    };
    macro_rules! combinations {
        ($(($ka:literal, $kb:literal, $kc:literal)),*) => {$(
            for (x, y, lx, ly) in [(a, b, &la, &lb), (b, a, &lb, &la)] {
                let want: [F<M>; 8] = core::array::from_fn(|i| {
                    k($ka) * x[i] + k($kb) * y[i] + k($kc) * x[i]
                });
                let got = Lanes8::combine3::<$ka, $kb, $kc>(t, lx, ly, lx);
                let what = format!("{}·x + {}·y + {}·x", $ka, $kb, $kc);
                assert_eq!(bounded(got, &what).to_fp(t), want, "{}", ctx(&what));
            }
        )*};
    }
    combinations!(
        (1, 0, 0),
        (1, -8, 0),
        (4, -1, 0),
        (3, 3, 0),
        (2, -2, 0),
        (1, -1, -2),
        (1, -1, -1),
        (8, 8, 8),
        (8, -8, -8),
        (1, -8, 8),
        (5, 7, -3)
    );
    // Unreduced products: reduced alone (the limbs of `mul`/`square`) and combined.
    let (ab, aa) = (la.mul_wide(t, &lb), la.square_wide(t));
    assert_eq!(
        ab.reduce(t).raw_limbs52(),
        la.mul(t, &lb).raw_limbs52(),
        "{}",
        ctx("wide ab")
    );
    assert_eq!(
        aa.reduce(t).raw_limbs52(),
        la.square(t).raw_limbs52(),
        "{}",
        ctx("wide a²")
    );
    macro_rules! wide {
        ($(($ka:literal, $kb:literal)),*) => {$(
            let want: [F<M>; 8] =
                core::array::from_fn(|i| k($ka) * a[i] * b[i] + k($kb) * a[i].square());
            let what = format!("{}·ab + {}·a² (wide)", $ka, $kb);
            let got = Wide8::combine::<$ka, $kb>(t, &ab, &aa);
            assert_eq!(bounded(got, &what).to_fp(t), want, "{}", ctx(&what));
        )*};
    }
    wide!((1, -8), (1, -2), (1, 0), (3, 5), (8, 8), (8, -8), (1, -1));
    assert_eq!(
        bounded(Lanes8::combine::<2, -3>(t, &la, &lb), "op").to_fp(t),
        bin(&|x, y| x.double() - k(3) * y),
        "{}",
        ctx("2a − 3b")
    );
    assert_eq!(
        bounded(la.square(t), "op").to_fp(t),
        un(&|x| x.square()),
        "{}",
        ctx("square")
    );
    assert_eq!(
        la.square(t).raw_limbs52(),
        la.mul(t, &la).raw_limbs52(),
        "{}",
        ctx("square = mul(a, a), limb for limb")
    );
    let sel: [F<M>; 8] = core::array::from_fn(|i| if mask >> i & 1 == 1 { b[i] } else { a[i] });
    assert_eq!(
        bounded(Lanes8::select(t, mask, &la, &lb), "op").to_fp(t),
        sel,
        "{}",
        ctx("select")
    );
    let eq = (0..8).fold(0u8, |m, i| m | ((a[i] == b[i]) as u8) << i);
    assert_eq!(la.eq(t, &lb), eq, "{}", ctx("eq"));
    let z = (0..8).fold(0u8, |m, i| m | (bool::from(a[i].is_zero()) as u8) << i);
    assert_eq!(la.is_zero(t), z, "{}", ctx("is_zero"));
}

fn random_lanes<M: Modulus>(rng: &mut ChaCha20Rng) -> [F<M>; 8] {
    core::array::from_fn(|_| F::<M>::random(rng))
}

fn random_ops<M: Modulus>(t: Ifma, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for _ in 0..3000 {
        let a = random_lanes::<M>(&mut rng);
        let mut b = random_lanes::<M>(&mut rng);
        // Some lanes equal, for `eq`.
        let same = rng.next_u32() as u8;
        for i in 0..8 {
            if same >> i & 1 == 1 {
                b[i] = a[i];
            }
        }
        let lift = (rng.next_u32() as u8, rng.next_u32() as u8);
        check_all::<M>(t, &a, &b, rng.next_u32() as u8, lift);
    }
}

/// Every pair of edge values at every lane position (random neighbours), and all lanes equal.
fn edge_ops<M: Modulus>(t: Ifma, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let e = edges::<M>();
    for x in &e {
        for y in &e {
            let lane = (rng.next_u32() % 8) as usize;
            let mut a = random_lanes::<M>(&mut rng);
            let mut b = random_lanes::<M>(&mut rng);
            a[lane] = *x;
            b[lane] = *y;
            let lift = (rng.next_u32() as u8, rng.next_u32() as u8);
            check_all::<M>(t, &a, &b, rng.next_u32() as u8, lift);
            // All lanes equal, each input held both ways (0x0f/0x33: every pair of forms).
            check_all::<M>(t, &[*x; 8], &[*y; 8], 0x5a, (0x0f, 0x33));
        }
    }
}

fn constants_and_gathers<M: Modulus>(t: Ifma, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    assert_eq!(Lanes8::<M>::zero(t).to_fp::<U64>(t), [F::<M>::ZERO; 8]);
    assert_eq!(Lanes8::<M>::one(t).to_fp::<U64>(t), [F::<M>::ONE; 8]);
    let v = F::<M>::random(&mut rng);
    assert_eq!(Lanes8::splat(t, &v).to_fp::<U64>(t), [v; 8]);
    // A table of 13 lane values; every lane picks its own entry.
    let table: Vec<[F<M>; 8]> = (0..13).map(|_| random_lanes::<M>(&mut rng)).collect();
    let ltable: Vec<Lanes8<M>> = table.iter().map(|v| lanes(t, v)).collect();
    // The same values as raw limbs `junk ‖ mont ‖ junk`, stride 6.
    let raw: Vec<[[u64; 6]; 8]> = table
        .iter()
        .map(|v| {
            core::array::from_fn(|i| {
                let m = v[i].to_mont_limbs();
                [rng.next_u64(), m[0], m[1], m[2], m[3], rng.next_u64()]
            })
        })
        .collect();
    // Flattened: row e·8 + i holds element (e, lane i).
    let flat: Vec<[u64; 6]> = raw.iter().flatten().copied().collect();
    for _ in 0..500 {
        let idx: [usize; 8] = core::array::from_fn(|_| (rng.next_u32() % 13) as usize);
        let want: [F<M>; 8] = core::array::from_fn(|i| table[idx[i]][i]);
        assert_eq!(
            Lanes8::gather(t, &ltable, &idx).to_fp::<U64>(t),
            want,
            "{} gather {idx:?}",
            M::NAME
        );
        // The constant-time scan over a row `x ‖ y` (lane i's element as x, lane (i + 1) % 8's
        // as y); index 13 is out of range and gives zeros.
        let row: Vec<[u64; 8]> = table
            .iter()
            .map(|v| {
                let (x, y) = (v[0].to_mont_limbs(), v[1].to_mont_limbs());
                [x[0], x[1], x[2], x[3], y[0], y[1], y[2], y[3]]
            })
            .collect();
        let sidx: [u64; 8] = core::array::from_fn(|_| (rng.next_u32() % 14) as u64);
        let (sx, sy) = Lanes8::<M>::select_affine(t, &row, &sidx);
        let pick = |c: usize| -> [F<M>; 8] {
            core::array::from_fn(|i| table.get(sidx[i] as usize).map_or(F::<M>::ZERO, |v| v[c]))
        };
        assert_eq!(
            sx.to_fp::<U64>(t),
            pick(0),
            "{} select_affine x {sidx:?}",
            M::NAME
        );
        assert_eq!(
            sy.to_fp::<U64>(t),
            pick(1),
            "{} select_affine y {sidx:?}",
            M::NAME
        );
        let fidx: [usize; 8] = core::array::from_fn(|i| idx[i] * 8 + i);
        assert_eq!(
            Lanes8::<M>::gather_mont(t, &flat, &fidx, 1).to_fp::<U64>(t),
            want,
            "{} gather_mont {idx:?}",
            M::NAME
        );
    }
}

#[test]
#[should_panic(expected = "lane gather index out of range")]
fn gather_checks_bounds() {
    let Some(t) = token("gather_checks_bounds") else {
        panic!("lane gather index out of range (no IFMA: nothing to check)");
    };
    let table = [Lanes8::<Sm2P>::one(t); 3];
    let _ = Lanes8::gather(t, &table, &[0, 1, 2, 3, 0, 0, 0, 0]);
}

#[test]
#[should_panic(expected = "lane gather index out of range")]
fn gather_mont_checks_bounds() {
    let Some(t) = token("gather_mont_checks_bounds") else {
        panic!("lane gather index out of range (no IFMA: nothing to check)");
    };
    let table = [[0u64; 8]; 2];
    let _ = Lanes8::<Sm2P>::gather_mont(t, &table, &[0; 8], 5);
}

macro_rules! per_modulus {
    ($name:ident, $m:ty, $seed:expr) => {
        #[test]
        fn $name() {
            let Some(t) = token(stringify!($name)) else {
                return;
            };
            random_ops::<$m>(t, $seed);
            edge_ops::<$m>(t, $seed + 100);
            constants_and_gathers::<$m>(t, $seed + 200);
        }
    };
}

per_modulus!(sm2p_lanes, Sm2P, 1);
per_modulus!(sm2n_lanes, Sm2N, 2);
per_modulus!(sm9p_lanes, Sm9P, 3);
per_modulus!(sm9n_lanes, Sm9N, 4);
