//! `smcrypto.sm2`: keys, signatures, encryption and key exchange (GB/T 32918).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock};

use getrandom::SysRng;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand_core::UnwrapErr;
use rayon::prelude::*;
use sm2::exchange::{self, InitiatorWaiting, ResponderWaiting};
use sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey, LineEnding};
use sm2::spki::{DecodePublicKey, EncodePublicKey};
use sm2::Mode;
use subtle::ConstantTimeEq;

use crate::util::{
    array, bad_choice, bytes, detach_parallel, raise, reduce_from_der, sm2_err, Data, Encoding,
    Kind, OwnedData, Text,
};

/// The default distinguishing ID, `b"1234567812345678"` (GB/T 35276).
pub const DEFAULT_ID: &[u8] = sm2::DEFAULT_ID;

fn id_or_default<'a>(id: &'a Option<Text<'_>>) -> &'a [u8] {
    id.as_deref().unwrap_or(DEFAULT_ID)
}

/// Signature encodings: DER (SEQUENCE of two INTEGERs, OpenSSL/GmSSL) or `r ‖ s` (64 bytes).
fn encode_sig(enc: Encoding, sig: &sm2::Signature) -> Vec<u8> {
    match enc {
        Encoding::Der => sig.to_der(),
        Encoding::Raw => sig.to_bytes().to_vec(),
    }
}

fn decode_sig(enc: Encoding, data: &[u8]) -> Result<sm2::Signature, sm2::Error> {
    match enc {
        Encoding::Der => sm2::Signature::from_der(data),
        Encoding::Raw => sm2::Signature::from_bytes(data),
    }
}

/// Ciphertext layouts: `"c1c3c2"` (GB/T 32918.4-2016), `"c1c2c3"` (the 2010 draft order) and
/// `"der"` (GM/T 0009, OpenSSL and GmSSL).
#[derive(Clone, Copy)]
enum CtMode {
    Raw(Mode),
    Der,
}

impl CtMode {
    fn parse(s: &str) -> PyResult<Self> {
        match s {
            "c1c3c2" => Ok(Self::Raw(Mode::C1C3C2)),
            "c1c2c3" => Ok(Self::Raw(Mode::C1C2C3)),
            "der" => Ok(Self::Der),
            _ => Err(bad_choice("mode", s, &["c1c3c2", "c1c2c3", "der"])),
        }
    }
}

/// `-----BEGIN label-----` blocks of a PEM text: (label, the block from BEGIN to its END line).
fn pem_blocks(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("-----BEGIN ") {
        let after = &rest[start + 11..];
        let Some(label_end) = after.find("-----") else {
            break;
        };
        let label = &after[..label_end];
        let end_marker = format!("-----END {label}-----");
        let Some(end) = after.find(&end_marker) else {
            break;
        };
        let block_end = start + 11 + end + end_marker.len();
        out.push((label, &rest[start..block_end]));
        rest = &rest[block_end..];
    }
    out
}

/// An SM2 private key. Create with [`generate`](Self::generate) or load with
/// ``from_pem``/``from_der``/``from_bytes``. The secret stays in Rust memory and is wiped when
/// the object is freed; ``repr`` never shows it.
#[pyclass(name = "PrivateKey", module = "smcrypto.sm2", frozen)]
pub struct PrivateKey {
    sk: sm2::SecretKey,
    signer: OnceLock<sm2::SigningKey>,
}

impl PrivateKey {
    fn new(sk: sm2::SecretKey) -> Self {
        PrivateKey {
            sk,
            signer: OnceLock::new(),
        }
    }

    fn signer_for(&self, id: Option<&[u8]>) -> PyResult<SignerRef<'_>> {
        match id {
            None => Ok(SignerRef::Cached(
                self.signer.get_or_init(|| sm2::SigningKey::new(&self.sk)),
            )),
            Some(id) => Ok(SignerRef::Owned(Box::new(
                sm2::SigningKey::with_id(&self.sk, id).map_err(sm2_err)?,
            ))),
        }
    }

    fn to_pkcs8(&self, format: &str) -> PyResult<(zeroize::Zeroizing<Vec<u8>>, &'static str)> {
        let enc = |_| raise(Kind::Encoding, "cannot encode the key");
        let der = match format {
            "gmssl" => self.sk.to_pkcs8_der_gmssl().map_err(sm2_err)?,
            "openssl" => self.sk.to_pkcs8_der().map_err(enc)?,
            "sec1" => return Ok((self.sk.to_sec1_der().map_err(sm2_err)?, "EC PRIVATE KEY")),
            _ => return Err(bad_choice("format", format, &["gmssl", "openssl", "sec1"])),
        };
        Ok((
            zeroize::Zeroizing::new(der.as_bytes().to_vec()),
            "PRIVATE KEY",
        ))
    }
}

