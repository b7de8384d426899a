//! `smcrypto.sm9`: identity-based signatures, encryption, KEM and key exchange (GM/T 0044).
//!
//! Master public keys are prepared (their pairing value as a fixed-base GT table) once, lazily
//! and thread-safely, and shared: every Python object for the same master public key — the
//! KGC's, the ones loaded from PEM, the one inside each user key — uses one prepared table for
//! as long as any of them is alive.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use getrandom::SysRng;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use rand_core::UnwrapErr;
use rayon::prelude::*;
use self_cell::self_cell;
use sm9::{EncryptionMode, MacMode};
use zeroize::Zeroizing;

use crate::sm2::hex;
use crate::util::{
    array, bad_choice, bytes, detach_parallel, password, raise, reduce_from_der, sm9_err, Data,
    Encoding, Kind, OwnedData, OwnedText, Text,
};

// ---------------------------------------------------------------------------------------------
// Shared, lazily prepared master public keys.

/// A master public key with its prepared form, built on first use.
struct Master<P, Q> {
    public: P,
    prepared: OnceLock<Q>,
}

type SignMaster = Master<sm9::SignMasterPublicKey, sm9::PreparedSignMasterPublicKey>;
type EncMaster = Master<sm9::EncMasterPublicKey, sm9::PreparedEncMasterPublicKey>;

impl SignMaster {
    fn prepared(&self) -> &sm9::PreparedSignMasterPublicKey {
        self.prepared.get_or_init(|| self.public.prepare())
    }
}

impl EncMaster {
    fn prepared(&self) -> &sm9::PreparedEncMasterPublicKey {
        self.prepared.get_or_init(|| self.public.prepare())
    }
}

/// One live [`Master`] per encoded key: a registry of weak references.
fn intern<P: Clone, Q, const N: usize>(
    registry: &'static Registry<P, Q, N>,
    key: [u8; N],
    public: &P,
) -> Arc<Master<P, Q>> {
    let mut map = registry
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(m) = map.get(&key).and_then(Weak::upgrade) {
        return m;
    }
    map.retain(|_, w| w.strong_count() > 0);
    let m = Arc::new(Master {
        public: public.clone(),
        prepared: OnceLock::new(),
    });
    map.insert(key, Arc::downgrade(&m));
    m
}

type Registry<P, Q, const N: usize> = OnceLock<Mutex<HashMap<[u8; N], Weak<Master<P, Q>>>>>;
static SIGN_MASTERS: Registry<sm9::SignMasterPublicKey, sm9::PreparedSignMasterPublicKey, 129> =
    OnceLock::new();
static ENC_MASTERS: Registry<sm9::EncMasterPublicKey, sm9::PreparedEncMasterPublicKey, 65> =
    OnceLock::new();

fn sign_master(pk: &sm9::SignMasterPublicKey) -> Arc<SignMaster> {
    intern(&SIGN_MASTERS, pk.to_bytes(), pk)
}

fn enc_master(pk: &sm9::EncMasterPublicKey) -> Arc<EncMaster> {
    intern(&ENC_MASTERS, pk.to_bytes(), pk)
}

// ---------------------------------------------------------------------------------------------
// Encodings of secret keys: PKCS#8 (plain or PBES2-encrypted, as GmSSL writes them) and the
// GM/T 0080 structures.

trait SecretCodec: Sized + Send + Sync {
    fn pkcs8_der(&self) -> sm9::Result<Zeroizing<Vec<u8>>>;
    fn gmt0080_der(&self) -> sm9::Result<Zeroizing<Vec<u8>>>;
    fn pkcs8_pem(&self) -> sm9::Result<Zeroizing<String>>;
    fn encrypted_der(&self, pw: &[u8]) -> sm9::Result<Vec<u8>>;
    fn encrypted_pem(&self, pw: &[u8]) -> sm9::Result<String>;
    fn from_pkcs8(der: &[u8]) -> sm9::Result<Self>;
    fn from_plain_der(der: &[u8]) -> sm9::Result<Self>;
    fn from_pkcs8_pem(pem: &str) -> sm9::Result<Self>;
    fn from_encrypted_der(der: &[u8], pw: &[u8]) -> sm9::Result<Self>;
    fn from_encrypted_pem(pem: &str, pw: &[u8]) -> sm9::Result<Self>;
}

macro_rules! secret_codec {
    ($($t:ty),*) => {$(
        impl SecretCodec for $t {
            fn pkcs8_der(&self) -> sm9::Result<Zeroizing<Vec<u8>>> { self.to_pkcs8_der() }
            fn gmt0080_der(&self) -> sm9::Result<Zeroizing<Vec<u8>>> { self.to_der() }
            fn pkcs8_pem(&self) -> sm9::Result<Zeroizing<String>> { self.to_pkcs8_pem() }
            fn encrypted_der(&self, pw: &[u8]) -> sm9::Result<Vec<u8>> {
                self.to_encrypted_pkcs8_der(pw, &mut UnwrapErr(SysRng))
            }
            fn encrypted_pem(&self, pw: &[u8]) -> sm9::Result<String> {
                self.to_encrypted_pem(pw, &mut UnwrapErr(SysRng))
            }
            fn from_pkcs8(der: &[u8]) -> sm9::Result<Self> { Self::from_pkcs8_der(der) }
            fn from_plain_der(der: &[u8]) -> sm9::Result<Self> { Self::from_der(der) }
            fn from_pkcs8_pem(pem: &str) -> sm9::Result<Self> { <$t>::from_pkcs8_pem(pem) }
            fn from_encrypted_der(der: &[u8], pw: &[u8]) -> sm9::Result<Self> {
                Self::from_encrypted_pkcs8_der(der, pw)
            }
            fn from_encrypted_pem(pem: &str, pw: &[u8]) -> sm9::Result<Self> {
                <$t>::from_encrypted_pem(pem, pw)
            }
        }
    )*};
}

