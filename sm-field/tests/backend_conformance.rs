//! One conformance suite for every limb backend, instantiated per backend type by name
//! (`suite!(module, Type, runs_here, env)`), replacing the per-backend copies.
//!
//! Each backend is checked limb for limb, on all four moduli, against `U64` (and `U32` when
//! compiled) and against `num-bigint` (an independent reference):
//! * random operand pairs (100 000 per modulus; 50 000 on aarch64, which runs under QEMU), every
//!   64th also against `num-bigint`;
//! * adversarial operands: per-limb combinations of {0, 1, 2, 2^63, all ones, all ones − 1,
//!   p_i − 1, p_i, p_i + 1} below p, p − k, single bits, all-ones limbs, R, R², R³;
//! * the GF(p²) product kernel (`mul_fp2`) on random and adversarial coefficient pairs against
//!   `num-bigint` and `U64`'s default formula;
//! * long dependent chains (a result congruent but not fully reduced would diverge);
//! * the `Fp` algorithms on top (inversion, square roots, exponentiation, encodings);
//! * `mul_batch` for every length 0…20, random batches of lengths 1…70, every edge pair in every
//!   lane of a group of eight, mismatched slice lengths;
//! * the tower products (`Fp12::mul`, `square`, `mul_by_023`, `Fp4::square_batch`) on the
//!   backend and on [`Flip<B>`] (the same backend with the other [`Backend::BATCH`]), i.e. the
//!   batched and the direct evaluation of the same formulas, against `U64`, and the shape of the
//!   batched evaluation (one `mul_batch` call per product, of 54, 36, 39 or 6N GF(p) products).
//!
//! A backend the CPU lacks **fails** its tests unless the environment declares the CPU's lack
//! (`SM_EXPECT_MULX=0`, `SM_EXPECT_IFMA=0`; `cargo xtask test` sets them from /proc/cpuinfo):
//! never a silent skip (`sm_testvectors::backend_runs_here`, which prints whether it ran).
#![allow(clippy::type_complexity)]

use std::io::Write;

use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use sm_field::{Backend, Fp, Fp12, Fp2, Fp4, Limbs, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

const RANDOM_PAIRS: usize = if cfg!(target_arch = "aarch64") {
    50_000
} else {
    100_000
};

/// `B` with the other formula family: every operation forwarded, [`Backend::BATCH`] negated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Flip<B: Backend>(core::marker::PhantomData<fn() -> B>);

impl<B: Backend> Backend for Flip<B> {
    const NAME: &'static str = "flip";
    const BATCH: bool = !B::BATCH;
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        B::add::<M>(a, b)
    }
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        B::sub::<M>(a, b)
    }
    fn neg<M: Modulus>(a: &Limbs) -> Limbs {
        B::neg::<M>(a)
    }
    fn double<M: Modulus>(a: &Limbs) -> Limbs {
        B::double::<M>(a)
    }
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        B::mul::<M>(a, b)
    }
    fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
        B::mul_batch::<M>(a, b, out)
    }
    fn square<M: Modulus>(a: &Limbs) -> Limbs {
        B::square::<M>(a)
    }
    fn mul_fp2<M: Modulus>(a: &[Limbs; 2], b: &[Limbs; 2]) -> [Limbs; 2] {
        B::mul_fp2::<M>(a, b)
    }
}

fn big(l: &Limbs) -> BigUint {
    BigUint::from_slice(&[
        l[0] as u32,
        (l[0] >> 32) as u32,
        l[1] as u32,
        (l[1] >> 32) as u32,
        l[2] as u32,
        (l[2] >> 32) as u32,
        l[3] as u32,
        (l[3] >> 32) as u32,
    ])
}

fn limbs(v: &BigUint) -> Limbs {
    let d = v.to_u64_digits();
    core::array::from_fn(|i| d.get(i).copied().unwrap_or(0))
}

fn below<M: Modulus>(a: &Limbs) -> bool {
    (0..4)
        .rev()
        .find(|&i| a[i] != M::P[i])
        .is_some_and(|i| a[i] < M::P[i])
}

fn random_below<M: Modulus>(rng: &mut ChaCha20Rng) -> Limbs {
    loop {
        let a = [
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ];
        if below::<M>(&a) {
            return a;
        }
    }
}

