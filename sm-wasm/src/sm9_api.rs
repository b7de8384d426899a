//! SM9: master keys (sign, encryption), user keys (sign, encryption, exchange), GmSSL's DER/PEM
//! encodings, signatures, encryption (both MAC modes, the SM4 modes), KEM, key exchange, batch
//! verification, and the pairing itself for research.
//!
//! Master public keys and user keys prepare themselves on first use (the GT table of `g`, the
//! comb table of `ds`, the Miller-loop lines of `de`) and keep it, so repeated calls never redo
//! it: keep the objects rather than re-importing keys.

use std::cell::OnceCell;

use getrandom::SysRng;
use js_sys::{Array, Uint8Array};
use rand_core::{Rng, UnwrapErr};
use sm2::pkcs8::der::pem::{self, LineEnding};
use sm9::{
    EncMasterKey, EncMasterPublicKey, EncUserKey, EncapsulatedKey, EncryptionMode, ExchangeUserKey,
    MacMode, SignMasterKey, SignMasterPublicKey, SignUserKey, Signature,
};
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use crate::error::{invalid, JsErr};
use crate::input::{array, bytes, out, secret, string, text, Bytes, Text};
use crate::sm2_api::pem_label;

fn encryption_mode(mode: Option<String>) -> Result<EncryptionMode, JsValue> {
    match mode.as_deref() {
        None | Some("xor") => Ok(EncryptionMode::KdfStream),
        Some("sm4-ecb") => Ok(EncryptionMode::Sm4Ecb),
        Some("sm4-cbc") => Ok(EncryptionMode::Sm4Cbc),
        Some(m) => Err(invalid(&format!(
            "mode: expected 'xor', 'sm4-ecb' or 'sm4-cbc', got '{m}'"
        ))),
    }
}

fn mac_mode(mac: Option<String>) -> Result<MacMode, JsValue> {
    match mac.as_deref() {
        None | Some("sm3") => Ok(MacMode::Sm3),
        Some("hmac-sm3") => Ok(MacMode::HmacSm3),
        Some(m) => Err(invalid(&format!(
            "mac: expected 'sm3' (the standard's) or 'hmac-sm3' (GmSSL's), got '{m}'"
        ))),
    }
}

fn password_of(password: Option<Text>) -> Result<Option<Zeroizing<Vec<u8>>>, JsValue> {
    match password {
        Some(p) if !p.is_undefined() && !p.is_null() => Ok(Some(text(&p, "password")?)),
        _ => Ok(None),
    }
}

fn salt_iv() -> ([u8; 16], [u8; 16]) {
    let mut salt = [0u8; 16];
    let mut iv = [0u8; 16];
    UnwrapErr(SysRng).fill_bytes(&mut salt);
    UnwrapErr(SysRng).fill_bytes(&mut iv);
    (salt, iv)
}

