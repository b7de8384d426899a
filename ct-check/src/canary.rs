//! The deliberate leaks that show the checks work: memcheck must report both (`cargo xtask ct`
//! fails if it does not) and dudect flags them (`--only canary`). They test the checker, not the
//! libraries, so they live here and not in the operation catalogue.

use sm_catalogue::{Op, Prepared, Secret};
use sm_field::{Backend, Fp, Sm2P};

/// Branches on a secret bit and indexes a table with a secret byte.
fn canary(s: &Secret) -> Prepared {
    let key = s.key;
    Prepared::new(
        move || {
            let table: Vec<u64> = (0..256u64)
                .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .collect();
            let mut acc = table[usize::from(key[0])];
            if key[31] & 2 != 0 {
                for i in 0..2000u64 {
                    acc = core::hint::black_box(acc.rotate_left(7) ^ i);
                }
            }
            acc.to_be_bytes().to_vec()
        },
        |_, _| Ok(()),
    )
}

/// A deliberate leak of the same two kinds whose secret passes through a backend field
/// multiplication first (on `asm`, the MULX/ADX kernels): memcheck must still track the secret
/// through the limb code, or the leak after it would go unseen.
fn canary_field_mul<B: Backend>(s: &Secret) -> Prepared {
    let a = Fp::<Sm2P, B>::from_bytes_reduced(&s.key);
    Prepared::new(
        move || {
            let b = (a * Fp::from_u64(0x9E37_79B9)).to_bytes();
            let table: Vec<u64> = (0..256u64)
                .map(|i| i.wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .collect();
            let mut acc = table[usize::from(b[0])];
            if b[31] & 2 != 0 {
                for i in 0..2000u64 {
                    acc = core::hint::black_box(acc.rotate_left(7) ^ i);
                }
            }
            acc.to_be_bytes().to_vec()
        },
        |_, _| Ok(()),
    )
}

/// The canaries on the backend `B`.
pub fn ops<B: Backend>() -> Vec<Op> {
    vec![
        Op::secret(
            "canary.secret_branch",
            "a secret bit and byte (a deliberate leak)",
            canary,
            false,
        ),
        Op::secret(
            "canary.field_mul",
            "a secret bit and byte of a·c in GF(p) (a deliberate leak after a backend mul)",
            canary_field_mul::<B>,
            false,
        ),
    ]
}
