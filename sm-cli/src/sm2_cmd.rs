//! `smtool sm2 …`: keys, signatures and encryption (GB/T 32918).

use getrandom::SysRng;
use rand_core::UnwrapErr;
use sm3::digest::Digest as _;
use zeroize::Zeroizing;

use crate::cli::{
    Pkcs8Layout, Sm2Command, Sm2CtFormat, Sm2Decrypt, Sm2Encrypt, Sm2Keygen, Sm2Pubkey,
    Sm2SigFormat, Sm2Sign, Sm2Verify,
};
use crate::error::{quote, Error, Result};
use crate::io::{self, Encoding};
use crate::keys::{self, Pbe};

/// Runs an `smtool sm2` subcommand.
pub fn run(c: Sm2Command) -> Result<()> {
    match c {
        Sm2Command::Keygen(a) => keygen(&a),
        Sm2Command::Pubkey(a) => pubkey(&a),
        Sm2Command::Show(a) => crate::show::sm2(&a),
        Sm2Command::Sign(a) => sign(&a),
        Sm2Command::Verify(a) => verify(&a),
        Sm2Command::Encrypt(a) => encrypt(&a),
        Sm2Command::Decrypt(a) => decrypt(&a),
        Sm2Command::Exchange(a) => crate::exchange::sm2(&a),
    }
}

fn lib_err(what: &str, e: impl core::fmt::Display) -> Error {
    Error::Input(format!("{what}: {e}"))
}

fn keygen(a: &Sm2Keygen) -> Result<()> {
    let mut outputs = vec![("--out", a.out.as_path(), true)];
    if let Some(p) = &a.pubout {
        outputs.push(("--pubout", p.as_path(), false));
    }
    io::check_single_stdin(&[a.pass.reader()])?;
    let pw = a.pass.password()?;
    if pw.is_none() && a.pbe.is_some() {
        return Err(Error::Usage(
            "--pbe encrypts the key with a password: give --out-pass-env VAR or --out-pass-file FILE"
                .into(),
        ));
    }
    let outs = io::Outputs::plan(&outputs)?;
    let sk = sm2::SecretKey::random(&mut UnwrapErr(SysRng));
    let pki = match a.pkcs8_layout {
        Pkcs8Layout::Openssl => keys::sm2_pkcs8(&sk)?,
        Pkcs8Layout::Gmssl => Zeroizing::new(
            sk.to_pkcs8_der_gmssl()
                .map_err(|e| lib_err("cannot encode the key", e))?
                .as_bytes()
                .to_vec(),
        ),
    };
    let scheme = match a.pbe.unwrap_or_default() {
        Pbe::Gmssl => sm_pbes2::Scheme::GmSsl,
        Pbe::Openssl => sm_pbes2::Scheme::OpenSsl,
    };
    let encrypted = pw
        .map(|pw| {
            sm_pbes2::encrypt_random(&mut UnwrapErr(SysRng), &pki, scheme, &pw)
                .map_err(|e| lib_err("cannot encrypt the key", e))
        })
        .transpose()?;
    let fmt = a.key_out.key_format;
    let key = keys::private_bytes(fmt, &pki, encrypted)?;
    let spki = keys::der_bytes(fmt, "PUBLIC KEY", &keys::sm2_spki(sk.public_key())?)?;
    let data = [(&key[..], Encoding::Raw), (&spki[..], Encoding::Raw)];
    outs.commit(&data[..outputs.len()])
}

fn pubkey(a: &Sm2Pubkey) -> Result<()> {
    io::check_single_stdin(&[("--key", Some(&a.key)), a.pass.reader()])?;
    let outs = io::Outputs::plan(&[("--out", &a.out, false)])?;
    let pk = keys::sm2_any_public(&a.key, &a.pass)?;
    let spki = keys::der_bytes(a.key_out.key_format, "PUBLIC KEY", &keys::sm2_spki(&pk)?)?;
    outs.commit(&[(&spki, Encoding::Raw)])
}

