//! The backend conformance suite (issue 17: one suite that every backend's tests and
//! `cargo xtask check` instantiate). Every function checks the limb backend `B` against `U64`
//! and, independently, against `num-bigint`, and panics with the operands on a mismatch; `n`
//! scales the random work (`sm-field/tests/backend_conformance.rs` runs 100 000, `cargo xtask
//! check --quick` 2 000).
//!
//! Each backend is checked limb for limb, on all four moduli, against `U64`, `U32` and
//! `num-bigint` (an independent reference):
//! * `n` random operand pairs per modulus, every 64th also against `num-bigint`;
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
//!   batched evaluation (one `mul_batch` call per product, of 54, 36, 39 or 6N GF(p) products,
//!   checked by the sm-field test that records the calls).
//!
#![allow(clippy::type_complexity)]

use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use sm_field::{Backend, Fp, Fp12, Fp2, Fp4, Limbs, Modulus, U32, U64};

// `U32` is the second reference of every scalar check: the dependency enables it.

/// `B` with the other formula family: every operation forwarded, [`Backend::BATCH`] negated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flip<B: Backend>(core::marker::PhantomData<fn() -> B>);

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

/// The integer of four little-endian 64-bit limbs (shared by the num-bigint references of the
/// sm-field tests and `cargo xtask check`).
pub fn big(l: &Limbs) -> BigUint {
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

/// `add`, `sub` and `mul` of one pair on backend `X`.
fn pair_ops<M: Modulus, X: Backend>(a: &Limbs, b: &Limbs) -> [Limbs; 3] {
    [X::add::<M>(a, b), X::sub::<M>(a, b), X::mul::<M>(a, b)]
}

/// `neg`, `double` and `square` of one element on backend `X`.
fn one_ops<M: Modulus, X: Backend>(a: &Limbs) -> [Limbs; 3] {
    [X::neg::<M>(a), X::double::<M>(a), X::square::<M>(a)]
}

/// `B` agrees with `U64` and `U32` on every operation of one pair.
fn check_pair<M: Modulus, B: Backend>(a: &Limbs, b: &Limbs) {
    let got = pair_ops::<M, B>(a, b);
    for (name, want) in [
        ("u64", pair_ops::<M, U64>(a, b)),
        ("u32", pair_ops::<M, U32>(a, b)),
    ] {
        assert_eq!(
            got,
            want,
            "{} vs {name}, {}: add/sub/mul {a:x?} {b:x?}",
            B::NAME,
            M::NAME
        );
    }
}

fn check_one<M: Modulus, B: Backend>(a: &Limbs) {
    let got = one_ops::<M, B>(a);
    for (name, want) in [("u64", one_ops::<M, U64>(a)), ("u32", one_ops::<M, U32>(a))] {
        assert_eq!(
            got,
            want,
            "{} vs {name}, {}: neg/double/square {a:x?}",
            B::NAME,
            M::NAME
        );
    }
    assert_eq!(
        got[2],
        B::mul::<M>(a, a),
        "{} {}: square vs mul",
        B::NAME,
        M::NAME
    );
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

/// `n` random operand pairs below p: every operation against `U64` and `U32`, every 64th pair
/// also against `num-bigint` (products, GF(p²) products).
pub fn random_pairs<M: Modulus, B: Backend>(seed: u64, n: usize) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for i in 0..n {
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

/// The adversarial operands (more than 500 per modulus) alone, in pairs, and mixed with `n`
/// random draws, against `U64`, `U32` and `num-bigint`.
pub fn edges<M: Modulus, B: Backend>(seed: u64, n: usize) {
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
    for _ in 0..n {
        let a = &adv[rng.next_u64() as usize % adv.len()];
        let b = &adv[rng.next_u64() as usize % adv.len()];
        let r = random_below::<M>(&mut rng);
        check_pair::<M, B>(a, b);
        check_pair::<M, B>(a, &r);
        check_pair::<M, B>(&r, b);
    }
}

/// `n / 5` dependent steps (products, squares, sums, negations) on `B` and `U64` side by side:
/// a result congruent but not fully reduced would make them diverge.
pub fn chains<M: Modulus, B: Backend>(seed: u64, n: usize) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (mut x, mut y) = (random_below::<M>(&mut rng), random_below::<M>(&mut rng));
    let (mut u, mut v) = (x, y);
    for i in 0..n / 5 {
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
pub fn field_ops<M: Modulus, B: Backend>(seed: u64) {
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
        let vb = b.invert_vartime().unwrap();
        assert_eq!(vb, ib, "{} invert_vartime", M::NAME);
        // Half of the random elements are non-squares: both backends say so.
        let (ra, rb) = (a.sqrt(), b.sqrt());
        assert_eq!(
            bool::from(ra.is_some()),
            bool::from(rb.is_some()),
            "{} sqrt?",
            M::NAME
        );
        assert_eq!(
            ra.unwrap_or(Fp::ZERO).to_mont_limbs(),
            rb.unwrap_or(Fp::ZERO).to_mont_limbs(),
            "{} sqrt of a random element",
            M::NAME
        );
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

/// `mul_batch` for every length 0…20, random batches up to `n` products in all, every edge pair
/// in every lane of a group of eight, mismatched slice lengths.
pub fn batches<M: Modulus, B: Backend>(seed: u64, n: usize) {
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
    while done < n {
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
/// limbs (`n / 3000 + 1` random operand triples).
pub fn tower<B: Backend>(seed: u64, n: usize) {
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
    for _ in 0..n / 3000 + 1 {
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

/// Every check on the modulus `M` for the backend `B`: random pairs, adversarial operands,
/// dependent chains, the `Fp` algorithms and batched products (seeds `seed` … `seed + 4`).
pub fn modulus<M: Modulus, B: Backend>(seed: u64, n: usize) {
    random_pairs::<M, B>(seed, n);
    edges::<M, B>(seed + 1, n);
    chains::<M, B>(seed + 2, n);
    field_ops::<M, B>(seed + 3);
    batches::<M, B>(seed + 4, n);
}