/// DER/PEM import and export shared by the four private key classes. `$js` wraps a `$key` in a
/// field `key` and has `fn wrap($key) -> Self`.
macro_rules! private_key_io {
    ($js:ident, $key:ty) => {
        #[wasm_bindgen]
        impl $js {
            /// From DER: GM/T 0080 / GmSSL's own structure, PKCS#8 `PrivateKeyInfo`, or with
            /// `password` encrypted PKCS#8 (PBKDF2-HMAC-SM3 + SM4-CBC, as GmSSL writes it).
            #[wasm_bindgen(js_name = fromDer)]
            pub fn from_der(der: &Bytes, password: Option<Text>) -> Result<$js, JsValue> {
                let der = secret(der, "der")?;
                let key = match password_of(password)? {
                    Some(p) => <$key>::from_encrypted_pkcs8_der(&der, &p).js()?,
                    None => match <$key>::from_der(&der) {
                        Ok(k) => k,
                        Err(_) => <$key>::from_pkcs8_der(&der).js()?,
                    },
                };
                Ok($js::wrap(key))
            }

            /// From PEM: `ENCRYPTED PRIVATE KEY` (with `password`) or `PRIVATE KEY`.
            #[wasm_bindgen(js_name = fromPem)]
            pub fn from_pem(pem: &Text, password: Option<Text>) -> Result<$js, JsValue> {
                let pem = string(pem, "pem")?;
                let key = match (pem_label(&pem), password_of(password)?) {
                    (Some("ENCRYPTED PRIVATE KEY"), Some(p)) => {
                        <$key>::from_encrypted_pem(&pem, &p).js()?
                    }
                    (Some("ENCRYPTED PRIVATE KEY"), None) => {
                        return Err(invalid("password: required for an ENCRYPTED PRIVATE KEY"))
                    }
                    _ => <$key>::from_pkcs8_pem(&pem).js()?,
                };
                Ok($js::wrap(key))
            }

            /// DER in GmSSL's structure (a secret: handle with care).
            #[wasm_bindgen(js_name = toDer)]
            pub fn to_der(&self) -> Result<Uint8Array, JsValue> {
                Ok(out(&self.key.to_der().js()?))
            }

            /// PKCS#8 PEM (`PRIVATE KEY`) as UTF-8 bytes: a secret never becomes a JavaScript
            /// string.
            #[wasm_bindgen(js_name = toPem)]
            pub fn to_pem(&self) -> Result<Uint8Array, JsValue> {
                Ok(out(self.key.to_pkcs8_pem().js()?.as_bytes()))
            }

            /// Password-encrypted PKCS#8 PEM as GmSSL writes it (`iterations` of PBKDF2,
            /// default 65536; random salt and IV).
            #[wasm_bindgen(js_name = toEncryptedPem)]
            pub fn to_encrypted_pem(
                &self,
                password: &Text,
                iterations: Option<u32>,
            ) -> Result<String, JsValue> {
                let (salt, iv) = salt_iv();
                let iterations = iterations.unwrap_or(sm9::DEFAULT_PBKDF2_ITERATIONS);
                let der = self
                    .key
                    .to_encrypted_pkcs8_der_with(
                        &text(password, "password")?,
                        &salt,
                        &iv,
                        iterations,
                    )
                    .js()?;
                pem::encode_string("ENCRYPTED PRIVATE KEY", LineEnding::LF, &der)
                    .map_err(|_| invalid("PEM encoding failed"))
            }
        }
    };
}

/// Byte/DER/PEM import and export of the two master public key classes (field `pk`, `fn wrap`).
macro_rules! public_key_io {
    ($js:ident, $key:ty) => {
        #[wasm_bindgen]
        impl $js {
            /// From the point encoding `04‖x‖y`.
            #[wasm_bindgen(js_name = fromBytes)]
            pub fn from_bytes(point: &Bytes) -> Result<$js, JsValue> {
                <$key>::from_bytes(&bytes(point, "point")?)
                    .js()
                    .map($js::wrap)
            }

            /// From DER (GM/T 0080 / GmSSL).
            #[wasm_bindgen(js_name = fromDer)]
            pub fn from_der(der: &Bytes) -> Result<$js, JsValue> {
                <$key>::from_der(&bytes(der, "der")?).js().map($js::wrap)
            }

            /// From PEM as GmSSL writes it.
            #[wasm_bindgen(js_name = fromPem)]
            pub fn from_pem(pem: &Text) -> Result<$js, JsValue> {
                <$key>::from_pem(&string(pem, "pem")?).js().map($js::wrap)
            }

            /// The point encoding `04‖x‖y`.
            #[wasm_bindgen(js_name = toBytes)]
            pub fn to_bytes(&self) -> Uint8Array {
                out(&self.pk.to_bytes())
            }

            /// DER (GM/T 0080 / GmSSL).
            #[wasm_bindgen(js_name = toDer)]
            pub fn to_der(&self) -> Result<Uint8Array, JsValue> {
                Ok(out(&self.pk.to_der().js()?))
            }

            /// PEM as GmSSL writes it.
            #[wasm_bindgen(js_name = toPem)]
            pub fn to_pem(&self) -> Result<String, JsValue> {
                self.pk.to_pem().js()
            }

            /// Builds the precomputed tables now (otherwise on first use).
            pub fn prepare(&self) {
                self.prepared();
            }
        }
    };
}

// --- signatures -------------------------------------------------------------------------------

/// An SM9 signature master public key `Ppub-s` (G2) with its GT table (built on first use).
#[wasm_bindgen]
pub struct Sm9SignMasterPublicKey {
    pk: SignMasterPublicKey,
    prepared: OnceCell<sm9::PreparedSignMasterPublicKey>,
}