secret_codec!(
    sm9::SignMasterKey,
    sm9::SignUserKey,
    sm9::EncMasterKey,
    sm9::EncUserKey,
    sm9::ExchangeUserKey
);

/// From DER: PKCS#8, the GM/T 0080 structure, or with `password` an encrypted PKCS#8.
fn load_der<K: SecretCodec>(py: Python<'_>, data: &[u8], pw: Option<Text<'_>>) -> PyResult<K> {
    match password(pw) {
        Some(pw) => py
            .detach(|| K::from_encrypted_der(data, &pw))
            .map_err(sm9_err),
        None => K::from_pkcs8(data)
            .or_else(|_| K::from_plain_der(data))
            .map_err(sm9_err),
    }
}

/// From PEM: ``PRIVATE KEY`` or, with `password`, ``ENCRYPTED PRIVATE KEY``.
fn load_pem<K: SecretCodec>(py: Python<'_>, data: &Text<'_>, pw: Option<Text<'_>>) -> PyResult<K> {
    let text = data.as_str()?;
    let encrypted = text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----");
    match (password(pw), encrypted) {
        (Some(pw), true) => py
            .detach(|| K::from_encrypted_pem(text, &pw))
            .map_err(sm9_err),
        (None, false) => K::from_pkcs8_pem(text).map_err(sm9_err),
        (None, true) => Err(PyTypeError::new_err(
            "the private key is encrypted: a password is needed",
        )),
        (Some(_), false) => Err(PyTypeError::new_err(
            "a password was given but the private key is not encrypted",
        )),
    }
}

/// DER: PKCS#8 (``format="pkcs8"``, encrypted with `password`) or the bare GM/T 0080
/// structure (``"gmt0080"``, what GmSSL's ``*_to_der`` functions write; never encrypted).
fn save_der<'py, K: SecretCodec>(
    py: Python<'py>,
    key: &K,
    pw: Option<Text<'_>>,
    format: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let der = match (password(pw), format) {
        (Some(pw), "pkcs8") => {
            Zeroizing::new(py.detach(|| key.encrypted_der(&pw)).map_err(sm9_err)?)
        }
        (None, "pkcs8") => key.pkcs8_der().map_err(sm9_err)?,
        (None, "gmt0080") => key.gmt0080_der().map_err(sm9_err)?,
        (Some(_), "gmt0080") => {
            return Err(PyValueError::new_err(
                "a GM/T 0080 key structure cannot be encrypted; use format=\"pkcs8\"",
            ))
        }
        _ => return Err(bad_choice("format", format, &["pkcs8", "gmt0080"])),
    };
    Ok(bytes(py, &der))
}

fn save_pem<'py, K: SecretCodec>(
    py: Python<'py>,
    key: &K,
    pw: Option<Text<'_>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let pem = match password(pw) {
        Some(pw) => Zeroizing::new(py.detach(|| key.encrypted_pem(&pw)).map_err(sm9_err)?),
        None => key.pkcs8_pem().map_err(sm9_err)?,
    };
    Ok(bytes(py, pem.as_bytes()))
}

fn reduce_secret<'py, K: SecretCodec>(
    slf: &Bound<'py, PyAny>,
    key: &K,
) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
    let der = key.pkcs8_der().map_err(sm9_err)?;
    reduce_from_der(slf, &der)
}

// ---------------------------------------------------------------------------------------------
// Signatures.

/// Signature encodings: DER (GmSSL's ``SEQUENCE { h, S }``) or ``h ‖ S`` (97 bytes).
fn encode_sig(enc: Encoding, sig: &sm9::Signature) -> sm9::Result<Vec<u8>> {
    match enc {
        Encoding::Der => sig.to_der(),
        Encoding::Raw => Ok(sig.to_bytes().to_vec()),
    }
}

fn decode_sig(enc: Encoding, data: &[u8]) -> sm9::Result<sm9::Signature> {
    match enc {
        Encoding::Der => sm9::Signature::from_der(data),
        Encoding::Raw => sm9::Signature::from_bytes(data),
    }
}

/// The key generation centre's master key of the signature system (``ks``).
#[pyclass(name = "SignMasterKey", module = "smcrypto.sm9", frozen)]
pub struct SignMasterKey {
    key: sm9::SignMasterKey,
    public: Arc<SignMaster>,
}

impl SignMasterKey {
    fn wrap(key: sm9::SignMasterKey) -> Self {
        let public = sign_master(key.public_key());
        SignMasterKey { key, public }
    }
}

#[pymethods]
impl SignMasterKey {
    /// A fresh random master key.
    #[staticmethod]
    fn generate() -> Self {
        Self::wrap(sm9::SignMasterKey::generate(&mut UnwrapErr(SysRng)))
    }

    /// From the 32-byte master secret ``ks``.
    #[staticmethod]
    fn from_bytes(data: Data<'_>) -> PyResult<Self> {
        let ks = Zeroizing::new(array::<32>(&data, "an SM9 master secret")?);
        Ok(Self::wrap(
            sm9::SignMasterKey::from_bytes(&ks).map_err(sm9_err)?,
        ))
    }

