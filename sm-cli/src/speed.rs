//! `smtool speed`: operations per second (and MB/s for the symmetric ones) on this machine, as
//! `openssl speed` reports them. A quick look, not a benchmark: `cargo xtask bench` measures
//! with criterion, pinned and repeated.

use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};

use getrandom::SysRng;
use rand_core::UnwrapErr;

use crate::cli::{SpeedAlg, SpeedArgs};
use crate::error::{Error, Result};
use crate::io;
use crate::sm4_cmd::Engine;

/// Runs `op` repeatedly for `time`; returns operations per second.
fn rate(time: Duration, mut op: impl FnMut()) -> f64 {
    op(); // warm-up (tables, first-use initialisation)
    let start = Instant::now();
    let mut n = 0u64;
    while start.elapsed() < time {
        op();
        n += 1;
    }
    n as f64 / start.elapsed().as_secs_f64()
}

/// Bytes per symmetric operation.
const BUF: usize = 16 * 1024;

/// `smtool speed`.
pub fn run(a: &SpeedArgs) -> Result<()> {
    if !(a.seconds > 0.0 && a.seconds <= 60.0) {
        return Err(Error::Usage("--seconds must be in (0, 60]".into()));
    }
    let time = Duration::from_secs_f64(a.seconds);
    let algs: Vec<SpeedAlg> = if a.algs.is_empty() {
        use clap::ValueEnum as _;
        SpeedAlg::value_variants().to_vec()
    } else {
        a.algs.clone()
    };
    let data = vec![0x5au8; BUF];
    let msg = b"smtool speed";
    let sm2_sk = sm2::SecretKey::random(&mut UnwrapErr(SysRng));
    let sm2_pk = *sm2_sk.public_key();
    let signer = sm2::SigningKey::with_id(&sm2_sk, sm2::DEFAULT_ID).expect("default ID");
    let verifier = sm2::VerifyingKey::with_id(&sm2_pk, sm2::DEFAULT_ID).expect("default ID");
    let e = [7u8; 32];
    let sm2_sig = signer.sign_prehash_with_rng(&mut UnwrapErr(SysRng), &e);
    let sm2_ct = sm2_pk
        .encrypt_der(&mut UnwrapErr(SysRng), msg)
        .map_err(|e| Error::Input(format!("SM2 encryption: {e}")))?;
    let kgc_s = sm9::SignMasterKey::generate(&mut UnwrapErr(SysRng));
    let mpk_s = kgc_s.public_key().prepare();
    let user_s = kgc_s
        .extract(b"alice")
        .map_err(|e| Error::Input(format!("SM9: {e}")))?;
    let sm9_sig = sm9::sign(&user_s, &mpk_s, msg, &mut UnwrapErr(SysRng))
        .map_err(|e| Error::Input(format!("SM9: {e}")))?;
    let kgc_e = sm9::EncMasterKey::generate(&mut UnwrapErr(SysRng));
    let mpk_e = kgc_e.public_key().prepare();
    let user_e = kgc_e
        .extract(b"bob")
        .map_err(|e| Error::Input(format!("SM9: {e}")))?
        .prepare();
    let (mode, mac) = (sm9::EncryptionMode::KdfStream, sm9::MacMode::Sm3);
    let sm9_ct = sm9::encrypt(&mpk_e, b"bob", msg, mode, mac, &mut UnwrapErr(SysRng))
        .map_err(|e| Error::Input(format!("SM9: {e}")))?;

    let mut out = String::from("algorithm          ops/s        MB/s\n");
    for alg in algs {
        let sym = |mode: crate::cli::Sm4Mode| {
            let mut buf = Vec::with_capacity(BUF + 32);
            rate(time, || {
                let mut engine = Engine::new(mode, false, &[1; 16], &[2; 16][..iv_len(mode)], &[]);
                buf.clear();
                engine.update(&data, &mut buf);
                let _ = engine.finish(&mut buf);
                black_box(&buf);
            })
        };
        let (name, ops, bytes) = match alg {
            SpeedAlg::Sm3 => (
                "sm3",
                rate(time, || {
                    black_box(<sm3::Sm3 as sm3::digest::Digest>::digest(&data));
                }),
                BUF,
            ),
            SpeedAlg::Sm4Cbc => ("sm4-cbc", sym(crate::cli::Sm4Mode::Cbc), BUF),
            SpeedAlg::Sm4Ctr => ("sm4-ctr", sym(crate::cli::Sm4Mode::Ctr), BUF),
            SpeedAlg::Sm4Gcm => ("sm4-gcm", sym(crate::cli::Sm4Mode::Gcm), BUF),
            SpeedAlg::Sm2Sign => (
                "sm2 sign",
                rate(time, || {
                    black_box(signer.sign_prehash_with_rng(&mut UnwrapErr(SysRng), &e));
                }),
                0,
            ),
            SpeedAlg::Sm2Verify => (
                "sm2 verify",
                rate(time, || {
                    black_box(verifier.verify_prehash(&e, &sm2_sig).is_ok());
                }),
                0,
            ),
            SpeedAlg::Sm2Encrypt => (
                "sm2 encrypt",
                rate(time, || {
                    black_box(sm2_pk.encrypt_der(&mut UnwrapErr(SysRng), msg).is_ok());
                }),
                0,
            ),
            SpeedAlg::Sm2Decrypt => (
                "sm2 decrypt",
                rate(time, || {
                    black_box(sm2_sk.decrypt_der(&sm2_ct).is_ok());
                }),
                0,
            ),
            SpeedAlg::Sm9Sign => (
                "sm9 sign",
                rate(time, || {
                    black_box(sm9::sign(&user_s, &mpk_s, msg, &mut UnwrapErr(SysRng)).is_ok());
                }),
                0,
            ),
            SpeedAlg::Sm9Verify => (
                "sm9 verify",
                rate(time, || {
                    black_box(sm9::verify(&mpk_s, b"alice", msg, &sm9_sig).is_ok());
                }),
                0,
            ),
            SpeedAlg::Sm9Encrypt => (
                "sm9 encrypt",
                rate(time, || {
                    black_box(
                        sm9::encrypt(&mpk_e, b"bob", msg, mode, mac, &mut UnwrapErr(SysRng))
                            .is_ok(),
                    );
                }),
                0,
            ),
            SpeedAlg::Sm9Decrypt => (
                "sm9 decrypt",
                rate(time, || {
                    black_box(sm9::decrypt(&user_e, b"bob", &sm9_ct, mac).is_ok());
                }),
                0,
            ),
        };
        let mbs = if bytes > 0 {
            format!("{:11.1}", ops * bytes as f64 / 1e6)
        } else {
            format!("{:>11}", "-")
        };
        let _ = writeln!(out, "{name:<12} {ops:>11.1} {mbs}");
    }
    io::print(out.as_bytes())
}

fn iv_len(mode: crate::cli::Sm4Mode) -> usize {
    if mode == crate::cli::Sm4Mode::Gcm {
        12
    } else {
        16
    }
}