enum SignerRef<'a> {
    Cached(&'a sm2::SigningKey),
    Owned(Box<sm2::SigningKey>),
}

impl std::ops::Deref for SignerRef<'_> {
    type Target = sm2::SigningKey;
    fn deref(&self) -> &sm2::SigningKey {
        match self {
            SignerRef::Cached(s) => s,
            SignerRef::Owned(s) => s,
        }
    }
}

/// The PBES2 parameters for `format` when a password is given.
fn pbes2_for(format: &str) -> PyResult<sm2::Pbes2> {
    match format {
        "gmssl" => Ok(sm2::Pbes2::GmSsl),
        "openssl" => Ok(sm2::Pbes2::OpenSsl),
        "sec1" => Err(PyValueError::new_err(
            "SEC1 keys cannot be password-encrypted here; use PKCS#8 (format=\"gmssl\" or \"openssl\")",
        )),
        _ => Err(bad_choice("format", format, &["gmssl", "openssl", "sec1"])),
    }
}

#[pymethods]
impl PrivateKey {
    /// A fresh random key (operating-system RNG).
    #[staticmethod]
    fn generate() -> Self {
        Self::new(sm2::SecretKey::random(&mut UnwrapErr(SysRng)))
    }

    /// From the 32-byte big-endian secret scalar `d` in `[1, n-2]`.
    #[staticmethod]
    fn from_bytes(data: Data<'_>) -> PyResult<Self> {
        let d = zeroize::Zeroizing::new(array::<32>(&data, "an SM2 private key")?);
        Ok(Self::new(sm2::SecretKey::from_bytes(&d).map_err(sm2_err)?))
    }

    /// From DER: PKCS#8 (either layout), SEC1 ``ECPrivateKey``, or with `password` a PBES2
    /// ``EncryptedPrivateKeyInfo`` (PBKDF2 with HMAC-SM3 or HMAC-SHA256; SM4-, AES-128- or
    /// AES-256-CBC: what GmSSL and OpenSSL write).
    #[staticmethod]
    #[pyo3(signature = (data, password = None))]
    fn from_der(py: Python<'_>, data: Data<'_>, password: Option<Text<'_>>) -> PyResult<Self> {
        let pw = crate::util::password(password);
        let sk = match pw {
            Some(pw) => py
                .detach(|| sm2::SecretKey::from_pkcs8_encrypted_der(&data, &pw))
                .map_err(sm2_err)?,
            None => match sm2::SecretKey::from_pkcs8_der(&data) {
                Ok(sk) => sk,
                Err(_) => sm2::SecretKey::from_sec1_der(&data).map_err(sm2_err)?,
            },
        };
        Ok(Self::new(sk))
    }

    /// From PEM (``str`` or ``bytes``): ``PRIVATE KEY``, ``EC PRIVATE KEY`` (parameter blocks
    /// before it, as ``openssl ecparam -genkey`` writes, are skipped) or, with `password`,
    /// ``ENCRYPTED PRIVATE KEY``.
    #[staticmethod]
    #[pyo3(signature = (data, password = None))]
    fn from_pem(py: Python<'_>, data: Text<'_>, password: Option<Text<'_>>) -> PyResult<Self> {
        let text = data.as_str()?;
        let pw = crate::util::password(password);
        let block = pem_blocks(text)
            .into_iter()
            .find(|(label, _)| !label.ends_with("PARAMETERS"))
            .ok_or_else(|| raise(Kind::Encoding, "no PEM private key found"))?;
        let sk = match (block.0, pw) {
            ("ENCRYPTED PRIVATE KEY", Some(pw)) => py
                .detach(|| sm2::SecretKey::from_pkcs8_encrypted_pem(block.1, &pw))
                .map_err(sm2_err)?,
            ("ENCRYPTED PRIVATE KEY", None) => {
                return Err(PyTypeError::new_err(
                    "the private key is encrypted: a password is needed",
                ))
            }
            (_, Some(_)) => {
                return Err(PyTypeError::new_err(
                    "a password was given but the private key is not encrypted",
                ))
            }
            ("PRIVATE KEY", None) => sm2::SecretKey::from_pkcs8_pem(block.1)
                .map_err(|_| raise(Kind::Encoding, "malformed PKCS#8 SM2 private key"))?,
            ("EC PRIVATE KEY", None) => sm2::SecretKey::from_sec1_pem(block.1).map_err(sm2_err)?,
            _ => return Err(raise(Kind::Encoding, "not an SM2 private key PEM label")),
        };
        Ok(Self::new(sk))
    }