/// Values below p that stress carries and the final reduction.
fn adversarial<M: Modulus>() -> Vec<Limbs> {
    let mut out = Vec::new();
    let cands = |i: usize| {
        [
            0,
            1,
            2,
            1 << 63,
            u64::MAX,
            u64::MAX - 1,
            M::P[i],
            M::P[i].wrapping_sub(1),
            M::P[i].wrapping_add(1),
        ]
    };
    for a in cands(0) {
        for b in cands(1) {
            for c in cands(2) {
                for d in cands(3) {
                    let v = [a, b, c, d];
                    if below::<M>(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    let p = big(&M::P);
    for k in 1u32..=64 {
        out.push(limbs(&(&p - k)));
    }
    for k in 0..256 {
        let mut v = [0u64; 4];
        v[k / 64] = 1 << (k % 64);
        if below::<M>(&v) {
            out.push(v);
        }
    }
    let m = u64::MAX;
    out.extend([
        [m, m, m, M::P[3] - 1],
        [m, m, m, 0],
        [m, 0, m, 0],
        [(1 << 52) - 1, 0, 0, 0],
        [m, (1 << 40) - 1, 0, 0],
        [0x5555_5555_5555_5555; 4],
        M::R,
        M::R2,
        M::R3,
    ]);
    out.retain(below::<M>);
    out
}

/// `B` agrees with `U64` (and `U32` when compiled) on every operation of one pair.
fn check_pair<M: Modulus, B: Backend>(a: &Limbs, b: &Limbs) {
    let n = B::NAME;
    let got = [B::add::<M>(a, b), B::sub::<M>(a, b), B::mul::<M>(a, b)];
    let want = [
        U64::add::<M>(a, b),
        U64::sub::<M>(a, b),
        U64::mul::<M>(a, b),
    ];
    assert_eq!(
        got,
        want,
        "{n} vs u64, {}: add/sub/mul {a:x?} {b:x?}",
        M::NAME
    );
    #[cfg(feature = "u32")]
    {
        use sm_field::U32;
        let want = [
            U32::add::<M>(a, b),
            U32::sub::<M>(a, b),
            U32::mul::<M>(a, b),
        ];
        assert_eq!(
            got,
            want,
            "{n} vs u32, {}: add/sub/mul {a:x?} {b:x?}",
            M::NAME
        );
    }
}

fn check_one<M: Modulus, B: Backend>(a: &Limbs) {
    let n = B::NAME;
    let got = [B::neg::<M>(a), B::double::<M>(a), B::square::<M>(a)];
    let want = [U64::neg::<M>(a), U64::double::<M>(a), U64::square::<M>(a)];
    assert_eq!(
        got,
        want,
        "{n} vs u64, {}: neg/double/square {a:x?}",
        M::NAME
    );
    assert_eq!(got[2], B::mul::<M>(a, a), "{n} {}: square vs mul", M::NAME);
    #[cfg(feature = "u32")]
    {
        use sm_field::U32;
        let want = [U32::neg::<M>(a), U32::double::<M>(a), U32::square::<M>(a)];
        assert_eq!(
            got,
            want,
            "{n} vs u32, {}: neg/double/square {a:x?}",
            M::NAME
        );
    }
}

/// `R^-1 = 2^-256 mod p`.
fn r_inv(p: &BigUint) -> BigUint {
    BigUint::from(2u8)
        .modpow(&BigUint::from(256u32), p)
        .modpow(&(p - 2u8), p)
}

/// Independent of every backend: `a·b·2^-256 mod p`, `a ± b mod p`, `-a mod p` by `num-bigint`.
fn check_bigint<M: Modulus, B: Backend>(a: &Limbs, b: &Limbs) {
    let p = big(&M::P);
    let (x, y) = (big(a), big(b));
    let r_inv = r_inv(&p);
    let name = format!("{} {}", B::NAME, M::NAME);
    assert_eq!(big(&B::add::<M>(a, b)), (&x + &y) % &p, "{name} add");
    assert_eq!(big(&B::sub::<M>(a, b)), (&x + &p - &y) % &p, "{name} sub");
    assert_eq!(big(&B::neg::<M>(a)), (&p - &x) % &p, "{name} neg");
    assert_eq!(big(&B::mul::<M>(a, b)), &x * &y * &r_inv % &p, "{name} mul");
    assert_eq!(
        big(&B::square::<M>(a)),
        &x * &x * &r_inv % &p,
        "{name} square"
    );
}

/// The GF(p²) product (`mul_fp2`, u² = −2) of `[a, b]` by `[b, a]`, by itself, and of
/// `[a, a]` by `[b, b]`, against `num-bigint` and against `U64`'s (the default formula).
fn check_fp2<M: Modulus, B: Backend>(a: &Limbs, b: &Limbs) {
    let p = big(&M::P);
    let (x, y) = (big(a), big(b));
    let r_inv = r_inv(&p);
    // (x0 + x1·u)(y0 + y1·u) = (x0·y0 − 2·x1·y1) + (x0·y1 + x1·y0)·u, times R^-1.
    let want = |x0: &BigUint, x1: &BigUint, y0: &BigUint, y1: &BigUint| {
        let c0 = (x0 * y0 + (&p - x1 * y1 % &p) * 2u8) % &p * &r_inv % &p;
        let c1 = (x0 * y1 + x1 * y0) % &p * &r_inv % &p;
        [c0, c1]
    };
    let name = format!("{} {}", B::NAME, M::NAME);
    let cases = [
        ([*a, *b], [*b, *a], want(&x, &y, &y, &x)),
        ([*a, *b], [*a, *b], want(&x, &y, &x, &y)),
        ([*a, *a], [*b, *b], want(&x, &x, &y, &y)),
    ];
    for (u, v, w) in &cases {
        let got = B::mul_fp2::<M>(u, v);
        assert_eq!(got.map(|c| big(&c)), *w, "{name} mul_fp2 {u:x?} {v:x?}");
        assert_eq!(got, U64::mul_fp2::<M>(u, v), "{name} mul_fp2 vs u64");
    }
}

fn random_pairs<M: Modulus, B: Backend>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for i in 0..RANDOM_PAIRS {
        let a = random_below::<M>(&mut rng);
        let b = random_below::<M>(&mut rng);
        check_pair::<M, B>(&a, &b);
        check_one::<M, B>(&a);
        if i % 64 == 0 {
            check_bigint::<M, B>(&a, &b);
            check_fp2::<M, B>(&a, &b);
        }
    }
}

fn edges<M: Modulus, B: Backend>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let adv = adversarial::<M>();
    assert!(adv.len() > 500, "{}: {} edge values", M::NAME, adv.len());
    for a in &adv {
        check_one::<M, B>(a);
    }
    let step = adv.len() / 120 + 1;
    for a in adv.iter().step_by(step) {
        for b in adv.iter().step_by(step) {
            check_pair::<M, B>(a, b);
            check_bigint::<M, B>(a, b);
            check_fp2::<M, B>(a, b);
        }
    }
    for _ in 0..RANDOM_PAIRS {
        let a = &adv[rng.next_u64() as usize % adv.len()];
        let b = &adv[rng.next_u64() as usize % adv.len()];
        let r = random_below::<M>(&mut rng);
        check_pair::<M, B>(a, b);
        check_pair::<M, B>(a, &r);
        check_pair::<M, B>(&r, b);
    }
}

fn chains<M: Modulus, B: Backend>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (mut x, mut y) = (random_below::<M>(&mut rng), random_below::<M>(&mut rng));
    let (mut u, mut v) = (x, y);
    for i in 0..20_000 {
        x = B::mul::<M>(&x, &y);
        u = U64::mul::<M>(&u, &v);
        y = B::add::<M>(&B::square::<M>(&y), &x);
        v = U64::add::<M>(&U64::square::<M>(&v), &u);
        if i % 5 == 0 {
            x = B::sub::<M>(&B::neg::<M>(&x), &y);
            u = U64::sub::<M>(&U64::neg::<M>(&u), &v);
        }
        assert_eq!((x, y), (u, v), "{} {} chain step {i}", B::NAME, M::NAME);
        assert!(below::<M>(&x) && below::<M>(&y), "{} unreduced", M::NAME);
    }
}

/// Whole `Fp` algorithms on `B` equal those on `U64` (inversion, sqrt, pow, encodings).
fn field_ops<M: Modulus, B: Backend>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for _ in 0..300 {
        let mut bytes = [0u8; 64];
        rng.fill_bytes(&mut bytes);
        let a = Fp::<M, U64>::from_wide_bytes(&bytes);
        let b = Fp::<M, B>::from_wide_bytes(&bytes);
        assert_eq!(a.to_mont_limbs(), b.to_mont_limbs(), "{} wide", M::NAME);
        assert_eq!(a.to_bytes(), b.to_bytes(), "{} encoding", M::NAME);
        assert_eq!(a.to_backend::<B>(), b);
        let e = rng.next_u64();
        assert_eq!(
            a.pow_vartime(&[e, 0, 0, 0]).to_mont_limbs(),
            b.pow_vartime(&[e, 0, 0, 0]).to_mont_limbs(),
            "{} pow",
            M::NAME
        );
        let k = [
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
            rng.next_u64(),
        ];
        assert_eq!(
            a.pow(&k).to_mont_limbs(),
            b.pow(&k).to_mont_limbs(),
            "{} ct pow",
            M::NAME
        );
        let (ia, ib) = (a.invert().unwrap(), b.invert().unwrap());
        assert_eq!(ia.to_mont_limbs(), ib.to_mont_limbs(), "{} invert", M::NAME);
        assert_eq!(b * ib, Fp::ONE, "{} a·a^-1", M::NAME);
        let sa = a.square().sqrt().unwrap();
        let sb = b.square().sqrt().unwrap();
        assert_eq!(sa.to_mont_limbs(), sb.to_mont_limbs(), "{} sqrt", M::NAME);
        assert!(sb == b || sb == -b, "{} sqrt root", M::NAME);
        assert_eq!(bool::from(a.is_square()), bool::from(b.is_square()));
    }
    assert!(bool::from(Fp::<M, B>::ZERO.invert().is_none()));
}

/// `B::mul_batch` equals `U64::mul` pair by pair; slots past the shortest slice stay untouched.
fn check_batch<M: Modulus, B: Backend>(a: &[Limbs], b: &[Limbs]) {
    let mut out = vec![[0xDEAD_BEEF; 4]; a.len().max(b.len()) + 1];
    B::mul_batch::<M>(a, b, &mut out);
    let n = a.len().min(b.len());
    for i in 0..n {
        assert_eq!(
            out[i],
            U64::mul::<M>(&a[i], &b[i]),
            "{} {}: lane {i} of {n}: {:x?} · {:x?}",
            B::NAME,
            M::NAME,
            a[i],
            b[i]
        );
    }
    assert!(
        out[n..].iter().all(|o| *o == [0xDEAD_BEEF; 4]),
        "{} wrote past {n}",
        B::NAME
    );
}

fn batches<M: Modulus, B: Backend>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let rand = |rng: &mut ChaCha20Rng, n: usize| -> Vec<Limbs> {
        (0..n).map(|_| random_below::<M>(rng)).collect()
    };
    // Every length 0…20 (below, at and above the IFMA threshold and group of eight).
    for len in 0..=20 {
        let (a, b) = (rand(&mut rng, len), rand(&mut rng, len));
        check_batch::<M, B>(&a, &b);
    }
    // Mismatched lengths: the shortest slice decides.
    let (a, b) = (rand(&mut rng, 20), rand(&mut rng, 17));
    check_batch::<M, B>(&a, &b);
    check_batch::<M, B>(&b, &a);
    let mut out = vec![[7u64; 4]; 9];
    B::mul_batch::<M>(&a, &b, &mut out);
    assert_eq!(
        out,
        (0..9)
            .map(|i| U64::mul::<M>(&a[i], &b[i]))
            .collect::<Vec<_>>()
    );
    // ≥ 10^5 random products in batches of lengths 1…70 (cycled).
    let (mut done, mut len) = (0, 1);
    while done < RANDOM_PAIRS {
        let (a, b) = (rand(&mut rng, len), rand(&mut rng, len));
        check_batch::<M, B>(&a, &b);
        done += len;
        len = len % 70 + 1;
    }
    // Every pair of edge values at every lane of a group of eight, all lanes equal, and as a
    // partial group.
    let adv = adversarial::<M>();
    let e: Vec<Limbs> = adv.iter().step_by(adv.len() / 24 + 1).copied().collect();
    assert!(e.len() >= 20, "{} edge values", e.len());
    for x in &e {
        for y in &e {
            for lane in 0..8 {
                let (mut a, mut b) = (rand(&mut rng, 8), rand(&mut rng, 8));
                a[lane] = *x;
                b[lane] = *y;
                check_batch::<M, B>(&a, &b);
            }
            check_batch::<M, B>(&[*x; 8], &[*y; 8]);
            check_batch::<M, B>(&[*x; 5], &[*y; 5]);
        }
    }
}

