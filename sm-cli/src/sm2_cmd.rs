//! `smtool sm2 …`: keys, signatures and encryption (GB/T 32918).

use rand_core::OsRng;
use sm3::digest::Digest as _;
use zeroize::Zeroizing;

use crate::cli::{
    Sm2Command, Sm2CtFormat, Sm2Decrypt, Sm2Encrypt, Sm2Keygen, Sm2Pubkey, Sm2SigFormat, Sm2Sign,
    Sm2Verify,
};
use crate::error::{Error, Result};
use crate::io;
use crate::keys::{self, Pbe};

/// Runs an `smtool sm2` subcommand.
pub fn run(c: Sm2Command) -> Result<()> {
    match c {
        Sm2Command::Keygen(a) => keygen(&a),
        Sm2Command::Pubkey(a) => pubkey(&a),
        Sm2Command::Sign(a) => sign(&a),
        Sm2Command::Verify(a) => verify(&a),
        Sm2Command::Encrypt(a) => encrypt(&a),
        Sm2Command::Decrypt(a) => decrypt(&a),
    }
}

fn lib_err(what: &str, e: sm2::Error) -> Error {
    Error::Input(format!("{what}: {e}"))
}

fn keygen(a: &Sm2Keygen) -> Result<()> {
    if let Some(p) = &a.pubout {
        if io::is_std(&a.out) && io::is_std(p) {
            return Err(Error::Usage(
                "--out and --pubout cannot both be standard output".into(),
            ));
        }
    }
    let pw = a.pass.password()?;
    let sk = sm2::SecretKey::random(&mut OsRng);
    let pki = keys::sm2_pkcs8(&sk)?;
    let encrypted = match (&pw, a.pbe) {
        (None, _) => None,
        (Some(pw), Pbe::Gmssl) => Some(
            sk.to_pkcs8_encrypted_der(&mut OsRng, pw)
                .map_err(|e| lib_err("cannot encrypt the key", e))?,
        ),
        (Some(pw), Pbe::Openssl) => Some(
            crate::pbe::encrypt_openssl(&pki, pw)
                .map_err(|e| Error::Input(format!("cannot encrypt the key: {e}")))?,
        ),
    };
    keys::write_private(&a.out, a.key_out.key_format, &pki, encrypted)?;
    if let Some(p) = &a.pubout {
        let spki = keys::sm2_spki(sk.public_key())?;
        keys::write_der(p, a.key_out.key_format, "PUBLIC KEY", &spki, false)?;
    }
    Ok(())
}

fn pubkey(a: &Sm2Pubkey) -> Result<()> {
    let pk = keys::sm2_any_public(&a.key, &a.pass)?;
    let spki = keys::sm2_spki(&pk)?;
    keys::write_der(&a.out, a.key_out.key_format, "PUBLIC KEY", &spki, false)
}

/// `e = SM3(ZA ‖ M)` with M streamed from `input` (GB/T 32918.2 §6.1 A1–A2).
fn prehash(za: &[u8; 32], input: &std::path::Path) -> Result<[u8; 32]> {
    let mut h = sm3::Sm3::new();
    h.update(za);
    io::stream(input, |c| h.update(c))?;
    Ok(h.finalize().into())
}

fn id_of(a: &crate::cli::IdArgs) -> Result<Vec<u8>> {
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
    io::check_single_stdin(&[("--key", &a.key), ("--in", &a.input.input)])?;
    let id = id_of(&a.id)?;
    let sk = keys::sm2_secret(&a.key, &a.pass)?;
    let signer = sm2::SigningKey::with_id(&sk, &id).map_err(|e| lib_err("bad ID", e))?;
    let e = prehash(signer.za(), &a.input.input)?;
    let sig = signer.sign_prehash_with_rng(&mut OsRng, &e);
    let bytes = match a.format {
        Sm2SigFormat::Der => sig.to_der(),
        Sm2SigFormat::Raw => sig.to_bytes().to_vec(),
    };
    io::write(&a.out.out, &a.out.encoding.encode(&bytes), false)
}

fn verify(a: &Sm2Verify) -> Result<()> {
    io::check_single_stdin(&[
        ("--pubkey", &a.pubkey),
        ("--sig", &a.sig),
        ("--in", &a.input.input),
    ])?;
    let id = id_of(&a.id)?;
    let pk = keys::sm2_public(&a.pubkey)?;
    let vk = sm2::VerifyingKey::with_id(&pk, &id).map_err(|e| lib_err("bad ID", e))?;
    let raw = io::read_small(&a.sig, "signature file")?;
    let sig_bytes = a
        .encoding
        .decode(&raw, "the signature")
        .map_err(Error::Failed)?;
    let sig = match a.format {
        Sm2SigFormat::Der => sm2::Signature::from_der(&sig_bytes),
        Sm2SigFormat::Raw => sm2::Signature::from_bytes(&sig_bytes),
    }
    .map_err(|_| {
        Error::Failed(format!(
            "invalid signature: {} is not a valid {} SM2 signature (truncated or malformed)",
            a.sig.display(),
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
        io::write(&io::stdio(), b"Signature OK\n", false)?;
    }
    Ok(())
}

fn encrypt(a: &Sm2Encrypt) -> Result<()> {
    io::check_single_stdin(&[("--pubkey", &a.pubkey), ("--in", &a.input.input)])?;
    let pk = keys::sm2_public(&a.pubkey)?;
    let msg = Zeroizing::new(io::read_all(&a.input.input)?);
    if msg.is_empty() {
        return Err(Error::Input(
            "empty plaintext: SM2 encryption needs at least one byte".into(),
        ));
    }
    let ct = match a.format {
        Sm2CtFormat::Der => pk.encrypt_der(&mut OsRng, &msg),
        Sm2CtFormat::C1c3c2 => pk.encrypt(&mut OsRng, &msg, sm2::Mode::C1C3C2),
        Sm2CtFormat::C1c2c3 => pk.encrypt(&mut OsRng, &msg, sm2::Mode::C1C2C3),
    }
    .map_err(|e| lib_err("encryption failed", e))?;
    io::write(&a.out.out, &a.out.encoding.encode(&ct), false)
}

fn decrypt(a: &Sm2Decrypt) -> Result<()> {
    io::check_single_stdin(&[("--key", &a.key), ("--in", &a.input.input)])?;
    let sk = keys::sm2_secret(&a.key, &a.pass)?;
    let raw = io::read_all(&a.input.input)?;
    let ct = a
        .encoding
        .decode(&raw, "the ciphertext")
        .map_err(Error::Failed)?;
    let pt = match a.format {
        Sm2CtFormat::Der => sk.decrypt_der(&ct),
        Sm2CtFormat::C1c3c2 => sk.decrypt(&ct, sm2::Mode::C1C3C2),
        Sm2CtFormat::C1c2c3 => sk.decrypt(&ct, sm2::Mode::C1C2C3),
    }
    .map_err(|e| match e {
        sm2::Error::Decryption => Error::Failed("decryption failed".into()),
        _ => Error::Failed(format!(
            "decryption failed: the input is not a valid {} SM2 ciphertext ({e})",
            format_name(a.format)
        )),
    })?;
    io::write(&a.out, &pt, true)
}

fn format_name(f: Sm2CtFormat) -> &'static str {
    match f {
        Sm2CtFormat::Der => "DER",
        Sm2CtFormat::C1c3c2 => "C1C3C2",
        Sm2CtFormat::C1c2c3 => "C1C2C3",
    }
}