impl Sm9SignMasterPublicKey {
    fn wrap(pk: SignMasterPublicKey) -> Self {
        Self {
            pk,
            prepared: OnceCell::new(),
        }
    }

    fn prepared(&self) -> &sm9::PreparedSignMasterPublicKey {
        self.prepared.get_or_init(|| self.pk.prepare())
    }
}

public_key_io!(Sm9SignMasterPublicKey, SignMasterPublicKey);

fn signature_of(sig: &Bytes) -> Result<Option<Signature>, JsValue> {
    Ok(Signature::from_der(&bytes(sig, "signature")?).ok())
}

#[wasm_bindgen]
impl Sm9SignMasterPublicKey {
    /// Whether the DER `signature` (GmSSL's `SEQUENCE { h, S }`) is valid on `message` by `id`.
    pub fn verify(&self, id: &Text, message: &Text, signature: &Bytes) -> Result<bool, JsValue> {
        let sig = signature_of(signature)?;
        let (id, msg) = (text(id, "id")?, text(message, "message")?);
        Ok(sig.is_some_and(|s| sm9::verify(self.prepared(), &id, &msg, &s).is_ok()))
    }

    /// Verifies many signatures under this master key at once (random linear combination; the
    /// failing ones are found): one boolean per item, in order.
    #[wasm_bindgen(js_name = verifyBatch)]
    pub fn verify_batch(
        &self,
        ids: &Array,
        messages: &Array,
        signatures: &Array,
    ) -> Result<Vec<u8>, JsValue> {
        let n = ids.length();
        if messages.length() != n || signatures.length() != n {
            return Err(invalid(
                "verifyBatch: ids, messages and signatures differ in length",
            ));
        }
        let mut items = Vec::with_capacity(n as usize);
        for i in 0..n {
            let id = text(&ids.get(i), "ids[i]")?;
            let msg = text(&messages.get(i), "messages[i]")?;
            let sig = Signature::from_der(&bytes(&signatures.get(i), "signatures[i]")?).ok();
            items.push((id, msg, sig));
        }
        let master = self.prepared();
        // Malformed signatures are invalid; the rest go into the batch.
        let valid: Vec<usize> = (0..items.len()).filter(|&i| items[i].2.is_some()).collect();
        let batch: Vec<sm9::BatchItem<'_>> = valid
            .iter()
            .filter_map(|&i| {
                let (id, msg, sig) = &items[i];
                sig.as_ref().map(|signature| sm9::BatchItem {
                    master,
                    id,
                    message: msg,
                    signature,
                })
            })
            .collect();
        let result = sm9::verify_batch(&batch);
        let mut flags = vec![0u8; items.len()];
        for (j, &i) in valid.iter().enumerate() {
            flags[i] = u8::from(result.is_valid(j));
        }
        Ok(flags)
    }
}

/// An SM9 signature master key `ks` (the KGC's secret).
#[wasm_bindgen]
pub struct Sm9SignMasterKey {
    key: SignMasterKey,
}

impl Sm9SignMasterKey {
    fn wrap(key: SignMasterKey) -> Self {
        Self { key }
    }
}

private_key_io!(Sm9SignMasterKey, SignMasterKey);

#[wasm_bindgen]
impl Sm9SignMasterKey {
    /// A new random master key.
    pub fn generate() -> Sm9SignMasterKey {
        Self::wrap(SignMasterKey::generate(&mut UnwrapErr(SysRng)))
    }

    /// From the 32-byte big-endian `ks` (1 ≤ ks ≤ n − 1).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(ks: &Bytes) -> Result<Sm9SignMasterKey, JsValue> {
        SignMasterKey::from_bytes(&*array::<32>(ks, "ks")?)
            .js()
            .map(Self::wrap)
    }

    /// The 32-byte `ks` (a secret).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Uint8Array {
        out(&*self.key.to_bytes())
    }

    /// The master public key (keep the object: it holds the GT table once used).
    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> Sm9SignMasterPublicKey {
        Sm9SignMasterPublicKey::wrap(*self.key.public_key())
    }

    /// The signing key `ds` of `id` (hid = 0x01).
    pub fn extract(&self, id: &Text) -> Result<Sm9SignUserKey, JsValue> {
        self.key
            .extract(&text(id, "id")?)
            .js()
            .map(Sm9SignUserKey::wrap)
    }
}

