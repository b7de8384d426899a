//! The aarch64 `asm` backend against `num-bigint` and the portable backends (`u64`, and `u32`
//! when compiled), limb for limb, for all four moduli: random operands, adversarial operands
//! (values next to p, all-ones limbs, single bits, R and R^2), long dependent chains, and the
//! `Fp` operations built on top (inversion, square roots, exponentiation, encodings).
//!
//! Runs only on aarch64; on an x86_64 machine `scripts/cross-aarch64.sh` runs it under QEMU.
#![cfg(all(feature = "asm", target_arch = "aarch64"))]

use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use sm_field::{Asm, Backend, Fp, Limbs, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

const RANDOM_PAIRS: usize = 50_000;

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
    let limb = |i: usize| {
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
    for a in limb(0) {
        for b in limb(1) {
            for c in limb(2) {
                for d in limb(3) {
                    let v = [a, b, c, d];
                    if below::<M>(&v) {
                        out.push(v);
                    }
                }
            }
        }
    }
    let p = big(&M::P);
    for k in 1u32..=40 {
        out.push(limbs(&(&p - k)));
    }
    for k in 0..256 {
        let mut v = [0u64; 4];
        v[k / 64] = 1 << (k % 64);
        if below::<M>(&v) {
            out.push(v);
        }
    }
    out.extend([M::R, M::R2, M::R3]);
    out
}

fn limbs(v: &BigUint) -> Limbs {
    let d = v.to_u64_digits();
    core::array::from_fn(|i| d.get(i).copied().unwrap_or(0))
}

/// `u64` and `u32` (when compiled) on the same inputs.
fn portable_agree<M: Modulus>(name: &str, a: &Limbs, b: &Limbs, got: Limbs) {
    let want = match name {
        "add" => U64::add::<M>(a, b),
        "sub" => U64::sub::<M>(a, b),
        "mul" => U64::mul::<M>(a, b),
        "neg" => U64::neg::<M>(a),
        "double" => U64::double::<M>(a),
        "square" => U64::square::<M>(a),
        _ => unreachable!(),
    };
    assert_eq!(got, want, "{} {name} asm vs u64: {a:x?} {b:x?}", M::NAME);
    #[cfg(feature = "u32")]
    {
        use sm_field::U32;
        let want32 = match name {
            "add" => U32::add::<M>(a, b),
            "sub" => U32::sub::<M>(a, b),
            "mul" => U32::mul::<M>(a, b),
            "neg" => U32::neg::<M>(a),
            "double" => U32::double::<M>(a),
            "square" => U32::square::<M>(a),
            _ => unreachable!(),
        };
        assert_eq!(got, want32, "{} {name} asm vs u32: {a:x?} {b:x?}", M::NAME);
    }
}

fn check_pair<M: Modulus>(a: &Limbs, b: &Limbs) {
    portable_agree::<M>("add", a, b, Asm::add::<M>(a, b));
    portable_agree::<M>("sub", a, b, Asm::sub::<M>(a, b));
    portable_agree::<M>("mul", a, b, Asm::mul::<M>(a, b));
}

fn check_one<M: Modulus>(a: &Limbs) {
    portable_agree::<M>("neg", a, a, Asm::neg::<M>(a));
    portable_agree::<M>("double", a, a, Asm::double::<M>(a));
    portable_agree::<M>("square", a, a, Asm::square::<M>(a));
}

/// Independent of every backend: `a·b·2^-256 mod p`, `a ± b mod p`, `-a mod p` by `num-bigint`.
fn check_bigint<M: Modulus>(a: &Limbs, b: &Limbs) {
    let p = big(&M::P);
    let (x, y) = (big(a), big(b));
    let r_inv = BigUint::from(2u8)
        .modpow(&BigUint::from(256u32), &p)
        .modpow(&(&p - 2u8), &p);
    let name = M::NAME;
    assert_eq!(big(&Asm::add::<M>(a, b)), (&x + &y) % &p, "{name} add");
    assert_eq!(big(&Asm::sub::<M>(a, b)), (&x + &p - &y) % &p, "{name} sub");
    assert_eq!(big(&Asm::neg::<M>(a)), (&p - &x) % &p, "{name} neg");
    assert_eq!(
        big(&Asm::mul::<M>(a, b)),
        &x * &y * &r_inv % &p,
        "{name} mul"
    );
    assert_eq!(
        big(&Asm::square::<M>(a)),
        &x * &x * &r_inv % &p,
        "{name} square"
    );
}

fn random<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for i in 0..RANDOM_PAIRS {
        let a = random_below::<M>(&mut rng);
        let b = random_below::<M>(&mut rng);
        check_pair::<M>(&a, &b);
        check_one::<M>(&a);
        if i % 64 == 0 {
            check_bigint::<M>(&a, &b);
        }
    }
}

