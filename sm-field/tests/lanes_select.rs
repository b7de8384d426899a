//! `Lanes8::select_scan` (the constant-time table lookup at secret per-lane indices) against a
//! plain lookup, lane by lane: every index at every lane position, out-of-range indices (zero),
//! tables of one to three coordinates and of one to 33 entries, on two moduli.
//!
//! On a CPU without AVX-512 IFMA these tests fail unless the environment declares it absent
//! (`SM_EXPECT_IFMA=0`; see `sm_testvectors::backend_runs_here`).
#![cfg(all(target_arch = "x86_64", feature = "asm"))]

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm_field::lanes::{Ifma, Lanes8};
use sm_field::{Fp, Modulus, Sm2P, Sm9N, U64};

type F<M> = Fp<M, U64>;

fn token(test: &str) -> Option<Ifma> {
    sm_testvectors::token_runs_here(
        &format!("{test}: IFMA lanes"),
        Ifma::detect(),
        "SM_EXPECT_IFMA",
    )
}

/// A random table of `len` entries of `N` coordinates, as lanes and as scalars
/// (`scalars[e][c][i]` = lane `i` of coordinate `c` of entry `e`).
#[allow(clippy::type_complexity)]
fn table<M: Modulus, const N: usize>(
    t: Ifma,
    rng: &mut ChaCha20Rng,
    len: usize,
) -> (Vec<[Lanes8<M>; N]>, Vec<[[F<M>; 8]; N]>) {
    let scalars: Vec<[[F<M>; 8]; N]> = (0..len)
        .map(|_| core::array::from_fn(|_| core::array::from_fn(|_| F::<M>::random(rng))))
        .collect();
    let lanes = scalars
        .iter()
        .map(|e| core::array::from_fn(|c| Lanes8::from_fp(t, &e[c])))
        .collect();
    (lanes, scalars)
}

/// `select_scan` with `idx` equals the plain lookup (zero where the index is out of range).
fn check<M: Modulus, const N: usize>(
    t: Ifma,
    lanes: &[[Lanes8<M>; N]],
    scalars: &[[[F<M>; 8]; N]],
    idx: &[u64; 8],
) {
    let got = Lanes8::select_scan(t, lanes, idx);
    for c in 0..N {
        let want: [F<M>; 8] = core::array::from_fn(|i| {
            scalars
                .get(idx[i] as usize)
                .map_or(F::<M>::ZERO, |e| e[c][i])
        });
        assert_eq!(
            got[c].to_fp::<U64>(t),
            want,
            "{} coordinate {c} of {N}, table of {}, idx {idx:?}",
            M::NAME,
            scalars.len()
        );
    }
}

fn every_index<M: Modulus, const N: usize>(t: Ifma, seed: u64) {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    for len in [1usize, 2, 16, 33] {
        let (lanes, scalars) = table::<M, N>(t, &mut rng, len);
        // Every index at every lane position (the other lanes rotating through the table).
        for lane in 0..8 {
            for j in 0..len as u64 {
                let idx = core::array::from_fn(|i| {
                    if i == lane {
                        j
                    } else {
                        (j + 3 * i as u64) % len as u64
                    }
                });
                check(t, &lanes, &scalars, &idx);
            }
        }
        // Random indices, some out of range.
        for _ in 0..50 {
            let idx = core::array::from_fn(|_| rng.next_u64() % (len as u64 + 3));
            check(t, &lanes, &scalars, &idx);
        }
        // Far out of range (the comparison is on the full 64 bits).
        check(
            t,
            &lanes,
            &scalars,
            &[u64::MAX, 1 << 32, len as u64, 0, 0, 0, 0, 0],
        );
    }
}

#[test]
fn select_scan_matches_lookup() {
    let Some(t) = token("select_scan_matches_lookup") else {
        return;
    };
    every_index::<Sm2P, 1>(t, 1);
    every_index::<Sm2P, 3>(t, 2);
    every_index::<Sm9N, 2>(t, 3);
}

#[test]
fn select_scan_of_empty_table_is_zero() {
    let Some(t) = token("select_scan_of_empty_table_is_zero") else {
        return;
    };
    let got: [Lanes8<Sm2P>; 3] = Lanes8::select_scan(t, &[], &[0, 1, 2, 3, 4, 5, 6, 7]);
    for c in got {
        assert_eq!(c.to_fp::<U64>(t), [F::<Sm2P>::ZERO; 8]);
    }
}