/// An SM9 user signing key `ds` (G1), with its comb table (built on first use).
#[wasm_bindgen]
pub struct Sm9SignUserKey {
    key: SignUserKey,
    prepared: OnceCell<sm9::SigningKey>,
}

impl Sm9SignUserKey {
    fn wrap(key: SignUserKey) -> Self {
        Self {
            key,
            prepared: OnceCell::new(),
        }
    }
}

private_key_io!(Sm9SignUserKey, SignUserKey);

#[wasm_bindgen]
impl Sm9SignUserKey {
    /// Signs `message` under `master`: the DER signature (GmSSL's `SEQUENCE { h, S }`).
    pub fn sign(
        &self,
        master: &Sm9SignMasterPublicKey,
        message: &Text,
    ) -> Result<Uint8Array, JsValue> {
        let key = self.prepared.get_or_init(|| self.key.prepare());
        let msg = text(message, "message")?;
        let sig = sm9::sign_prepared(key, master.prepared(), &msg, &mut UnwrapErr(SysRng)).js()?;
        Ok(out(&sig.to_der().js()?))
    }

    /// The master public key stored with this user key.
    #[wasm_bindgen(js_name = masterPublicKey)]
    pub fn master_public_key(&self) -> Sm9SignMasterPublicKey {
        Sm9SignMasterPublicKey::wrap(self.key.master_public_key())
    }
}

// --- encryption, KEM, exchange ------------------------------------------------------------------

/// An SM9 encryption master public key `Ppub-e` (G1) with its GT table (built on first use).
#[wasm_bindgen]
pub struct Sm9EncMasterPublicKey {
    pk: EncMasterPublicKey,
    prepared: OnceCell<sm9::PreparedEncMasterPublicKey>,
}

impl Sm9EncMasterPublicKey {
    fn wrap(pk: EncMasterPublicKey) -> Self {
        Self {
            pk,
            prepared: OnceCell::new(),
        }
    }

    fn prepared(&self) -> &sm9::PreparedEncMasterPublicKey {
        self.prepared.get_or_init(|| self.pk.prepare())
    }
}

public_key_io!(Sm9EncMasterPublicKey, EncMasterPublicKey);

/// A key encapsulated to an identity: the shared `key` (secret) and the encapsulation `c`.
#[wasm_bindgen]
pub struct Sm9Encapsulation {
    key: Zeroizing<Vec<u8>>,
    c: EncapsulatedKey,
}

#[wasm_bindgen]
impl Sm9Encapsulation {
    /// The shared key (a secret).
    #[wasm_bindgen(getter)]
    pub fn key(&self) -> Uint8Array {
        out(&self.key)
    }

    /// The encapsulation C (65 bytes `04‖x‖y`), to send.
    #[wasm_bindgen(getter)]
    pub fn ciphertext(&self) -> Uint8Array {
        out(&self.c.to_bytes())
    }
}

#[wasm_bindgen]
impl Sm9EncMasterPublicKey {
    /// Encrypts `message` to `id`: the DER ciphertext (GM/T 0080 `SM9Cipher`). `mode` `'xor'`
    /// (default, the KDF stream), `'sm4-ecb'` or `'sm4-cbc'`; `mac` `'sm3'` (default, the
    /// standard's `SM3(C2‖K2)`) or `'hmac-sm3'` (GmSSL's).
    pub fn encrypt(
        &self,
        id: &Text,
        message: &Text,
        mode: Option<String>,
        mac: Option<String>,
    ) -> Result<Uint8Array, JsValue> {
        let (mode, mac) = (encryption_mode(mode)?, mac_mode(mac)?);
        let (id, msg) = (text(id, "id")?, text(message, "message")?);
        let ct = sm9::encrypt(
            self.prepared(),
            &id,
            &msg,
            mode,
            mac,
            &mut UnwrapErr(SysRng),
        )
        .js()?;
        Ok(out(&ct.to_der().js()?))
    }