/// The tower products on `B`, on `Flip<B>` (the other formula family) and on `U64` give the same
/// limbs.
fn tower<B: Backend>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    fn products<C: Backend>(
        x: &Fp12<C>,
        y: &Fp12<C>,
        l: &[Fp2<C>; 3],
    ) -> (Fp12<U64>, Fp12<U64>, Fp12<U64>, [Fp4<U64>; 3]) {
        let s = Fp4::square_batch(&[x.c0, x.c1, x.c2]);
        (
            x.mul(y).to_backend(),
            x.square().to_backend(),
            x.mul_by_023(&l[0], &l[1], &l[2]).to_backend(),
            s.map(|v| v.to_backend()),
        )
    }
    assert_ne!(B::BATCH, Flip::<B>::BATCH);
    for _ in 0..30 {
        let x = Fp12::<U64>::random(&mut rng);
        let y = Fp12::<U64>::random(&mut rng);
        let l: [Fp2<U64>; 3] = core::array::from_fn(|_| Fp2::random(&mut rng));
        let want = products(&x, &y, &l);
        // Reference values, independent of the formulas: the squaring against the product.
        assert_eq!(want.1, x.mul(&x));
        assert_eq!(want.3[1], x.c1.mul(&x.c1));
        let on_b = products(
            &x.to_backend::<B>(),
            &y.to_backend(),
            &l.map(|v| v.to_backend()),
        );
        let flipped = products(
            &x.to_backend::<Flip<B>>(),
            &y.to_backend(),
            &l.map(|v| v.to_backend()),
        );
        assert_eq!(on_b, want, "{} (BATCH = {}) vs u64", B::NAME, B::BATCH);
        assert_eq!(flipped, want, "{} (BATCH = {}) vs u64", B::NAME, !B::BATCH);
    }
}