    /// The 32-byte master secret.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes(py, &*self.key.to_bytes())
    }

    /// The master public key ``Ppub-s``.
    fn public_key(&self) -> SignMasterPublicKey {
        SignMasterPublicKey {
            master: self.public.clone(),
        }
    }

    /// The signing key of `identity` (``str`` as UTF-8, or ``bytes``); `hid` defaults to 0x01.
    #[pyo3(signature = (identity, hid = sm9::HID_SIGN))]
    fn extract(&self, identity: Text<'_>, hid: u8) -> PyResult<SignUserKey> {
        let key = self.key.extract_with_hid(&identity, hid).map_err(sm9_err)?;
        Ok(SignUserKey::with_master(key, self.public.clone()))
    }
}

/// The master public key of a signature KGC (a point of G2). Verification uses its prepared
/// form (built once, lazily, shared by every object of the same key).
#[pyclass(name = "SignMasterPublicKey", module = "smcrypto.sm9", frozen)]
pub struct SignMasterPublicKey {
    master: Arc<SignMaster>,
}

impl SignMasterPublicKey {
    fn wrap(pk: sm9::SignMasterPublicKey) -> Self {
        SignMasterPublicKey {
            master: sign_master(&pk),
        }
    }
}

/// Whether `sig` (encoded as `enc`) verifies; a malformed signature does not.
fn sm9_verifies(
    master: &sm9::PreparedSignMasterPublicKey,
    id: &[u8],
    msg: &[u8],
    sig: &[u8],
    enc: Encoding,
) -> bool {
    match decode_sig(enc, sig) {
        Ok(sig) => sm9::verify(master, id, msg, &sig).is_ok(),
        Err(_) => false,
    }
}

/// One item of a batch: master, identity, message, encoded signature.
type BatchRef<'a> = (&'a SignMaster, &'a [u8], &'a [u8], &'a [u8]);

/// Verifies many `(master, identity, message, signature)` on all cores.
fn batch(
    py: Python<'_>,
    items: &[(Arc<SignMaster>, OwnedText, OwnedData, OwnedData)],
    enc: Encoding,
) -> Vec<bool> {
    let items: Vec<BatchRef<'_>> = items
        .iter()
        .map(|(m, i, msg, s)| (&**m, &**i, &**msg, &**s))
        .collect();
    detach_parallel(py, || {
        let sigs: Vec<Option<sm9::Signature>> = items
            .par_iter()
            .map(|(_, _, _, s)| decode_sig(enc, s).ok())
            .collect();
        let mut batch_items = Vec::with_capacity(items.len());
        let mut index = Vec::with_capacity(items.len());
        for (i, ((m, id, msg, _), sig)) in items.iter().zip(&sigs).enumerate() {
            if let Some(sig) = sig {
                batch_items.push(sm9::BatchItem {
                    master: m.prepared(),
                    id,
                    message: msg,
                    signature: sig,
                });
                index.push(i);
            }
        }
        let res = sm9::verify_batch(&batch_items);
        let mut out = vec![false; items.len()];
        for (k, &i) in index.iter().enumerate() {
            out[i] = res.is_valid(k);
        }
        out
    })
}

#[pymethods]
impl SignMasterPublicKey {
    /// Verifies `signature` by `identity` on `message`; raises ``InvalidSignature`` if it does
    /// not verify or is malformed.
    #[pyo3(signature = (signature, message, identity, encoding = "der"))]
    fn verify(
        &self,
        py: Python<'_>,
        signature: Data<'_>,
        message: Data<'_>,
        identity: Text<'_>,
        encoding: &str,
    ) -> PyResult<()> {
        let enc = Encoding::parse(encoding)?;
        let ok = py
            .detach(|| sm9_verifies(self.master.prepared(), &identity, &message, &signature, enc));
        if ok {
            Ok(())
        } else {
            Err(raise(
                Kind::InvalidSignature,
                "signature verification failed",
            ))
        }
    }

    /// Verifies many ``(identity, message, signature)`` tuples under this key on all cores;
    /// returns one ``bool`` per item (malformed signatures are ``False``).
    #[pyo3(signature = (items, encoding = "der"))]
    fn verify_batch(
        &self,
        py: Python<'_>,
        items: Vec<(OwnedText, OwnedData, OwnedData)>,
        encoding: &str,
    ) -> PyResult<Vec<bool>> {
        let enc = Encoding::parse(encoding)?;
        let items: Vec<_> = items
            .into_iter()
            .map(|(i, m, s)| (self.master.clone(), i, m, s))
            .collect();
        Ok(batch(py, &items, enc))
    }
}

/// Verifies ``(master_public_key, identity, message, signature)`` tuples on all cores; one
/// ``bool`` per item.
#[pyfunction]
#[pyo3(signature = (items, encoding = "der"))]
pub fn verify_batch(
    py: Python<'_>,
    items: Vec<(
        PyRef<'_, SignMasterPublicKey>,
        OwnedText,
        OwnedData,
        OwnedData,
    )>,
    encoding: &str,
) -> PyResult<Vec<bool>> {
    let enc = Encoding::parse(encoding)?;
    let items: Vec<_> = items
        .into_iter()
        .map(|(k, i, m, s)| (k.master.clone(), i, m, s))
        .collect();
    Ok(batch(py, &items, enc))
}

/// A user's signing key (``ds``), bound to its master public key.
#[pyclass(name = "SignUserKey", module = "smcrypto.sm9", frozen)]
pub struct SignUserKey {
    key: sm9::SignUserKey,
    master: Arc<SignMaster>,
    prepared: OnceLock<sm9::SigningKey>,
}