    /// The 32-byte secret scalar.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes(py, &*self.sk.to_bytes())
    }

    /// DER: PKCS#8 in GmSSL's layout (``format="gmssl"``, the curve also named inside the
    /// ``ECPrivateKey``), OpenSSL's (``"openssl"``) or SEC1 (``"sec1"``); with `password`, a PBES2
    /// ``EncryptedPrivateKeyInfo`` as GmSSL writes it (PBKDF2-HMAC-SM3 + SM4-CBC, which OpenSSL
    /// 3.0 cannot read) or, with ``format="openssl"``, as OpenSSL does (PBKDF2-HMAC-SHA256 +
    /// AES-256-CBC); 65536 iterations.
    #[pyo3(signature = (password = None, format = "gmssl"))]
    fn to_der<'py>(
        &self,
        py: Python<'py>,
        password: Option<Text<'_>>,
        format: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        match crate::util::password(password) {
            Some(pw) => {
                let scheme = pbes2_for(format)?;
                let der = py
                    .detach(|| {
                        self.sk
                            .to_pkcs8_encrypted_der_as(&mut UnwrapErr(SysRng), &pw, scheme)
                    })
                    .map_err(sm2_err)?;
                Ok(bytes(py, &der))
            }
            None => Ok(bytes(py, &self.to_pkcs8(format)?.0)),
        }
    }

    /// PEM (``bytes``) of [`to_der`](Self::to_der).
    #[pyo3(signature = (password = None, format = "gmssl"))]
    fn to_pem<'py>(
        &self,
        py: Python<'py>,
        password: Option<Text<'_>>,
        format: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let pem = match crate::util::password(password) {
            Some(pw) => {
                let scheme = pbes2_for(format)?;
                zeroize::Zeroizing::new(
                    py.detach(|| {
                        self.sk.to_pkcs8_encrypted_pem_as(
                            &mut UnwrapErr(SysRng),
                            &pw,
                            scheme,
                            LineEnding::LF,
                        )
                    })
                    .map_err(sm2_err)?,
                )
            }
            None => {
                let (der, label) = self.to_pkcs8(format)?;
                zeroize::Zeroizing::new(
                    sm2::pkcs8::der::pem::encode_string(label, LineEnding::LF, &der)
                        .map_err(|_| raise(Kind::Encoding, "cannot encode the key"))?,
                )
            }
        };
        Ok(bytes(py, pem.as_bytes()))
    }

    /// The matching public key.
    fn public_key(&self) -> PublicKey {
        PublicKey::new(*self.sk.public_key())
    }

    /// Signs `message` with a fresh random nonce: ``e = SM3(ZA ‖ message)`` with ZA from `id`
    /// (default ``b"1234567812345678"``). Returns DER (``encoding="der"``) or ``r ‖ s``
    /// (``"raw"``).
    #[pyo3(signature = (message, id = None, encoding = "der"))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        message: Data<'_>,
        id: Option<Text<'_>>,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let enc = Encoding::parse(encoding)?;
        let signer = self.signer_for(id.as_deref())?;
        let sig = py.detach(|| signer.sign_with_rng(&mut UnwrapErr(SysRng), &message));
        Ok(bytes(py, &encode_sig(enc, &sig)))
    }

    /// Signs a precomputed 32-byte digest ``e = SM3(ZA ‖ M)`` (see ``PublicKey.digest``).
    #[pyo3(signature = (digest, encoding = "der"))]
    fn sign_digest<'py>(
        &self,
        py: Python<'py>,
        digest: Data<'_>,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let enc = Encoding::parse(encoding)?;
        let e = array::<32>(&digest, "an SM2 digest")?;
        let signer = self.signer_for(None)?;
        let sig = py.detach(|| signer.sign_prehash_with_rng(&mut UnwrapErr(SysRng), &e));
        Ok(bytes(py, &encode_sig(enc, &sig)))
    }

    /// Signs every message of `messages` on all cores; returns the signatures in order.
    #[pyo3(signature = (messages, id = None, encoding = "der"))]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        messages: Vec<OwnedData>,
        id: Option<Text<'_>>,
        encoding: &str,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let enc = Encoding::parse(encoding)?;
        let signer = self.signer_for(id.as_deref())?;
        let msgs: Vec<&[u8]> = messages.iter().map(|m| &**m).collect();
        let sigs: Vec<Vec<u8>> = detach_parallel(py, || {
            msgs.par_iter()
                .map(|m| encode_sig(enc, &signer.sign_with_rng(&mut UnwrapErr(SysRng), m)))
                .collect()
        });
        Ok(sigs.iter().map(|s| bytes(py, s)).collect())
    }

    /// Decrypts a ciphertext in `mode` ``"c1c3c2"`` (default), ``"c1c2c3"`` or ``"der"``.
    /// Every failure is the same ``DecryptionError``.
    #[pyo3(signature = (ciphertext, mode = "c1c3c2"))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ciphertext: Data<'_>,
        mode: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mode = CtMode::parse(mode)?;
        let pt = py
            .detach(|| match mode {
                CtMode::Raw(m) => self.sk.decrypt(&ciphertext, m),
                CtMode::Der => self.sk.decrypt_der(&ciphertext),
            })
            .map_err(|_| raise(Kind::Decryption, "decryption failed"))?;
        Ok(bytes(py, &pt))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PrivateKey>() {
            Ok(o) => bool::from(self.sk.ct_eq(&o.get().sk)),
            Err(_) => false,
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<smcrypto.sm2.PrivateKey public={}>",
            hex(&self.sk.public_key().to_compressed())
        )
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let der = slf.get().to_pkcs8("openssl")?.0;
        reduce_from_der(slf.as_any(), &der)
    }
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// An SM2 public key. Verification builds a precomputed table of the key (≈ 88 KB, about
/// twice as fast per verification) the second time it is used.
#[pyclass(name = "PublicKey", module = "smcrypto.sm2", frozen)]
pub struct PublicKey {
    pk: sm2::PublicKey,
    plain: sm2::VerifyingKey,
    used: AtomicBool,
    table: OnceLock<sm2::VerifyingKey>,
}