    /// A fresh `keyLength`-byte key encapsulated to `id` (GM/T 0044.4 §6).
    pub fn encapsulate(&self, id: &Text, key_length: usize) -> Result<Sm9Encapsulation, JsValue> {
        let (key, c) = sm9::encapsulate(
            self.prepared(),
            &text(id, "id")?,
            key_length,
            &mut UnwrapErr(SysRng),
        )
        .js()?;
        Ok(Sm9Encapsulation { key, c })
    }
}

/// An SM9 encryption master key `ke` (the KGC's secret).
#[wasm_bindgen]
pub struct Sm9EncMasterKey {
    key: EncMasterKey,
}

impl Sm9EncMasterKey {
    fn wrap(key: EncMasterKey) -> Self {
        Self { key }
    }
}

private_key_io!(Sm9EncMasterKey, EncMasterKey);

#[wasm_bindgen]
impl Sm9EncMasterKey {
    /// A new random master key.
    pub fn generate() -> Sm9EncMasterKey {
        Self::wrap(EncMasterKey::generate(&mut UnwrapErr(SysRng)))
    }

    /// From the 32-byte big-endian `ke`.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(ke: &Bytes) -> Result<Sm9EncMasterKey, JsValue> {
        EncMasterKey::from_bytes(&*array::<32>(ke, "ke")?)
            .js()
            .map(Self::wrap)
    }

    /// The 32-byte `ke` (a secret).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Uint8Array {
        out(&*self.key.to_bytes())
    }

    /// The master public key (keep the object: it holds the GT table once used).
    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> Sm9EncMasterPublicKey {
        Sm9EncMasterPublicKey::wrap(*self.key.public_key())
    }

    /// The decryption key `de` of `id` (hid = 0x03).
    pub fn extract(&self, id: &Text) -> Result<Sm9EncUserKey, JsValue> {
        self.key
            .extract(&text(id, "id")?)
            .js()
            .map(Sm9EncUserKey::wrap)
    }

    /// The key-exchange key of `id` (hid = 0x02).
    #[wasm_bindgen(js_name = extractExchange)]
    pub fn extract_exchange(&self, id: &Text) -> Result<Sm9ExchangeUserKey, JsValue> {
        self.key
            .extract_exchange(&text(id, "id")?)
            .js()
            .map(Sm9ExchangeUserKey::wrap)
    }
}

/// An SM9 user decryption key `de` (G2), with its Miller-loop lines (built on first use).
#[wasm_bindgen]
pub struct Sm9EncUserKey {
    key: EncUserKey,
    prepared: OnceCell<sm9::DecryptionKey>,
}

impl Sm9EncUserKey {
    fn wrap(key: EncUserKey) -> Self {
        Self {
            key,
            prepared: OnceCell::new(),
        }
    }

    fn prepared(&self) -> &sm9::DecryptionKey {
        self.prepared.get_or_init(|| self.key.prepare())
    }
}

private_key_io!(Sm9EncUserKey, EncUserKey);

#[wasm_bindgen]
impl Sm9EncUserKey {
    /// Decrypts the DER `ciphertext` addressed to `id`, with the sender's `mac` mode (`'sm3'`
    /// default, or `'hmac-sm3'`). Every failure is the opaque `SM9_DECRYPTION`.
    pub fn decrypt(
        &self,
        id: &Text,
        ciphertext: &Bytes,
        mac: Option<String>,
    ) -> Result<Uint8Array, JsValue> {
        let mac = mac_mode(mac)?;
        let ct = sm9::Ciphertext::from_der(&bytes(ciphertext, "ciphertext")?)
            .map_err(|_| sm9::Error::Decryption)
            .js()?;
        let pt = sm9::decrypt(self.prepared(), &text(id, "id")?, &ct, mac).js()?;
        Ok(out(&pt))
    }

    /// The `keyLength`-byte key of the encapsulation `c` (65 bytes, or DER) to `id`.
    pub fn decapsulate(
        &self,
        id: &Text,
        c: &Bytes,
        key_length: usize,
    ) -> Result<Uint8Array, JsValue> {
        let c = bytes(c, "c")?;
        let c = if c.len() == 65 {
            EncapsulatedKey::from_bytes(&c)
        } else {
            EncapsulatedKey::from_der(&c)
        }
        .js()?;
        let key = sm9::decapsulate(self.prepared(), &text(id, "id")?, &c, key_length).js()?;
        Ok(out(&key))
    }