/// `U64` with a fixed [`Backend::BATCH`] that records, per thread, the length of every
/// `mul_batch` call and the number of single products.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Recording<const BATCH: bool>;

thread_local! {
    static BATCHES: core::cell::RefCell<Vec<usize>> = const { core::cell::RefCell::new(Vec::new()) };
    static SINGLES: core::cell::Cell<usize> = const { core::cell::Cell::new(0) };
}

impl<const BATCH: bool> Backend for Recording<BATCH> {
    const NAME: &'static str = "recording";
    const BATCH: bool = BATCH;
    fn add<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        U64::add::<M>(a, b)
    }
    fn sub<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        U64::sub::<M>(a, b)
    }
    fn mul<M: Modulus>(a: &Limbs, b: &Limbs) -> Limbs {
        SINGLES.with(|s| s.set(s.get() + 1));
        U64::mul::<M>(a, b)
    }
    fn mul_batch<M: Modulus>(a: &[Limbs], b: &[Limbs], out: &mut [Limbs]) {
        BATCHES.with(|v| v.borrow_mut().push(out.len().min(a.len()).min(b.len())));
        U64::mul_batch::<M>(a, b, out)
    }
}

/// `(batch lengths, single products)` of `f` on this thread.
fn recorded(f: impl FnOnce()) -> (Vec<usize>, usize) {
    BATCHES.with(|v| v.borrow_mut().clear());
    SINGLES.with(|s| s.set(0));
    f();
    (BATCHES.with(|v| v.take()), SINGLES.with(|s| s.get()))
}

