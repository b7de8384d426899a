//! `smtool x509 …`: SM2 certificate requests (PKCS#10, RFC 2986) and X.509 certificates (RFC
//! 5280) signed with SM2-with-SM3 (OID 1.2.156.10197.1.501, GB/T 35276 / GM/T 0015), built with
//! `x509-cert` on the library's `SigningKey` (which implements what its builder needs).
//!
//! The SM2 distinguishing ID of every certificate and request signature is `--id`, by default
//! `1234567812345678` (GM/T 0009 §10 and GM/T 0015: certificates use the default ID). OpenSSL
//! 3.0 writes its SM2 signatures under the same ID when given `-sigopt distid:1234567812345678`
//! and checks them with `-vfyopt distid:1234567812345678` (see README, "X.509").

use std::net::IpAddr;
use std::path::Path;
use std::str::FromStr;
use std::time::{Duration, SystemTime};

use getrandom::SysRng;
use rand_core::UnwrapErr;
use sm2::spki::DecodePublicKey as _;
use x509_cert::builder::profile::BuilderProfile;
use x509_cert::builder::{Builder, CertificateBuilder, RequestBuilder};
use x509_cert::certificate::TbsCertificate;
use x509_cert::der::asn1::{BitString, Ia5String, ObjectIdentifier, OctetString};
use x509_cert::der::flagset::FlagSet;
use x509_cert::der::{Decode, Encode, Tagged as _};
use x509_cert::ext::pkix::name::GeneralName;
use x509_cert::ext::pkix::{
    AuthorityKeyIdentifier, BasicConstraints, ExtendedKeyUsage, KeyUsage, KeyUsages,
    SubjectAltName, SubjectKeyIdentifier,
};
use x509_cert::ext::{Extension, ToExtension};
use x509_cert::name::Name;
use x509_cert::request::{CertReq, ExtensionReq};
use x509_cert::serial_number::SerialNumber;
use x509_cert::spki::{
    AlgorithmIdentifierOwned, SubjectPublicKeyInfoOwned, SubjectPublicKeyInfoRef,
};
use x509_cert::time::Validity;
use x509_cert::Certificate;

use crate::cli::{SanArgs, X509Cert, X509Command, X509Req, X509Show, X509Verify};
use crate::error::{escape, quote, Error, Result};
use crate::io::{self, Encoding};
use crate::keys::{self, KeyFormat};

/// SM2-with-SM3, the signature algorithm of every certificate and request written here.
const SM2_WITH_SM3: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.156.10197.1.501");
/// How many certificates a chain may hold between the target and a trust anchor.
const MAX_INTERMEDIATES: usize = 8;

/// Runs an `smtool x509` subcommand.
pub fn run(c: X509Command) -> Result<()> {
    match c {
        X509Command::Req(a) => req(&a),
        X509Command::Cert(a) => cert(&a),
        X509Command::Verify(a) => verify(&a),
        X509Command::Show(a) => show(&a),
    }
}

fn x509_err(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Input(format!("{what}: {e}"))
}

// ---------------------------------------------------------------------------------------------
// Names, extensions.

/// A subject: OpenSSL's `/CN=a/O=b` (first RDN first; `\/` is a slash inside a value) or an RFC
/// 4514 string `CN=a,O=b` (last RDN first).
pub fn parse_name(text: &str) -> Result<Name> {
    let bad = |e: &dyn std::fmt::Display| {
        Error::Usage(format!(
            "--subj {}: not a distinguished name ({e}); write /CN=name/O=org or CN=name,O=org",
            crate::error::quote_bytes(text.as_bytes())
        ))
    };
    let rfc4514 = match text.strip_prefix('/') {
        None => text.to_string(),
        Some(rest) => {
            // Split at unescaped slashes, then write the RDNs last first, RFC 4514-escaped.
            let mut parts = vec![String::new()];
            let mut chars = rest.chars();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => match chars.next() {
                        Some(n) => parts.last_mut().unwrap().extend(['\\', n]),
                        None => return Err(bad(&"a trailing backslash")),
                    },
                    '/' => parts.push(String::new()),
                    c => parts.last_mut().unwrap().push(c),
                }
            }
            let mut rdns = Vec::new();
            for p in parts.iter().filter(|p| !p.is_empty()) {
                let (k, v) = p
                    .split_once('=')
                    .ok_or_else(|| bad(&format!("{} has no '='", escape(p.as_bytes()))))?;
                rdns.push(format!(
                    "{}={}",
                    k.trim(),
                    escape_rfc4514(&unescape_slash(v))
                ));
            }
            rdns.reverse();
            rdns.join(",")
        }
    };
    let name = Name::from_str(&rfc4514).map_err(|e| bad(&e))?;
    if name.is_empty() {
        return Err(bad(&"it is empty"));
    }
    Ok(name)
}

