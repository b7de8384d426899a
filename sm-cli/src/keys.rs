//! Reading keys in every form the peers write — PEM or DER; PKCS#8 (plain or PBES2-encrypted),
//! SEC1, SPKI, and GmSSL's own SM9 structures — recognising what a file holds so that a wrong
//! key type gets a message naming both the expected and the found type; and writing keys.

use std::path::Path;

use clap::{Args, ValueEnum};
use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier};
use der::{Decode, Tag, Tagged};
use sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use sm2::spki::{DecodePublicKey, EncodePublicKey};
use zeroize::Zeroizing;

use crate::error::{quote, quote_bytes, Error, Result};
use crate::io;

const OID_EC_PUBLIC_KEY: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.10045.2.1");
const OID_SM2: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.301");
const OID_RSA: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
const OID_ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
const OID_X25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");

/// What a key file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// SM2 private key.
    Sm2Private,
    /// SM2 public key.
    Sm2Public,
    /// SM9 signature master key (KGC).
    Sm9SignMaster,
    /// SM9 encryption master key (KGC).
    Sm9EncMaster,
    /// SM9 user signing key.
    Sm9SignUser,
    /// SM9 user decryption key.
    Sm9EncUser,
    /// SM9 user key-exchange key.
    Sm9ExchangeUser,
    /// SM9 signature master public key.
    Sm9SignMpk,
    /// SM9 encryption master public key.
    Sm9EncMpk,
    /// Anything else, described.
    Other(String),
}

impl Kind {
    /// "an SM2 private key" etc.
    pub fn describe(&self) -> String {
        match self {
            Kind::Sm2Private => "an SM2 private key".into(),
            Kind::Sm2Public => "an SM2 public key".into(),
            Kind::Sm9SignMaster => "an SM9 signature master key".into(),
            Kind::Sm9EncMaster => "an SM9 encryption master key".into(),
            Kind::Sm9SignUser => "an SM9 user signing key".into(),
            Kind::Sm9EncUser => "an SM9 user decryption key".into(),
            Kind::Sm9ExchangeUser => "an SM9 user key-exchange key".into(),
            Kind::Sm9SignMpk => "an SM9 signature master public key".into(),
            Kind::Sm9EncMpk => "an SM9 encryption master public key".into(),
            Kind::Other(s) => s.clone(),
        }
    }
}

/// The container a key came in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// PKCS#8 `PrivateKeyInfo`.
    Pkcs8,
    /// SEC1 `ECPrivateKey`.
    Sec1,
    /// `SubjectPublicKeyInfo`.
    Spki,
    /// GmSSL's bare GM/T 0080 structure (SM9 keys, master public keys).
    Bare,
}

/// A recognised key: its kind, container and DER.
struct Loaded {
    kind: Kind,
    form: Form,
    der: Zeroizing<Vec<u8>>,
}

/// Password options of a command that reads or writes an encrypted key.
#[derive(Args, Debug, Clone, Default)]
pub struct PassArgs {
    /// Read the key password from environment variable VAR.
    #[arg(long, value_name = "VAR", conflicts_with = "pass_file")]
    pub pass_env: Option<String>,
    /// Read the key password from the first line of FILE.
    #[arg(long, value_name = "FILE")]
    pub pass_file: Option<std::path::PathBuf>,
}

impl PassArgs {
    /// The password, if one was given.
    pub fn password(&self) -> Result<Option<Zeroizing<Vec<u8>>>> {
        read_password(
            self.pass_env.as_deref(),
            self.pass_file.as_deref(),
            "--pass-env",
        )
    }

    /// `("--pass-file", path)` for the standard-input accounting.
    pub fn reader(&self) -> (&'static str, Option<&Path>) {
        ("--pass-file", self.pass_file.as_deref())
    }
}

/// Password options of a command that writes a key: the password it is encrypted with.
#[derive(Args, Debug, Clone, Default)]
pub struct OutPassArgs {
    /// Encrypt the written key with the password in environment variable VAR.
    #[arg(long, value_name = "VAR", conflicts_with = "out_pass_file")]
    pub out_pass_env: Option<String>,
    /// Encrypt the written key with the password on the first line of FILE.
    #[arg(long, value_name = "FILE")]
    pub out_pass_file: Option<std::path::PathBuf>,
}