impl PublicKey {
    fn new(pk: sm2::PublicKey) -> Self {
        PublicKey {
            plain: sm2::VerifyingKey::new(&pk),
            pk,
            used: AtomicBool::new(false),
            table: OnceLock::new(),
        }
    }

    /// The verifying key for the default ID; with the comb table from the second use on.
    fn verifier(&self) -> &sm2::VerifyingKey {
        if let Some(v) = self.table.get() {
            return v;
        }
        if self.used.swap(true, Ordering::Relaxed) {
            self.table
                .get_or_init(|| self.plain.clone().with_precomputed_table())
        } else {
            &self.plain
        }
    }

    fn check(
        &self,
        sig: &sm2::Signature,
        e: Option<&[u8; 32]>,
        msg: &[u8],
        id: Option<&[u8]>,
    ) -> bool {
        let v = self.verifier();
        match (e, id) {
            (Some(e), _) => v.verify_prehash(e, sig).is_ok(),
            (None, None) => v.verify(msg, sig).is_ok(),
            (None, Some(id)) => match sm2::compute_za(id, &self.pk) {
                Ok(za) => v
                    .verify_prehash(&sm2::message_digest(&za, msg), sig)
                    .is_ok(),
                Err(_) => false,
            },
        }
    }
}

#[pymethods]
impl PublicKey {
    /// From a SEC1 point: 65 bytes uncompressed (``04 ‖ x ‖ y``) or 33 compressed.
    #[staticmethod]
    fn from_bytes(data: Data<'_>) -> PyResult<Self> {
        Ok(Self::new(
            sm2::PublicKey::from_sec1_bytes(&data).map_err(sm2_err)?,
        ))
    }

