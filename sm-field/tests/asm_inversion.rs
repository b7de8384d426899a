//! Safegcd inversion (`invert`, constant time; `invert_vartime`) against `num-bigint` and against
//! Fermat inversion, for every modulus, on random and adversarial inputs.

use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use sm_conformance::big;
use sm_field::{Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

fn to_bytes(v: &BigUint) -> [u8; 32] {
    let b = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

fn check<M: Modulus, B: Backend>(a: &BigUint) {
    let p = big(&M::P);
    let x = Fp::<M, B>::from_bytes(&to_bytes(a)).unwrap();
    let ct = x.invert();
    let vt = x.invert_vartime();
    let fermat = x.invert_fermat();
    if a.bits() == 0 {
        assert!(bool::from(ct.is_none()) && vt.is_none() && bool::from(fermat.is_none()));
        return;
    }
    let expect = a.modpow(&(&p - 2u8), &p);
    let (ct, vt, fermat) = (ct.unwrap(), vt.unwrap(), fermat.unwrap());
    assert_eq!(
        BigUint::from_bytes_be(&ct.to_bytes()),
        expect,
        "{} invert {a:x}",
        M::NAME
    );
    assert_eq!(ct, vt, "{} invert_vartime {a:x}", M::NAME);
    assert_eq!(ct, fermat, "{} fermat {a:x}", M::NAME);
    assert_eq!(ct * x, Fp::ONE);
}

/// Inputs whose gcd runs are unusual: tiny values, powers of two, p − small, all ones below p,
/// alternating bit patterns, and values whose Montgomery limbs are extreme.
fn adversarial<M: Modulus>() -> Vec<BigUint> {
    let p = big(&M::P);
    let one = BigUint::from(1u8);
    let mut v = vec![
        BigUint::from(0u8),
        one.clone(),
        BigUint::from(2u8),
        BigUint::from(3u8),
    ];
    for k in 1..=40u8 {
        v.push(&p - k);
    }
    for k in 0..256 {
        v.push((&one << k) % &p);
        v.push(((&one << k) - 1u8) % &p);
    }
    let alt = BigUint::from_bytes_be(&[0xAA; 32]) % &p;
    let alt2 = BigUint::from_bytes_be(&[0x55; 32]) % &p;
    v.extend([alt, alt2, (&p - 1u8) >> 1, (&p + 1u8) >> 1]);
    // Elements whose Montgomery form is 1, p − 1, 2^k (what safegcd actually sees).
    let r_inv = (&one << 256u32).modpow(&(&p - 2u8), &p);
    for m in [one.clone(), &p - 1u8, BigUint::from(2u8), &one << 255u32] {
        v.push((m % &p) * &r_inv % &p);
    }
    v
}

fn run<M: Modulus, B: Backend>(seed: u64, n: usize) {
    for a in adversarial::<M>() {
        check::<M, B>(&a);
    }
    let p = big(&M::P);
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for _ in 0..n {
        let mut b = [0u8; 32];
        rng.fill_bytes(&mut b);
        check::<M, B>(&(BigUint::from_bytes_be(&b) % &p));
    }
}

#[test]
fn sm2_p() {
    run::<Sm2P, U64>(1, 3000);
}
#[test]
fn sm2_n() {
    run::<Sm2N, U64>(2, 3000);
}
#[test]
fn sm9_p() {
    run::<Sm9P, U64>(3, 3000);
}
#[test]
fn sm9_n() {
    run::<Sm9N, U64>(4, 3000);
}

#[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
#[test]
fn asm_backend_all_moduli() {
    run::<Sm2P, sm_field::Asm>(5, 1000);
    run::<Sm2N, sm_field::Asm>(6, 1000);
    run::<Sm9P, sm_field::Asm>(7, 1000);
    run::<Sm9N, sm_field::Asm>(8, 1000);
}

/// Many inversions without `num-bigint`: `x · x⁻¹ = 1` and both variants agree.
#[test]
fn many_random_inverses_multiply_to_one() {
    fn one<M: Modulus>(seed: u64) {
        let mut rng = ChaCha20Rng::seed_from_u64(seed);
        for _ in 0..20_000 {
            let x = Fp::<M, U64>::random(&mut rng);
            let i = x.invert().unwrap();
            assert_eq!(x * i, Fp::ONE, "{} {x:?}", M::NAME);
            assert_eq!(x.invert_vartime().unwrap(), i);
        }
    }
    one::<Sm2P>(11);
    one::<Sm2N>(12);
    one::<Sm9P>(13);
    one::<Sm9N>(14);
}
