//! `smtool sm2 exchange` / `sm9 exchange`: two-party key agreement (GB/T 32918.3 §6.1, GM/T
//! 0044.3 §7) over byte streams. Each party runs one process that writes its messages to
//! `--send` and reads the peer's from `--recv` (standard output and input by default; FIFOs,
//! pipes or sockets): the ephemeral secrets never leave the process.
//!
//! Messages, fixed-length and unframed: A → B `R_A` (65 bytes, `04 ‖ x ‖ y`); B → A `R_B`
//! (65) and, confirmed, `S_B` (32); confirmed, A → B `S_A` (32). `--no-confirm` leaves out the
//! confirmation hashes (the optional steps of the standards; gmalg's exchange).

use std::io::{Read, Write};
use std::path::Path;

use getrandom::SysRng;
use rand_core::UnwrapErr;

use crate::cli::{ExchangeArgs, Role, Sm2Exchange, Sm9Exchange};
use crate::error::{quote, Error, Result};
use crate::io;
use crate::keys;

/// The two streams of one party, each opened when first used: the initiator opens `--send`
/// first and the responder `--recv`, so that two parties on FIFOs meet.
struct Channel<'a> {
    args: &'a ExchangeArgs,
    send: Option<Box<dyn Write>>,
    recv: Option<Box<dyn Read>>,
}

impl<'a> Channel<'a> {
    fn new(args: &'a ExchangeArgs) -> Self {
        Channel {
            args,
            send: None,
            recv: None,
        }
    }

    fn send(&mut self, parts: &[&[u8]]) -> Result<()> {
        let path = &self.args.send;
        let w = match &mut self.send {
            Some(w) => w,
            None => {
                let w: Box<dyn Write> = if io::is_stdout(path) {
                    Box::new(std::io::stdout())
                } else {
                    Box::new(
                        std::fs::OpenOptions::new()
                            .write(true)
                            .create(true)
                            .truncate(true)
                            .open(path)
                            .map_err(|e| Error::io(path, "open", &e))?,
                    )
                };
                self.send.insert(w)
            }
        };
        let err = |e| Error::Input(format!("cannot send to the peer: {e}"));
        for p in parts {
            w.write_all(p).map_err(err)?;
        }
        w.flush().map_err(err)
    }

    fn recv<const N: usize>(&mut self, what: &str) -> Result<[u8; N]> {
        let path = &self.args.recv;
        let r = match &mut self.recv {
            Some(r) => r,
            None => self.recv.insert(io::open(path)?),
        };
        let mut buf = [0u8; N];
        r.read_exact(&mut buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => Error::Failed(format!(
                "key exchange failed: {} ended before the peer's {what} ({N} bytes)",
                if path.as_os_str() == "-" {
                    "standard input".to_string()
                } else {
                    quote(path)
                }
            )),
            _ => Error::io(Path::new(path), "read", &e),
        })?;
        Ok(buf)
    }
}

fn check_len(len: usize) -> Result<()> {
    if len == 0 || len > 1 << 16 {
        return Err(Error::Usage(
            "--len must be between 1 and 65536 bytes".into(),
        ));
    }
    Ok(())
}

/// A failed agreement; the library's error is opaque and says no more.
fn failed<E>(_: E) -> Error {
    Error::Failed(
        "key exchange failed (different keys, IDs or master keys, a tampered message, or only one party with --no-confirm)".into(),
    )
}