    /// From a DER ``SubjectPublicKeyInfo``.
    #[staticmethod]
    fn from_der(data: Data<'_>) -> PyResult<Self> {
        let pk = sm2::PublicKey::from_public_key_der(&data)
            .map_err(|_| raise(Kind::Encoding, "malformed SM2 SubjectPublicKeyInfo"))?;
        Ok(Self::new(pk))
    }

    /// From a PEM ``PUBLIC KEY`` (``str`` or ``bytes``).
    #[staticmethod]
    fn from_pem(data: Text<'_>) -> PyResult<Self> {
        let text = data.as_str()?;
        let block = pem_blocks(text)
            .into_iter()
            .find(|(label, _)| *label == "PUBLIC KEY")
            .ok_or_else(|| raise(Kind::Encoding, "no PEM PUBLIC KEY found"))?;
        let pk = sm2::PublicKey::from_public_key_pem(block.1)
            .map_err(|_| raise(Kind::Encoding, "malformed SM2 public key PEM"))?;
        Ok(Self::new(pk))
    }

    /// The SEC1 point: 65 bytes, or 33 with ``compressed=True``.
    #[pyo3(signature = (compressed = false))]
    fn to_bytes<'py>(&self, py: Python<'py>, compressed: bool) -> Bound<'py, PyBytes> {
        if compressed {
            bytes(py, &self.pk.to_compressed())
        } else {
            bytes(py, &self.pk.to_uncompressed())
        }
    }

    /// DER ``SubjectPublicKeyInfo``.
    fn to_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let der = self
            .pk
            .to_public_key_der()
            .map_err(|_| raise(Kind::Encoding, "cannot encode the key"))?;
        Ok(bytes(py, der.as_bytes()))
    }

    /// PEM ``PUBLIC KEY`` (``bytes``).
    fn to_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let pem = self
            .pk
            .to_public_key_pem(LineEnding::LF)
            .map_err(|_| raise(Kind::Encoding, "cannot encode the key"))?;
        Ok(bytes(py, pem.as_bytes()))
    }

    /// Verifies `signature` on `message` for `id`; raises ``InvalidSignature`` if it does not
    /// verify or is malformed (as pyca/cryptography does), returns ``None`` otherwise.
    #[pyo3(signature = (signature, message, id = None, encoding = "der"))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: Data<'_>,
        message: Data<'_>,
        id: Option<Text<'_>>,
        encoding: &str,
    ) -> PyResult<()> {
        let enc = Encoding::parse(encoding)?;
        let bad = || raise(Kind::InvalidSignature, "signature verification failed");
        let sig = decode_sig(enc, &signature).map_err(|_| bad())?;
        let id = id.as_deref().filter(|i| *i != DEFAULT_ID);
        if py.detach(|| self.check(&sig, None, &message, id)) {
            Ok(())
        } else {
            Err(bad())
        }
    }

    /// Verifies `signature` on a precomputed digest ``e = SM3(ZA ‖ M)``.
    #[pyo3(signature = (signature, digest, encoding = "der"))]
    fn verify_digest(
        &self,
        py: Python<'_>,
        signature: Data<'_>,
        digest: Data<'_>,
        encoding: &str,
    ) -> PyResult<()> {
        let enc = Encoding::parse(encoding)?;
        let e = array::<32>(&digest, "an SM2 digest")?;
        let bad = || raise(Kind::InvalidSignature, "signature verification failed");
        let sig = decode_sig(enc, &signature).map_err(|_| bad())?;
        if py.detach(|| self.check(&sig, Some(&e), &[], None)) {
            Ok(())
        } else {
            Err(bad())
        }
    }

    /// Encrypts `plaintext` (at least one byte) to this key; `mode` as for ``decrypt``.
    #[pyo3(signature = (plaintext, mode = "c1c3c2"))]
    fn encrypt<'py>(
        &self,
        py: Python<'py>,
        plaintext: Data<'_>,
        mode: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mode = CtMode::parse(mode)?;
        let ct = py
            .detach(|| match mode {
                CtMode::Raw(m) => self.pk.encrypt(&mut UnwrapErr(SysRng), &plaintext, m),
                CtMode::Der => self.pk.encrypt_der(&mut UnwrapErr(SysRng), &plaintext),
            })
            .map_err(sm2_err)?;
        Ok(bytes(py, &ct))
    }

    /// ``ZA = SM3(ENTL ‖ ID ‖ a ‖ b ‖ xG ‖ yG ‖ xA ‖ yA)`` for `id`.
    #[pyo3(signature = (id = None))]
    fn za<'py>(&self, py: Python<'py>, id: Option<Text<'_>>) -> PyResult<Bound<'py, PyBytes>> {
        let za = sm2::compute_za(id_or_default(&id), &self.pk).map_err(sm2_err)?;
        Ok(bytes(py, &za))
    }

    /// The digest a signature covers: ``e = SM3(ZA ‖ message)``.
    #[pyo3(signature = (message, id = None))]
    fn digest<'py>(
        &self,
        py: Python<'py>,
        message: Data<'_>,
        id: Option<Text<'_>>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let za = sm2::compute_za(id_or_default(&id), &self.pk).map_err(sm2_err)?;
        Ok(bytes(py, &sm2::message_digest(&za, &message)))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<PublicKey>() {
            Ok(o) => self.pk == o.get().pk,
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.pk.to_compressed().hash(&mut h);
        h.finish()
    }

    fn __repr__(&self) -> String {
        format!("<smcrypto.sm2.PublicKey {}>", hex(&self.pk.to_compressed()))
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
        let der = slf
            .get()
            .pk
            .to_public_key_der()
            .map_err(|_| raise(Kind::Encoding, "cannot encode the key"))?;
        reduce_from_der(slf.as_any(), der.as_bytes())
    }
}

