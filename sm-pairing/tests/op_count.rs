//! GF(p) operation counts of the pairing stages and GT exponentiation (feature `op-count`):
//! `cargo test -p sm-pairing --features op-count --test op_count -- --nocapture`.
#![cfg(feature = "op-count")]

use sm_field::{counting, Counting, U64};
use sm_pairing::{
    final_exponentiation, miller_loop, pairing, pairing_prepared, G1Affine, G2Affine, G2Prepared,
    GtTable,
};

type C = Counting<U64>;

fn count<R>(what: &str, f: impl FnOnce() -> R) -> (R, counting::OpCounts) {
    counting::reset();
    let r = f();
    let c = counting::snapshot();
    std::println!(
        "{what:<28} mul {:>6}  sqr {:>5}  add {:>6}  sub {:>6}  neg {:>5}  dbl {:>5}",
        c.mul,
        c.square,
        c.add,
        c.sub,
        c.neg,
        c.double
    );
    (r, c)
}

#[test]
fn op_counts() {
    let p = G1Affine::<C>::GENERATOR;
    let q = G2Affine::<C>::GENERATOR;
    let (f, ml) = count("miller_loop", || miller_loop(&p, &q));
    let (e, fe) = count("final_exponentiation", || final_exponentiation(&f));
    let (e2, pa) = count("pairing", || pairing(&p, &q));
    assert_eq!(e, e2);
    assert_eq!(
        pa.mul,
        ml.mul + fe.mul,
        "pairing = miller loop + final exponentiation"
    );
    let prep = G2Prepared::new(&q);
    let (e3, pp) = count("pairing_prepared", || pairing_prepared(&p, &prep));
    assert_eq!(e3, e);
    assert!(pp.mul < pa.mul);
    let k = [
        0x0123_4567_89ab_cdef,
        0xfedc_ba98_7654_3210,
        0x0f1e_2d3c_4b5a_6978,
        0x3640_0000_02a3_a6f1,
    ];
    let (g1, c1) = count("gt pow (ct)", || e.pow(&k));
    let (g2, _) = count("gt pow_vartime", || e.pow_vartime(&k));
    let table = GtTable::new(&e);
    let (g3, c3) = count("gt table pow (ct)", || table.pow(&k));
    assert_eq!(g1, g2);
    assert_eq!(g1, g3);
    // Constant time: the counts do not depend on the exponent.
    let (_, c1b) = count("gt pow (ct), other k", || e.pow(&[1, 0, 0, 0]));
    assert_eq!(c1, c1b);
    let (_, c3b) = count("gt table pow (ct), other k", || table.pow(&[0; 4]));
    assert_eq!(c3, c3b);
}