/// `e = SM3(ZA ‖ M)` with M streamed from `input` (GB/T 32918.2 §6.1 A1–A2).
fn prehash(za: &[u8; 32], input: &std::path::Path) -> Result<[u8; 32]> {
    let mut h = sm3::Sm3::new();
    h.update(za);
    io::stream(input, |c| h.update(c))?;
    Ok(h.finalize().into())
}

pub fn id_of(a: &crate::cli::IdArgs) -> Result<Vec<u8>> {
    let id = a.bytes(Some(sm2::DEFAULT_ID))?;
    if id.len() > sm2::MAX_ID_LEN {
        return Err(Error::Usage(format!(
            "the distinguishing ID is {} bytes; SM2 allows at most {}",
            id.len(),
            sm2::MAX_ID_LEN
        )));
    }
    Ok(id)
}

fn sign(a: &Sm2Sign) -> Result<()> {
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        a.id.reader(),
        ("--in", Some(&a.input.input)),
    ])?;
    let outs = io::Outputs::plan(&[("--out", &a.out.out, false)])?;
    let id = id_of(&a.id)?;
    let sk = keys::sm2_secret(&a.key, &a.pass)?;
    let signer = sm2::SigningKey::with_id(&sk, &id).map_err(|e| lib_err("bad ID", e))?;
    let e = prehash(signer.za(), &a.input.input)?;
    let sig = signer.sign_prehash_with_rng(&mut UnwrapErr(SysRng), &e);
    let bytes = match a.format {
        Sm2SigFormat::Der => sig.to_der(),
        Sm2SigFormat::Raw => sig.to_bytes().to_vec(),
    };
    outs.commit(&[(&bytes, a.out.encoding)])
}

fn verify(a: &Sm2Verify) -> Result<()> {
    io::check_single_stdin(&[
        ("--pubkey", Some(&a.pubkey)),
        a.id.reader(),
        ("--sig", Some(&a.sig)),
        ("--in", Some(&a.input.input)),
    ])?;
    let id = id_of(&a.id)?;
    let pk = keys::sm2_public(&a.pubkey)?;
    let vk = sm2::VerifyingKey::with_id(&pk, &id).map_err(|e| lib_err("bad ID", e))?;
    let sig_bytes = io::read_decoded(&a.sig, a.encoding, io::MAX_SMALL_INPUT, "the signature")?;
    let sig = match a.format {
        Sm2SigFormat::Der => sm2::Signature::from_der(&sig_bytes),
        Sm2SigFormat::Raw => sm2::Signature::from_bytes(&sig_bytes),
    }
    .map_err(|_| {
        Error::Failed(format!(
            "invalid signature: {} is not a valid {} SM2 signature (truncated or malformed)",
            quote(&a.sig),
            match a.format {
                Sm2SigFormat::Der => "DER",
                Sm2SigFormat::Raw => "64-byte r||s",
            }
        ))
    })?;
    let e = prehash(vk.za(), &a.input.input)?;
    vk.verify_prehash(&e, &sig)
        .map_err(|_| Error::Failed("signature verification failed".into()))?;
    if !a.quiet {
        io::print(b"Signature OK\n")?;
    }
    Ok(())
}