/// The shape of the tower products' evaluation: with batches, all GF(p) products of one formula
/// in one `mul_batch` call (`Fp12::mul` 54, `square` 36, `mul_by_023` 39, `Fp4::square_batch`
/// 6 per element) and no single product; without, the same counts as single products.
#[test]
fn tower_product_staging() {
    fn shapes<C: Backend>() -> [(Vec<usize>, usize); 5] {
        let mut rng = ChaCha20Rng::seed_from_u64(6000);
        let x = Fp12::<U64>::random(&mut rng).to_backend::<C>();
        let y = Fp12::<U64>::random(&mut rng).to_backend::<C>();
        let l: [Fp2<C>; 3] = core::array::from_fn(|_| Fp2::<U64>::random(&mut rng).to_backend());
        [
            recorded(|| {
                core::hint::black_box(x.mul(&y));
            }),
            recorded(|| {
                core::hint::black_box(x.square());
            }),
            recorded(|| {
                core::hint::black_box(x.mul_by_023(&l[0], &l[1], &l[2]));
            }),
            recorded(|| {
                core::hint::black_box(Fp4::square_batch(&[x.c0, x.c1, x.c2]));
            }),
            recorded(|| {
                core::hint::black_box(Fp4::square_batch(&[x.c1, x.c2]));
            }),
        ]
    }
    let counts = [54, 36, 39, 18, 12];
    let batched = shapes::<Recording<true>>();
    let direct = shapes::<Recording<false>>();
    for i in 0..counts.len() {
        assert_eq!(batched[i], (vec![counts[i]], 0), "product {i}, batched");
        assert_eq!(direct[i], (vec![], counts[i]), "product {i}, direct");
    }
}

