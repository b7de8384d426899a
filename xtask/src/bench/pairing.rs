//! SM9 pairing stages and GT exponentiation per backend; the `sm9_core` crate as a peer.

use std::hint::black_box;

use super::harness::{with_backend, Case};
use super::sm_field::{self, Backend};
use super::sm_pairing::{
    final_exponentiation, miller_loop, multi_pairing, pairing, pairing_prepared, G1Affine,
    G2Affine, G2Prepared, GtTable,
};

/// A fixed 256-bit exponent below n (public; the constant-time paths do not care).
const K: [u64; 4] = [
    0x0123_4567_89ab_cdef,
    0xfedc_ba98_7654_3210,
    0x0f1e_2d3c_4b5a_6978,
    0x1122_3344_5566_7788,
];

fn cases_for<B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    let variant = format!("{prefix}{}", B::NAME);
    let mut push = |op: &str, output: Vec<u8>, run: Box<dyn FnMut(u64)>| {
        out.push(Case::new("pairing", op, &variant, 0, output, run))
    };
    let p = G1Affine::<B>::GENERATOR;
    let q = G2Affine::<B>::GENERATOR;
    let e = pairing(&p, &q);
    push(
        "pairing",
        e.to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(pairing(black_box(&p), black_box(&q)));
            }
        }),
    );
    let f = miller_loop(&p, &q);
    push(
        "miller_loop",
        final_exponentiation(&f).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(miller_loop(black_box(&p), black_box(&q)));
            }
        }),
    );
    push(
        "final_exponentiation",
        final_exponentiation(&f).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(final_exponentiation(black_box(&f)));
            }
        }),
    );
    let prep = G2Prepared::new(&q);
    push(
        "G2Prepared::new",
        pairing_prepared(&p, &prep).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(G2Prepared::new(black_box(&q)));
            }
        }),
    );
    push(
        "pairing_prepared",
        pairing_prepared(&p, &prep).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(pairing_prepared(black_box(&p), &prep));
            }
        }),
    );
    let pairs = [(p, q), (p.neg(), q)];
    push(
        "multi_pairing (2)",
        multi_pairing(&pairs).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(multi_pairing(black_box(&pairs)));
            }
        }),
    );
    push(
        "Gt pow (constant time)",
        e.pow(&K).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(black_box(e).pow(&K));
            }
        }),
    );
    push(
        "Gt pow_vartime",
        e.pow_vartime(&K).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(black_box(e).pow_vartime(&K));
            }
        }),
    );
    let table = GtTable::new(&e);
    push(
        "GtTable pow (constant time)",
        table.pow(&K).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(table.pow(black_box(&K)));
            }
        }),
    );
}

/// Cases for the requested backends (and the `sm9_core` peer outside `--against` runs).
pub fn cases(backends: &[String], prefix: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for b in backends {
        with_backend!(b.as_str(), B => cases_for::<B>(&mut out, prefix));
        #[cfg(target_arch = "x86_64")]
        if b == "asm" {
            lane_cases::<sm_field::Asm>(&mut out, prefix);
        }
    }
    #[cfg(feature = "peers")]
    if prefix.is_empty() {
        peers(&mut out);
    }
    out
}

/// Eight pairings at once in the AVX-512 IFMA lanes (`sm_pairing::lanes`), reported per pairing
/// (`per_run` = 8), next to the scalar `pairing` row of the same backend; only where the CPU
/// has IFMA.
#[cfg(target_arch = "x86_64")]
fn lane_cases<B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    use super::sm_field::lanes::Ifma;
    use super::sm_pairing::lanes::pairing_lanes;
    let Some(t) = Ifma::detect() else {
        return;
    };
    // (±P1, P2) alternating (the lane code's time does not depend on the points).
    let p = G1Affine::<B>::GENERATOR;
    let q = G2Affine::<B>::GENERATOR;
    let pairs: [(G1Affine<B>, G2Affine<B>); 8] =
        core::array::from_fn(|i| (if i % 2 == 0 { p } else { p.neg() }, q));
    let e = pairing_lanes(t, &pairs);
    let ok = (0..8).all(|i| e[i] == pairing(&pairs[i].0, &pairs[i].1));
    out.push(Case {
        group: "pairing",
        op: "pairing ×8 in lanes (per pairing)".to_string(),
        variant: format!("{prefix}{}", B::NAME),
        output: vec![ok as u8],
        bytes: 0,
        per_run: 8,
        run: Box::new(move |n| {
            for _ in 0..n {
                black_box(pairing_lanes(t, black_box(&pairs)));
            }
        }),
    });
}

#[cfg(feature = "peers")]
fn peers(out: &mut Vec<Case>) {
    use sm9_core::{Fr, Group, G1, G2};
    // sm9_core's generators are GM/T 0044's P1 and P2; its GT encoding is checked against ours
    // through the harness's agreement check.
    let (p, q) = (G1::one(), G2::one());
    let e = sm9_core::pairing(p, q);
    let mut push = |op: &str, output: Vec<u8>, run: Box<dyn FnMut(u64)>| {
        out.push(Case::new("pairing", op, "sm9_core", 0, output, run))
    };
    push(
        "pairing",
        e.to_slice().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(sm9_core::pairing(black_box(p), black_box(q)));
            }
        }),
    );
    let mut kb = [0u8; 32];
    for (i, l) in K.iter().enumerate() {
        kb[24 - 8 * i..32 - 8 * i].copy_from_slice(&l.to_be_bytes());
    }
    let k = Fr::from_slice(&kb).expect("K < n");
    push(
        "Gt pow (constant time)",
        e.pow(k).to_slice().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(black_box(e).pow(k));
            }
        }),
    );
}