impl OutPassArgs {
    /// The password, if one was given.
    pub fn password(&self) -> Result<Option<Zeroizing<Vec<u8>>>> {
        read_password(
            self.out_pass_env.as_deref(),
            self.out_pass_file.as_deref(),
            "--out-pass-env",
        )
    }

    /// `("--out-pass-file", path)` for the standard-input accounting.
    pub fn reader(&self) -> (&'static str, Option<&Path>) {
        ("--out-pass-file", self.out_pass_file.as_deref())
    }
}

/// The password from environment variable `var` (option `env_opt`) or the first line of `file`.
fn read_password(
    var: Option<&str>,
    file: Option<&Path>,
    env_opt: &str,
) -> Result<Option<Zeroizing<Vec<u8>>>> {
    if let Some(var) = var {
        if var.is_empty() {
            return Err(Error::Usage(format!(
                "{env_opt} needs the name of an environment variable"
            )));
        }
        return match std::env::var_os(var) {
            Some(v) => Ok(Some(Zeroizing::new(v.into_encoded_bytes()))),
            None => Err(Error::Usage(format!(
                "environment variable {} (given by {env_opt}) is not set",
                quote_bytes(var.as_bytes())
            ))),
        };
    }
    if let Some(path) = file {
        let line = Zeroizing::new(io::read_first_line(path, io::MAX_PASSWORD, "the password")?);
        return Ok(Some(line));
    }
    Ok(None)
}

/// Output form of a written key.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum KeyFormat {
    /// PEM text.
    #[default]
    Pem,
    /// Binary DER.
    Der,
}

/// Which password-based encryption to write (when a password is given).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Pbe {
    /// PBKDF2-HMAC-SM3 + SM4-CBC, as GmSSL writes it (OpenSSL 3.0 cannot read it: it has no
    /// HMAC-SM3 PRF for PBKDF2).
    #[default]
    Gmssl,
    /// PBKDF2-HMAC-SHA256 + AES-256-CBC, as `openssl pkcs8 -topk8 -v2 aes-256-cbc` writes it:
    /// readable by every OpenSSL.
    Openssl,
}

/// A PEM block: its label and DER.
struct PemBlock {
    label: String,
    der: Zeroizing<Vec<u8>>,
}

/// The PEM labels a message may name. Any other label is not echoed: a damaged file can splice
/// part of the key's base64 into its BEGIN line.
const KNOWN_LABELS: &[&str] = &[
    "PRIVATE KEY",
    "ENCRYPTED PRIVATE KEY",
    "PUBLIC KEY",
    "EC PRIVATE KEY",
    "SM2 PRIVATE KEY",
    "EC PARAMETERS",
    "SM2 PARAMETERS",
    "RSA PRIVATE KEY",
    "RSA PUBLIC KEY",
    "DSA PRIVATE KEY",
    "CERTIFICATE",
    "CERTIFICATE REQUEST",
    "X509 CRL",
    "PKCS7",
    "CMS",
    sm9::PEM_SIGN_MASTER_PUBLIC_KEY,
    sm9::PEM_ENC_MASTER_PUBLIC_KEY,
];

/// A label for a message: quoted when it is a known one, else not shown.
fn shown_label(label: &str) -> String {
    if KNOWN_LABELS.contains(&label) {
        quote_bytes(label.as_bytes())
    } else {
        "(an unrecognised label, not shown)".into()
    }
}

/// The label of a `-----BEGIN LABEL-----` / `-----END LABEL-----` line (upper-case letters,
/// digits, single spaces and hyphens, as every label in use; trailing whitespace allowed), or
/// `None` when the line is not exactly that.
fn boundary_label<'a>(line: &'a str, kind: &str) -> Option<&'a str> {
    let label = line
        .trim_end()
        .strip_prefix("-----")?
        .strip_prefix(kind)?
        .strip_prefix(' ')?
        .strip_suffix("-----")?;
    let ok = !label.is_empty()
        && label.len() <= 64
        && label
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b' ' || b == b'-')
        && !label.contains("--")
        && !label.starts_with([' ', '-'])
        && !label.ends_with([' ', '-']);
    ok.then_some(label)
}

