//! The operation catalogue (`sm-catalogue`): every operation, secret and public, per backend
//! (`cargo xtask bench --backends u64,asm ops`). Each variant's output is first checked by the
//! catalogue's independent check; the outputs are deterministic functions of one fixed secret,
//! so backends and revisions (`--against REV ops`, for revisions that have the catalogue) must
//! agree byte for byte before they are timed.

use std::hint::black_box;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

use super::harness::{with_backend, Case};
use super::sm_catalogue::{self, Class, Secret};
use super::sm_field::{self, Backend};

/// Cases for the requested backends.
pub fn cases(backends: &[String], prefix: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for b in backends {
        with_backend!(b.as_str(), B => cases_for::<B>(&mut out, prefix));
    }
    out
}

fn cases_for<B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    let variant = format!("{prefix}{}", B::NAME);
    let secret = Secret::new(Class::Random, &mut ChaCha20Rng::seed_from_u64(17));
    for op in sm_catalogue::all::<B>() {
        let mut p = (op.setup)(&secret);
        let output = (p.run)();
        if let Err(e) = (p.check)(&secret, &output) {
            panic!("{} on {variant}: {e}", op.name);
        }
        let run = move |n: u64| {
            for _ in 0..n {
                black_box((p.run)());
            }
        };
        out.push(Case::new(
            "ops",
            op.name,
            &variant,
            0,
            output,
            Box::new(run),
        ));
    }
}
