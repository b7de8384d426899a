//! `smtool sm9 …`: identity-based keys, signatures, encryption and KEM (GM/T 0044), in
//! GmSSL's DER / PEM forms.

use getrandom::SysRng;
use rand_core::UnwrapErr;
use zeroize::Zeroizing;

use crate::cli::{
    Sm9Cipher, Sm9Command, Sm9CtFormat, Sm9Decap, Sm9Decrypt, Sm9Encap, Sm9Encrypt, Sm9Extract,
    Sm9Kem, Sm9KemFormat, Sm9Mac, Sm9Pubkey, Sm9Setup, Sm9SigFormat, Sm9Sign, Sm9Verify,
};
use crate::error::{quote, Error, Result};
use crate::io::{self, Encoding};
use crate::keys::{self, KeyFormat, Sm9Master};

/// Runs an `smtool sm9` subcommand.
pub fn run(c: Sm9Command) -> Result<()> {
    match c {
        Sm9Command::Setup(a) => setup(&a),
        Sm9Command::Extract(a) => extract(&a),
        Sm9Command::Pubkey(a) => pubkey(&a),
        Sm9Command::Show(a) => crate::show::sm9(&a),
        Sm9Command::Sign(a) => sign(&a),
        Sm9Command::Verify(a) => verify(&a),
        Sm9Command::Encrypt(a) => encrypt(&a),
        Sm9Command::Decrypt(a) => decrypt(&a),
        Sm9Command::Kem(Sm9Kem::Encap(a)) => encap(&a),
        Sm9Command::Kem(Sm9Kem::Decap(a)) => decap(&a),
        Sm9Command::Exchange(a) => crate::exchange::sm9(&a),
    }
}

fn lib_err(what: &str, e: sm9::Error) -> Error {
    Error::Input(format!("{what}: {e}"))
}

/// The MAC given, or the one that goes with the format: GmSSL writes DER ciphertexts with its
/// HMAC-SM3, gmalg raw ones with the standard's SM3(C2 || K2).
fn mac_of(m: Option<Sm9Mac>, format: Sm9CtFormat) -> Sm9Mac {
    m.unwrap_or(match format {
        Sm9CtFormat::Der => Sm9Mac::Gmssl,
        Sm9CtFormat::Raw => Sm9Mac::Standard,
    })
}

fn mac_mode(m: Sm9Mac) -> sm9::MacMode {
    match m {
        Sm9Mac::Standard => sm9::MacMode::Sm3,
        Sm9Mac::Gmssl => sm9::MacMode::HmacSm3,
    }
}

fn mac_name(m: Sm9Mac) -> &'static str {
    match m {
        Sm9Mac::Standard => "standard",
        Sm9Mac::Gmssl => "gmssl",
    }
}

fn enc_mode(c: Sm9Cipher) -> sm9::EncryptionMode {
    match c {
        Sm9Cipher::Kdf => sm9::EncryptionMode::KdfStream,
        Sm9Cipher::Sm4Cbc => sm9::EncryptionMode::Sm4Cbc,
        Sm9Cipher::Sm4Ecb => sm9::EncryptionMode::Sm4Ecb,
    }
}

/// The file bytes of a private SM9 key: PKCS#8 (plain) or GmSSL's encrypted PKCS#8.
fn key_bytes(
    format: KeyFormat,
    pkcs8: Result<Zeroizing<Vec<u8>>>,
    encrypted: Option<Result<Vec<u8>>>,
) -> Result<Zeroizing<Vec<u8>>> {
    let pki = pkcs8?;
    let enc = encrypted.transpose()?;
    keys::private_bytes(format, &pki, enc)
}

/// The CLI's name of a cipher (`kdf`, `sm4-cbc`, `sm4-ecb`).
fn cipher_name(m: sm9::EncryptionMode) -> String {
    use clap::ValueEnum as _;
    let c = match m {
        sm9::EncryptionMode::KdfStream => Sm9Cipher::Kdf,
        sm9::EncryptionMode::Sm4Cbc => Sm9Cipher::Sm4Cbc,
        _ => Sm9Cipher::Sm4Ecb,
    };
    c.to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default()
}

