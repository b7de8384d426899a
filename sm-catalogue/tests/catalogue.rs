//! The catalogue on every backend of the target: each operation runs with random and with
//! fixed secrets and its output passes its independent check, the backends agree on the outputs
//! (the operations are deterministic functions of the secret), and the table is well formed.

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use sm_catalogue::{all, Class, Op, Secret};
use sm_field::Backend;

/// Every backend's catalogue that this CPU can run, by name (the assembly one where the CPU has
/// its instructions; on x86_64 an absence must be declared, `SM_EXPECT_MULX=0`).
fn catalogues() -> Vec<(&'static str, Vec<Op>)> {
    #[allow(unused_mut)]
    let mut v = vec![
        ("u32", all::<sm_field::U32>()),
        ("u64", all::<sm_field::U64>()),
    ];
    #[cfg(target_arch = "x86_64")]
    {
        use sm_field::backend::cpu;
        if sm_testvectors::backend_runs_here(
            sm_field::Mulx::NAME,
            cpu::has_mulx_adx(),
            "SM_EXPECT_MULX",
        ) {
            v.push(("mulx", all::<sm_field::Mulx>()));
        }
        // The IFMA backend (batched tower products) and the dispatching one.
        if sm_testvectors::backend_runs_here(
            sm_field::MulxIfma::NAME,
            cpu::has_mulx_adx() && cpu::has_ifma(),
            "SM_EXPECT_IFMA",
        ) {
            v.push(("mulx-ifma", all::<sm_field::MulxIfma>()));
        }
        v.push(("asm", all::<sm_field::Asm>()));
    }
    #[cfg(target_arch = "aarch64")]
    v.push(("aarch64", all::<sm_field::Aarch64>()));
    v
}

#[test]
fn every_operation_passes_its_check_and_backends_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(17);
    let secrets: Vec<Secret> = [Class::Fixed, Class::Random, Class::Random]
        .into_iter()
        .map(|c| Secret::new(c, &mut rng))
        .collect();
    let mut reference: Vec<Vec<u8>> = Vec::new();
    for (backend, ops) in catalogues() {
        let mut outputs = Vec::new();
        for op in &ops {
            for s in &secrets {
                let mut p = (op.setup)(s);
                let out = (p.run)();
                assert_eq!((p.check)(s, &out), Ok(()), "{} on {backend}", op.name);
                // A second run gives the same output: the timing loops rely on it.
                assert_eq!((p.run)(), out, "{} on {backend} twice", op.name);
                outputs.push(out);
            }
        }
        if reference.is_empty() {
            reference = outputs;
        } else {
            assert_eq!(outputs, reference, "{backend} differs from u32");
        }
    }
}

#[test]
fn names_are_unique_and_tables_agree() {
    let cats = catalogues();
    let key = |ops: &[Op]| -> Vec<_> {
        ops.iter()
            .map(|o| (o.name, o.secret, o.dudect_default))
            .collect()
    };
    let want = key(&cats[0].1);
    let mut names: Vec<_> = want.iter().map(|o| o.0).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), want.len());
    for (backend, ops) in &cats {
        assert_eq!(key(ops), want, "{backend}");
    }
    // Both kinds are present: the constant-time checks read one, the benchmarks both.
    assert!(want.iter().any(|o| o.1.is_none()));
    assert!(want.iter().filter(|o| o.1.is_some()).count() > 60);
    // Names are `group.operation`, the group one of the known ones.
    for (name, ..) in &want {
        let group = name.split('.').next().unwrap_or_default();
        assert!(
            ["field", "sm2", "sm9", "gt", "pairing", "sm4", "sm3"].contains(&group),
            "{name}"
        );
    }
}