impl SignUserKey {
    fn with_master(key: sm9::SignUserKey, master: Arc<SignMaster>) -> Self {
        SignUserKey {
            key,
            master,
            prepared: OnceLock::new(),
        }
    }

    fn wrap(key: sm9::SignUserKey) -> Self {
        let master = sign_master(&key.master_public_key());
        Self::with_master(key, master)
    }

    fn sign_one(&self, msg: &[u8]) -> sm9::Result<sm9::Signature> {
        let prepared = self.prepared.get_or_init(|| self.key.prepare());
        sm9::sign_prepared(
            prepared,
            self.master.prepared(),
            msg,
            &mut UnwrapErr(SysRng),
        )
    }
}

#[pymethods]
impl SignUserKey {
    /// From the 65-byte ``ds`` point and the master public key it belongs to.
    #[staticmethod]
    fn from_bytes(data: Data<'_>, master_public_key: &SignMasterPublicKey) -> PyResult<Self> {
        let key = sm9::SignUserKey::from_parts(&data, &master_public_key.master.public)
            .map_err(sm9_err)?;
        Ok(Self::with_master(key, master_public_key.master.clone()))
    }

    /// The 65-byte ``ds`` point.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes(py, &*self.key.ds_bytes())
    }

    /// The master public key this key belongs to.
    fn master_public_key(&self) -> SignMasterPublicKey {
        SignMasterPublicKey {
            master: self.master.clone(),
        }
    }

    /// Signs `message`; DER (``encoding="der"``, GmSSL) or ``h ‖ S`` (``"raw"``).
    #[pyo3(signature = (message, encoding = "der"))]
    fn sign<'py>(
        &self,
        py: Python<'py>,
        message: Data<'_>,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let enc = Encoding::parse(encoding)?;
        let sig = py
            .detach(|| self.sign_one(&message).and_then(|s| encode_sig(enc, &s)))
            .map_err(sm9_err)?;
        Ok(bytes(py, &sig))
    }

    /// Signs every message of `messages` on all cores.
    #[pyo3(signature = (messages, encoding = "der"))]
    fn sign_many<'py>(
        &self,
        py: Python<'py>,
        messages: Vec<OwnedData>,
        encoding: &str,
    ) -> PyResult<Vec<Bound<'py, PyBytes>>> {
        let enc = Encoding::parse(encoding)?;
        let msgs: Vec<&[u8]> = messages.iter().map(|m| &**m).collect();
        let sigs: sm9::Result<Vec<Vec<u8>>> = detach_parallel(py, || {
            msgs.par_iter()
                .map(|m| self.sign_one(m).and_then(|s| encode_sig(enc, &s)))
                .collect()
        });
        Ok(sigs
            .map_err(sm9_err)?
            .iter()
            .map(|s| bytes(py, s))
            .collect())
    }
}

// ---------------------------------------------------------------------------------------------
// Encryption, KEM and key exchange.

fn mac_mode(s: &str) -> PyResult<MacMode> {
    match s {
        "standard" => Ok(MacMode::Sm3),
        "gmssl" => Ok(MacMode::HmacSm3),
        _ => Err(bad_choice("mac", s, &["standard", "gmssl"])),
    }
}

fn cipher_mode(s: &str) -> PyResult<EncryptionMode> {
    match s {
        "xor" => Ok(EncryptionMode::KdfStream),
        "sm4-ecb" => Ok(EncryptionMode::Sm4Ecb),
        "sm4-cbc" => Ok(EncryptionMode::Sm4Cbc),
        _ => Err(bad_choice("cipher", s, &["xor", "sm4-ecb", "sm4-cbc"])),
    }
}

/// The master key of an encryption / key-exchange KGC (``ke``).
#[pyclass(name = "EncMasterKey", module = "smcrypto.sm9", frozen)]
pub struct EncMasterKey {
    key: sm9::EncMasterKey,
    public: Arc<EncMaster>,
}

impl EncMasterKey {
    fn wrap(key: sm9::EncMasterKey) -> Self {
        let public = enc_master(key.public_key());
        EncMasterKey { key, public }
    }
}

#[pymethods]
impl EncMasterKey {
    /// A fresh random master key.
    #[staticmethod]
    fn generate() -> Self {
        Self::wrap(sm9::EncMasterKey::generate(&mut UnwrapErr(SysRng)))
    }

    /// From the 32-byte master secret ``ke``.
    #[staticmethod]
    fn from_bytes(data: Data<'_>) -> PyResult<Self> {
        let ke = Zeroizing::new(array::<32>(&data, "an SM9 master secret")?);
        Ok(Self::wrap(
            sm9::EncMasterKey::from_bytes(&ke).map_err(sm9_err)?,
        ))
    }

    /// The 32-byte master secret.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes(py, &*self.key.to_bytes())
    }

    /// The master public key ``Ppub-e``.
    fn public_key(&self) -> EncMasterPublicKey {
        EncMasterPublicKey {
            master: self.public.clone(),
        }
    }

    /// The decryption key of `identity` (hid 0x03 unless given).
    #[pyo3(signature = (identity, hid = sm9::HID_ENCRYPT))]
    fn extract(&self, identity: Text<'_>, hid: u8) -> PyResult<EncUserKey> {
        let key = self.key.extract_with_hid(&identity, hid).map_err(sm9_err)?;
        Ok(EncUserKey::with_master(key, self.public.clone()))
    }

    /// The key-exchange key of `identity` (hid 0x02).
    fn extract_exchange(&self, identity: Text<'_>) -> PyResult<ExchangeUserKey> {
        let key = self.key.extract_exchange(&identity).map_err(sm9_err)?;
        Ok(ExchangeUserKey::with_master(key, self.public.clone()))
    }
}