/// The master secret of `setup --secret-file`: 64 hexadecimal digits (surrounding whitespace
/// ignored).
fn master_secret(path: &std::path::Path) -> Result<Zeroizing<[u8; 32]>> {
    let text = Zeroizing::new(io::read_bounded(path, 4096, "master secret")?);
    let digits = Zeroizing::new(text.trim_ascii().to_vec());
    let mut ks = Zeroizing::new([0u8; 32]);
    if digits.len() != 64 || hex::decode_to_slice(&digits[..], &mut ks[..]).is_err() {
        return Err(Error::Input(format!(
            "{}: not a master secret (expected 64 hexadecimal digits)",
            quote(path)
        )));
    }
    Ok(ks)
}

fn setup(a: &Sm9Setup) -> Result<()> {
    let mut outputs = vec![("--out", a.out.as_path(), true)];
    if let Some(p) = &a.pubout {
        outputs.push(("--pubout", p.as_path(), false));
    }
    io::check_single_stdin(&[a.pass.reader(), ("--secret-file", a.secret_file.as_deref())])?;
    let pw = a.pass.password()?;
    if pw.is_none() && !a.no_encrypt {
        return Err(Error::Usage(
            "the master key is written password-encrypted (GmSSL requires it): give --out-pass-env VAR or --out-pass-file FILE, or --no-encrypt to write it in the clear".into(),
        ));
    }
    let secret = a.secret_file.as_deref().map(master_secret).transpose()?;
    let outs = io::Outputs::plan(&outputs)?;
    let enc_err = |e| lib_err("cannot encode the master key", e);
    let bad_secret = |e| Error::Input(format!("invalid master secret: {e}"));
    let fmt = a.key_out.key_format;
    let (key, label, mpk_der) = if a.sign {
        let kgc = match &secret {
            Some(ks) => sm9::SignMasterKey::from_bytes(ks).map_err(bad_secret)?,
            None => sm9::SignMasterKey::generate(&mut UnwrapErr(SysRng)),
        };
        (
            key_bytes(
                fmt,
                kgc.to_pkcs8_der().map_err(enc_err),
                pw.as_ref().map(|pw| {
                    kgc.to_encrypted_pkcs8_der(pw, &mut UnwrapErr(SysRng))
                        .map_err(enc_err)
                }),
            )?,
            sm9::PEM_SIGN_MASTER_PUBLIC_KEY,
            kgc.public_key().to_der().map_err(enc_err)?,
        )
    } else {
        let kgc = match &secret {
            Some(ke) => sm9::EncMasterKey::from_bytes(ke).map_err(bad_secret)?,
            None => sm9::EncMasterKey::generate(&mut UnwrapErr(SysRng)),
        };
        (
            key_bytes(
                fmt,
                kgc.to_pkcs8_der().map_err(enc_err),
                pw.as_ref().map(|pw| {
                    kgc.to_encrypted_pkcs8_der(pw, &mut UnwrapErr(SysRng))
                        .map_err(enc_err)
                }),
            )?,
            sm9::PEM_ENC_MASTER_PUBLIC_KEY,
            kgc.public_key().to_der().map_err(enc_err)?,
        )
    };
    let mpk = keys::der_bytes(fmt, label, &mpk_der)?;
    let data = [(&key[..], Encoding::Raw), (&mpk[..], Encoding::Raw)];
    outs.commit(&data[..outputs.len()])
}

