//! The workspace's operation catalogue (issue 17): every SM2, SM3/SM4 and SM9 operation that
//! handles a secret, the public ones the benchmarks time (verification, pairings of public
//! points), and the primitives under them, each with
//!
//! * a stable name (`group.operation`),
//! * what is secret in it ([`Op::secret`]; `None` for an operation on public data only),
//! * a set-up from a [`Secret`] (32 bytes of key material and a 32-byte seed for every nonce the
//!   operation draws) that builds whatever objects the operation needs and returns the operation
//!   itself as a closure ([`Prepared::run`]) with an output check against an independent
//!   computation ([`Prepared::check`]),
//! * its limb backend: [`all::<B>`](all) is the whole catalogue on `B`. Every operation names
//!   `B` through the generic types (`sm2::generic::SigningKey<B>`, `sm9::generic::SignMasterKey<B>`,
//!   `Fp<M, B>`, `Sm2Curve<B>`, `Gt<B>`, ...), never through a `DefaultBackend` alias, so the
//!   whole protocol stack under an operation runs on `B`.
//!
//! Its readers:
//!
//! * `ct-check` (memcheck and dudect) runs the operations with a secret. Under memcheck it
//!   installs [`marks::Marker`] hooks and marks the whole [`Secret`] undefined before `setup`, so
//!   set-up (key parsing, key derivation, precomputation from secrets) is checked too, and every
//!   value computed from it stays "secret" until declassified. Declassifications inside the
//!   catalogue happen only where the algorithm publishes a value: public keys, master public
//!   keys, ephemeral points and confirmation tags sent to the peer, signatures and ciphertexts
//!   returned to the caller; each one is marked `// DECLASSIFY:` with its reason. The dudect
//!   test times only the closure, for a fixed and a random [`Secret`].
//! * `cargo xtask check` runs every operation on each named backend and compares the outputs
//!   with `U64`'s; `cargo xtask bench ops` and the criterion bench `sm-benches/ops` time the
//!   closures, per backend, after checking one output.
//! * The fuzz seeds (`fuzz/seed.py`) include every operation's output (`sm-catalogue outputs`):
//!   valid signatures, ciphertexts, DER and PEM keys, key-exchange messages.

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use sm_field::Backend;

mod coverage;
pub mod marks;
mod primitives;
mod public_ops;
mod sm2_ops;
mod sm4_ops;
mod sm9_ops;

/// The secret inputs of one run.
#[derive(Clone)]
pub struct Secret {
    /// Key material (a scalar, a private key, a password), big-endian, top bit clear so that
    /// it is below every modulus here (all four have their top bit set).
    pub key: [u8; 32],
    /// Seed of the operation's nonce generator (ChaCha20): nonces derived from it are secret.
    pub seed: [u8; 32],
}

/// A dudect input class.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The same secret every time: key 1 (a small scalar, the classic trigger of
    /// leading-zero shortcuts) and an all-zero nonce seed.
    Fixed,
    /// Fresh uniform secrets.
    Random,
}

impl Secret {
    /// The secret of `class`, drawing from `rng` for [`Class::Random`].
    pub fn new(class: Class, rng: &mut impl Rng) -> Self {
        let mut s = Secret {
            key: [0; 32],
            seed: [0; 32],
        };
        match class {
            Class::Fixed => s.key[31] = 1,
            Class::Random => {
                rng.fill_bytes(&mut s.key);
                rng.fill_bytes(&mut s.seed);
                s.key[0] &= 0x7f;
                s.key[31] |= 1; // nonzero
            }
        }
        s
    }

    /// The operation's nonce generator (secret when `seed` is).
    pub fn rng(&self) -> ChaCha20Rng {
        ChaCha20Rng::from_seed(self.seed)
    }
}

/// A public generator for values that are public in the protocol (a peer's ephemeral key,
/// a public salt): its output is never classified.
pub fn public_rng(tag: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(0x5EC0_0000 ^ tag)
}

/// An output check (see [`Prepared::check`]).
pub type Check = Box<dyn Fn(&Secret, &[u8]) -> Result<(), String>>;

/// The runnable part of an operation.
pub struct Prepared {
    /// Does the operation; returns its output (secret outputs included: the harness
    /// declassifies the whole output afterwards, before checking or printing it).
    pub run: Box<dyn FnMut() -> Vec<u8>>,
    /// Checks the output against an independent computation from the secret. Runs after the
    /// harness has declassified both (it is not part of the checked region).
    pub check: Check,
}

impl Prepared {
    /// An operation with an output check.
    pub fn new(
        run: impl FnMut() -> Vec<u8> + 'static,
        check: impl Fn(&Secret, &[u8]) -> Result<(), String> + 'static,
    ) -> Self {
        Self {
            run: Box::new(run),
            check: Box::new(check),
        }
    }
}

/// One checked operation.
pub struct Op {
    /// Short stable name (`group.operation`).
    pub name: &'static str,
    /// What is secret in it; `None` for an operation on public data only (verification, a
    /// pairing of public points), which the constant-time checks skip.
    pub secret: Option<&'static str>,
    /// Builds the secret objects and the closure.
    pub setup: fn(&Secret) -> Prepared,
    /// Timed by `--dudect` by default (operations of a few ms are only timed on request).
    pub dudect_default: bool,
}

impl Op {
    /// An operation with secret inputs (`secret` says which).
    pub fn secret(
        name: &'static str,
        secret: &'static str,
        setup: fn(&Secret) -> Prepared,
        dudect_default: bool,
    ) -> Self {
        Op {
            name,
            secret: Some(secret),
            setup,
            dudect_default,
        }
    }

    /// An operation on public data only.
    pub fn public(name: &'static str, setup: fn(&Secret) -> Prepared) -> Self {
        Op {
            name,
            secret: None,
            setup,
            dudect_default: false,
        }
    }
}

/// Every operation on the backend `B`, in report order (the SM4 operations have no field
/// arithmetic and are the same on every backend; they are in every backend's catalogue so that
/// each row of a report is complete).
pub fn all<B: Backend>() -> Vec<Op> {
    let mut v = primitives::ops::<B>();
    v.extend(sm2_ops::ops::<B>());
    v.extend(sm9_ops::ops::<B>());
    v.extend(coverage::ops::<B>());
    v.extend(sm4_ops::ops());
    v.extend(public_ops::ops::<B>());
    v
}

/// `Ok` when `cond`, else `Err(msg)`.
pub fn ensure(cond: bool, msg: &str) -> Result<(), String> {
    if cond {
        Ok(())
    } else {
        Err(msg.to_string())
    }
}
