//! The batched multiplication of the `Asm` backend (AVX-512 IFMA kernel where the CPU has it)
//! against the portable `U64` Montgomery multiplication, bit for bit, for all four moduli:
//! random inputs in batches of every length 1…70 (full groups of eight, zero-padded partial
//! groups, every lane position) and edge values in every lane.
#![cfg(all(target_arch = "x86_64", feature = "asm"))]

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_field::{Asm, Backend, Fp, Limbs, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

fn random<M: Modulus>(rng: &mut ChaCha20Rng) -> Limbs {
    Fp::<M, U64>::random(rng).to_mont_limbs()
}

fn reference<M: Modulus>(a: &[Limbs], b: &[Limbs]) -> Vec<Limbs> {
    a.iter()
        .zip(b)
        .map(|(x, y)| <U64 as Backend>::mul::<M>(x, y))
        .collect()
}

fn check_batch<M: Modulus>(a: &[Limbs], b: &[Limbs]) {
    let mut out = vec![[0xDEAD_BEEF; 4]; a.len()];
    <Asm as Backend>::mul_batch::<M>(a, b, &mut out);
    let want = reference::<M>(a, b);
    for i in 0..a.len() {
        assert_eq!(
            out[i],
            want[i],
            "{}: lane {} of {}: {:x?} · {:x?}",
            M::NAME,
            i,
            a.len(),
            a[i],
            b[i]
        );
    }
}

/// ≥ 10^5 random products per modulus, in batches of lengths 1…70 (cycled).
fn random_products<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut done = 0;
    let mut len = 1;
    while done < 100_000 {
        let a: Vec<Limbs> = (0..len).map(|_| random::<M>(&mut rng)).collect();
        let b: Vec<Limbs> = (0..len).map(|_| random::<M>(&mut rng)).collect();
        check_batch::<M>(&a, &b);
        done += len;
        len = len % 70 + 1;
    }
}

/// Values below p that stress carries and the final subtraction.
fn edges<M: Modulus>() -> Vec<Limbs> {
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
    let candidates: [Limbs; 18] = [
        [0; 4],
        [1, 0, 0, 0],
        [2, 0, 0, 0],
        minus(1),
        minus(2),
        minus(3),
        M::R,
        M::R2,
        [0, 0, 0, 1 << 63],
        [1, 0, 0, 1 << 63],
        [m, m, m, (1 << 63) - 1],
        [m, m, m, 0],
        [m, 0, m, 0],
        [(1 << 52) - 1, 0, 0, 0],
        [m, (1 << 40) - 1, 0, 0],
        [0x5555_5555_5555_5555; 4],
        [0xAAAA_AAAA_AAAA_AAAA; 4],
        [m, m, m, p[3] - 1],
    ];
    candidates
        .into_iter()
        .filter(|c| bool::from(Fp::<M, U64>::from_mont_limbs(*c).is_some()))
        .collect()
}

/// Every pair of edge values, at every lane position of a group of eight (random neighbours).
fn edge_products<M: Modulus>(seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let e = edges::<M>();
    assert!(e.len() >= 14, "{}: {} edge values", M::NAME, e.len());
    for x in &e {
        for y in &e {
            for lane in 0..8 {
                let mut a: Vec<Limbs> = (0..8).map(|_| random::<M>(&mut rng)).collect();
                let mut b: Vec<Limbs> = (0..8).map(|_| random::<M>(&mut rng)).collect();
                a[lane] = *x;
                b[lane] = *y;
                check_batch::<M>(&a, &b);
            }
            // All lanes equal, and as a zero-padded partial group.
            check_batch::<M>(&[*x; 8], &[*y; 8]);
            check_batch::<M>(&[*x; 5], &[*y; 5]);
        }
    }
}

/// The IFMA kernel ran wherever it is expected: `SM_EXPECT_IFMA=1` (set by `cargo xtask test`
/// from /proc/cpuinfo) or, without the variable, a Linux CPU listing avx512f and avx512ifma. The
/// tests above then compared the IFMA kernel, not the scalar fallback, with `U64`. Prints one
/// line saying which kernel ran (written to stderr directly, so not captured by the harness).
#[test]
fn ifma_kernel_ran_where_expected() {
    use std::io::Write;
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let flags = cpuinfo.lines().find(|l| l.starts_with("flags"));
    let listed = |f: &str| flags.is_some_and(|l| l.split_whitespace().any(|w| w == f));
    let expect = match std::env::var("SM_EXPECT_IFMA") {
        Ok(v) => v == "1",
        Err(_) => listed("avx512f") && listed("avx512ifma"),
    };
    let ran = Asm::has_ifma();
    writeln!(
        std::io::stderr(),
        "sm-field kernels: Asm batched multiplication = {} (IFMA expected: {expect})",
        if ran { "AVX-512 IFMA" } else { "scalar" }
    )
    .unwrap();
    assert!(
        ran || !expect,
        "the AVX-512 IFMA kernel is expected (SM_EXPECT_IFMA / cpuinfo) but did not run"
    );
}

#[test]
fn sm9p_random() {
    random_products::<Sm9P>(1);
}

#[test]
fn sm9n_random() {
    random_products::<Sm9N>(2);
}

#[test]
fn sm2p_random() {
    random_products::<Sm2P>(3);
}

#[test]
fn sm2n_random() {
    random_products::<Sm2N>(4);
}

#[test]
fn edges_all_moduli() {
    edge_products::<Sm9P>(5);
    edge_products::<Sm9N>(6);
    edge_products::<Sm2P>(7);
    edge_products::<Sm2N>(8);
}

#[test]
fn mismatched_lengths_use_the_shortest() {
    let mut rng = ChaCha20Rng::seed_from_u64(9);
    let a: Vec<Limbs> = (0..20).map(|_| random::<Sm9P>(&mut rng)).collect();
    let b: Vec<Limbs> = (0..17).map(|_| random::<Sm9P>(&mut rng)).collect();
    let mut out = vec![[7u64; 4]; 19];
    <Asm as Backend>::mul_batch::<Sm9P>(&a, &b, &mut out);
    let want = reference::<Sm9P>(&a[..17], &b);
    assert_eq!(&out[..17], &want[..]);
    assert_eq!(&out[17..], &[[7u64; 4]; 2]);
}