fn extract(a: &Sm9Extract) -> Result<()> {
    io::check_single_stdin(&[
        ("--master", Some(&a.master)),
        a.pass.reader(),
        a.id.reader(),
        a.out_pass.reader(),
    ])?;
    let outs = io::Outputs::plan(&[("--out", &a.out, true)])?;
    let id = a.id.bytes(None)?;
    let out_pw = a.out_pass.password()?;
    let master = keys::sm9_any_master(&a.master, &a.pass)?;
    let ex_err = |e: sm9::Error| match e {
        sm9::Error::DegenerateIdentity => Error::Input(format!(
            "no key exists for this identity under this master key ({e})"
        )),
        e => lib_err("cannot extract the user key", e),
    };
    let enc_err = |e| lib_err("cannot encode the user key", e);
    let fmt = a.key_out.key_format;
    let key = match master {
        Sm9Master::Sign(kgc) => {
            if a.exchange {
                return Err(Error::Usage(
                    "--exchange needs an encryption master key (setup --enc)".into(),
                ));
            }
            let k = kgc.extract(&id).map_err(ex_err)?;
            key_bytes(
                fmt,
                k.to_pkcs8_der().map_err(enc_err),
                out_pw.as_ref().map(|pw| {
                    k.to_encrypted_pkcs8_der(pw, &mut UnwrapErr(SysRng))
                        .map_err(enc_err)
                }),
            )?
        }
        Sm9Master::Enc(kgc) if a.exchange => {
            let k = kgc.extract_exchange(&id).map_err(ex_err)?;
            key_bytes(
                fmt,
                k.to_pkcs8_der().map_err(enc_err),
                out_pw.as_ref().map(|pw| {
                    k.to_encrypted_pkcs8_der(pw, &mut UnwrapErr(SysRng))
                        .map_err(enc_err)
                }),
            )?
        }
        Sm9Master::Enc(kgc) => {
            let k = kgc.extract(&id).map_err(ex_err)?;
            key_bytes(
                fmt,
                k.to_pkcs8_der().map_err(enc_err),
                out_pw.as_ref().map(|pw| {
                    k.to_encrypted_pkcs8_der(pw, &mut UnwrapErr(SysRng))
                        .map_err(enc_err)
                }),
            )?
        }
    };
    outs.commit(&[(&key, Encoding::Raw)])
}

fn pubkey(a: &Sm9Pubkey) -> Result<()> {
    io::check_single_stdin(&[("--key", Some(&a.key)), a.pass.reader()])?;
    let outs = io::Outputs::plan(&[("--out", &a.out, false)])?;
    let (label, der) = match keys::sm9_any(&a.key, &a.pass)?.master_public_key() {
        keys::Sm9Public::Sign(p) => (sm9::PEM_SIGN_MASTER_PUBLIC_KEY, p.to_der()),
        keys::Sm9Public::Enc(p) => (sm9::PEM_ENC_MASTER_PUBLIC_KEY, p.to_der()),
    };
    let der = der.map_err(|e| lib_err("cannot encode the master public key", e))?;
    let bytes = keys::der_bytes(a.key_out.key_format, label, &der)?;
    outs.commit(&[(&bytes, Encoding::Raw)])
}

fn sign(a: &Sm9Sign) -> Result<()> {
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        ("--in", Some(&a.input.input)),
    ])?;
    let outs = io::Outputs::plan(&[("--out", &a.out.out, false)])?;
    let key = keys::sm9_sign_user(&a.key, &a.pass)?;
    let master = key.master_public_key().prepare();
    let mut signer =
        sm9::Signer::new(&key, &master).map_err(|e| lib_err("cannot sign with this key", e))?;
    io::stream(&a.input.input, |c| {
        signer.update(c);
    })?;
    let sig = signer.sign(&mut UnwrapErr(SysRng));
    let bytes = match a.format {
        Sm9SigFormat::Der => sig
            .to_der()
            .map_err(|e| lib_err("cannot encode the signature", e))?,
        Sm9SigFormat::Raw => sig.to_bytes().to_vec(),
    };
    outs.commit(&[(&bytes, a.out.encoding)])
}

fn verify(a: &Sm9Verify) -> Result<()> {
    io::check_single_stdin(&[
        ("--pubkey", Some(&a.mpk)),
        a.id.reader(),
        ("--sig", Some(&a.sig)),
        ("--in", Some(&a.input.input)),
    ])?;
    let id = a.id.bytes(None)?;
    let mpk = keys::sm9_sign_mpk(&a.mpk)?;
    let bytes = io::read_decoded(&a.sig, a.encoding, io::MAX_SMALL_INPUT, "the signature")?;
    let sig = match a.format {
        Sm9SigFormat::Der => sm9::Signature::from_der(&bytes),
        Sm9SigFormat::Raw => sm9::Signature::from_bytes(&bytes),
    }
    .map_err(|e| {
        Error::Failed(format!(
            "invalid signature: {} is not a valid {} SM9 signature ({e})",
            quote(&a.sig),
            match a.format {
                Sm9SigFormat::Der => "DER",
                Sm9SigFormat::Raw => "97-byte h||S",
            }
        ))
    })?;
    let master = mpk.prepare();
    let mut v = sm9::Verifier::new(&master, &id, &sig);
    io::stream(&a.input.input, |c| {
        v.update(c);
    })?;
    v.verify()
        .map_err(|_| Error::Failed("signature verification failed".into()))?;
    if !a.quiet {
        io::print(b"Signature OK\n")?;
    }
    Ok(())
}