/// The PEM blocks of a file, parsed line by line. A damaged line is reported by its number and
/// never echoed (it may be part of a key); so is everything after it.
fn pem_blocks(text: &str) -> std::result::Result<Vec<PemBlock>, String> {
    use base64::Engine as _;
    let mut blocks = Vec::new();
    let mut lines = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l));
    let mut n = 0usize;
    while let Some(line) = lines.next() {
        n += 1;
        if !line.starts_with("-----") && !line.contains("-----BEGIN") {
            continue; // explanatory text between blocks (RFC 7468 §2)
        }
        let label = boundary_label(line, "BEGIN")
            .ok_or_else(|| format!("line {n}: malformed PEM BEGIN line"))?;
        let begin = n;
        let mut body = Zeroizing::new(String::new());
        let mut ended = false;
        for line in lines.by_ref() {
            n += 1;
            if line.starts_with("-----") {
                if boundary_label(line, "END") != Some(label) {
                    return Err(format!(
                        "line {n}: malformed PEM END line (expected the END line of {})",
                        shown_label(label)
                    ));
                }
                ended = true;
                break;
            }
            if line.contains(':') {
                if body.is_empty() && line.trim() == "Proc-Type: 4,ENCRYPTED" {
                    return Err(format!(
                        "legacy encrypted PEM ({}) is not supported; convert the key to PKCS#8 encryption ('openssl pkcs8 -topk8')",
                        shown_label(label)
                    ));
                }
                return Err(format!("line {n}: PEM headers are not supported"));
            }
            if !line.bytes().all(|b| {
                b.is_ascii_alphanumeric() || b"+/=".contains(&b) || b.is_ascii_whitespace()
            }) {
                return Err(format!("line {n}: not base64 (corrupted PEM)"));
            }
            body.extend(line.chars().filter(|c| !c.is_ascii_whitespace()));
        }
        if !ended {
            return Err(format!(
                "PEM block {} (line {begin}) has no END line",
                shown_label(label)
            ));
        }
        let der = base64::engine::general_purpose::STANDARD
            .decode(body.as_bytes())
            .map_err(|_| {
                format!(
                    "corrupted PEM block {} (line {begin}): invalid base64",
                    shown_label(label)
                )
            })?;
        blocks.push(PemBlock {
            label: label.to_string(),
            der: Zeroizing::new(der),
        });
    }
    Ok(blocks)
}

/// The DER of the key in a file's bytes and its PEM label (`None` for DER input).
fn key_der(path: &Path, data: &[u8]) -> Result<(Zeroizing<Vec<u8>>, Option<String>)> {
    let name = quote(path);
    let looks_pem = data.windows(10).any(|w| w == b"-----BEGIN");
    if !looks_pem {
        return Ok((Zeroizing::new(data.to_vec()), None));
    }
    let text = std::str::from_utf8(data)
        .map_err(|_| Error::Input(format!("{name}: corrupted PEM (not text)")))?;
    let blocks = pem_blocks(text).map_err(|e| Error::Input(format!("{name}: {e}")))?;
    let block = blocks
        .into_iter()
        .find(|b| b.label != "EC PARAMETERS" && b.label != "SM2 PARAMETERS")
        .ok_or_else(|| Error::Input(format!("{name}: no key found in the PEM file")))?;
    Ok((block.der, Some(block.label)))
}

/// Whether a PEM `label` fits a key of `kind` in `form`.
fn label_fits(label: &str, kind: &Kind, form: Form) -> bool {
    match form {
        Form::Pkcs8 => label == "PRIVATE KEY",
        Form::Sec1 => label == "EC PRIVATE KEY" || label == "SM2 PRIVATE KEY",
        Form::Spki => label == "PUBLIC KEY",
        Form::Bare => match kind {
            Kind::Sm9SignMpk => label == sm9::PEM_SIGN_MASTER_PUBLIC_KEY,
            Kind::Sm9EncMpk => label == sm9::PEM_ENC_MASTER_PUBLIC_KEY,
            _ => label.starts_with("SM9 "),
        },
    }
}

/// The elements of a DER SEQUENCE.
fn sequence_elements(der: &[u8]) -> Option<Vec<AnyRef<'_>>> {
    elements(AnyRef::from_der(der).ok()?)
}