/// The master public key of an encryption KGC (a point of G1).
#[pyclass(name = "EncMasterPublicKey", module = "smcrypto.sm9", frozen)]
pub struct EncMasterPublicKey {
    master: Arc<EncMaster>,
}

impl EncMasterPublicKey {
    fn wrap(pk: sm9::EncMasterPublicKey) -> Self {
        EncMasterPublicKey {
            master: enc_master(&pk),
        }
    }
}

#[pymethods]
impl EncMasterPublicKey {
    /// Encrypts `plaintext` to `identity`. `mac`: ``"standard"`` (``SM3(C2 ‖ K2)``, GM/T 0044,
    /// gmalg) or ``"gmssl"`` (``HMAC-SM3(K2, C2)``, GmSSL, gmssl-pyx); `cipher`: ``"xor"``
    /// (the KDF stream), ``"sm4-ecb"`` or ``"sm4-cbc"``; `encoding`: ``"der"`` (GM/T 0080, which
    /// records the cipher) or ``"raw"`` (``C1 ‖ C3 ‖ C2``).
    #[pyo3(signature = (plaintext, identity, *, mac = "standard", cipher = "xor", encoding = "der"))]
    fn encrypt<'py>(
        &self,
        py: Python<'py>,
        plaintext: Data<'_>,
        identity: Text<'_>,
        mac: &str,
        cipher: &str,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let (mac, mode, der) = (
            mac_mode(mac)?,
            cipher_mode(cipher)?,
            Encoding::parse(encoding)? == Encoding::Der,
        );
        let ct = py
            .detach(|| {
                let ct = sm9::encrypt(
                    self.master.prepared(),
                    &identity,
                    &plaintext,
                    mode,
                    mac,
                    &mut UnwrapErr(SysRng),
                )?;
                if der {
                    ct.to_der()
                } else {
                    Ok(ct.to_bytes())
                }
            })
            .map_err(sm9_err)?;
        Ok(bytes(py, &ct))
    }

    /// KEM: returns ``(key, encapsulation)`` with a `key_length`-byte key for `identity`; the
    /// encapsulation is the 65-byte point (``encoding="raw"``) or its DER.
    #[pyo3(signature = (identity, key_length, *, encoding = "raw"))]
    fn encapsulate<'py>(
        &self,
        py: Python<'py>,
        identity: Text<'_>,
        key_length: usize,
        encoding: &str,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let der = Encoding::parse(encoding)? == Encoding::Der;
        let (key, c) = py
            .detach(|| {
                let (key, c) = sm9::encapsulate(
                    self.master.prepared(),
                    &identity,
                    key_length,
                    &mut UnwrapErr(SysRng),
                )?;
                let c = if der {
                    c.to_der()?
                } else {
                    c.to_bytes().to_vec()
                };
                Ok((key, c))
            })
            .map_err(sm9_err)?;
        Ok((bytes(py, &key), bytes(py, &c)))
    }
}

/// A user's decryption key (``de``), bound to its master public key; its pairing lines are
/// prepared on first use.
#[pyclass(name = "EncUserKey", module = "smcrypto.sm9", frozen)]
pub struct EncUserKey {
    key: sm9::EncUserKey,
    master: Arc<EncMaster>,
    prepared: OnceLock<sm9::DecryptionKey>,
}

impl EncUserKey {
    fn with_master(key: sm9::EncUserKey, master: Arc<EncMaster>) -> Self {
        EncUserKey {
            key,
            master,
            prepared: OnceLock::new(),
        }
    }

    fn wrap(key: sm9::EncUserKey) -> Self {
        let master = enc_master(&key.master_public_key());
        Self::with_master(key, master)
    }

    fn prepared(&self) -> &sm9::DecryptionKey {
        self.prepared.get_or_init(|| self.key.prepare())
    }
}

#[pymethods]
impl EncUserKey {
    /// From the 129-byte ``de`` point and the master public key it belongs to.
    #[staticmethod]
    fn from_bytes(data: Data<'_>, master_public_key: &EncMasterPublicKey) -> PyResult<Self> {
        let key = sm9::EncUserKey::from_parts(&data, &master_public_key.master.public)
            .map_err(sm9_err)?;
        Ok(Self::with_master(key, master_public_key.master.clone()))
    }