fn point(data: &[u8]) -> PyResult<sm2::PublicKey> {
    sm2::PublicKey::from_sec1_bytes(data)
        .map_err(|_| raise(Kind::KeyExchange, "key exchange failed"))
}

fn kx_err(_: sm2::Error) -> PyErr {
    raise(Kind::KeyExchange, "key exchange failed")
}

fn used_up() -> PyErr {
    PyValueError::new_err("this key-exchange step was already used")
}

enum InitState {
    Ready(Box<exchange::Initiator>),
    Waiting(Box<InitiatorWaiting>),
    Done,
}

/// The initiator (A) of the SM2 key exchange with key confirmation (GB/T 32918.3 §6.1):
/// ``ra = a.start()``; send `ra`; on ``(rb, sb)`` from B: ``key, sa = a.finish(rb, sb,
/// key_length)``; send `sa`.
#[pyclass(name = "Initiator", module = "smcrypto.sm2", frozen)]
pub struct Initiator {
    state: Mutex<InitState>,
}

#[pymethods]
impl Initiator {
    #[new]
    #[pyo3(signature = (private_key, peer_public_key, *, id = None, peer_id = None))]
    fn new(
        private_key: &PrivateKey,
        peer_public_key: &PublicKey,
        id: Option<Text<'_>>,
        peer_id: Option<Text<'_>>,
    ) -> PyResult<Self> {
        let i = exchange::Initiator::new(
            &private_key.sk,
            id_or_default(&id),
            &peer_public_key.pk,
            id_or_default(&peer_id),
        )
        .map_err(sm2_err)?;
        Ok(Initiator {
            state: Mutex::new(InitState::Ready(Box::new(i))),
        })
    }

