//! Known-answer test data for the workspace, copied from `shared/vectors` (see `data/PROVENANCE.md`).
//!
//! The JSON files are embedded verbatim; [`sm2_sm3`], [`sm9`] and [`gmssl`] parse them on demand, and
//! [`hex()`] / [`hex_at`] decode the hex strings they hold.
#![forbid(unsafe_code)]

pub mod peers;

/// An RNG whose every draw fails: for tests that an RNG failure surfaces as an error, never a
/// signature.
pub struct FailingRng;

impl rand_core::TryRng for FailingRng {
    type Error = core::fmt::Error;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        Err(core::fmt::Error)
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Err(core::fmt::Error)
    }
    fn try_fill_bytes(&mut self, _: &mut [u8]) -> Result<(), Self::Error> {
        Err(core::fmt::Error)
    }
}

impl rand_core::TryCryptoRng for FailingRng {}

use serde_json::Value;

/// Raw text of `sm2-sm3-vectors.json` (SM3, HMAC-SM3, ZA preimages, SM2 examples).
pub const SM2_SM3_JSON: &str = include_str!("../data/sm2-sm3-vectors.json");
/// Raw text of `sm9-vectors.json` (GM/T 0044.5 annexes A–D, curve parameters, DER examples).
pub const SM9_JSON: &str = include_str!("../data/sm9-vectors.json");
/// Raw text of `gmssl-kat-sample.json` (GmSSL 3.3 generated cases with recorded randomness).
pub const GMSSL_JSON: &str = include_str!("../data/gmssl-kat-sample.json");

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("embedded vector file is valid JSON")
}

/// Parsed `sm2-sm3-vectors.json`.
pub fn sm2_sm3() -> Value {
    parse(SM2_SM3_JSON)
}

/// Parsed `sm9-vectors.json`.
pub fn sm9() -> Value {
    parse(SM9_JSON)
}

/// Parsed `gmssl-kat-sample.json`.
pub fn gmssl() -> Value {
    parse(GMSSL_JSON)
}

/// Decodes a hex string (either case); panics on malformed test data.
pub fn hex(s: &str) -> Vec<u8> {
    ::hex::decode(s).unwrap_or_else(|e| panic!("bad hex in test vector {s:?}: {e}"))
}

/// Decodes the hex string found at a JSON pointer (`/curve/p`) of `v`; panics if absent.
pub fn hex_at(v: &Value, pointer: &str) -> Vec<u8> {
    let s = v
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string at {pointer}"));
    hex(s)
}

/// The limb backends a cross-backend test binary must have compiled when `cargo xtask test`
/// runs it (it sets `SM_EXPECT_ALL_BACKENDS=1` and passes the `all-backends` features
/// explicitly): `u32`, `u64`, and `asm` on x86_64 and aarch64.
pub const ALL_BACKENDS: &[&str] = &[
    "u32",
    "u64",
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    "asm",
];

/// Says which backend suites `suite` compiled (one line written to stderr directly, so not
/// captured by the test harness) and, when `SM_EXPECT_ALL_BACKENDS=1`, panics unless every one
/// of [`ALL_BACKENDS`] is among them: a build that lost a backend's feature then fails instead
/// of running fewer suites.
pub fn expect_backends(suite: &str, compiled: &[&str]) {
    use std::io::Write;
    let expect = std::env::var("SM_EXPECT_ALL_BACKENDS").is_ok_and(|v| v == "1");
    let missing: Vec<&str> = ALL_BACKENDS
        .iter()
        .copied()
        .filter(|b| !compiled.contains(b))
        .collect();
    writeln!(
        std::io::stderr(),
        "{suite}: backend suites {compiled:?} (all expected: {expect})"
    )
    .expect("stderr");
    assert!(
        !expect || missing.is_empty(),
        "{suite}: SM_EXPECT_ALL_BACKENDS=1 but the suites of {missing:?} were not compiled \
         (build with --features all-backends)"
    );
}

/// Whether the tests of a backend that needs CPU instructions (`sm_field::Mulx`, `MulxIfma`) run
/// here: `runs_here` is the CPU probe's answer. Where the CPU lacks them, only the declaration
/// `env=0` (`cargo xtask test` sets `SM_EXPECT_MULX` / `SM_EXPECT_IFMA` from /proc/cpuinfo) skips
/// them, with a line on stderr; anything else panics, so a backend is never skipped silently.
/// `env=1` on a CPU without them panics too.
pub fn backend_runs_here(backend: &str, runs_here: bool, env: &str) -> bool {
    use std::io::Write;
    let declared = std::env::var(env).ok();
    writeln!(
        std::io::stderr(),
        "backend {backend}: {}",
        if runs_here {
            "kernels run on this CPU"
        } else {
            "NOT RUN (this CPU lacks its instructions)"
        }
    )
    .expect("stderr");
    assert!(
        runs_here || declared.as_deref() != Some("1"),
        "{backend}: {env}=1 but this CPU lacks the backend's instructions"
    );
    assert!(
        runs_here || declared.as_deref() == Some("0"),
        "{backend}: this CPU lacks the backend's instructions; set {env}=0 to declare that \
         (a backend is never skipped silently)"
    );
    runs_here
}

/// [`backend_runs_here`] for a CPU-feature token (such as `sm_field::lanes::Ifma`): the token
/// where the CPU has the feature; `None` where it lacks it and `env=0` declares that; a panic
/// otherwise.
pub fn token_runs_here<T>(what: &str, token: Option<T>, env: &str) -> Option<T> {
    let runs = backend_runs_here(what, token.is_some(), env);
    token.filter(|_| runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_parse_and_hold_expected_groups() {
        assert!(sm2_sm3().get("sm3").is_some());
        assert!(sm9().get("sign_annexA").is_some());
        assert!(gmssl().get("sm9").is_some());
        assert_eq!(hex_at(&sm9(), "/curve/p").len(), 32);
        assert_eq!(hex("0aFF"), vec![0x0a, 0xff]);
    }
}