/// The elements of a SEQUENCE value.
fn elements(outer: AnyRef<'_>) -> Option<Vec<AnyRef<'_>>> {
    if outer.tag() != Tag::Sequence {
        return None;
    }
    let mut reader = der::SliceReader::new(outer.value()).ok()?;
    let mut out = Vec::new();
    while !der::Reader::is_finished(&reader) {
        out.push(der::Reader::decode::<AnyRef<'_>>(&mut reader).ok()?);
    }
    Some(out)
}

fn algorithm_kind(oid: ObjectIdentifier, params: Option<AnyRef<'_>>, private: bool) -> Kind {
    let param_oid = params.and_then(|p| p.decode_as::<ObjectIdentifier>().ok());
    if oid == OID_EC_PUBLIC_KEY {
        return match param_oid {
            Some(c) if c == OID_SM2 => {
                if private {
                    Kind::Sm2Private
                } else {
                    Kind::Sm2Public
                }
            }
            Some(c) => Kind::Other(format!(
                "an EC {} key on curve {} (not SM2)",
                if private { "private" } else { "public" },
                curve_name(c)
            )),
            None => Kind::Other("an EC key with explicit curve parameters (not supported)".into()),
        };
    }
    if oid == sm9::OID_SM9 {
        return match param_oid {
            Some(p) if p == sm9::OID_SM9_SIGN => Kind::Sm9SignMaster,
            Some(p) if p == sm9::OID_SM9_ENCRYPT => Kind::Sm9EncMaster,
            _ => Kind::Other("an SM9 key of unknown type".into()),
        };
    }
    if private {
        if oid == sm9::OID_SM9_SIGN {
            return Kind::Sm9SignUser;
        }
        if oid == sm9::OID_SM9_ENCRYPT {
            return Kind::Sm9EncUser;
        }
        if oid == sm9::OID_SM9_KEY_AGREEMENT {
            return Kind::Sm9ExchangeUser;
        }
    }
    let what = if oid == OID_RSA {
        "an RSA".to_string()
    } else if oid == OID_ED25519 {
        "an Ed25519".to_string()
    } else if oid == OID_X25519 {
        "an X25519".to_string()
    } else {
        format!("a {oid}")
    };
    Kind::Other(format!(
        "{what} {} key",
        if private { "private" } else { "public" }
    ))
}

fn curve_name(oid: ObjectIdentifier) -> String {
    match oid.to_string().as_str() {
        "1.2.840.10045.3.1.7" => "P-256".into(),
        "1.3.132.0.34" => "P-384".into(),
        "1.3.132.0.35" => "P-521".into(),
        "1.3.132.0.10" => "secp256k1".into(),
        s => s.into(),
    }
}

/// Recognises a (decrypted) key DER.
fn classify(der: &[u8]) -> Option<(Kind, Form)> {
    let el = sequence_elements(der)?;
    let tags: Vec<Tag> = el.iter().map(|a| a.tag()).collect();
    let bits_len = |a: &AnyRef<'_>| {
        BitStringRef::try_from(*a)
            .ok()
            .and_then(|b| b.as_bytes().map(<[u8]>::len))
    };
    match tags.as_slice() {
        // PrivateKeyInfo ::= SEQUENCE { version, AlgorithmIdentifier, OCTET STRING, ... }
        [Tag::Integer, Tag::Sequence, Tag::OctetString, ..] => {
            let alg = elements(el[1])?;
            let oid = alg.first()?.decode_as::<ObjectIdentifier>().ok()?;
            Some((algorithm_kind(oid, alg.get(1).copied(), true), Form::Pkcs8))
        }
        // SubjectPublicKeyInfo ::= SEQUENCE { AlgorithmIdentifier, BIT STRING }
        [Tag::Sequence, Tag::BitString] => {
            let alg = elements(el[0])?;
            let oid = alg.first()?.decode_as::<ObjectIdentifier>().ok()?;
            Some((algorithm_kind(oid, alg.get(1).copied(), false), Form::Spki))
        }
        // ECPrivateKey ::= SEQUENCE { version 1, OCTET STRING, [0] params OPTIONAL, [1] ... }
        [Tag::Integer, Tag::OctetString, ..] => {
            let params = el.iter().find(|a| {
                matches!(a.tag(), Tag::ContextSpecific { number, constructed: true } if number.value() == 0)
            });
            let curve = params.and_then(|p| {
                AnyRef::from_der(p.value())
                    .ok()?
                    .decode_as::<ObjectIdentifier>()
                    .ok()
            });
            match curve {
                None => Some((Kind::Sm2Private, Form::Sec1)),
                Some(c) if c == OID_SM2 => Some((Kind::Sm2Private, Form::Sec1)),
                Some(c) => Some((
                    Kind::Other(format!(
                        "an EC private key on curve {} (not SM2)",
                        curve_name(c)
                    )),
                    Form::Sec1,
                )),
            }
        }
        // SM9{Sign,Enc}MasterKey ::= SEQUENCE { INTEGER, BIT STRING Ppub }
        [Tag::Integer, Tag::BitString] => match bits_len(&el[1])? {
            129 => Some((Kind::Sm9SignMaster, Form::Bare)),
            65 => Some((Kind::Sm9EncMaster, Form::Bare)),
            _ => None,
        },
        // SM9MasterPublicKey ::= SEQUENCE { BIT STRING Ppub }
        [Tag::BitString] => match bits_len(&el[0])? {
            129 => Some((Kind::Sm9SignMpk, Form::Bare)),
            65 => Some((Kind::Sm9EncMpk, Form::Bare)),
            _ => None,
        },
        // SM9{Sign,Enc}PrivateKey ::= SEQUENCE { BIT STRING d, BIT STRING Ppub }
        [Tag::BitString, Tag::BitString] => match (bits_len(&el[0])?, bits_len(&el[1])?) {
            (65, 129) => Some((Kind::Sm9SignUser, Form::Bare)),
            (129, 65) => Some((Kind::Sm9EncUser, Form::Bare)),
            _ => None,
        },
        _ => None,
    }
}

/// Reads and recognises the key in `path`, decrypting it when it is encrypted. A PEM label
/// must fit what the block holds.
fn load(path: &Path, pass: &PassArgs) -> Result<Loaded> {
    let name = quote(path);
    let data = Zeroizing::new(io::read_bounded(path, io::MAX_SMALL_INPUT, "key file")?);
    if data.is_empty() {
        return Err(Error::Input(format!("{name}: empty key file")));
    }
    let (der, label) = key_der(path, &data)?;
    let encrypted = sm_pbes2::is_encrypted(&der);
    let mismatch = |label: &str, holds: &str| {
        Error::Input(format!(
            "{name}: the PEM label {} does not fit what the block holds ({holds})",
            shown_label(label)
        ))
    };
    match label.as_deref() {
        Some("ENCRYPTED PRIVATE KEY") if !encrypted => {
            return Err(mismatch(
                "ENCRYPTED PRIVATE KEY",
                "not encrypted: label it PRIVATE KEY",
            ))
        }
        Some(l) if encrypted && l != "ENCRYPTED PRIVATE KEY" => {
            return Err(mismatch(
                l,
                "a password-encrypted key: label it ENCRYPTED PRIVATE KEY",
            ))
        }
        _ => {}
    }
    if encrypted {
        let pw = pass.password()?.ok_or_else(|| {
            Error::Usage(format!(
                "{name} is password-encrypted: give the password with --pass-env VAR or --pass-file FILE"
            ))
        })?;
        // The libraries' one PBES2 (every scheme smtool meets, SM2 and SM9 keys alike).
        let der = sm_pbes2::decrypt(&der, &pw).map_err(|e| match e {
            sm_pbes2::Error::Decryption => Error::Input(format!(
                "{name}: wrong password (or corrupted encrypted key)"
            )),
            _ => Error::Input(format!(
                "{name}: malformed or unsupported encrypted key (PBES2 with PBKDF2-HMAC-SM3 or -SHA256 and SM4-, AES-128- or AES-256-CBC, at most {} iterations, is supported)",
                sm_pbes2::MAX_ITERATIONS
            )),
        })?;
        // A wrong password that happens to leave valid padding decrypts to garbage.
        return match classify(&der) {
            Some((kind, Form::Pkcs8)) => Ok(Loaded {
                kind,
                form: Form::Pkcs8,
                der,
            }),
            _ => Err(Error::Input(format!(
                "{name}: wrong password (or corrupted encrypted key)"
            ))),
        };
    }
    match (classify(&der), label) {
        (Some((kind, form)), Some(l)) if !label_fits(&l, &kind, form) => {
            Err(mismatch(&l, &kind.describe()))
        }
        (Some((kind, form)), _) => Ok(Loaded { kind, form, der }),
        (None, Some(l)) => Err(Error::Input(format!(
            "{name}: not a recognised key (PEM label {}; expected PKCS#8, SEC1, SPKI or GmSSL SM9)",
            shown_label(&l)
        ))),
        (None, None) => Err(Error::Input(format!(
            "{name}: not a recognised key (expected PEM or DER: PKCS#8, SEC1, SPKI or GmSSL SM9)"
        ))),
    }
}

/// Loads `path`, requiring one of `want`.
fn load_kind(path: &Path, pass: &PassArgs, want: &[Kind], expected: &str) -> Result<Loaded> {
    let k = load(path, pass)?;
    if !want.contains(&k.kind) {
        let hint = match (&k.kind, want.first()) {
            (Kind::Sm2Private, Some(Kind::Sm2Public)) => {
                " (derive it with 'smtool sm2 pubkey --key FILE')"
            }
            _ => "",
        };
        return Err(Error::Input(format!(
            "wrong key type: {} holds {}, expected {expected}{hint}",
            quote(path),
            k.kind.describe()
        )));
    }
    Ok(k)
}

fn bad_key(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::Input(format!("{}: invalid {what}: {e}", quote(path)))
}

/// An SM2 private key (PKCS#8 or SEC1, PEM or DER, plain or encrypted).
pub fn sm2_secret(path: &Path, pass: &PassArgs) -> Result<sm2::SecretKey> {
    let k = load_kind(path, pass, &[Kind::Sm2Private], "an SM2 private key")?;
    sm2_secret_from(&k, path)
}

/// An SM2 public key (SPKI, PEM or DER).
pub fn sm2_public(path: &Path) -> Result<sm2::PublicKey> {
    let k = load_kind(
        path,
        &PassArgs::default(),
        &[Kind::Sm2Public],
        "an SM2 public key",
    )?;
    sm2::PublicKey::from_public_key_der(&k.der).map_err(|e| bad_key(path, "SM2 public key", e))
}

/// The public key of an SM2 key of either kind (for `sm2 pubkey`).
pub fn sm2_any_public(path: &Path, pass: &PassArgs) -> Result<sm2::PublicKey> {
    Ok(sm2_any(path, pass)?.1)
}

fn sm2_secret_from(k: &Loaded, path: &Path) -> Result<sm2::SecretKey> {
    match k.form {
        Form::Sec1 => {
            sm2::SecretKey::from_sec1_der(&k.der).map_err(|e| bad_key(path, "SM2 private key", e))
        }
        _ => {
            sm2::SecretKey::from_pkcs8_der(&k.der).map_err(|e| bad_key(path, "SM2 private key", e))
        }
    }
}

macro_rules! sm9_private_loader {
    ($fn:ident, $ty:ty, $kind:expr, $what:expr) => {
        #[doc = concat!("Loads ", $what, " (PKCS#8 plain/encrypted or GmSSL DER, PEM or DER).")]
        pub fn $fn(path: &Path, pass: &PassArgs) -> Result<$ty> {
            let k = load_kind(path, pass, &[$kind], $what)?;
            let r = match k.form {
                Form::Pkcs8 => <$ty>::from_pkcs8_der(&k.der),
                _ => <$ty>::from_der(&k.der),
            };
            r.map_err(|e| bad_key(path, &$what[3..], e))
        }
    };
}

sm9_private_loader!(
    sm9_sign_user,
    sm9::SignUserKey,
    Kind::Sm9SignUser,
    "an SM9 user signing key"
);
sm9_private_loader!(
    sm9_enc_user,
    sm9::EncUserKey,
    Kind::Sm9EncUser,
    "an SM9 user decryption key"
);

/// An SM9 signature master public key (GmSSL PEM or DER).
pub fn sm9_sign_mpk(path: &Path) -> Result<sm9::SignMasterPublicKey> {
    let k = load_kind(
        path,
        &PassArgs::default(),
        &[Kind::Sm9SignMpk],
        "an SM9 signature master public key",
    )?;
    sm9::SignMasterPublicKey::from_der(&k.der)
        .map_err(|e| bad_key(path, "SM9 master public key", e))
}

/// An SM9 encryption master public key (GmSSL PEM or DER).
pub fn sm9_enc_mpk(path: &Path) -> Result<sm9::EncMasterPublicKey> {
    let k = load_kind(
        path,
        &PassArgs::default(),
        &[Kind::Sm9EncMpk],
        "an SM9 encryption master public key",
    )?;
    sm9::EncMasterPublicKey::from_der(&k.der).map_err(|e| bad_key(path, "SM9 master public key", e))
}

/// Which SM9 master key a file holds.
pub enum Sm9Master {
    /// Signature system.
    Sign(sm9::SignMasterKey),
    /// Encryption / key-exchange system.
    Enc(sm9::EncMasterKey),
}

/// An SM9 master key of either system.
pub fn sm9_any_master(path: &Path, pass: &PassArgs) -> Result<Sm9Master> {
    let k = load_kind(
        path,
        pass,
        &[Kind::Sm9SignMaster, Kind::Sm9EncMaster],
        "an SM9 master key",
    )?;
    master_from(&k, path)
}

/// The master key in `k` (an SM9 master key of either system).
fn master_from(k: &Loaded, path: &Path) -> Result<Sm9Master> {
    let bad = |e| {
        match e {
        // The secret is valid; say so when the public point is a valid point of another secret.
        sm9::Error::InvalidPoint if master_point_is_valid(k) => Error::Input(format!(
            "{}: invalid SM9 master key: its master public key does not match its secret (the pair does not belong together)",
            quote(path)
        )),
        e => bad_key(path, "SM9 master key", e),
    }
    };
    Ok(match (&k.kind, k.form) {
        (Kind::Sm9SignMaster, Form::Pkcs8) => {
            Sm9Master::Sign(sm9::SignMasterKey::from_pkcs8_der(&k.der).map_err(bad)?)
        }
        (Kind::Sm9SignMaster, _) => {
            Sm9Master::Sign(sm9::SignMasterKey::from_der(&k.der).map_err(bad)?)
        }
        (_, Form::Pkcs8) => Sm9Master::Enc(sm9::EncMasterKey::from_pkcs8_der(&k.der).map_err(bad)?),
        _ => Sm9Master::Enc(sm9::EncMasterKey::from_der(&k.der).map_err(bad)?),
    })
}

/// Whether the `Ppub` BIT STRING of a master key (bare or in PKCS#8) is a valid point of its
/// group.
fn master_point_is_valid(k: &Loaded) -> bool {
    let pki;
    let bare: &[u8] = if k.form == Form::Pkcs8 {
        match sm2::pkcs8::PrivateKeyInfoRef::from_der(&k.der) {
            Ok(p) => {
                pki = p;
                pki.private_key.as_bytes()
            }
            Err(_) => return false,
        }
    } else {
        &k.der
    };
    let Some(el) = sequence_elements(bare) else {
        return false;
    };
    let Some(bits) = el.get(1).and_then(|e| BitStringRef::try_from(*e).ok()) else {
        return false;
    };
    let Some(point) = bits.as_bytes() else {
        return false;
    };
    match k.kind {
        Kind::Sm9SignMaster => sm9::SignMasterPublicKey::from_bytes(point).is_ok(),
        _ => sm9::EncMasterPublicKey::from_bytes(point).is_ok(),
    }
}

/// The master public key of an SM9 key, by system.
pub enum Sm9Public {
    /// Signature system.
    Sign(sm9::SignMasterPublicKey),
    /// Encryption / key-exchange system.
    Enc(sm9::EncMasterPublicKey),
}

/// Any SM9 key.
pub enum Sm9Any {
    /// A master key (either system).
    Master(Sm9Master),
    /// A user signing key.
    SignUser(sm9::SignUserKey),
    /// A user decryption key.
    EncUser(sm9::EncUserKey),
    /// A user key-exchange key.
    ExchangeUser(sm9::ExchangeUserKey),
    /// A master public key.
    Public(Sm9Public),
}

impl Sm9Any {
    /// The master public key: re-derived from a master key, carried by a user key, or the key
    /// itself.
    pub fn master_public_key(&self) -> Sm9Public {
        match self {
            Sm9Any::Master(Sm9Master::Sign(m)) => Sm9Public::Sign(*m.public_key()),
            Sm9Any::Master(Sm9Master::Enc(m)) => Sm9Public::Enc(*m.public_key()),
            Sm9Any::SignUser(k) => Sm9Public::Sign(k.master_public_key()),
            Sm9Any::EncUser(k) => Sm9Public::Enc(k.master_public_key()),
            Sm9Any::ExchangeUser(k) => Sm9Public::Enc(k.master_public_key()),
            Sm9Any::Public(Sm9Public::Sign(p)) => Sm9Public::Sign(*p),
            Sm9Any::Public(Sm9Public::Enc(p)) => Sm9Public::Enc(*p),
        }
    }
}

/// Any SM9 key file: master key, user key or master public key.
pub fn sm9_any(path: &Path, pass: &PassArgs) -> Result<Sm9Any> {
    let k = load(path, pass)?;
    let bad = |e| bad_key(path, "SM9 key", e);
    let pkcs8 = k.form == Form::Pkcs8;
    macro_rules! user {
        ($ty:ty) => {
            if pkcs8 {
                <$ty>::from_pkcs8_der(&k.der)
            } else {
                <$ty>::from_der(&k.der)
            }
            .map_err(bad)?
        };
    }
    Ok(match k.kind {
        Kind::Sm9SignMaster | Kind::Sm9EncMaster => Sm9Any::Master(master_from(&k, path)?),
        Kind::Sm9SignUser => Sm9Any::SignUser(user!(sm9::SignUserKey)),
        Kind::Sm9EncUser => Sm9Any::EncUser(user!(sm9::EncUserKey)),
        Kind::Sm9ExchangeUser => Sm9Any::ExchangeUser(user!(sm9::ExchangeUserKey)),
        Kind::Sm9SignMpk => Sm9Any::Public(Sm9Public::Sign(
            sm9::SignMasterPublicKey::from_der(&k.der).map_err(bad)?,
        )),
        Kind::Sm9EncMpk => Sm9Any::Public(Sm9Public::Enc(
            sm9::EncMasterPublicKey::from_der(&k.der).map_err(bad)?,
        )),
        other => {
            return Err(Error::Input(format!(
                "wrong key type: {} holds {}, expected an SM9 master key, user key or master public key",
                quote(path),
                other.describe()
            )))
        }
    })
}

/// An SM2 key of either kind, for `sm2 show`: the secret key if the file holds one.
pub fn sm2_any(path: &Path, pass: &PassArgs) -> Result<(Option<sm2::SecretKey>, sm2::PublicKey)> {
    let k = load_kind(
        path,
        pass,
        &[Kind::Sm2Private, Kind::Sm2Public],
        "an SM2 key",
    )?;
    if k.kind == Kind::Sm2Public {
        let pk = sm2::PublicKey::from_public_key_der(&k.der)
            .map_err(|e| bad_key(path, "SM2 public key", e))?;
        return Ok((None, pk));
    }
    let sk = sm2_secret_from(&k, path)?;
    let pk = *sk.public_key();
    Ok((Some(sk), pk))
}

// ---------------------------------------------------------------------------------------------
// Writing.

/// The file bytes of a private key given its PKCS#8 `PrivateKeyInfo` DER: plain or
/// password-encrypted (`encrypted`: the `EncryptedPrivateKeyInfo`), PEM or DER.
pub fn private_bytes(
    format: KeyFormat,
    pki_der: &[u8],
    encrypted: Option<Vec<u8>>,
) -> Result<Zeroizing<Vec<u8>>> {
    match encrypted {
        Some(e) => der_bytes(format, "ENCRYPTED PRIVATE KEY", &Zeroizing::new(e)),
        None => der_bytes(format, "PRIVATE KEY", pki_der),
    }
}

/// DER, or PEM with `label`, as file bytes.
pub fn der_bytes(format: KeyFormat, label: &str, der: &[u8]) -> Result<Zeroizing<Vec<u8>>> {
    match format {
        KeyFormat::Der => Ok(Zeroizing::new(der.to_vec())),
        KeyFormat::Pem => {
            let pem = Zeroizing::new(
                der::pem::encode_string(label, der::pem::LineEnding::LF, der)
                    .map_err(|e| Error::Input(format!("cannot encode PEM: {e}")))?,
            );
            Ok(Zeroizing::new(pem.as_bytes().to_vec()))
        }
    }
}

/// PKCS#8 DER of an SM2 key.
pub fn sm2_pkcs8(sk: &sm2::SecretKey) -> Result<Zeroizing<Vec<u8>>> {
    let doc = sk
        .to_pkcs8_der()
        .map_err(|e| Error::Input(format!("cannot encode the key: {e}")))?;
    Ok(Zeroizing::new(doc.as_bytes().to_vec()))
}

/// SPKI DER of an SM2 public key.
pub fn sm2_spki(pk: &sm2::PublicKey) -> Result<Vec<u8>> {
    pk.to_public_key_der()
        .map(|d| d.as_bytes().to_vec())
        .map_err(|e| Error::Input(format!("cannot encode the public key: {e}")))
}
