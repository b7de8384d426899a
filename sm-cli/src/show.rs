//! `smtool sm2 show` / `sm9 show`: what a key file holds, in the layout of `openssl pkey -text`
//! (`-text_pub` unless `--secret` asks for the secret).

use std::fmt::Write as _;

use zeroize::Zeroizing;

use crate::cli::ShowArgs;
use crate::error::Result;
use crate::io;
use crate::keys::{self, Sm9Any, Sm9Master, Sm9Public};

/// `label:` and `bytes` as OpenSSL prints a buffer: lines of 15 colon-separated hex bytes,
/// indented by four spaces.
fn hex_block(out: &mut String, label: &str, bytes: &[u8]) {
    let _ = writeln!(out, "{label}:");
    let lines: Vec<&[u8]> = bytes.chunks(15).collect();
    for (i, line) in lines.iter().enumerate() {
        let hex: Vec<String> = line.iter().map(|b| format!("{b:02x}")).collect();
        let end = if i + 1 < lines.len() { ":" } else { "" };
        let _ = writeln!(out, "    {}{end}", hex.join(":"));
    }
}

/// The secret, or a line saying it is not shown.
fn secret_block(out: &mut String, label: &str, bytes: &[u8], show: bool) {
    if show {
        hex_block(out, label, bytes);
    } else {
        let _ = writeln!(out, "{label}: (not shown; --secret prints it)");
    }
}

/// `smtool sm2 show`.
pub fn sm2(a: &ShowArgs) -> Result<()> {
    io::check_single_stdin(&[("--key", Some(&a.key)), a.pass.reader()])?;
    let (sk, pk) = keys::sm2_any(&a.key, &a.pass)?;
    let mut out = Zeroizing::new(String::new());
    match (&sk, a.secret) {
        (Some(sk), true) => {
            out.push_str("Private-Key: (256 bit)\n");
            hex_block(&mut out, "priv", &sk.to_bytes()[..]);
        }
        _ => out.push_str("Public-Key: (256 bit)\n"),
    }
    hex_block(&mut out, "pub", &pk.to_uncompressed());
    out.push_str("ASN1 OID: SM2\n");
    if sk.is_some() && !a.secret {
        secret_block(&mut out, "priv", &[], false);
    }
    io::print(out.as_bytes())
}

/// `smtool sm9 show`.
pub fn sm9(a: &ShowArgs) -> Result<()> {
    io::check_single_stdin(&[("--key", Some(&a.key)), a.pass.reader()])?;
    let key = keys::sm9_any(&a.key, &a.pass)?;
    let mut out = Zeroizing::new(String::new());
    let show = a.secret;
    match &key {
        Sm9Any::Master(Sm9Master::Sign(m)) => {
            out.push_str("SM9 signature master key (KGC)\n");
            secret_block(&mut out, "ks", &m.to_bytes()[..], show);
        }
        Sm9Any::Master(Sm9Master::Enc(m)) => {
            out.push_str("SM9 encryption master key (KGC)\n");
            secret_block(&mut out, "ke", &m.to_bytes()[..], show);
        }
        Sm9Any::SignUser(k) => {
            out.push_str("SM9 user signing key (hid 01)\n");
            secret_block(&mut out, "ds (G1)", &k.ds_bytes()[..], show);
        }
        Sm9Any::EncUser(k) => {
            out.push_str("SM9 user decryption key (hid 03)\n");
            secret_block(&mut out, "de (G2)", &k.de_bytes()[..], show);
        }
        Sm9Any::ExchangeUser(k) => {
            out.push_str("SM9 user key-exchange key (hid 02)\n");
            secret_block(&mut out, "de (G2)", &k.de_bytes()[..], show);
        }
        Sm9Any::Public(Sm9Public::Sign(_)) => out.push_str("SM9 signature master public key\n"),
        Sm9Any::Public(Sm9Public::Enc(_)) => out.push_str("SM9 encryption master public key\n"),
    }
    match key.master_public_key() {
        Sm9Public::Sign(p) => hex_block(&mut out, "Ppub-s (G2)", &p.to_bytes()),
        Sm9Public::Enc(p) => hex_block(&mut out, "Ppub-e (G1)", &p.to_bytes()),
    }
    io::print(out.as_bytes())
}