    /// The master public key stored with this user key.
    #[wasm_bindgen(js_name = masterPublicKey)]
    pub fn master_public_key(&self) -> Sm9EncMasterPublicKey {
        Sm9EncMasterPublicKey::wrap(self.key.master_public_key())
    }
}

/// An SM9 user key-exchange key (hid = 0x02), with its Miller-loop lines.
#[wasm_bindgen]
pub struct Sm9ExchangeUserKey {
    key: ExchangeUserKey,
    prepared: OnceCell<sm9::ExchangeKey>,
}

impl Sm9ExchangeUserKey {
    fn wrap(key: ExchangeUserKey) -> Self {
        Self {
            key,
            prepared: OnceCell::new(),
        }
    }

    fn prepared(&self) -> &sm9::ExchangeKey {
        self.prepared.get_or_init(|| self.key.prepare())
    }
}

private_key_io!(Sm9ExchangeUserKey, ExchangeUserKey);

/// SM9 key exchange (GM/T 0044.3), initiator A: `start()` → send RA; `finish(RB, SB)` → the key;
/// send `confirmation` (SA) to B.
#[wasm_bindgen]
pub struct Sm9KeyExchangeInitiator {
    key: sm9::ExchangeKey,
    master: sm9::PreparedEncMasterPublicKey,
    own_id: Vec<u8>,
    peer_id: Vec<u8>,
    // rA: the initiator state of the library borrows its keys, so it is rebuilt in `finish` from
    // this nonce (wiped on drop) instead of being kept.
    r: Option<Zeroizing<[u8; 32]>>,
    sa: Option<[u8; 32]>,
}

impl Sm9KeyExchangeInitiator {
    fn initiator(
        &self,
        r: &[u8; 32],
    ) -> Result<(sm9::Initiator<'_>, sm9::EphemeralPoint), JsValue> {
        sm9::hazmat::initiator_start_with_nonce(
            &self.key,
            &self.master,
            &self.own_id,
            &self.peer_id,
            r,
        )
        .js()
    }
}

#[wasm_bindgen]
impl Sm9KeyExchangeInitiator {
    /// A (`key`, `id`) towards `peerId`, under `master`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        key: &Sm9ExchangeUserKey,
        master: &Sm9EncMasterPublicKey,
        id: &Text,
        peer_id: &Text,
    ) -> Result<Sm9KeyExchangeInitiator, JsValue> {
        Ok(Sm9KeyExchangeInitiator {
            key: key.prepared().clone(),
            master: master.prepared().clone(),
            own_id: text(id, "id")?.to_vec(),
            peer_id: text(peer_id, "peerId")?.to_vec(),
            r: None,
            sa: None,
        })
    }

    /// RA (65 bytes), to send to B.
    pub fn start(&mut self) -> Result<Uint8Array, JsValue> {
        loop {
            let mut r = Zeroizing::new([0u8; 32]);
            UnwrapErr(SysRng).fill_bytes(&mut *r);
            // Rejection sampling: a nonce outside [1, n − 1] is drawn again.
            let ra = self.initiator(&r).map(|(_, ra)| ra.to_bytes());
            if let Ok(ra) = ra {
                self.r = Some(r);
                return Ok(out(&ra));
            }
        }
    }

    /// With B's RB and SB: the `keyLength`-byte shared key (`SM9_KEY_CONFIRMATION` if SB is
    /// wrong).
    pub fn finish(
        &mut self,
        rb: &Bytes,
        sb: &Bytes,
        key_length: usize,
    ) -> Result<Uint8Array, JsValue> {
        let rb = sm9::EphemeralPoint::from_bytes(&bytes(rb, "rb")?).js()?;
        let sb = array::<32>(sb, "sb")?;
        let r = self
            .r
            .take()
            .ok_or_else(|| invalid("finish: call start() first"))?;
        let (initiator, _) = self.initiator(&r)?;
        let (key, sa) = initiator.finish(&rb, Some(&sb), key_length).js()?;
        self.sa = Some(sa);
        Ok(out(&key))
    }

    /// SA (32 bytes), available after `finish`.
    #[wasm_bindgen(getter)]
    pub fn confirmation(&self) -> Option<Uint8Array> {
        self.sa.as_ref().map(|s| out(s))
    }
}