macro_rules! suite {
    ($name:ident, $B:ty, $runs_here:expr, $env:expr) => {
        mod $name {
            use super::*;
            type B = $B;
            fn go() -> bool {
                match $env {
                    Some(env) => sm_testvectors::backend_runs_here(stringify!($B), $runs_here, env),
                    None => true,
                }
            }
            macro_rules! per_modulus {
                ($m:ident, $M:ty, $seed:literal) => {
                    mod $m {
                        use super::*;
                        #[test]
                        fn random_inputs() {
                            if go() {
                                random_pairs::<$M, B>($seed);
                            }
                        }
                        #[test]
                        fn adversarial_inputs() {
                            if go() {
                                edges::<$M, B>($seed + 1);
                            }
                        }
                        #[test]
                        fn dependent_chains() {
                            if go() {
                                chains::<$M, B>($seed + 2);
                            }
                        }
                        #[test]
                        fn fp_algorithms() {
                            if go() {
                                field_ops::<$M, B>($seed + 3);
                            }
                        }
                        #[test]
                        fn batched_products() {
                            if go() {
                                batches::<$M, B>($seed + 4);
                            }
                        }
                    }
                };
            }
            per_modulus!(sm2_p, Sm2P, 1000);
            per_modulus!(sm2_n, Sm2N, 2000);
            per_modulus!(sm9_p, Sm9P, 3000);
            per_modulus!(sm9_n, Sm9N, 4000);
            #[test]
            fn tower_batch_on_and_off() {
                if go() {
                    tower::<B>(5000);
                }
            }
        }
    };
}

suite!(u64_backend, U64, true, None::<&str>);
#[cfg(feature = "u32")]
suite!(u32_backend, sm_field::U32, true, None::<&str>);
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
suite!(
    mulx_backend,
    sm_field::Mulx,
    sm_field::backend::cpu::has_mulx_adx(),
    Some("SM_EXPECT_MULX")
);
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
suite!(
    mulx_ifma_backend,
    sm_field::MulxIfma,
    sm_field::backend::cpu::has_mulx_adx() && sm_field::backend::cpu::has_ifma(),
    Some("SM_EXPECT_IFMA")
);
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
suite!(auto_backend, sm_field::Auto, true, None::<&str>);
#[cfg(all(feature = "asm", target_arch = "aarch64"))]
suite!(aarch64_backend, sm_field::Aarch64, true, None::<&str>);

/// `Auto`'s dispatch runs a job on the type the probe names, and says which (printed).
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
#[test]
fn auto_dispatch_follows_the_probe() {
    use sm_field::backend::cpu::{self, Kernels};
    use sm_field::{Auto, Job};
    struct Name;
    impl Job for Name {
        type Output = (&'static str, bool);
        fn run<B2: Backend>(self) -> Self::Output {
            (B2::NAME, B2::BATCH)
        }
    }
    let got = Auto::dispatch(Name);
    let want = match cpu::kernels() {
        Kernels::MulxIfma => ("mulx-ifma", true),
        Kernels::Mulx => ("mulx", false),
        Kernels::Portable => ("u64", false),
    };
    writeln!(
        std::io::stderr(),
        "sm-field conformance: Auto dispatches to {} (BATCH = {})",
        got.0,
        got.1
    )
    .expect("stderr");
    assert_eq!(got, want);
    // A pure backend runs the job itself.
    assert_eq!(U64::dispatch(Name), ("u64", false));
    assert_eq!(sm_field::Mulx::dispatch(Name), ("mulx", false));
    // The probe agrees with /proc/cpuinfo where the OS lists the flags.
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    if let Some(flags) = cpuinfo.lines().find(|l| l.starts_with("flags")) {
        let listed = |f: &str| flags.split_whitespace().any(|w| w == f);
        assert_eq!(cpu::has_mulx_adx(), listed("bmi2") && listed("adx"));
        assert_eq!(cpu::has_ifma(), listed("avx512f") && listed("avx512ifma"));
    }
}

/// Feature `asm` makes `Asm` the default unless `--cfg sm_backend=...` forces another.
#[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
#[test]
fn asm_is_the_default() {
    #[cfg(not(sm_backend))]
    assert_eq!(<sm_field::DefaultBackend as Backend>::NAME, "asm");
    assert_eq!(<sm_field::Asm as Backend>::NAME, "asm");
    const { assert!(!<sm_field::Asm as Backend>::BATCH) };
}