    /// The 129-byte ``de`` point.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes(py, &*self.key.de_bytes())
    }

    /// The master public key this key belongs to.
    fn master_public_key(&self) -> EncMasterPublicKey {
        EncMasterPublicKey {
            master: self.master.clone(),
        }
    }

    /// Decrypts a ciphertext addressed to `identity`. `mac` must be the sender's; for
    /// ``encoding="raw"`` give the `cipher` too (DER records it). Every failure is the same
    /// ``DecryptionError``; a malformed encoding is ``EncodingError``.
    #[pyo3(signature = (ciphertext, identity, *, mac = "standard", cipher = None, encoding = "der"))]
    fn decrypt<'py>(
        &self,
        py: Python<'py>,
        ciphertext: Data<'_>,
        identity: Text<'_>,
        mac: &str,
        cipher: Option<&str>,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let mac = mac_mode(mac)?;
        let ct = if Encoding::parse(encoding)? == Encoding::Der {
            let ct = sm9::Ciphertext::from_der(&ciphertext).map_err(sm9_err)?;
            if let Some(c) = cipher {
                if cipher_mode(c)? != ct.mode() {
                    return Err(PyValueError::new_err(
                        "cipher does not match the one recorded in the DER ciphertext",
                    ));
                }
            }
            ct
        } else {
            let mode = cipher_mode(cipher.unwrap_or("xor"))?;
            sm9::Ciphertext::from_bytes(mode, &ciphertext).map_err(sm9_err)?
        };
        let pt = py
            .detach(|| sm9::decrypt(self.prepared(), &identity, &ct, mac))
            .map_err(|_| raise(Kind::Decryption, "decryption failed"))?;
        Ok(bytes(py, &pt))
    }

    /// KEM: the `key_length`-byte key from an encapsulation (65-byte point or its DER).
    #[pyo3(signature = (encapsulation, identity, key_length, *, encoding = "raw"))]
    fn decapsulate<'py>(
        &self,
        py: Python<'py>,
        encapsulation: Data<'_>,
        identity: Text<'_>,
        key_length: usize,
        encoding: &str,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let c = if Encoding::parse(encoding)? == Encoding::Der {
            sm9::EncapsulatedKey::from_der(&encapsulation)
        } else {
            sm9::EncapsulatedKey::from_bytes(&encapsulation)
        }
        .map_err(sm9_err)?;
        let key = py
            .detach(|| sm9::decapsulate(self.prepared(), &identity, &c, key_length))
            .map_err(sm9_err)?;
        Ok(bytes(py, &key))
    }
}

/// The prepared parts an exchange borrows.
struct ExchangeParts {
    key: sm9::ExchangeKey,
    master: Arc<EncMaster>,
}

/// A user's key-exchange key (``de`` with hid 0x02), bound to its master public key.
#[pyclass(name = "ExchangeUserKey", module = "smcrypto.sm9", frozen)]
pub struct ExchangeUserKey {
    key: sm9::ExchangeUserKey,
    master: Arc<EncMaster>,
    prepared: OnceLock<Arc<ExchangeParts>>,
}

impl ExchangeUserKey {
    fn with_master(key: sm9::ExchangeUserKey, master: Arc<EncMaster>) -> Self {
        ExchangeUserKey {
            key,
            master,
            prepared: OnceLock::new(),
        }
    }

    fn wrap(key: sm9::ExchangeUserKey) -> Self {
        let master = enc_master(&key.master_public_key());
        Self::with_master(key, master)
    }

    fn parts(&self) -> Arc<ExchangeParts> {
        self.prepared
            .get_or_init(|| {
                Arc::new(ExchangeParts {
                    key: self.key.prepare(),
                    master: self.master.clone(),
                })
            })
            .clone()
    }
}

#[pymethods]
impl ExchangeUserKey {
    /// From the 129-byte ``de`` point and the master public key it belongs to.
    #[staticmethod]
    fn from_bytes(data: Data<'_>, master_public_key: &EncMasterPublicKey) -> PyResult<Self> {
        let key = sm9::ExchangeUserKey::from_parts(&data, &master_public_key.master.public)
            .map_err(sm9_err)?;
        Ok(Self::with_master(key, master_public_key.master.clone()))
    }

    /// The 129-byte ``de`` point.
    fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        bytes(py, &*self.key.de_bytes())
    }

    /// The master public key this key belongs to.
    fn master_public_key(&self) -> EncMasterPublicKey {
        EncMasterPublicKey {
            master: self.master.clone(),
        }
    }
}

type PendingInitiator<'a> = Option<sm9::Initiator<'a>>;

self_cell!(
    /// An SM9 initiator together with the prepared keys it borrows.
    struct InitiatorCell {
        owner: Arc<ExchangeParts>,
        #[covariant]
        dependent: PendingInitiator,
    }
);

fn ephemeral(data: &[u8]) -> PyResult<sm9::EphemeralPoint> {
    sm9::EphemeralPoint::from_bytes(data).map_err(sm9_err)
}

fn used_up() -> PyErr {
    PyValueError::new_err("this key-exchange step was already used")
}

/// The initiator (A) of the SM9 key exchange with confirmation (GM/T 0044.3 §7): ``ra =
/// a.start()``; on ``(rb, sb)``: ``key, sa = a.finish(rb, sb, key_length)``.
#[pyclass(name = "Initiator", module = "smcrypto.sm9", frozen)]
pub struct Initiator {
    parts: Arc<ExchangeParts>,
    id: Vec<u8>,
    peer_id: Vec<u8>,
    state: Mutex<Option<InitiatorCell>>,
}

#[pymethods]
impl Initiator {
    #[new]
    #[pyo3(signature = (key, *, id, peer_id))]
    fn new(key: &ExchangeUserKey, id: Text<'_>, peer_id: Text<'_>) -> Self {
        Initiator {
            parts: key.parts(),
            id: id.0.into_owned(),
            peer_id: peer_id.0.into_owned(),
            state: Mutex::new(None),
        }
    }