/// SM9 key exchange, responder B: `respond(RA)` → send RB and `confirmation` (SB);
/// `confirm(SA)` → the key.
#[wasm_bindgen]
pub struct Sm9KeyExchangeResponder {
    key: sm9::ExchangeKey,
    master: sm9::PreparedEncMasterPublicKey,
    own_id: Vec<u8>,
    peer_id: Vec<u8>,
    waiting: Option<sm9::Responder>,
    sb: Option<[u8; 32]>,
}

#[wasm_bindgen]
impl Sm9KeyExchangeResponder {
    /// B (`key`, `id`) towards `peerId`, under `master`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        key: &Sm9ExchangeUserKey,
        master: &Sm9EncMasterPublicKey,
        id: &Text,
        peer_id: &Text,
    ) -> Result<Sm9KeyExchangeResponder, JsValue> {
        Ok(Sm9KeyExchangeResponder {
            key: key.prepared().clone(),
            master: master.prepared().clone(),
            own_id: text(id, "id")?.to_vec(),
            peer_id: text(peer_id, "peerId")?.to_vec(),
            waiting: None,
            sb: None,
        })
    }

    /// RB (65 bytes) for A's RA; SB is then in `confirmation`.
    pub fn respond(&mut self, ra: &Bytes) -> Result<Uint8Array, JsValue> {
        if self.waiting.is_some() {
            return Err(invalid("respond: already responded"));
        }
        let ra = sm9::EphemeralPoint::from_bytes(&bytes(ra, "ra")?).js()?;
        let (w, rb, sb) = sm9::Responder::respond(
            &self.key,
            &self.master,
            &self.own_id,
            &self.peer_id,
            &ra,
            &mut UnwrapErr(SysRng),
        )
        .js()?;
        self.waiting = Some(w);
        self.sb = Some(sb);
        Ok(out(&rb.to_bytes()))
    }

    /// SB (32 bytes), available after `respond`.
    #[wasm_bindgen(getter)]
    pub fn confirmation(&self) -> Option<Uint8Array> {
        self.sb.as_ref().map(|s| out(s))
    }

    /// Checks A's SA: the `keyLength`-byte shared key (`SM9_KEY_CONFIRMATION` if SA is wrong).
    pub fn confirm(&mut self, sa: &Bytes, key_length: usize) -> Result<Uint8Array, JsValue> {
        let sa = array::<32>(sa, "sa")?;
        let w = self
            .waiting
            .take()
            .ok_or_else(|| invalid("confirm: call respond() first"))?;
        Ok(out(&w.confirm(&sa, key_length).js()?))
    }
}

// --- research exports: the pairing on encoded points ---------------------------------------------

fn g1_of(p: &Bytes) -> Result<sm_pairing::G1Affine, JsValue> {
    let pk = EncMasterPublicKey::from_bytes(&bytes(p, "p")?).js()?;
    Ok(*pk.point())
}

fn g2_of(q: &Bytes) -> Result<sm_pairing::G2Affine, JsValue> {
    let pk = SignMasterPublicKey::from_bytes(&bytes(q, "q")?).js()?;
    Ok(*pk.point())
}

/// The R-ate pairing e(P, Q) of a G1 point `p` (65 bytes) and a G2 point `q` (129 bytes): the
/// 384-byte GT encoding of GM/T 0044.
#[wasm_bindgen(js_name = sm9Pairing)]
pub fn pairing(p: &Bytes, q: &Bytes) -> Result<Uint8Array, JsValue> {
    Ok(out(&sm_pairing::pairing(&g1_of(p)?, &g2_of(q)?).to_bytes()))
}

/// A G1 point and a G2 point decoded (and checked: on the curve, in the subgroup) once, so that
/// [`pairing`](Sm9PairingPoints::pairing) and [`millerLoop`](Sm9PairingPoints::miller_loop)
/// time the pairing itself, without the point decoding that `sm9Pairing` repeats on every call.
#[wasm_bindgen]
pub struct Sm9PairingPoints {
    p: sm_pairing::G1Affine,
    q: sm_pairing::G2Affine,
}