fn encrypt(a: &Sm9Encrypt) -> Result<()> {
    io::check_single_stdin(&[
        ("--pubkey", Some(&a.mpk)),
        a.id.reader(),
        ("--in", Some(&a.input.input)),
    ])?;
    let outs = io::Outputs::plan(&[("--out", &a.out.out, false)])?;
    let id = a.id.bytes(None)?;
    let mpk = keys::sm9_enc_mpk(&a.mpk)?;
    let (mode, mac) = (enc_mode(a.cipher), mac_mode(mac_of(a.mac, a.format)));
    // The message is encrypted where it lies: the file buffer is the only large allocation;
    // its spare room takes the padding, the IV and the header (c2_len(0) bounds what the
    // cipher adds).
    let room = mode.c2_len(0)
        + match a.format {
            Sm9CtFormat::Der => sm9::DER_OVERHEAD,
            Sm9CtFormat::Raw => 65 + 32,
        };
    let mut buf = Zeroizing::new(io::read_with_room(
        &a.input.input,
        io::MAX_DATA,
        "plaintext",
        room,
    )?);
    // An empty message is accepted, as by the library and GmSSL (C2 is empty in the KDF-stream
    // mode, one padding block in the SM4 modes).
    let master = mpk.prepare();
    match a.format {
        Sm9CtFormat::Der => {
            sm9::encrypt_der_in_place(&master, &id, &mut buf, mode, mac, &mut UnwrapErr(SysRng))
        }
        Sm9CtFormat::Raw => {
            sm9::encrypt_in_place(&master, &id, &mut buf, mode, mac, &mut UnwrapErr(SysRng))
        }
    }
    .map_err(|e| lib_err("encryption failed", e))?;
    outs.commit(&[(&buf, a.out.encoding)])
}

/// Checks the ciphertext (without copying it) and returns its mode; when it is not in the
/// format given, says what it looks like instead.
fn check_ciphertext(bytes: &[u8], a: &Sm9Decrypt) -> Result<sm9::EncryptionMode> {
    let raw_mode = enc_mode(a.cipher.unwrap_or(Sm9Cipher::Kdf));
    let raw = || sm9::Ciphertext::check_bytes(raw_mode, bytes).map(|()| raw_mode);
    let checked = match a.format {
        Sm9CtFormat::Der => sm9::Ciphertext::check_der(bytes),
        Sm9CtFormat::Raw => raw(),
    };
    let mode = checked.map_err(|e| {
        let hint = match a.format {
            Sm9CtFormat::Der if raw().is_ok() => {
                "; it looks like a raw C1||C3||C2 one (try --format raw --cipher ...)".to_string()
            }
            Sm9CtFormat::Raw if sm9::Ciphertext::check_der(bytes).is_ok() => {
                "; it looks like a DER one (try --format der)".to_string()
            }
            _ => format!(" ({e})"),
        };
        Error::Failed(format!(
            "decryption failed: the input is not a valid {} SM9 ciphertext{hint}",
            match a.format {
                Sm9CtFormat::Der => "DER",
                Sm9CtFormat::Raw => "raw",
            }
        ))
    })?;
    if let Some(c) = a.cipher {
        if mode != enc_mode(c) {
            return Err(Error::Failed(format!(
                "decryption failed: the ciphertext uses cipher '{}', not the --cipher '{}' given",
                cipher_name(mode),
                cipher_name(enc_mode(c))
            )));
        }
    }
    Ok(mode)
}

