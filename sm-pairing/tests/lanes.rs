//! Eight pairings in the IFMA lanes (`sm_pairing::lanes`) against the scalar pairing, lane by
//! lane and byte for byte: random pairs, identities of G1 and G2 in some lanes, the same pair in
//! every lane, prepared multi-Miller loops with different tables per lane, and final
//! exponentiations of arbitrary GF(p¹²) elements (zero included).
//!
//! On a CPU without AVX-512 IFMA these tests fail unless the environment declares it absent
//! (`SM_EXPECT_IFMA=0`; see `sm_testvectors::backend_runs_here`); then they pass without
//! checking anything, saying so on stderr.
#![cfg(all(target_arch = "x86_64", feature = "asm"))]

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm_curve::Jacobian;
use sm_field::lanes::Ifma;
use sm_field::{Fp12, U64};
use sm_pairing::lanes::{
    final_exponentiation_lanes, multi_miller_loop_prepared_lanes, pairing_lanes,
};
use sm_pairing::{
    final_exponentiation, multi_miller_loop_prepared, pairing, G1Affine, G2Affine, G2Prepared,
};

type B = U64;

fn token(test: &str) -> Option<Ifma> {
    sm_testvectors::token_runs_here(
        &format!("{test}: IFMA lanes"),
        Ifma::detect(),
        "SM_EXPECT_IFMA",
    )
}

fn scalar(rng: &mut ChaCha20Rng) -> [u64; 4] {
    // Below 2^255 < n: a valid exponent, mostly non-zero.
    let mut k: [u64; 4] = core::array::from_fn(|_| rng.next_u64());
    k[3] >>= 1;
    k
}

fn g1(rng: &mut ChaCha20Rng) -> G1Affine<B> {
    Jacobian::from_affine(&G1Affine::<B>::GENERATOR)
        .mul_limbs_vartime(&scalar(rng))
        .to_affine()
}

fn g2(rng: &mut ChaCha20Rng) -> G2Affine<B> {
    Jacobian::from_affine(&G2Affine::<B>::GENERATOR)
        .mul_limbs_vartime(&scalar(rng))
        .to_affine()
}

/// Eight pairs: random, with the identity of G1 and/or G2 and the generators in some lanes.
fn pairs(rng: &mut ChaCha20Rng) -> [(G1Affine<B>, G2Affine<B>); 8] {
    core::array::from_fn(|_| {
        let (p, q) = (g1(rng), g2(rng));
        match rng.next_u32() % 8 {
            0 => (G1Affine::IDENTITY, q),
            1 => (p, G2Affine::IDENTITY),
            2 => (G1Affine::IDENTITY, G2Affine::IDENTITY),
            3 => (G1Affine::GENERATOR, G2Affine::GENERATOR),
            _ => (p, q),
        }
    })
}

#[test]
fn pairing_lanes_matches_scalar() {
    let Some(t) = token("pairing_lanes_matches_scalar") else {
        return;
    };
    let mut rng = ChaCha20Rng::seed_from_u64(0x5a9_1a7e);
    let mut sets: Vec<[(G1Affine<B>, G2Affine<B>); 8]> = (0..4).map(|_| pairs(&mut rng)).collect();
    // The same random pair in every lane, and the generators everywhere.
    sets.push([(g1(&mut rng), g2(&mut rng)); 8]);
    sets.push([(G1Affine::GENERATOR, G2Affine::GENERATOR); 8]);
    for set in &sets {
        let lanes = pairing_lanes(t, set);
        for (i, (p, q)) in set.iter().enumerate() {
            let want = pairing(p, q);
            assert_eq!(
                lanes[i].to_bytes(),
                want.to_bytes(),
                "lane {i}: {p:?}, {q:?}"
            );
            if bool::from(p.is_identity() | q.is_identity()) {
                assert!(bool::from(lanes[i].is_identity()), "lane {i}: trivial pair");
            }
        }
    }
}

#[test]
fn prepared_multi_miller_lanes_matches_scalar() {
    let Some(t) = token("prepared_multi_miller_lanes_matches_scalar") else {
        return;
    };
    let mut rng = ChaCha20Rng::seed_from_u64(31);
    // Four prepared points (one the identity); lanes pick them at random, per term.
    let qs = [
        g2(&mut rng),
        g2(&mut rng),
        G2Affine::GENERATOR,
        G2Affine::IDENTITY,
    ];
    let preps: Vec<G2Prepared<B>> = qs.iter().map(G2Prepared::new).collect();
    for round in 0..3 {
        let terms: Vec<[(G1Affine<B>, &G2Prepared<B>); 8]> = (0..1 + round % 2 + 1)
            .map(|_| {
                core::array::from_fn(|_| {
                    let p = if rng.next_u32() % 6 == 0 {
                        G1Affine::IDENTITY
                    } else {
                        g1(&mut rng)
                    };
                    (p, &preps[rng.next_u32() as usize % preps.len()])
                })
            })
            .collect();
        let f = multi_miller_loop_prepared_lanes(t, &terms);
        let e = final_exponentiation_lanes(t, &f);
        for i in 0..8 {
            let lane: Vec<(G1Affine<B>, &G2Prepared<B>)> =
                terms.iter().map(|term| term[i]).collect();
            let want = multi_miller_loop_prepared(&lane);
            assert_eq!(f[i], want, "round {round} lane {i}");
            assert_eq!(
                e[i].to_bytes(),
                final_exponentiation(&want).to_bytes(),
                "lane {i}"
            );
        }
    }
}

#[test]
fn final_exponentiation_lanes_matches_scalar() {
    let Some(t) = token("final_exponentiation_lanes_matches_scalar") else {
        return;
    };
    let mut rng = ChaCha20Rng::seed_from_u64(99);
    let mut f: [Fp12<B>; 8] = core::array::from_fn(|_| Fp12::random(&mut rng));
    f[2] = Fp12::ZERO;
    f[5] = Fp12::ONE;
    let e = final_exponentiation_lanes(t, &f);
    for i in 0..8 {
        assert_eq!(
            e[i].to_bytes(),
            final_exponentiation(&f[i]).to_bytes(),
            "lane {i}"
        );
    }
}
