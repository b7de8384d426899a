//! Every configuration of the optimization ledger (`sm_pairing::research::variants`) gives the
//! production pairing's GT values, byte for byte, over random points: the pairing, the Miller
//! loop and final exponentiation, the product of two pairings, the pairings with prepared lines
//! and the fixed-base GT exponentiation (what the ledger's SM9 rows use; their compositions into
//! sign, verify and decrypt are checked against `sm9` by `cargo test -p xtask ledger`).
#![cfg(feature = "research")]

use rand_chacha::rand_core::SeedableRng;
use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::Jacobian;
use sm_field::{Backend, Fp, Fp12, Sm9N, U64};
use sm_pairing::research::variants::{self, Config, Production, Row, Stage, Visitor};
use sm_pairing::{
    final_exponentiation, multi_pairing, pairing, G1Affine, G2Affine, Gt, GtTable, LOOP_SCHEDULE,
};

type B = U64;

fn random_pairs<B2: Backend>(seed: u64, n: usize) -> Vec<(G1Affine<B2>, G2Affine<B2>)> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    (0..n)
        .map(|_| {
            let a = Fp::<Sm9N, B2>::random(&mut rng);
            let b = Fp::<Sm9N, B2>::random(&mut rng);
            (
                Jacobian::<Sm9G1Curve<B2>>::generator().mul(&a).to_affine(),
                Jacobian::<Sm9G2Curve<B2>>::generator().mul(&b).to_affine(),
            )
        })
        .collect()
}

fn check<C: Config>(name: &str, stage: Option<Stage>) {
    for seed in 0..2 {
        let pairs = random_pairs::<B>(seed, 2);
        let (p, q) = pairs[0];
        let e = pairing(&p, &q);
        // Prepared lines (SM9 verification's product of two pairings, decryption's pairing).
        let prepared: Vec<_> = pairs
            .iter()
            .map(|(_, q)| variants::Prepared::<C, B>::new(q))
            .collect();
        let both: Vec<_> = pairs
            .iter()
            .zip(&prepared)
            .map(|((p, _), l)| (*p, l))
            .collect();
        assert_eq!(
            variants::multi_pairing_prepared(&both),
            multi_pairing(&pairs),
            "{name}: prepared"
        );
        assert_eq!(variants::pairing_prepared(&p, &prepared[0]), e, "{name}");
        // The fixed-base table exponentiation with C's tower (SM9 signing's g^r).
        let table = GtTable::new(&e);
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed + 10);
        for k in [
            Fp::<Sm9N, B>::random(&mut rng).to_canonical_limbs(),
            [u64::MAX; 4],
        ] {
            assert_eq!(
                variants::gt_table_pow::<C::Tower, B>(&table, &k),
                table.pow(&k),
                "{name}: table"
            );
        }
        match stage {
            Some(Stage::MultiPairing2) => assert_eq!(
                variants::multi_pairing::<C, B>(&pairs).to_bytes(),
                multi_pairing(&pairs).to_bytes(),
                "{name}"
            ),
            Some(Stage::FinalExp) => {
                let f = Fp12::<B>::random(&mut rand_chacha::ChaCha20Rng::seed_from_u64(seed));
                assert_eq!(
                    variants::final_exponentiation::<C, B>(&f),
                    final_exponentiation(&f),
                    "{name}"
                );
            }
            _ => {
                let f = variants::miller_loop::<C, B>(&p, &q);
                assert_eq!(final_exponentiation(&f).to_bytes(), e.to_bytes(), "{name}");
                assert_eq!(variants::pairing::<C, B>(&p, &q), e, "{name}");
            }
        }
    }
}

struct Check(usize);

impl Visitor for Check {
    fn visit<C: Config>(&mut self, row: Row) {
        check::<C>(row.optimization, Some(row.stage));
        self.0 += 1;
    }
}

#[test]
fn production_configuration_is_the_production_pairing() {
    check::<Production>("production", None);
    check::<Production>("production", Some(Stage::MultiPairing2));
    check::<Production>("production", Some(Stage::FinalExp));
    let (p, q) = random_pairs::<B>(7, 1)[0];
    // The same Miller value, not only the same GT value.
    assert_eq!(
        variants::miller_loop::<Production, B>(&p, &q),
        sm_pairing::miller_loop(&p, &q)
    );
    assert_eq!(
        variants::schedule::<variants::Naf>(),
        LOOP_SCHEDULE.to_vec()
    );
}

#[test]
fn every_variant_gives_the_production_values() {
    let mut c = Check(0);
    variants::visit_rows(&mut c);
    assert!(c.0 >= 16, "{} rows", c.0);
}

#[test]
fn gt_pow_without_split_and_no_batch_backend() {
    let (p, q) = random_pairs::<B>(3, 1)[0];
    let e = pairing(&p, &q);
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
    for _ in 0..4 {
        let k = Fp::<Sm9N, B>::random(&mut rng).to_canonical_limbs();
        assert_eq!(variants::gt_pow_unsplit(&e, &k), e.pow(&k));
    }
    // k ≥ n is reduced like `Gt::pow` does.
    assert_eq!(
        variants::gt_pow_unsplit(&e, &[u64::MAX; 4]),
        e.pow(&[u64::MAX; 4])
    );
    type Nb = variants::NoBatch<B>;
    let (p2, q2) = random_pairs::<Nb>(3, 1)[0];
    let e2: Gt<Nb> = pairing(&p2, &q2);
    assert_eq!(e2.to_backend::<B>(), e);
}
