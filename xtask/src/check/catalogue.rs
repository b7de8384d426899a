//! The operation catalogue (`sm-catalogue`) across backends: every operation, secret and
//! public, from the same secrets on `U64` and on each named backend, outputs compared byte for
//! byte after each passed its independent check.

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use sm_catalogue::{all, Class, Secret};
use sm_field::{Backend, U64};

/// Every operation's output for each secret, checked.
fn outputs<B: Backend>(secrets: &[Secret]) -> Result<Vec<(&'static str, Vec<u8>)>, String> {
    let mut out = Vec::new();
    for op in all::<B>() {
        for s in secrets {
            let mut p = (op.setup)(s);
            let o = (p.run)();
            (p.check)(s, &o).map_err(|e| format!("catalogue {} on {}: {e}", op.name, B::NAME))?;
            out.push((op.name, o));
        }
    }
    Ok(out)
}

pub fn run(runs: usize, seed: u64, backends: &[String]) -> Result<(), String> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut secrets = vec![Secret::new(Class::Fixed, &mut rng)];
    secrets.extend((0..runs).map(|_| Secret::new(Class::Random, &mut rng)));
    let want = outputs::<U64>(&secrets)?;
    for b in backends {
        let got = super::with_backend!(b.as_str(), B => outputs::<B>(&secrets))?;
        if let Some((w, g)) = want.iter().zip(&got).find(|(w, g)| w != g) {
            return Err(format!(
                "catalogue {} on {b} differs from u64: {:?} vs {:?}",
                w.0, g.1, w.1
            ));
        }
    }
    println!(
        "ok  operation catalogue ({} operations, {} secrets), every backend = u64",
        want.len() / secrets.len(),
        secrets.len()
    );
    Ok(())
}