    /// Picks the ephemeral secret and returns ``R_A`` (65 bytes) to send to B.
    fn start<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.is_some() {
            return Err(used_up());
        }
        let mut ra = None;
        let cell = py
            .detach(|| {
                InitiatorCell::try_new(self.parts.clone(), |p| {
                    let (i, point) = sm9::Initiator::start(
                        &p.key,
                        p.master.prepared(),
                        &self.id,
                        &self.peer_id,
                        &mut UnwrapErr(SysRng),
                    )?;
                    ra = Some(point.to_bytes());
                    Ok::<_, sm9::Error>(Some(i))
                })
            })
            .map_err(sm9_err)?;
        *st = Some(cell);
        let ra = ra.ok_or_else(used_up)?;
        Ok(bytes(py, &ra))
    }

    /// From B's ``R_B`` and confirmation ``S_B``: returns ``(key, S_A)``;
    /// ``KeyExchangeError`` if ``S_B`` does not check out.
    fn finish<'py>(
        &self,
        py: Python<'py>,
        rb: Data<'_>,
        sb: Data<'_>,
        key_length: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        let rb = ephemeral(&rb)?;
        let sb = array::<32>(&sb, "S_B")?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let cell = st.as_mut().ok_or_else(used_up)?;
        let res = py.detach(|| {
            cell.with_dependent_mut(|_, pending| {
                pending.take().map(|i| i.finish(&rb, Some(&sb), key_length))
            })
        });
        let (key, sa) = res.ok_or_else(used_up)?.map_err(sm9_err)?;
        Ok((bytes(py, &key), bytes(py, &sa)))
    }

    /// The key from B's ``R_B`` without checking a confirmation (for peers that send none).
    fn finish_unconfirmed<'py>(
        &self,
        py: Python<'py>,
        rb: Data<'_>,
        key_length: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let rb = ephemeral(&rb)?;
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let cell = st.as_mut().ok_or_else(used_up)?;
        let res = py.detach(|| {
            cell.with_dependent_mut(|_, pending| {
                pending.take().map(|i| i.finish(&rb, None, key_length))
            })
        });
        let (key, _sa) = res.ok_or_else(used_up)?.map_err(sm9_err)?;
        Ok(bytes(py, &key))
    }
}

/// The responder (B) of the SM9 key exchange: ``rb, sb = b.respond(ra, key_length)``; on
/// ``S_A``: ``key = b.confirm(sa)``.
#[pyclass(name = "Responder", module = "smcrypto.sm9", frozen)]
pub struct Responder {
    parts: Arc<ExchangeParts>,
    id: Vec<u8>,
    peer_id: Vec<u8>,
    state: Mutex<Option<(sm9::Responder, usize)>>,
    used: std::sync::atomic::AtomicBool,
}

#[pymethods]
impl Responder {
    #[new]
    #[pyo3(signature = (key, *, id, peer_id))]
    fn new(key: &ExchangeUserKey, id: Text<'_>, peer_id: Text<'_>) -> Self {
        Responder {
            parts: key.parts(),
            id: id.0.into_owned(),
            peer_id: peer_id.0.into_owned(),
            state: Mutex::new(None),
            used: Default::default(),
        }
    }

    /// Answers A's ``R_A``: returns ``(R_B, S_B)``.
    fn respond<'py>(
        &self,
        py: Python<'py>,
        ra: Data<'_>,
        key_length: usize,
    ) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
        if self.used.swap(true, std::sync::atomic::Ordering::SeqCst) {
            return Err(used_up());
        }
        let ra = ephemeral(&ra)?;
        let p = &self.parts;
        let (r, rb, sb) = py
            .detach(|| {
                sm9::Responder::respond(
                    &p.key,
                    p.master.prepared(),
                    &self.id,
                    &self.peer_id,
                    &ra,
                    &mut UnwrapErr(SysRng),
                )
            })
            .map_err(sm9_err)?;
        *self.state.lock().unwrap_or_else(|e| e.into_inner()) = Some((r, key_length));
        Ok((bytes(py, &rb.to_bytes()), bytes(py, &sb)))
    }

    /// The shared key without A's confirmation (for peers that send none).
    fn finish_unconfirmed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let (r, len) = self
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(used_up)?;
        let key = r.finish_unconfirmed(len).map_err(sm9_err)?;
        Ok(bytes(py, &key))
    }

    /// Checks A's ``S_A`` and returns the shared key.
    fn confirm<'py>(&self, py: Python<'py>, sa: Data<'_>) -> PyResult<Bound<'py, PyBytes>> {
        let sa = array::<32>(&sa, "S_A")?;
        let (r, len) = self
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
            .ok_or_else(used_up)?;
        let key = r.confirm(&sa, len).map_err(sm9_err)?;
        Ok(bytes(py, &key))
    }
}

// ---------------------------------------------------------------------------------------------
// Methods every secret key and every master public key class has (one body, one macro call per
// class; the class-specific methods are in each class's own `#[pymethods]` block).

macro_rules! secret_key_methods {
    ($($ty:ident),*) => {$(
        #[pymethods]
        impl $ty {
            /// From DER: PKCS#8, GM/T 0080, or with `password` encrypted PKCS#8.
            #[staticmethod]
            #[pyo3(signature = (data, password = None))]
            fn from_der(py: Python<'_>, data: Data<'_>, password: Option<Text<'_>>) -> PyResult<Self> {
                Ok(Self::wrap(load_der(py, &data, password)?))
            }

            /// From PEM (``PRIVATE KEY``, or ``ENCRYPTED PRIVATE KEY`` with `password`).
            #[staticmethod]
            #[pyo3(signature = (data, password = None))]
            fn from_pem(py: Python<'_>, data: Text<'_>, password: Option<Text<'_>>) -> PyResult<Self> {
                Ok(Self::wrap(load_pem(py, &data, password)?))
            }

            /// PKCS#8 DER (encrypted as GmSSL does with `password`: PBKDF2-HMAC-SM3 +
            /// SM4-CBC), or with ``format="gmt0080"`` the bare GM/T 0080 structure (GmSSL's
            /// ``*_to_der``).
            #[pyo3(signature = (password = None, format = "pkcs8"))]
            fn to_der<'py>(
                &self,
                py: Python<'py>,
                password: Option<Text<'_>>,
                format: &str,
            ) -> PyResult<Bound<'py, PyBytes>> {
                save_der(py, &self.key, password, format)
            }

            /// PKCS#8 PEM (``bytes``); with `password`, ``ENCRYPTED PRIVATE KEY``.
            #[pyo3(signature = (password = None))]
            fn to_pem<'py>(&self, py: Python<'py>, password: Option<Text<'_>>) -> PyResult<Bound<'py, PyBytes>> {
                save_pem(py, &self.key, password)
            }

            fn __repr__(&self) -> &'static str {
                concat!("<smcrypto.sm9.", stringify!($ty), ">")
            }

            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
                reduce_secret(slf.as_any(), &slf.get().key)
            }
        }
    )*};
}