/// `smtool sm2 exchange`.
pub fn sm2(a: &Sm2Exchange) -> Result<()> {
    let x = &a.exchange;
    check_len(x.len)?;
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        ("--recv", Some(&x.recv)),
    ])?;
    let outs = io::Outputs::plan(&[("--key-out", &x.key_out, true)])?;
    let own_id = x.own_id(Some(sm2::DEFAULT_ID))?;
    let peer_id = x.peer_id(Some(sm2::DEFAULT_ID))?;
    let sk = keys::sm2_secret(&a.key, &a.pass)?;
    let peer = keys::sm2_public(&a.pubkey)?;
    let bad_point = |e: sm2::Error| {
        Error::Failed(format!(
            "key exchange failed: the peer's point is invalid ({e})"
        ))
    };
    let mut ch = Channel::new(x);
    let key = match x.role() {
        Role::Initiator => {
            let init = sm2::exchange::Initiator::new(&sk, &own_id, &peer, &peer_id)
                .map_err(|e| Error::Usage(format!("bad ID: {e}")))?;
            let (waiting, ra) = init.start(&mut UnwrapErr(SysRng));
            ch.send(&[&ra.to_uncompressed()])?;
            let rb = ch.recv::<65>("R_B")?;
            let rb = sm2::PublicKey::from_sec1_bytes(&rb).map_err(bad_point)?;
            if x.no_confirm {
                waiting.finish_unconfirmed(&rb, x.len).map_err(failed)?
            } else {
                let sb = ch.recv::<32>("S_B")?;
                let (k, sa) = waiting.finish(&rb, &sb, x.len).map_err(failed)?;
                ch.send(&[&sa])?;
                k
            }
        }
        Role::Responder => {
            let resp = sm2::exchange::Responder::new(&sk, &own_id, &peer, &peer_id)
                .map_err(|e| Error::Usage(format!("bad ID: {e}")))?;
            let ra = ch.recv::<65>("R_A")?;
            let ra = sm2::PublicKey::from_sec1_bytes(&ra).map_err(bad_point)?;
            if x.no_confirm {
                let (k, rb) = resp
                    .respond_unconfirmed(&mut UnwrapErr(SysRng), &ra, x.len)
                    .map_err(failed)?;
                ch.send(&[&rb.to_uncompressed()])?;
                k
            } else {
                let (waiting, rb, sb) = resp
                    .respond(&mut UnwrapErr(SysRng), &ra, x.len)
                    .map_err(failed)?;
                ch.send(&[&rb.to_uncompressed(), &sb])?;
                let sa = ch.recv::<32>("S_A")?;
                waiting.confirm(&sa).map_err(failed)?
            }
        }
    };
    outs.commit(&[(&key, x.encoding)])
}

/// `smtool sm9 exchange`.
pub fn sm9(a: &Sm9Exchange) -> Result<()> {
    let x = &a.exchange;
    check_len(x.len)?;
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        ("--recv", Some(&x.recv)),
    ])?;
    let outs = io::Outputs::plan(&[("--key-out", &x.key_out, true)])?;
    let own_id = x.own_id(None)?;
    let peer_id = x.peer_id(None)?;
    let key = match keys::sm9_any(&a.key, &a.pass)? {
        keys::Sm9Any::ExchangeUser(k) => k,
        _ => {
            return Err(Error::Input(format!(
                "wrong key type: {} is not an SM9 user key-exchange key (extract one with 'smtool sm9 extract --exchange')",
                quote(&a.key)
            )))
        }
    };
    let master = key.master_public_key().prepare();
    let prepared = key.prepare();
    let bad_point = |e: sm9::Error| {
        Error::Failed(format!(
            "key exchange failed: the peer's point is invalid ({e})"
        ))
    };
    let mut ch = Channel::new(x);
    let shared = match x.role() {
        Role::Initiator => {
            let (init, ra) = sm9::Initiator::start(
                &prepared,
                &master,
                &own_id,
                &peer_id,
                &mut UnwrapErr(SysRng),
            )
            .map_err(failed)?;
            ch.send(&[&ra.to_bytes()])?;
            let rb = ch.recv::<65>("R_B")?;
            let rb = sm9::EphemeralPoint::from_bytes(&rb).map_err(bad_point)?;
            if x.no_confirm {
                init.finish(&rb, None, x.len).map_err(failed)?.0
            } else {
                let sb = ch.recv::<32>("S_B")?;
                let (k, sa) = init.finish(&rb, Some(&sb), x.len).map_err(failed)?;
                ch.send(&[&sa])?;
                k
            }
        }
        Role::Responder => {
            let ra = ch.recv::<65>("R_A")?;
            let ra = sm9::EphemeralPoint::from_bytes(&ra).map_err(bad_point)?;
            let (resp, rb, sb) = sm9::Responder::respond(
                &prepared,
                &master,
                &own_id,
                &peer_id,
                &ra,
                &mut UnwrapErr(SysRng),
            )
            .map_err(failed)?;
            if x.no_confirm {
                ch.send(&[&rb.to_bytes()])?;
                resp.finish_unconfirmed(x.len).map_err(failed)?
            } else {
                ch.send(&[&rb.to_bytes(), &sb])?;
                let sa = ch.recv::<32>("S_A")?;
                resp.confirm(&sa, x.len).map_err(failed)?
            }
        }
    };
    outs.commit(&[(&shared, x.encoding)])
}
