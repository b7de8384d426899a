//! `sm-catalogue list`: every operation of the catalogue and what is secret in it.
//! `sm-catalogue outputs DIR`: every operation's output (signatures, ciphertexts, DER and PEM
//! keys, key-exchange messages, verdicts) for a fixed and two random secrets, one file per
//! output, `DIR/<operation>-<n>.bin`: `fuzz/seed.py` adds them to every fuzz target's seeds.

use std::process::ExitCode;

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use sm_catalogue::{all, Class, Secret};
use sm_field::U64;

fn outputs(dir: &std::path::Path) -> Result<usize, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
    let secrets: Vec<Secret> = [Class::Fixed, Class::Random, Class::Random]
        .into_iter()
        .map(|c| Secret::new(c, &mut rng))
        .collect();
    let mut n = 0;
    for op in all::<U64>() {
        for (i, s) in secrets.iter().enumerate() {
            let mut p = (op.setup)(s);
            let out = (p.run)();
            (p.check)(s, &out).map_err(|e| format!("{}: {e}", op.name))?;
            let path = dir.join(format!("{}-{i}.bin", op.name));
            std::fs::write(&path, &out).map_err(|e| format!("{}: {e}", path.display()))?;
            n += 1;
        }
    }
    Ok(n)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>()[..] {
        ["list"] => {
            for op in all::<U64>() {
                println!("{:<36} {}", op.name, op.secret.unwrap_or("(public)"));
            }
            ExitCode::SUCCESS
        }
        ["outputs", dir] => match outputs(dir.as_ref()) {
            Ok(n) => {
                println!("wrote {n} outputs to {dir}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("sm-catalogue: {e}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!("usage: sm-catalogue list | sm-catalogue outputs DIR");
            ExitCode::from(2)
        }
    }
}