secret_key_methods!(
    SignMasterKey,
    SignUserKey,
    EncMasterKey,
    EncUserKey,
    ExchangeUserKey
);

macro_rules! master_public_key_methods {
    ($($ty:ident: $rust:ty, $len:literal, $group:literal, $label:literal, $uses:literal;)*) => {$(
        #[pymethods]
        impl $ty {
            #[doc = concat!("From the ", $len, "-byte encoding of the ", $group, " point (``04 ‖ x ‖ y``).")]
            #[staticmethod]
            fn from_bytes(data: Data<'_>) -> PyResult<Self> {
                Ok(Self::wrap(<$rust>::from_bytes(&data).map_err(sm9_err)?))
            }

            /// From DER (GM/T 0080 / GmSSL).
            #[staticmethod]
            fn from_der(data: Data<'_>) -> PyResult<Self> {
                Ok(Self::wrap(<$rust>::from_der(&data).map_err(sm9_err)?))
            }

            #[doc = concat!("From PEM (``", $label, "``, as GmSSL writes it).")]
            #[staticmethod]
            fn from_pem(data: Text<'_>) -> PyResult<Self> {
                Ok(Self::wrap(<$rust>::from_pem(data.as_str()?).map_err(sm9_err)?))
            }

            #[doc = concat!("The ", $len, "-byte point encoding.")]
            fn to_bytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
                bytes(py, &self.master.public.to_bytes())
            }

            /// DER (GM/T 0080 / GmSSL).
            fn to_der<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                Ok(bytes(py, &self.master.public.to_der().map_err(sm9_err)?))
            }

            /// PEM (``bytes``).
            fn to_pem<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
                Ok(bytes(py, self.master.public.to_pem().map_err(sm9_err)?.as_bytes()))
            }

            #[doc = concat!("Builds the prepared form now (otherwise the first ", $uses, " does).")]
            fn prepare(&self, py: Python<'_>) {
                py.detach(|| {
                    self.master.prepared();
                });
            }

            fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
                match other.cast::<$ty>() {
                    Ok(o) => self.master.public == o.get().master.public,
                    Err(_) => false,
                }
            }

            fn __hash__(&self) -> u64 {
                use std::hash::{Hash, Hasher};
                let mut h = std::collections::hash_map::DefaultHasher::new();
                self.master.public.to_bytes().hash(&mut h);
                h.finish()
            }

            fn __repr__(&self) -> String {
                format!(
                    concat!("<smcrypto.sm9.", stringify!($ty), " {}…>"),
                    &hex(&self.master.public.to_bytes())[..18]
                )
            }

            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
                let der = slf.get().master.public.to_der().map_err(sm9_err)?;
                reduce_from_der(slf.as_any(), &der)
            }
        }
    )*};
}

master_public_key_methods! {
    SignMasterPublicKey: sm9::SignMasterPublicKey, 129, "G2", "SM9 SIGN MASTER PUBLIC KEY", "verification";
    EncMasterPublicKey: sm9::EncMasterPublicKey, 65, "G1", "SM9 ENC MASTER PUBLIC KEY", "encryption";
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<SignMasterKey>()?;
    m.add_class::<SignMasterPublicKey>()?;
    m.add_class::<SignUserKey>()?;
    m.add_class::<EncMasterKey>()?;
    m.add_class::<EncMasterPublicKey>()?;
    m.add_class::<EncUserKey>()?;
    m.add_class::<ExchangeUserKey>()?;
    m.add_class::<Initiator>()?;
    m.add_class::<Responder>()?;
    m.add_function(wrap_pyfunction!(verify_batch, m)?)?;
    m.add_function(wrap_pyfunction!(_native_sign_loop, m)?)?;
    m.add_function(wrap_pyfunction!(_native_verify_loop, m)?)?;
    Ok(())
}

/// Benchmark support: `n` signatures in a Rust loop (GIL released); seconds elapsed. Compared
/// with the same calls made from Python, it gives the Python-call overhead in one process.
#[pyfunction]
pub fn _native_sign_loop(py: Python<'_>, key: &SignUserKey, message: Data<'_>, n: usize) -> f64 {
    py.detach(|| {
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(key.sign_one(&message).ok());
        }
        t.elapsed().as_secs_f64()
    })
}

/// Benchmark support: `n` verifications in a Rust loop (GIL released); seconds elapsed.
#[pyfunction]
pub fn _native_verify_loop(
    py: Python<'_>,
    key: &SignMasterPublicKey,
    signature: Data<'_>,
    message: Data<'_>,
    identity: Text<'_>,
    n: usize,
) -> f64 {
    py.detach(|| {
        let master = key.master.prepared();
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(sm9_verifies(
                master,
                &identity,
                &message,
                &signature,
                Encoding::Der,
            ));
        }
        t.elapsed().as_secs_f64()
    })
}