fn decrypt(a: &Sm9Decrypt) -> Result<()> {
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        a.id.reader(),
        ("--in", Some(&a.input.input)),
    ])?;
    if a.format == Sm9CtFormat::Raw && a.cipher.is_none() {
        return Err(Error::Usage(
            "--format raw needs --cipher (a raw ciphertext does not name its cipher)".into(),
        ));
    }
    let outs = io::Outputs::plan(&[("--out", &a.out, true)])?;
    let id = a.id.bytes(None)?;
    let key = keys::sm9_enc_user(&a.key, &a.pass)?;
    let mut buf = Zeroizing::new(io::read_decoded(
        &a.input.input,
        a.encoding,
        io::MAX_DATA,
        "the ciphertext",
    )?);
    let mode = check_ciphertext(&buf, a)?;
    // Decrypted where it lies (the buffer is wiped on failure). The same message whichever
    // check failed; the hint names the choices the user made.
    let mac = mac_of(a.mac, a.format);
    let key = key.prepare();
    match a.format {
        Sm9CtFormat::Der => sm9::decrypt_der_in_place(&key, &id, &mut buf, mac_mode(mac)),
        Sm9CtFormat::Raw => sm9::decrypt_in_place(&key, &id, &mut buf, mode, mac_mode(mac)),
    }
    .map_err(|_| {
        let other = match mac {
            Sm9Mac::Gmssl => Sm9Mac::Standard,
            Sm9Mac::Standard => Sm9Mac::Gmssl,
        };
        Error::Failed(format!(
            "decryption failed (wrong key or identity, corrupted ciphertext, or the sender used another MAC: this was --mac {}{}, check --mac {})",
            mac_name(mac),
            if a.mac.is_none() { ", the default for this --format" } else { "" },
            mac_name(other)
        ))
    })?;
    outs.commit(&[(&buf, Encoding::Raw)])
}

fn check_len(len: usize) -> Result<()> {
    if len == 0 || len > 1 << 20 {
        return Err(Error::Usage(
            "--len must be between 1 and 1048576 bytes".into(),
        ));
    }
    Ok(())
}

fn encap(a: &Sm9Encap) -> Result<()> {
    check_len(a.len)?;
    io::check_single_stdin(&[("--pubkey", Some(&a.mpk)), a.id.reader()])?;
    let outs = io::Outputs::plan(&[
        ("--key-out", &a.key_out, true),
        ("--out", &a.out.out, false),
    ])?;
    let id = a.id.bytes(None)?;
    let mpk = keys::sm9_enc_mpk(&a.mpk)?;
    let (k, c) = sm9::encapsulate(&mpk.prepare(), &id, a.len, &mut UnwrapErr(SysRng))
        .map_err(|e| lib_err("encapsulation failed", e))?;
    let c_bytes = match a.format {
        Sm9KemFormat::Der => c
            .to_der()
            .map_err(|e| lib_err("cannot encode the encapsulation", e))?,
        Sm9KemFormat::Raw => c.to_bytes().to_vec(),
    };
    outs.commit(&[(&k[..], a.out.encoding), (&c_bytes, a.out.encoding)])
}

fn decap(a: &Sm9Decap) -> Result<()> {
    check_len(a.len)?;
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        a.id.reader(),
        ("--in", Some(&a.input.input)),
    ])?;
    let outs = io::Outputs::plan(&[("--out", &a.out.out, true)])?;
    let id = a.id.bytes(None)?;
    let key = keys::sm9_enc_user(&a.key, &a.pass)?;
    let bytes = io::read_decoded(
        &a.input.input,
        a.out.encoding,
        io::MAX_SMALL_INPUT,
        "the encapsulation",
    )?;
    let c = match a.format {
        Sm9KemFormat::Der => sm9::EncapsulatedKey::from_der(&bytes),
        Sm9KemFormat::Raw => sm9::EncapsulatedKey::from_bytes(&bytes),
    }
    .map_err(|e| {
        Error::Failed(format!(
            "decapsulation failed: the input is not a valid SM9 encapsulation ({e})"
        ))
    })?;
    let k = sm9::decapsulate(&key.prepare(), &id, &c, a.len)
        .map_err(|_| Error::Failed("decapsulation failed".into()))?;
    outs.commit(&[(&k[..], a.out.encoding)])
}