    /// Picks the ephemeral key and returns ``R_A`` (65 bytes) to send to B.
    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let InitState::Ready(i) = std::mem::replace(&mut *st, InitState::Done) else {
            return Err(used_up());
        };
        let (w, ra) = i.start(&mut UnwrapErr(SysRng));
        *st = InitState::Waiting(Box::new(w));
        Ok(bytes(py, &ra.to_uncompressed()))
    }

    /// Derives the `key_length`-byte key from B's ``R_B``, checks B's confirmation ``S_B``, and
    /// returns ``(key, S_A)``; ``KeyExchangeError`` if anything does not check out.
    fn finish<'py>(
        &self,
        py: Python<'py>,
        rb: Data<'_>,
        sb: Data<'_>,
        key_length: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let rb = point(&rb)?;
        let sb = array::<32>(&sb, "S_B")?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let InitState::Waiting(w) = std::mem::replace(&mut *st, InitState::Done) else {
            return Err(used_up());
        };
        let (key, sa) = py
            .detach(|| w.finish(&rb, &sb, key_length))
            .map_err(kx_err)?;
        Ok((bytes(py, &key), bytes(py, &sa)))
    }

    /// The key from B's ``R_B`` without key confirmation (the standard's optional steps left
    /// out, for peers that do not send ``S_B``).
    fn finish_unconfirmed<'py>(
        &self,
        py: Python<'py>,
        rb: Data<'_>,
        key_length: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let rb = point(&rb)?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let InitState::Waiting(w) = std::mem::replace(&mut *st, InitState::Done) else {
            return Err(used_up());
        };
        let key = py
            .detach(|| w.finish_unconfirmed(&rb, key_length))
            .map_err(kx_err)?;
        Ok(bytes(py, &key))
    }
}

enum RespState {
    Ready(Box<exchange::Responder>),
    Waiting(Box<ResponderWaiting>),
    Done,
}

/// The responder (B) of the SM2 key exchange with key confirmation: on ``R_A`` from A,
/// ``rb, sb = b.respond(ra, key_length)``; send them; on ``S_A``: ``key = b.confirm(sa)``.
#[pyclass(name = "Responder", module = "smcrypto.sm2", frozen)]
pub struct Responder {
    state: Mutex<RespState>,
}

#[pymethods]
impl Responder {
    #[new]
    #[pyo3(signature = (private_key, peer_public_key, *, id = None, peer_id = None))]
    fn new(
        private_key: &PrivateKey,
        peer_public_key: &PublicKey,
        id: Option<Text<'_>>,
        peer_id: Option<Text<'_>>,
    ) -> PyResult<Self> {
        let r = exchange::Responder::new(
            &private_key.sk,
            id_or_default(&id),
            &peer_public_key.pk,
            id_or_default(&peer_id),
        )
        .map_err(sm2_err)?;
        Ok(Responder {
            state: Mutex::new(RespState::Ready(Box::new(r))),
        })
    }

    /// Answers A's ``R_A``: returns ``(R_B, S_B)`` to send back.
    fn respond<'py>(
        &self,
        py: Python<'py>,
        ra: Data<'_>,
        key_length: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let ra = point(&ra)?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let RespState::Ready(r) = std::mem::replace(&mut *st, RespState::Done) else {
            return Err(used_up());
        };
        let (w, rb, sb) = py
            .detach(|| r.respond(&mut UnwrapErr(SysRng), &ra, key_length))
            .map_err(kx_err)?;
        *st = RespState::Waiting(Box::new(w));
        Ok((bytes(py, &rb.to_uncompressed()), bytes(py, &sb)))
    }

    /// Answers ``R_A`` without key confirmation: returns ``(R_B, key)``.
    fn respond_unconfirmed<'py>(
        &self,
        py: Python<'py>,
        ra: Data<'_>,
        key_length: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let ra = point(&ra)?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let RespState::Ready(r) = std::mem::replace(&mut *st, RespState::Done) else {
            return Err(used_up());
        };
        let (key, rb) = py
            .detach(|| r.respond_unconfirmed(&mut UnwrapErr(SysRng), &ra, key_length))
            .map_err(kx_err)?;
        Ok((bytes(py, &rb.to_uncompressed()), bytes(py, &key)))
    }

    /// Checks A's confirmation ``S_A`` and returns the shared key.
    fn confirm<'py>(&self, py: Python<'py>, sa: Data<'_>) -> PyResult<Bound<'py, PyBytes>> {
        let sa = array::<32>(&sa, "S_A")?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let RespState::Waiting(w) = std::mem::replace(&mut *st, RespState::Done) else {
            return Err(used_up());
        };
        let key = w.confirm(&sa).map_err(kx_err)?;
        Ok(bytes(py, &key))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PrivateKey>()?;
    m.add_class::<PublicKey>()?;
    m.add_class::<Initiator>()?;
    m.add_class::<Responder>()?;
    m.add("DEFAULT_ID", bytes(m.py(), DEFAULT_ID))?;
    Ok(())
}