fn edges<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let adv = adversarial::<M>();
    assert!(
        adv.len() > 500,
        "{}: only {} edge values",
        M::NAME,
        adv.len()
    );
    for a in &adv {
        check_one::<M>(a);
    }
    let step = adv.len() / 120 + 1;
    for a in adv.iter().step_by(step) {
        for b in adv.iter().step_by(step) {
            check_pair::<M>(a, b);
            check_bigint::<M>(a, b);
        }
    }
    for _ in 0..RANDOM_PAIRS {
        let a = &adv[rng.next_u64() as usize % adv.len()];
        let b = &adv[rng.next_u64() as usize % adv.len()];
        let r = random_below::<M>(&mut rng);
        check_pair::<M>(a, b);
        check_pair::<M>(a, &r);
        check_pair::<M>(&r, b);
    }
}

/// Dependent chains stay equal (a result that is congruent but not fully reduced would
/// diverge or trip the comparison).
fn chains<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let (mut x, mut y) = (random_below::<M>(&mut rng), random_below::<M>(&mut rng));
    let (mut u, mut v) = (x, y);
    for i in 0..20_000 {
        x = Asm::mul::<M>(&x, &y);
        u = U64::mul::<M>(&u, &v);
        y = Asm::add::<M>(&Asm::square::<M>(&y), &x);
        v = U64::add::<M>(&U64::square::<M>(&v), &u);
        if i % 5 == 0 {
            x = Asm::sub::<M>(&Asm::neg::<M>(&x), &y);
            u = U64::sub::<M>(&U64::neg::<M>(&u), &v);
        }
        assert_eq!((x, y), (u, v), "{} chain step {i}", M::NAME);
        assert!(below::<M>(&x) && below::<M>(&y), "{} unreduced", M::NAME);
    }
}

/// Whole `Fp` algorithms on `Asm` equal those on `U64` (inversion, sqrt, pow, encodings).
fn field_ops<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for _ in 0..300 {
        let mut bytes = [0u8; 64];
        rng.fill_bytes(&mut bytes);
        let a = Fp::<M, U64>::from_wide_bytes(&bytes);
        let b = Fp::<M, Asm>::from_wide_bytes(&bytes);
        assert_eq!(a.to_mont_limbs(), b.to_mont_limbs(), "{} wide", M::NAME);
        assert_eq!(a.to_bytes(), b.to_bytes(), "{} encoding", M::NAME);
        assert_eq!(a.to_backend::<Asm>(), b);
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
    assert!(bool::from(Fp::<M, Asm>::ZERO.invert().is_none()));
}

macro_rules! per_modulus {
    ($name:ident, $M:ty, $seed:literal) => {
        mod $name {
            use super::*;
            #[test]
            fn random_inputs() {
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
            #[test]
            fn fp_algorithms() {
                field_ops::<$M>($seed + 3);
            }
        }
    };
}

per_modulus!(sm2_p, Sm2P, 5000);
per_modulus!(sm2_n, Sm2N, 6000);
per_modulus!(sm9_p, Sm9P, 7000);
per_modulus!(sm9_n, Sm9N, 8000);

#[test]
fn always_supported_and_default() {
    assert!(Asm::is_supported());
    // Feature `asm` makes it the default unless `--cfg sm_backend=...` forces another.
    #[cfg(not(sm_backend))]
    assert_eq!(<sm_field::DefaultBackend as Backend>::NAME, "asm");
}