/// `\x` → `x` (the OpenSSL form's escapes).
fn unescape_slash(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        out.push(if c == '\\' {
            chars.next().unwrap_or('\\')
        } else {
            c
        });
    }
    out
}

/// A value escaped for an RFC 4514 string (§2.4).
fn escape_rfc4514(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let n = v.chars().count();
    for (i, c) in v.chars().enumerate() {
        let special = matches!(c, ',' | '+' | '"' | '\\' | '<' | '>' | ';' | '=')
            || (i == 0 && matches!(c, ' ' | '#'))
            || (i + 1 == n && c == ' ');
        if special {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The keyUsage bits named in a comma-separated list (OpenSSL's names).
fn parse_key_usage(list: &str) -> Result<FlagSet<KeyUsages>> {
    let mut set = FlagSet::<KeyUsages>::default();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        set |= match name {
            "digitalSignature" => KeyUsages::DigitalSignature,
            "nonRepudiation" | "contentCommitment" => KeyUsages::NonRepudiation,
            "keyEncipherment" => KeyUsages::KeyEncipherment,
            "dataEncipherment" => KeyUsages::DataEncipherment,
            "keyAgreement" => KeyUsages::KeyAgreement,
            "keyCertSign" => KeyUsages::KeyCertSign,
            "cRLSign" => KeyUsages::CRLSign,
            "encipherOnly" => KeyUsages::EncipherOnly,
            "decipherOnly" => KeyUsages::DecipherOnly,
            other => {
                return Err(Error::Usage(format!(
                    "--key-usage: unknown usage {} (digitalSignature, nonRepudiation, keyEncipherment, dataEncipherment, keyAgreement, keyCertSign, cRLSign, encipherOnly, decipherOnly)",
                    crate::error::quote_bytes(other.as_bytes())
                )))
            }
        };
    }
    if set.is_empty() {
        return Err(Error::Usage("--key-usage: no usage named".into()));
    }
    Ok(set)
}

/// The subjectAltName of `--dns`/`--ip`, if any.
fn san_of(a: &SanArgs) -> Result<Option<SubjectAltName>> {
    let mut names = Vec::new();
    for d in &a.dns {
        let n = Ia5String::new(d).map_err(|_| {
            Error::Usage(format!(
                "--dns {}: not an ASCII name",
                crate::error::quote_bytes(d.as_bytes())
            ))
        })?;
        names.push(GeneralName::DnsName(n));
    }
    names.extend(a.ip.iter().map(|ip| GeneralName::from(*ip)));
    Ok((!names.is_empty()).then_some(SubjectAltName(names)))
}

// ---------------------------------------------------------------------------------------------
// Reading certificates and requests.

/// What a certificate file holds.
enum Object {
    Cert(Box<Certificate>),
    Req(Box<CertReq>),
}

/// The DER objects of a file: its PEM blocks (label, DER) in order, or the whole file as DER.
fn der_objects(path: &Path, what: &str) -> Result<Vec<(Option<String>, Vec<u8>)>> {
    let bytes = io::read_bounded(path, io::MAX_SMALL_INPUT, what)?;
    let name = quote(path);
    if !bytes.windows(11).any(|w| w == b"-----BEGIN ") {
        return Ok(vec![(None, bytes)]);
    }
    let text = std::str::from_utf8(&bytes)
        .map_err(|_| Error::Input(format!("{name}: corrupted PEM (not text)")))?;
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("-----BEGIN ") {
        let block = &rest[start..];
        let end_at = block
            .find("-----END ")
            .ok_or_else(|| Error::Input(format!("{name}: PEM block without an END line")))?;
        let close = block[end_at + 9..]
            .find("-----")
            .ok_or_else(|| Error::Input(format!("{name}: malformed PEM END line")))?;
        let len = end_at + 9 + close + 5;
        let (label, der) = der::pem::decode_vec(&block.as_bytes()[..len])
            .map_err(|e| Error::Input(format!("{name}: corrupted PEM: {e}")))?;
        out.push((Some(label.to_string()), der));
        rest = &block[len..];
    }
    Ok(out)
}

fn decode_cert(path: &Path, der: &[u8]) -> Result<Certificate> {
    Certificate::from_der(der)
        .map_err(|e| Error::Input(format!("{}: not an X.509 certificate: {e}", quote(path))))
}

fn decode_req(path: &Path, der: &[u8]) -> Result<CertReq> {
    CertReq::from_der(der).map_err(|e| {
        Error::Input(format!(
            "{}: not a certificate request (PKCS#10): {e}",
            quote(path)
        ))
    })
}

/// The certificates of a file (PEM bundle or one DER certificate).
fn load_certs(path: &Path, what: &str) -> Result<Vec<Certificate>> {
    let mut certs = Vec::new();
    for (label, der) in der_objects(path, what)? {
        match label.as_deref() {
            None | Some("CERTIFICATE") => certs.push(decode_cert(path, &der)?),
            // Bundles often carry other blocks (keys, parameters): not certificates.
            Some(_) => {}
        }
    }
    if certs.is_empty() {
        return Err(Error::Input(format!(
            "{}: no certificate found",
            quote(path)
        )));
    }
    Ok(certs)
}

fn load_cert(path: &Path, what: &str) -> Result<Certificate> {
    let mut certs = load_certs(path, what)?;
    if certs.len() > 1 {
        return Err(Error::Input(format!(
            "{}: holds {} certificates, expected one",
            quote(path),
            certs.len()
        )));
    }
    Ok(certs.remove(0))
}

/// A certificate or a request: by PEM label, or the DER structure.
fn load_object(path: &Path) -> Result<Object> {
    let mut objects = der_objects(path, "the input")?;
    if objects.len() != 1 {
        return Err(Error::Input(format!(
            "{}: holds {} PEM blocks, expected one certificate or request",
            quote(path),
            objects.len()
        )));
    }
    let (label, der) = objects.remove(0);
    match label.as_deref() {
        Some("CERTIFICATE") => Ok(Object::Cert(Box::new(decode_cert(path, &der)?))),
        Some("CERTIFICATE REQUEST" | "NEW CERTIFICATE REQUEST") => {
            Ok(Object::Req(Box::new(decode_req(path, &der)?)))
        }
        // The label is echoed only when it looks like one (capitals and spaces): a damaged key
        // file can splice part of its base64 into the BEGIN line.
        Some(l) => Err(Error::Input(format!(
            "{}: PEM label {} is neither a certificate nor a certificate request",
            quote(path),
            if l.len() <= 40 && l.bytes().all(|b| b.is_ascii_uppercase() || b == b' ') {
                crate::error::quote_bytes(l.as_bytes())
            } else {
                "(not shown)".to_string()
            }
        ))),
        None => match Certificate::from_der(&der) {
            Ok(c) => Ok(Object::Cert(Box::new(c))),
            Err(_) => Ok(Object::Req(Box::new(decode_req(path, &der).map_err(
                |_| {
                    Error::Input(format!(
                        "{}: neither an X.509 certificate nor a certificate request (PEM or DER)",
                        quote(path)
                    ))
                },
            )?))),
        },
    }
}

fn load_req(path: &Path) -> Result<CertReq> {
    match load_object(path)? {
        Object::Req(r) => Ok(*r),
        Object::Cert(_) => Err(Error::Input(format!(
            "{}: holds a certificate, expected a certificate request",
            quote(path)
        ))),
    }
}

/// The SM2 key of an SPKI (an error if it is no SM2 key).
fn sm2_key(spki: &SubjectPublicKeyInfoOwned, whose: &str) -> Result<sm2::PublicKey> {
    let der = spki
        .to_der()
        .map_err(|e| x509_err("cannot encode a public key", e))?;
    sm2::PublicKey::from_public_key_der(&der)
        .map_err(|e| Error::Input(format!("{whose}: not an SM2 public key ({e})")))
}

/// The SPKI of an SM2 key, as written into certificates and requests.
fn spki_of(pk: &sm2::PublicKey) -> Result<SubjectPublicKeyInfoOwned> {
    SubjectPublicKeyInfoOwned::from_der(&keys::sm2_spki(pk)?)
        .map_err(|e| x509_err("cannot encode the public key", e))
}

/// Whether `sig` over `tbs` (DER) verifies as SM2-with-SM3 under `pk` and `id`. Any other
/// algorithm, parameters other than absent/NULL, or a malformed signature: false.
fn signature_ok(
    alg: &AlgorithmIdentifierOwned,
    tbs: &[u8],
    sig: &BitString,
    pk: &sm2::PublicKey,
    id: &[u8],
) -> bool {
    let params_ok = alg
        .parameters
        .as_ref()
        .is_none_or(|p| p.tag() == der::Tag::Null && p.value().is_empty());
    if alg.oid != SM2_WITH_SM3 || !params_ok {
        return false;
    }
    let (Some(sig), Ok(vk)) = (sig.as_bytes(), sm2::VerifyingKey::with_id(pk, id)) else {
        return false;
    };
    sm2::Signature::from_der(sig).is_ok_and(|s| vk.verify(tbs, &s).is_ok())
}

fn cert_signed_by(cert: &Certificate, pk: &sm2::PublicKey, id: &[u8]) -> bool {
    cert.tbs_certificate()
        .to_der()
        .is_ok_and(|tbs| signature_ok(cert.signature_algorithm(), &tbs, cert.signature(), pk, id))
}

fn req_self_signed(req: &CertReq, id: &[u8]) -> Result<bool> {
    let pk = sm2_key(&req.info.public_key, "the request's key")?;
    let tbs = req
        .info
        .to_der()
        .map_err(|e| x509_err("cannot encode the request", e))?;
    Ok(signature_ok(&req.algorithm, &tbs, &req.signature, &pk, id))
}

/// The extensions a request asks for (its extensionRequest attribute).
fn requested_extensions(req: &CertReq) -> Vec<Extension> {
    req.info
        .attributes
        .iter()
        .filter(|a| a.oid == <ExtensionReq as der::oid::AssociatedOid>::OID)
        .flat_map(|a| a.values.iter())
        .filter_map(|v| v.decode_as::<ExtensionReq>().ok())
        .flat_map(|r| r.0)
        .collect()
}

fn write_der(out: &Path, format: KeyFormat, label: &str, der: &[u8]) -> Result<()> {
    let outs = io::Outputs::plan(&[("--out", out, false)])?;
    let bytes = keys::der_bytes(format, label, der)?;
    outs.commit(&[(&bytes, Encoding::Raw)])
}

// ---------------------------------------------------------------------------------------------
// req

fn req(a: &X509Req) -> Result<()> {
    io::check_single_stdin(&[("--key", Some(&a.key)), a.pass.reader(), a.id.reader()])?;
    let subject = parse_name(&a.subj)?;
    let san = san_of(&a.san)?;
    let id = crate::sm2_cmd::id_of(&a.id)?;
    let sk = keys::sm2_secret(&a.key, &a.pass)?;
    let signer = sm2::SigningKey::with_id(&sk, &id).map_err(|e| x509_err("bad ID", e))?;
    let mut builder =
        RequestBuilder::new(subject).map_err(|e| x509_err("cannot build the request", e))?;
    if let Some(san) = san {
        builder
            .add_extension(&san)
            .map_err(|e| x509_err("cannot encode subjectAltName", e))?;
    }
    let csr = builder
        .build_with_rng::<_, sm2::Signature, _>(&signer, &mut UnwrapErr(SysRng))
        .map_err(|e| x509_err("cannot sign the request", e))?;
    let der = csr
        .to_der()
        .map_err(|e| x509_err("cannot encode the request", e))?;
    write_der(&a.out, a.format, "CERTIFICATE REQUEST", &der)
}

// ---------------------------------------------------------------------------------------------
// cert

/// The certificate profile of `smtool x509 cert`: names and the extensions chosen on the
/// command line (RFC 5280 §4.2).
struct Profile {
    subject: Name,
    issuer: Option<Name>,
    /// The issuer certificate's subjectKeyIdentifier (or none: computed from its key).
    issuer_key_id: Option<OctetString>,
    ca: bool,
    path_len: Option<u8>,
    usage: FlagSet<KeyUsages>,
    san: Option<SubjectAltName>,
}

/// Encodes `e` and appends it to `ext`.
fn add(
    ext: &mut Vec<Extension>,
    tbs: &TbsCertificate,
    e: impl ToExtension<Error = der::Error>,
) -> x509_cert::builder::Result<()> {
    let e = e.to_extension(tbs.subject(), ext)?;
    ext.push(e);
    Ok(())
}

impl BuilderProfile for Profile {
    fn get_issuer(&self, subject: &Name) -> Name {
        self.issuer.clone().unwrap_or_else(|| subject.clone())
    }

    fn get_subject(&self) -> Name {
        self.subject.clone()
    }

    fn build_extensions(
        &self,
        spk: SubjectPublicKeyInfoRef<'_>,
        issuer_spk: SubjectPublicKeyInfoRef<'_>,
        tbs: &TbsCertificate,
    ) -> x509_cert::builder::Result<Vec<Extension>> {
        let mut ext: Vec<Extension> = Vec::new();
        let bc = BasicConstraints {
            ca: self.ca,
            path_len_constraint: self.path_len,
        };
        add(&mut ext, tbs, &bc)?;
        add(&mut ext, tbs, &KeyUsage(self.usage))?;
        // Key identifiers: RFC 5280 §4.2.1.2 method (1), SHA-1 of the subjectPublicKey, as
        // OpenSSL computes them.
        let ski = SubjectKeyIdentifier::try_from(spk)?;
        let aki_id = match (&self.issuer, &self.issuer_key_id) {
            (Some(_), Some(id)) => id.clone(),
            (Some(_), None) => SubjectKeyIdentifier::try_from(issuer_spk)?.0,
            (None, _) => ski.0.clone(),
        };
        add(&mut ext, tbs, &ski)?;
        let aki = AuthorityKeyIdentifier {
            key_identifier: Some(aki_id),
            ..Default::default()
        };
        add(&mut ext, tbs, &aki)?;
        if let Some(san) = &self.san {
            add(&mut ext, tbs, san)?;
        }
        Ok(ext)
    }
}

fn cert(a: &X509Cert) -> Result<()> {
    io::check_single_stdin(&[
        ("--key", Some(&a.key)),
        a.pass.reader(),
        a.id.reader(),
        ("--issuer", a.issuer.as_deref()),
        ("--csr", a.csr.as_deref()),
        ("--pubkey", a.pubkey.as_deref()),
    ])?;
    let id = crate::sm2_cmd::id_of(&a.id)?;
    let sk = keys::sm2_secret(&a.key, &a.pass)?;
    let signer = sm2::SigningKey::with_id(&sk, &id).map_err(|e| x509_err("bad ID", e))?;
    let issuer = a
        .issuer
        .as_deref()
        .map(|p| load_cert(p, "the issuer certificate").map(|c| (p, c)))
        .transpose()?;
    if let Some((p, c)) = &issuer {
        let ipk = sm2_key(c.tbs_certificate().subject_public_key_info(), &quote(p))?;
        if ipk != *sk.public_key() {
            return Err(Error::Input(format!(
                "--key is not the key of the issuer certificate {}",
                quote(p)
            )));
        }
    }
    let req = a.csr.as_deref().map(load_req).transpose()?;
    if let Some(r) = &req {
        let csr_id = a.csr_id.as_deref().map_or(sm2::DEFAULT_ID, str::as_bytes);
        if !req_self_signed(r, csr_id)? {
            return Err(Error::Failed(format!(
                "the request's self-signature does not verify (under the ID {}; see --csr-id)",
                crate::error::quote_bytes(csr_id)
            )));
        }
    }
    // The subject's key: the request's, --pubkey's, or (self-signed) the signing key's.
    let subject_key = match (&req, &a.pubkey) {
        (Some(r), _) => sm2_key(&r.info.public_key, "the request's key")?,
        (None, Some(p)) => keys::sm2_public(p)?,
        (None, None) => *sk.public_key(),
    };
    if issuer.is_none() && subject_key != *sk.public_key() {
        return Err(Error::Usage(
            "a self-signed certificate (no --issuer) certifies --key's own public key; to certify another key give --issuer CERT with the issuer's --key".into(),
        ));
    }
    let subject = match (&a.subj, &req) {
        (Some(s), _) => parse_name(s)?,
        (None, Some(r)) => r.info.subject.clone(),
        (None, None) => return Err(Error::Usage("--subj is required (or --csr)".into())),
    };
    // subjectAltName: --dns/--ip, else the one the request asks for.
    let san = match san_of(&a.san)? {
        Some(s) => Some(s),
        None => req.as_ref().and_then(|r| {
            requested_extensions(r)
                .into_iter()
                .find(|e| e.extn_id == <SubjectAltName as der::oid::AssociatedOid>::OID)
                .and_then(|e| SubjectAltName::from_der(e.extn_value.as_bytes()).ok())
        }),
    };
    let usage = match &a.key_usage {
        Some(list) => parse_key_usage(list)?,
        None if a.ca => KeyUsages::KeyCertSign | KeyUsages::CRLSign | KeyUsages::DigitalSignature,
        None => KeyUsages::DigitalSignature | KeyUsages::NonRepudiation,
    };
    let serial = match &a.serial {
        Some(h) => {
            let bytes = crate::cli::parse_hex(h, "--serial")?;
            // RFC 5280 §4.1.2.2: a positive integer.
            if bytes.iter().all(|&b| b == 0) {
                return Err(Error::Usage("--serial must be positive (not zero)".into()));
            }
            SerialNumber::new(&bytes).map_err(|e| Error::Usage(format!("--serial: {e}")))?
        }
        None => random_serial()?,
    };
    if a.days == 0 {
        return Err(Error::Usage("--days must be at least 1".into()));
    }
    let validity = Validity::from_now(Duration::from_secs(u64::from(a.days) * 86_400))
        .map_err(|e| Error::Usage(format!("--days {}: {e}", a.days)))?;
    let issuer_key_id = issuer.as_ref().and_then(|(_, c)| {
        c.tbs_certificate()
            .get_extension::<SubjectKeyIdentifier>()
            .ok()
            .flatten()
            .map(|(_, ski)| ski.0)
    });
    let profile = Profile {
        subject,
        issuer: issuer
            .as_ref()
            .map(|(_, c)| c.tbs_certificate().subject().clone()),
        issuer_key_id,
        ca: a.ca,
        path_len: a.path_len,
        usage,
        san,
    };
    let builder = CertificateBuilder::new(profile, serial, validity, spki_of(&subject_key)?)
        .map_err(|e| x509_err("cannot build the certificate", e))?;
    let cert = builder
        .build_with_rng::<_, sm2::Signature, _>(&signer, &mut UnwrapErr(SysRng))
        .map_err(|e| x509_err("cannot sign the certificate", e))?;
    let der = cert
        .to_der()
        .map_err(|e| x509_err("cannot encode the certificate", e))?;
    write_der(&a.out, a.format, "CERTIFICATE", &der)
}

/// A random positive 128-bit serial number (RFC 5280 §4.1.2.2: at most 20 octets; CA/B
/// Forum: at least 64 random bits).
fn random_serial() -> Result<SerialNumber> {
    let mut bytes = [0u8; 16];
    rand_core::TryRng::try_fill_bytes(&mut SysRng, &mut bytes)
        .map_err(|e| Error::Input(format!("the OS random number generator failed: {e}")))?;
    // Positive and 16 octets long: the first octet is 0x40..0x7f.
    bytes[0] = (bytes[0] & 0x3f) | 0x40;
    SerialNumber::new(&bytes).map_err(|e| x509_err("serial number", e))
}

// ---------------------------------------------------------------------------------------------
// verify

/// Why a certificate fails; the message names the certificate by its subject.
fn fail(cert: &Certificate, why: &str) -> Error {
    Error::Failed(format!(
        "verification failed: {why} (certificate {})",
        crate::error::quote_bytes(cert.tbs_certificate().subject().to_string().as_bytes())
    ))
}

fn check_validity(cert: &Certificate, now: SystemTime) -> Result<()> {
    let v = cert.tbs_certificate().validity();
    if now < v.not_before.to_system_time() {
        return Err(fail(cert, "not yet valid"));
    }
    if now > v.not_after.to_system_time() {
        return Err(fail(cert, "expired"));
    }
    Ok(())
}

/// The extensions this verifier understands; a certificate with any other critical extension is
/// refused (RFC 5280 §4.2).
fn known_extension(oid: ObjectIdentifier) -> bool {
    use der::oid::AssociatedOid;
    [
        BasicConstraints::OID,
        KeyUsage::OID,
        ExtendedKeyUsage::OID,
        SubjectAltName::OID,
        SubjectKeyIdentifier::OID,
        AuthorityKeyIdentifier::OID,
    ]
    .contains(&oid)
}

fn check_extensions(cert: &Certificate) -> Result<()> {
    let unknown = cert
        .tbs_certificate()
        .extensions()
        .into_iter()
        .flatten()
        .find(|e| e.critical && !known_extension(e.extn_id));
    match unknown {
        Some(e) => Err(fail(
            cert,
            &format!("unsupported critical extension {}", e.extn_id),
        )),
        None => Ok(()),
    }
}

/// Checks that `ca` may issue a certificate with `below` CA certificates under it.
fn check_issuer(ca: &Certificate, below: usize) -> Result<()> {
    let tbs = ca.tbs_certificate();
    let bc = tbs
        .get_extension::<BasicConstraints>()
        .map_err(|_| fail(ca, "malformed basicConstraints"))?;
    match bc {
        Some((_, b)) if b.ca => {
            if b.path_len_constraint
                .is_some_and(|n| usize::from(n) < below)
            {
                return Err(fail(ca, "the path length constraint is exceeded"));
            }
        }
        _ => {
            return Err(fail(
                ca,
                "the issuer is not a CA (basicConstraints CA:TRUE missing)",
            ))
        }
    }
    let ku = tbs
        .get_extension::<KeyUsage>()
        .map_err(|_| fail(ca, "malformed keyUsage"))?;
    if ku.is_some_and(|(_, k)| !k.key_cert_sign()) {
        return Err(fail(ca, "the issuer's keyUsage lacks keyCertSign"));
    }
    Ok(())
}

fn verify(a: &X509Verify) -> Result<()> {
    io::check_single_stdin(&[
        ("FILE", Some(&a.input)),
        ("--ca-file", a.ca_file.as_deref()),
        ("--chain", a.chain.as_deref()),
        a.id.reader(),
    ])?;
    let id = crate::sm2_cmd::id_of(&a.id)?;
    let target = match load_object(&a.input)? {
        Object::Req(r) => {
            if !req_self_signed(&r, &id)? {
                return Err(Error::Failed(
                    "verification failed: the request's self-signature does not verify".into(),
                ));
            }
            return done(a.quiet, "Request self-signature OK\n");
        }
        Object::Cert(c) => *c,
    };
    let ca_file = a.ca_file.as_deref().ok_or_else(|| {
        Error::Usage("verifying a certificate needs the trust anchors: --ca-file FILE".into())
    })?;
    let anchors = load_certs(ca_file, "the CA file")?;
    let chain = match &a.chain {
        Some(p) => load_certs(p, "the chain file")?,
        None => Vec::new(),
    };
    let now = SystemTime::now();
    let mut cur = &target;
    for below in 0..=MAX_INTERMEDIATES {
        check_validity(cur, now)?;
        check_extensions(cur)?;
        let issued_by =
            |c: &&Certificate| c.tbs_certificate().subject() == cur.tbs_certificate().issuer();
        // The target itself is a trust anchor: its own signature is checked (OpenSSL 3.0 cannot).
        if below == 0 && anchors.contains(cur) {
            let pk = sm2_key(
                cur.tbs_certificate().subject_public_key_info(),
                "the certificate",
            )?;
            if !issued_by(&cur) || !cert_signed_by(cur, &pk, &id) {
                return Err(fail(cur, "the self-signature does not verify"));
            }
            return done(a.quiet, "OK\n");
        }
        let candidates: Vec<(bool, &Certificate)> = anchors
            .iter()
            .map(|c| (true, c))
            .chain(chain.iter().map(|c| (false, c)))
            .filter(|(_, c)| issued_by(c))
            .collect();
        if candidates.is_empty() {
            return Err(fail(
                cur,
                "no issuer certificate found in --ca-file or --chain",
            ));
        }
        let signer = candidates.into_iter().find(|(_, c)| {
            sm2_key(c.tbs_certificate().subject_public_key_info(), "the issuer")
                .is_ok_and(|pk| cert_signed_by(cur, &pk, &id))
        });
        let Some((is_anchor, issuer)) = signer else {
            return Err(fail(
                cur,
                "the signature does not verify under the issuer's key",
            ));
        };
        check_issuer(issuer, below)?;
        if is_anchor {
            check_validity(issuer, now)?;
            return done(a.quiet, "OK\n");
        }
        cur = issuer;
    }
    Err(fail(cur, "the chain is too long"))
}

fn done(quiet: bool, msg: &str) -> Result<()> {
    if quiet {
        Ok(())
    } else {
        io::print(msg.as_bytes())
    }
}

// ---------------------------------------------------------------------------------------------
// show

fn hex_colon(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(":")
}

fn alg_name(oid: ObjectIdentifier) -> String {
    if oid == SM2_WITH_SM3 {
        "SM2-with-SM3".into()
    } else {
        oid.to_string()
    }
}

fn describe_key(spki: &SubjectPublicKeyInfoOwned, out: &mut String) {
    match sm2_key(spki, "key") {
        Ok(pk) => {
            out.push_str("    Public Key: SM2\n        pub: ");
            out.push_str(&hex_colon(&pk.to_uncompressed()));
            out.push('\n');
        }
        Err(_) => out.push_str(&format!(
            "    Public Key: {} (not SM2)\n",
            spki.algorithm.oid
        )),
    }
}

fn describe_usage(k: &KeyUsage) -> String {
    let names = [
        (k.digital_signature(), "digitalSignature"),
        (k.non_repudiation(), "nonRepudiation"),
        (k.key_encipherment(), "keyEncipherment"),
        (k.data_encipherment(), "dataEncipherment"),
        (k.key_agreement(), "keyAgreement"),
        (k.key_cert_sign(), "keyCertSign"),
        (k.crl_sign(), "cRLSign"),
        (k.encipher_only(), "encipherOnly"),
        (k.decipher_only(), "decipherOnly"),
    ];
    names
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe_san(san: &SubjectAltName) -> String {
    san.0
        .iter()
        .map(|n| match n {
            GeneralName::DnsName(d) => format!("DNS:{}", escape(d.as_bytes())),
            GeneralName::Rfc822Name(e) => format!("email:{}", escape(e.as_bytes())),
            GeneralName::UniformResourceIdentifier(u) => format!("URI:{}", escape(u.as_bytes())),
            GeneralName::IpAddress(ip) => match ip.as_bytes().len() {
                4 => {
                    let b: [u8; 4] = ip.as_bytes().try_into().unwrap_or_default();
                    format!("IP:{}", IpAddr::from(b))
                }
                16 => {
                    let b: [u8; 16] = ip.as_bytes().try_into().unwrap_or_default();
                    format!("IP:{}", IpAddr::from(b))
                }
                _ => format!("IP:{}", hex_colon(ip.as_bytes())),
            },
            other => format!("{other:?}"),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn describe_extension(e: &Extension, out: &mut String) {
    use der::oid::AssociatedOid;
    let v = e.extn_value.as_bytes();
    let crit = if e.critical { " (critical)" } else { "" };
    let (name, text) = match e.extn_id {
        BasicConstraints::OID => (
            "basicConstraints",
            BasicConstraints::from_der(v).map(|b| {
                let ca = if b.ca { "CA:TRUE" } else { "CA:FALSE" };
                match b.path_len_constraint {
                    Some(n) => format!("{ca}, pathlen:{n}"),
                    None => ca.to_string(),
                }
            }),
        ),
        KeyUsage::OID => (
            "keyUsage",
            KeyUsage::from_der(v).map(|k| describe_usage(&k)),
        ),
        SubjectKeyIdentifier::OID => (
            "subjectKeyIdentifier",
            SubjectKeyIdentifier::from_der(v).map(|s| hex_colon(s.0.as_bytes())),
        ),
        AuthorityKeyIdentifier::OID => (
            "authorityKeyIdentifier",
            AuthorityKeyIdentifier::from_der(v).map(|k| match k.key_identifier {
                Some(id) => format!("keyid:{}", hex_colon(id.as_bytes())),
                None => "(no key identifier)".into(),
            }),
        ),
        SubjectAltName::OID => (
            "subjectAltName",
            SubjectAltName::from_der(v).map(|s| describe_san(&s)),
        ),
        ExtendedKeyUsage::OID => (
            "extendedKeyUsage",
            ExtendedKeyUsage::from_der(v).map(|k| {
                k.0.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            }),
        ),
        _ => {
            out.push_str(&format!("        {}{crit}: {} bytes\n", e.extn_id, v.len()));
            return;
        }
    };
    let text = text.unwrap_or_else(|_| "(malformed)".into());
    out.push_str(&format!("        {name}{crit}: {text}\n"));
}

fn show(a: &X509Show) -> Result<()> {
    io::check_single_stdin(&[("FILE", Some(&a.input))])?;
    // RFC 4514 text, escaped only where it holds characters unsafe for a terminal (the
    // escaping doubles its backslashes).
    let name = |n: &Name| {
        let s = n.to_string();
        if crate::error::needs_escape(s.replace('\\', "").as_bytes()) {
            escape(s.as_bytes())
        } else {
            s
        }
    };
    let mut out = String::new();
    match load_object(&a.input)? {
        Object::Cert(c) => {
            let t = c.tbs_certificate();
            out.push_str("Certificate:\n");
            out.push_str(&format!("    Version: {}\n", t.version() as u8 + 1));
            out.push_str(&format!(
                "    Serial Number: {}\n",
                hex_colon(t.serial_number().as_bytes())
            ));
            out.push_str(&format!(
                "    Signature Algorithm: {}\n",
                alg_name(c.signature_algorithm().oid)
            ));
            out.push_str(&format!("    Issuer: {}\n", name(t.issuer())));
            out.push_str(&format!("    Not Before: {}\n", t.validity().not_before));
            out.push_str(&format!("    Not After : {}\n", t.validity().not_after));
            out.push_str(&format!("    Subject: {}\n", name(t.subject())));
            describe_key(t.subject_public_key_info(), &mut out);
            if let Some(exts) = t.extensions() {
                out.push_str("    Extensions:\n");
                for e in exts {
                    describe_extension(e, &mut out);
                }
            }
        }
        Object::Req(r) => {
            out.push_str("Certificate Request:\n");
            out.push_str(&format!("    Subject: {}\n", name(&r.info.subject)));
            out.push_str(&format!(
                "    Signature Algorithm: {}\n",
                alg_name(r.algorithm.oid)
            ));
            describe_key(&r.info.public_key, &mut out);
            let exts = requested_extensions(&r);
            if !exts.is_empty() {
                out.push_str("    Requested Extensions:\n");
                for e in &exts {
                    describe_extension(e, &mut out);
                }
            }
        }
    }
    io::print(out.as_bytes())
}
