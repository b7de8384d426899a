//! The `asm` backend against the portable `u64` backend, limb for limb: at least 100 000 random
//! operand pairs per operation and modulus, plus adversarial inputs (values next to p, limbs all
//! ones below p, operands whose sums and products carry through every limb).
#![cfg(all(feature = "asm", target_arch = "x86_64"))]

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use sm_field::{Asm, Backend, Limbs, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

const RANDOM_PAIRS: usize = 100_000;

fn below<M: Modulus>(a: &Limbs) -> bool {
    for i in (0..4).rev() {
        if a[i] != M::P[i] {
            return a[i] < M::P[i];
        }
    }
    false
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

/// `p - k` for small k.
fn p_minus<M: Modulus>(k: u64) -> Limbs {
    let mut r = M::P;
    let mut borrow = k;
    for limb in r.iter_mut() {
        let (v, b) = limb.overflowing_sub(borrow);
        *limb = v;
        borrow = b as u64;
    }
    r
}

/// Every combination of per-limb candidates {0, 1, 2^63, all ones, p_i − 1, p_i, p_i + 1} that is
/// below p, plus p − k for small k and 2^k.
fn adversarial<M: Modulus>() -> Vec<Limbs> {
    let mut out = Vec::new();
    let cands = |i: usize| {
        [
            0,
            1,
            1 << 63,
            u64::MAX,
            M::P[i].wrapping_sub(1),
            M::P[i],
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
    for k in 1..=64 {
        out.push(p_minus::<M>(k));
    }
    for k in 0..256 {
        let mut v = [0u64; 4];
        v[k / 64] = 1 << (k % 64);
        if below::<M>(&v) {
            out.push(v);
        }
    }
    // Limbs all ones below the top one (which stays below p's top limb).
    out.push([u64::MAX, u64::MAX, u64::MAX, M::P[3] - 1]);
    out.push([u64::MAX, u64::MAX, u64::MAX, 0]);
    out.push(M::R);
    out.push(M::R2);
    out
}

fn check_pair<M: Modulus>(a: &Limbs, b: &Limbs) {
    assert_eq!(
        Asm::add::<M>(a, b),
        U64::add::<M>(a, b),
        "{} add {a:x?} {b:x?}",
        M::NAME
    );
    assert_eq!(
        Asm::sub::<M>(a, b),
        U64::sub::<M>(a, b),
        "{} sub {a:x?} {b:x?}",
        M::NAME
    );
    assert_eq!(
        Asm::mul::<M>(a, b),
        U64::mul::<M>(a, b),
        "{} mul {a:x?} {b:x?}",
        M::NAME
    );
}

fn check_one<M: Modulus>(a: &Limbs) {
    assert_eq!(Asm::neg::<M>(a), U64::neg::<M>(a), "{} neg {a:x?}", M::NAME);
    assert_eq!(
        Asm::double::<M>(a),
        U64::double::<M>(a),
        "{} double {a:x?}",
        M::NAME
    );
    assert_eq!(
        Asm::square::<M>(a),
        U64::square::<M>(a),
        "{} square {a:x?}",
        M::NAME
    );
    assert_eq!(
        Asm::square::<M>(a),
        Asm::mul::<M>(a, a),
        "{} square vs mul {a:x?}",
        M::NAME
    );
}

fn random<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for _ in 0..RANDOM_PAIRS {
        let a = random_below::<M>(&mut rng);
        let b = random_below::<M>(&mut rng);
        check_pair::<M>(&a, &b);
        check_one::<M>(&a);
    }
}

fn edges<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let adv = adversarial::<M>();
    assert!(
        adv.len() > 300,
        "{} adversarial set too small: {}",
        M::NAME,
        adv.len()
    );
    for a in &adv {
        check_one::<M>(a);
    }
    // All pairs of a spread-out subset, then random pairs from the whole set and mixed with
    // random values.
    let step = adv.len() / 150 + 1;
    for a in adv.iter().step_by(step) {
        for b in adv.iter().step_by(step) {
            check_pair::<M>(a, b);
        }
    }
    for _ in 0..RANDOM_PAIRS {
        let a = &adv[rng.next_u64() as usize % adv.len()];
        let b = &adv[rng.next_u64() as usize % adv.len()];
        check_pair::<M>(a, b);
        let r = random_below::<M>(&mut rng);
        check_pair::<M>(a, &r);
        check_pair::<M>(&r, b);
    }
}

/// Long chains of dependent operations stay equal (catches results that are correct but not
/// fully reduced, which would diverge later).
fn chains<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (mut x, mut y) = (random_below::<M>(&mut rng), random_below::<M>(&mut rng));
    let (mut u, mut v) = (x, y);
    for i in 0..20_000 {
        x = Asm::mul::<M>(&x, &y);
        u = U64::mul::<M>(&u, &v);
        y = Asm::add::<M>(&Asm::square::<M>(&y), &x);
        v = U64::add::<M>(&U64::square::<M>(&v), &u);
        if i % 7 == 0 {
            x = Asm::sub::<M>(&x, &y);
            u = U64::sub::<M>(&u, &v);
        }
        assert_eq!((x, y), (u, v), "{} chain step {i}", M::NAME);
    }
}

macro_rules! per_modulus {
    ($name:ident, $M:ty, $seed:literal) => {
        mod $name {
            use super::*;
            #[test]
            fn random_inputs() {
                assert!(Asm::is_supported(), "this test machine lacks BMI2/ADX");
                random::<$M>($seed);
            }
            #[test]
            fn adversarial_inputs() {
                edges::<$M>($seed + 1);
            }
            #[test]
            fn dependent_chains() {
                chains::<$M>($seed + 2);
            }
        }
    };
}

per_modulus!(sm2_p, Sm2P, 1000);
per_modulus!(sm2_n, Sm2N, 2000);
per_modulus!(sm9_p, Sm9P, 3000);
per_modulus!(sm9_n, Sm9N, 4000);

#[test]
fn support_check_is_cached_and_stable() {
    let first = Asm::is_supported();
    for _ in 0..10 {
        assert_eq!(Asm::is_supported(), first);
    }
}