fn encrypt(a: &Sm2Encrypt) -> Result<()> {
    io::check_single_stdin(&[
        ("--pubkey", Some(&a.pubkey)),
        ("--in", Some(&a.input.input)),
    ])?;
    let outs = io::Outputs::plan(&[("--out", &a.out.out, false)])?;
    let pk = keys::sm2_public(&a.pubkey)?;
    // The message is encrypted where it lies: the file buffer is the only large allocation.
    let room = match a.format {
        Sm2CtFormat::Der => sm2::DER_OVERHEAD,
        _ => 65 + 32,
    };
    let mut buf = Zeroizing::new(io::read_with_room(
        &a.input.input,
        io::MAX_DATA,
        "plaintext",
        room,
    )?);
    if buf.is_empty() {
        return Err(Error::Input(
            "empty plaintext: SM2 encryption needs at least one byte".into(),
        ));
    }
    match a.format {
        Sm2CtFormat::Der => pk.encrypt_der_in_place(&mut UnwrapErr(SysRng), &mut buf),
        Sm2CtFormat::C1c3c2 => {
            pk.encrypt_in_place(&mut UnwrapErr(SysRng), &mut buf, sm2::Mode::C1C3C2)
        }
        Sm2CtFormat::C1c2c3 => {
            pk.encrypt_in_place(&mut UnwrapErr(SysRng), &mut buf, sm2::Mode::C1C2C3)
        }
    }
    .map_err(|e| lib_err("encryption failed", e))?;
    outs.commit(&[(&buf, a.out.encoding)])
}

/// Checks that `bytes` is a ciphertext in `format` (without copying it); when it is not one,
/// says what it looks like instead.
fn check_ciphertext(bytes: &[u8], format: Sm2CtFormat) -> Result<()> {
    let check = |f: Sm2CtFormat| match f {
        Sm2CtFormat::Der => sm2::Ciphertext::check_der(bytes),
        Sm2CtFormat::C1c3c2 => sm2::Ciphertext::check_bytes(bytes, sm2::Mode::C1C3C2),
        Sm2CtFormat::C1c2c3 => sm2::Ciphertext::check_bytes(bytes, sm2::Mode::C1C2C3),
    };
    check(format).map_err(|_| {
        let hint = match format {
            Sm2CtFormat::Der if check(Sm2CtFormat::C1c3c2).is_ok() => {
                "; it looks like a raw one (try --format c1c3c2 or --format c1c2c3)"
            }
            Sm2CtFormat::C1c3c2 | Sm2CtFormat::C1c2c3 if check(Sm2CtFormat::Der).is_ok() => {
                "; it looks like a DER one (try --format der)"
            }
            _ => " (truncated or malformed)",
        };
        Error::Failed(format!(
            "decryption failed: the input is not a {} SM2 ciphertext{hint}",
            format_name(format)
        ))
    })
}

fn decrypt(a: &Sm2Decrypt) -> Result<()> {
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        ("--in", Some(&a.input.input)),
    ])?;
    let outs = io::Outputs::plan(&[("--out", &a.out, true)])?;
    let sk = keys::sm2_secret(&a.key, &a.pass)?;
    let mut buf = Zeroizing::new(io::read_decoded(
        &a.input.input,
        a.encoding,
        io::MAX_DATA,
        "the ciphertext",
    )?);
    check_ciphertext(&buf, a.format)?;
    // Decrypted where it lies (the buffer is wiped on failure). The same message whichever
    // check failed; the hint names the only choice the user made.
    match a.format {
        Sm2CtFormat::Der => sk.decrypt_der_in_place(&mut buf),
        Sm2CtFormat::C1c3c2 => sk.decrypt_in_place(&mut buf, sm2::Mode::C1C3C2),
        Sm2CtFormat::C1c2c3 => sk.decrypt_in_place(&mut buf, sm2::Mode::C1C2C3),
    }
    .map_err(|_| {
        Error::Failed(match a.format {
            Sm2CtFormat::Der => "decryption failed (wrong key or corrupted ciphertext)".into(),
            _ => format!(
                "decryption failed (wrong key, corrupted ciphertext, or not {}: the other order is --format {})",
                format_name(a.format),
                match a.format {
                    Sm2CtFormat::C1c2c3 => "c1c3c2",
                    _ => "c1c2c3",
                }
            ),
        })
    })?;
    outs.commit(&[(&buf, Encoding::Raw)])
}

fn format_name(f: Sm2CtFormat) -> &'static str {
    match f {
        Sm2CtFormat::Der => "DER",
        Sm2CtFormat::C1c3c2 => "C1C3C2",
        Sm2CtFormat::C1c2c3 => "C1C2C3",
    }
}