#[wasm_bindgen]
impl Sm9PairingPoints {
    /// Decodes `p` (65 bytes, G1) and `q` (129 bytes, G2) as `sm9Pairing` does.
    #[wasm_bindgen(constructor)]
    pub fn new(p: &Bytes, q: &Bytes) -> Result<Sm9PairingPoints, JsValue> {
        Ok(Self {
            p: g1_of(p)?,
            q: g2_of(q)?,
        })
    }

    /// e(P, Q) as the 384-byte GT encoding (the same bytes as `sm9Pairing(p, q)`).
    pub fn pairing(&self) -> Uint8Array {
        out(&sm_pairing::pairing(&self.p, &self.q).to_bytes())
    }

    /// The Miller loop alone (the same bytes as `sm9MillerLoop(p, q)`).
    #[wasm_bindgen(js_name = millerLoop)]
    pub fn miller_loop(&self) -> Uint8Array {
        out(&sm_pairing::miller_loop(&self.p, &self.q).to_bytes())
    }
}

/// The Miller loop alone: f (384 bytes, an Fp12 element not yet in GT).
#[wasm_bindgen(js_name = sm9MillerLoop)]
pub fn miller_loop(p: &Bytes, q: &Bytes) -> Result<Uint8Array, JsValue> {
    Ok(out(
        &sm_pairing::miller_loop(&g1_of(p)?, &g2_of(q)?).to_bytes()
    ))
}

/// The final exponentiation f^((p^12 − 1)/n) of a 384-byte Fp12 element.
#[wasm_bindgen(js_name = sm9FinalExponentiation)]
pub fn final_exponentiation(f: &Bytes) -> Result<Uint8Array, JsValue> {
    let f = array::<384>(f, "f")?;
    let f: Option<sm_pairing::Fp12> = sm_pairing::Fp12::from_bytes(&f).into();
    let f = f.ok_or_else(|| invalid("f: a coordinate is not below p"))?;
    Ok(out(&sm_pairing::final_exponentiation(&f).to_bytes()))
}

// --- known-answer tests -------------------------------------------------------------------------

/// Known-answer tests only: signs with the caller's nonce `r` (never reuse or expose a nonce).
#[wasm_bindgen(js_name = hazmatSm9SignWithNonce)]
pub fn hazmat_sign_with_nonce(
    key: &Sm9SignUserKey,
    master: &Sm9SignMasterPublicKey,
    message: &Text,
    r: &Bytes,
) -> Result<Uint8Array, JsValue> {
    let r = array::<32>(r, "r")?;
    let sig =
        sm9::hazmat::sign_with_nonce(&key.key, master.prepared(), &text(message, "message")?, &r)
            .js()?;
    Ok(out(&sig.to_der().js()?))
}

/// Known-answer tests only: encrypts with the caller's nonce `r` and CBC IV `iv` (16 bytes).
#[wasm_bindgen(js_name = hazmatSm9EncryptWithNonce)]
pub fn hazmat_encrypt_with_nonce(
    master: &Sm9EncMasterPublicKey,
    id: &Text,
    message: &Text,
    r: &Bytes,
    iv: &Bytes,
    mode: Option<String>,
    mac: Option<String>,
) -> Result<Uint8Array, JsValue> {
    let (mode, mac) = (encryption_mode(mode)?, mac_mode(mac)?);
    let r = array::<32>(r, "r")?;
    let iv = array::<16>(iv, "iv")?;
    let ct = sm9::hazmat::encrypt_with_nonce(
        master.prepared(),
        &text(id, "id")?,
        &text(message, "message")?,
        mode,
        mac,
        &r,
        &iv,
    )
    .js()?;
    Ok(out(&ct.to_der().js()?))
}

/// Known-answer tests only: encapsulates with the caller's nonce `r`.
#[wasm_bindgen(js_name = hazmatSm9EncapsulateWithNonce)]
pub fn hazmat_encapsulate_with_nonce(
    master: &Sm9EncMasterPublicKey,
    id: &Text,
    key_length: usize,
    r: &Bytes,
) -> Result<Sm9Encapsulation, JsValue> {
    let r = array::<32>(r, "r")?;
    let (key, c) =
        sm9::hazmat::encapsulate_with_nonce(master.prepared(), &text(id, "id")?, key_length, &r)
            .js()?;
    Ok(Sm9Encapsulation { key, c })
}
