//! SM2: keys (raw, SEC1, PKCS#8, encrypted PKCS#8, SPKI; DER and PEM), signatures (raw r‖s and
//! DER, any distinguishing ID), encryption (C1C3C2, C1C2C3, DER), key exchange with confirmation.

use getrandom::SysRng;
use js_sys::Uint8Array;
use rand_core::UnwrapErr;
use sm2::pkcs8::der::pem::LineEnding;
use sm2::pkcs8::{DecodePrivateKey, EncodePrivateKey};
use sm2::spki::{DecodePublicKey, EncodePublicKey};
use sm2::{Mode, PublicKey, SecretKey, Signature, SigningKey, VerifyingKey, DEFAULT_ID};
use wasm_bindgen::prelude::*;
use zeroize::Zeroizing;

use crate::error::{invalid, JsErr};
use crate::input::{array, bytes, id_or, out, secret, string, text, Bytes, Text};

/// `-----BEGIN <label>-----` of a PEM document (the first one).
pub(crate) fn pem_label(pem: &str) -> Option<&str> {
    let rest = &pem[pem.find("-----BEGIN ")? + 11..];
    Some(&rest[..rest.find("-----")?])
}

/// The ciphertext formats of SM2 encryption.
enum Format {
    Raw(Mode),
    Der,
}

fn format(mode: Option<String>) -> Result<Format, JsValue> {
    match mode.as_deref() {
        None | Some("C1C3C2") => Ok(Format::Raw(Mode::C1C3C2)),
        Some("C1C2C3") => Ok(Format::Raw(Mode::C1C2C3)),
        Some("DER") => Ok(Format::Der),
        Some(m) => Err(invalid(&format!(
            "mode: expected 'C1C3C2', 'C1C2C3' or 'DER', got '{m}'"
        ))),
    }
}

fn signature_raw(sig: &Bytes) -> Result<Option<Signature>, JsValue> {
    let b = bytes(sig, "signature")?;
    if b.len() != 64 {
        return Err(invalid("signature: expected 64 bytes r||s"));
    }
    Ok(Signature::from_bytes(&b).ok())
}

fn signature_der(sig: &Bytes) -> Result<Option<Signature>, JsValue> {
    Ok(Signature::from_der(&bytes(sig, "signature")?).ok())
}

fn check(vk: &VerifyingKey, message: &Text, sig: Option<Signature>) -> Result<bool, JsValue> {
    let msg = text(message, "message")?;
    Ok(sig.is_some_and(|s| vk.verify(&msg, &s).is_ok()))
}

/// An SM2 private key `d` (with its public key and the signing state for the default ID).
#[wasm_bindgen]
pub struct Sm2PrivateKey {
    signer: SigningKey,
}

impl Sm2PrivateKey {
    fn new(sk: SecretKey) -> Sm2PrivateKey {
        Sm2PrivateKey {
            signer: SigningKey::new(&sk),
        }
    }

    fn sk(&self) -> &SecretKey {
        self.signer.secret_key()
    }

    fn signer_for(&self, id: Option<Text>) -> Result<Option<SigningKey>, JsValue> {
        let id = id_or(id, DEFAULT_ID)?;
        if id == DEFAULT_ID {
            return Ok(None);
        }
        SigningKey::with_id(self.sk(), &id).js().map(Some)
    }
}

#[wasm_bindgen]
impl Sm2PrivateKey {
    /// A new random key (`crypto.getRandomValues`).
    pub fn generate() -> Sm2PrivateKey {
        Sm2PrivateKey::new(SecretKey::random(&mut UnwrapErr(SysRng)))
    }

    /// From the 32-byte big-endian scalar `d` (1 ≤ d ≤ n − 2).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(d: &Bytes) -> Result<Sm2PrivateKey, JsValue> {
        let d = array::<32>(d, "d")?;
        SecretKey::from_bytes(&d).js().map(Sm2PrivateKey::new)
    }

    /// From DER: PKCS#8 `PrivateKeyInfo`, SEC1 `ECPrivateKey`, or, with `password`, encrypted
    /// PKCS#8 (PBES2: PBKDF2-HMAC-SM3 + SM4-CBC, as GmSSL and OpenSSL write it).
    #[wasm_bindgen(js_name = fromDer)]
    pub fn from_der(der: &Bytes, password: Option<Text>) -> Result<Sm2PrivateKey, JsValue> {
        let der = secret(der, "der")?;
        let sk = match password {
            Some(p) if !p.is_undefined() => {
                SecretKey::from_pkcs8_encrypted_der(&der, &text(&p, "password")?).js()?
            }
            _ => match SecretKey::from_pkcs8_der(&der) {
                Ok(sk) => sk,
                Err(_) => SecretKey::from_sec1_der(&der).js()?,
            },
        };
        Ok(Sm2PrivateKey::new(sk))
    }

    /// From PEM: `PRIVATE KEY`, `EC PRIVATE KEY`, `SM2 PRIVATE KEY` or (with `password`)
    /// `ENCRYPTED PRIVATE KEY`.
    #[wasm_bindgen(js_name = fromPem)]
    pub fn from_pem(pem: &Text, password: Option<Text>) -> Result<Sm2PrivateKey, JsValue> {
        let pem = string(pem, "pem")?;
        let sk = match pem_label(&pem) {
            Some("ENCRYPTED PRIVATE KEY") => {
                let p = password
                    .filter(|p| !p.is_undefined())
                    .ok_or_else(|| invalid("password: required for an ENCRYPTED PRIVATE KEY"))?;
                SecretKey::from_pkcs8_encrypted_pem(&pem, &text(&p, "password")?).js()?
            }
            Some("PRIVATE KEY") => SecretKey::from_pkcs8_pem(&pem)
                .map_err(|_| sm2::Error::Encoding)
                .js()?,
            _ => SecretKey::from_sec1_pem(&pem).js()?,
        };
        Ok(Sm2PrivateKey::new(sk))
    }

    /// The 32-byte scalar `d` (a secret: handle with care).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self) -> Uint8Array {
        out(&*self.sk().to_bytes())
    }

    /// PKCS#8 DER (GmSSL's form: the curve OID in the algorithm identifier).
    #[wasm_bindgen(js_name = toDer)]
    pub fn to_der(&self) -> Result<Uint8Array, JsValue> {
        let doc = self.sk().to_pkcs8_der_gmssl().js()?;
        Ok(out(doc.as_bytes()))
    }

    /// SEC1 `ECPrivateKey` DER.
    #[wasm_bindgen(js_name = toSec1Der)]
    pub fn to_sec1_der(&self) -> Result<Uint8Array, JsValue> {
        Ok(out(&self.sk().to_sec1_der().js()?))
    }

    /// PKCS#8 PEM (`PRIVATE KEY`) as UTF-8 bytes: a secret never becomes a JavaScript string
    /// (decode with `TextDecoder` where a string is really wanted).
    #[wasm_bindgen(js_name = toPem)]
    pub fn to_pem(&self) -> Result<Uint8Array, JsValue> {
        let pem = self
            .sk()
            .to_pkcs8_pem(LineEnding::LF)
            .map_err(|_| sm2::Error::Encoding)
            .js()?;
        Ok(out(pem.as_bytes()))
    }

    /// Password-encrypted PKCS#8 PEM (`ENCRYPTED PRIVATE KEY`; PBKDF2-HMAC-SM3 with a random
    /// salt, `iterations` rounds (default 65536), SM4-CBC with a random IV).
    #[wasm_bindgen(js_name = toEncryptedPem)]
    pub fn to_encrypted_pem(
        &self,
        password: &Text,
        iterations: Option<u32>,
    ) -> Result<String, JsValue> {
        let password = text(password, "password")?;
        let mut salt = [0u8; 16];
        let mut iv = [0u8; 16];
        rand_core::Rng::fill_bytes(&mut UnwrapErr(SysRng), &mut salt);
        rand_core::Rng::fill_bytes(&mut UnwrapErr(SysRng), &mut iv);
        let der = self
            .sk()
            .to_pkcs8_encrypted_der_with_params(&password, &salt, &iv, iterations.unwrap_or(65536))
            .js()?;
        sm2::pkcs8::der::pem::encode_string("ENCRYPTED PRIVATE KEY", LineEnding::LF, &der)
            .map_err(|_| invalid("PEM encoding failed"))
    }

    /// The public key `d·G`.
    #[wasm_bindgen(js_name = publicKey)]
    pub fn public_key(&self) -> Sm2PublicKey {
        Sm2PublicKey(*self.sk().public_key())
    }

    /// Signs `message` with the distinguishing `id` (default `1234567812345678`): 64 bytes r‖s.
    pub fn sign(&self, message: &Text, id: Option<Text>) -> Result<Uint8Array, JsValue> {
        let msg = text(message, "message")?;
        let own = self.signer_for(id)?;
        let sig = own
            .as_ref()
            .unwrap_or(&self.signer)
            .sign_with_rng(&mut UnwrapErr(SysRng), &msg);
        Ok(out(&sig.to_bytes()))
    }

    /// As [`sign`](Self::sign), DER `SEQUENCE { r INTEGER, s INTEGER }`.
    #[wasm_bindgen(js_name = signDer)]
    pub fn sign_der(&self, message: &Text, id: Option<Text>) -> Result<Uint8Array, JsValue> {
        let msg = text(message, "message")?;
        let own = self.signer_for(id)?;
        let sig = own
            .as_ref()
            .unwrap_or(&self.signer)
            .sign_with_rng(&mut UnwrapErr(SysRng), &msg);
        Ok(out(&sig.to_der()))
    }

    /// Decrypts a ciphertext in `mode` `'C1C3C2'` (default), `'C1C2C3'` or `'DER'`. Every
    /// failure is the opaque `SM2_DECRYPTION`.
    pub fn decrypt(&self, ciphertext: &Bytes, mode: Option<String>) -> Result<Uint8Array, JsValue> {
        let ct = bytes(ciphertext, "ciphertext")?;
        let pt = match format(mode)? {
            Format::Raw(m) => self.sk().decrypt(&ct, m),
            Format::Der => self.sk().decrypt_der(&ct),
        }
        .js()?;
        Ok(out(&pt))
    }
}

/// An SM2 public key.
#[wasm_bindgen]
pub struct Sm2PublicKey(PublicKey);

impl Sm2PublicKey {
    fn verifying_key(&self, id: Option<Text>) -> Result<VerifyingKey, JsValue> {
        VerifyingKey::with_id(&self.0, &id_or(id, DEFAULT_ID)?).js()
    }
}

#[wasm_bindgen]
impl Sm2PublicKey {
    /// From SEC1 bytes: `04‖x‖y` (65) or compressed `02|03‖x` (33).
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes_: &Bytes) -> Result<Sm2PublicKey, JsValue> {
        PublicKey::from_sec1_bytes(&bytes(bytes_, "bytes")?)
            .js()
            .map(Sm2PublicKey)
    }

    /// From SPKI DER (`SubjectPublicKeyInfo`).
    #[wasm_bindgen(js_name = fromDer)]
    pub fn from_der(der: &Bytes) -> Result<Sm2PublicKey, JsValue> {
        PublicKey::from_public_key_der(&bytes(der, "der")?)
            .map_err(|_| sm2::Error::InvalidPublicKey)
            .js()
            .map(Sm2PublicKey)
    }

    /// From SPKI PEM (`PUBLIC KEY`).
    #[wasm_bindgen(js_name = fromPem)]
    pub fn from_pem(pem: &Text) -> Result<Sm2PublicKey, JsValue> {
        let pem = string(pem, "pem")?;
        if pem_label(&pem) != Some("PUBLIC KEY") {
            return Err(sm2::Error::Encoding).js();
        }
        PublicKey::from_public_key_pem(&pem)
            .map_err(|_| sm2::Error::InvalidPublicKey)
            .js()
            .map(Sm2PublicKey)
    }

    /// SEC1 bytes, uncompressed (65) unless `compressed` (33).
    #[wasm_bindgen(js_name = toBytes)]
    pub fn to_bytes(&self, compressed: Option<bool>) -> Uint8Array {
        if compressed.unwrap_or(false) {
            out(&self.0.to_compressed())
        } else {
            out(&self.0.to_uncompressed())
        }
    }

    /// SPKI DER.
    #[wasm_bindgen(js_name = toDer)]
    pub fn to_der(&self) -> Result<Uint8Array, JsValue> {
        let doc = self
            .0
            .to_public_key_der()
            .map_err(|_| sm2::Error::Encoding)
            .js()?;
        Ok(out(doc.as_bytes()))
    }

    /// SPKI PEM (`PUBLIC KEY`).
    #[wasm_bindgen(js_name = toPem)]
    pub fn to_pem(&self) -> Result<String, JsValue> {
        self.0
            .to_public_key_pem(LineEnding::LF)
            .map_err(|_| sm2::Error::Encoding)
            .js()
    }

    /// Whether `signature` (64 bytes r‖s) is valid on `message` for `id` (default
    /// `1234567812345678`). For many verifications under one key use [`Sm2VerifyingKey`].
    pub fn verify(
        &self,
        message: &Text,
        signature: &Bytes,
        id: Option<Text>,
    ) -> Result<bool, JsValue> {
        let sig = signature_raw(signature)?;
        check(&self.verifying_key(id)?, message, sig)
    }

    /// As [`verify`](Self::verify) with a DER signature.
    #[wasm_bindgen(js_name = verifyDer)]
    pub fn verify_der(
        &self,
        message: &Text,
        signature: &Bytes,
        id: Option<Text>,
    ) -> Result<bool, JsValue> {
        let sig = signature_der(signature)?;
        check(&self.verifying_key(id)?, message, sig)
    }

    /// Encrypts `message` (non-empty) to this key; `mode` `'C1C3C2'` (default), `'C1C2C3'` or
    /// `'DER'`. C1 is uncompressed `04‖x‖y`.
    pub fn encrypt(&self, message: &Text, mode: Option<String>) -> Result<Uint8Array, JsValue> {
        let msg = text(message, "message")?;
        let ct = match format(mode)? {
            Format::Raw(m) => self.0.encrypt(&mut UnwrapErr(SysRng), &msg, m),
            Format::Der => self.0.encrypt_der(&mut UnwrapErr(SysRng), &msg),
        }
        .js()?;
        Ok(out(&ct))
    }
}

/// A public key with its ID's `ZA` and a precomputed table of the point: fast repeated
/// verification.
#[wasm_bindgen]
pub struct Sm2VerifyingKey(VerifyingKey);

#[wasm_bindgen]
impl Sm2VerifyingKey {
    /// For `publicKey` and `id` (default `1234567812345678`); builds the table once.
    #[wasm_bindgen(constructor)]
    pub fn new(public_key: &Sm2PublicKey, id: Option<Text>) -> Result<Sm2VerifyingKey, JsValue> {
        let id = id_or(id, DEFAULT_ID)?;
        let vk = VerifyingKey::with_id(&public_key.0, &id).js()?;
        Ok(Sm2VerifyingKey(vk.with_precomputed_table()))
    }

    /// Whether the 64-byte r‖s `signature` is valid on `message`.
    pub fn verify(&self, message: &Text, signature: &Bytes) -> Result<bool, JsValue> {
        check(&self.0, message, signature_raw(signature)?)
    }

    /// Whether the DER `signature` is valid on `message`.
    #[wasm_bindgen(js_name = verifyDer)]
    pub fn verify_der(&self, message: &Text, signature: &Bytes) -> Result<bool, JsValue> {
        check(&self.0, message, signature_der(signature)?)
    }
}

/// A private key with a fixed ID (its `ZA` computed once).
#[wasm_bindgen]
pub struct Sm2SigningKey(SigningKey);

#[wasm_bindgen]
impl Sm2SigningKey {
    /// For `privateKey` and `id` (default `1234567812345678`).
    #[wasm_bindgen(constructor)]
    pub fn new(private_key: &Sm2PrivateKey, id: Option<Text>) -> Result<Sm2SigningKey, JsValue> {
        let id = id_or(id, DEFAULT_ID)?;
        SigningKey::with_id(private_key.sk(), &id)
            .js()
            .map(Sm2SigningKey)
    }

    /// 64-byte r‖s signature of `message`.
    pub fn sign(&self, message: &Text) -> Result<Uint8Array, JsValue> {
        Ok(out(&self
            .0
            .sign_with_rng(&mut UnwrapErr(SysRng), &text(message, "message")?)
            .to_bytes()))
    }

    /// DER signature of `message`.
    #[wasm_bindgen(js_name = signDer)]
    pub fn sign_der(&self, message: &Text) -> Result<Uint8Array, JsValue> {
        Ok(out(&self
            .0
            .sign_with_rng(&mut UnwrapErr(SysRng), &text(message, "message")?)
            .to_der()))
    }
}

/// Key exchange (GB/T 32918.3), initiator side A: `start()` → send RA; `finish(RB, SB)` → the
/// key; send `confirmation` (SA) to B.
#[wasm_bindgen]
pub struct Sm2KeyExchangeInitiator {
    start: Option<sm2::exchange::Initiator>,
    waiting: Option<sm2::exchange::InitiatorWaiting>,
    sa: Option<[u8; 32]>,
}

#[wasm_bindgen]
impl Sm2KeyExchangeInitiator {
    /// A with `privateKey`, `id`, and B's public key and ID.
    #[wasm_bindgen(constructor)]
    pub fn new(
        private_key: &Sm2PrivateKey,
        id: &Text,
        peer_public_key: &Sm2PublicKey,
        peer_id: &Text,
    ) -> Result<Sm2KeyExchangeInitiator, JsValue> {
        let i = sm2::exchange::Initiator::new(
            private_key.sk(),
            &text(id, "id")?,
            &peer_public_key.0,
            &text(peer_id, "peerId")?,
        )
        .js()?;
        Ok(Sm2KeyExchangeInitiator {
            start: Some(i),
            waiting: None,
            sa: None,
        })
    }

    /// RA (65 bytes), to send to B. Once.
    pub fn start(&mut self) -> Result<Uint8Array, JsValue> {
        let i = self
            .start
            .take()
            .ok_or_else(|| invalid("start: already started"))?;
        let (w, ra) = i.start(&mut UnwrapErr(SysRng));
        self.waiting = Some(w);
        Ok(out(&ra.to_uncompressed()))
    }

    /// With B's RB and confirmation SB: the `keyLength`-byte shared key (`SM2_KEY_EXCHANGE` if
    /// SB is wrong).
    pub fn finish(
        &mut self,
        rb: &Bytes,
        sb: &Bytes,
        key_length: usize,
    ) -> Result<Uint8Array, JsValue> {
        let rb = PublicKey::from_sec1_bytes(&bytes(rb, "rb")?).js()?;
        let sb = array::<32>(sb, "sb")?;
        let w = self
            .waiting
            .take()
            .ok_or_else(|| invalid("finish: call start() first"))?;
        let (key, sa) = w.finish(&rb, &sb, key_length).js()?;
        self.sa = Some(sa);
        Ok(out(&key))
    }

    /// SA (32 bytes), available after `finish`.
    #[wasm_bindgen(getter)]
    pub fn confirmation(&self) -> Option<Uint8Array> {
        self.sa.as_ref().map(|s| out(s))
    }
}

/// Key exchange, responder side B: `respond(RA)` → send RB and `confirmation` (SB) to A;
/// `confirm(SA)` → the key.
#[wasm_bindgen]
pub struct Sm2KeyExchangeResponder {
    start: Option<sm2::exchange::Responder>,
    waiting: Option<sm2::exchange::ResponderWaiting>,
    sb: Option<[u8; 32]>,
}

#[wasm_bindgen]
impl Sm2KeyExchangeResponder {
    /// B with `privateKey`, `id`, and A's public key and ID.
    #[wasm_bindgen(constructor)]
    pub fn new(
        private_key: &Sm2PrivateKey,
        id: &Text,
        peer_public_key: &Sm2PublicKey,
        peer_id: &Text,
    ) -> Result<Sm2KeyExchangeResponder, JsValue> {
        let r = sm2::exchange::Responder::new(
            private_key.sk(),
            &text(id, "id")?,
            &peer_public_key.0,
            &text(peer_id, "peerId")?,
        )
        .js()?;
        Ok(Sm2KeyExchangeResponder {
            start: Some(r),
            waiting: None,
            sb: None,
        })
    }

    /// RB (65 bytes) for A's RA, for a `keyLength`-byte key; SB is then in `confirmation`.
    pub fn respond(&mut self, ra: &Bytes, key_length: usize) -> Result<Uint8Array, JsValue> {
        let ra = PublicKey::from_sec1_bytes(&bytes(ra, "ra")?).js()?;
        let r = self
            .start
            .take()
            .ok_or_else(|| invalid("respond: already responded"))?;
        let (w, rb, sb) = r.respond(&mut UnwrapErr(SysRng), &ra, key_length).js()?;
        self.waiting = Some(w);
        self.sb = Some(sb);
        Ok(out(&rb.to_uncompressed()))
    }

    /// SB (32 bytes), available after `respond`.
    #[wasm_bindgen(getter)]
    pub fn confirmation(&self) -> Option<Uint8Array> {
        self.sb.as_ref().map(|s| out(s))
    }

    /// Checks A's SA; the shared key (`SM2_KEY_EXCHANGE` if SA is wrong).
    pub fn confirm(&mut self, sa: &Bytes) -> Result<Uint8Array, JsValue> {
        let sa = array::<32>(sa, "sa")?;
        let w = self
            .waiting
            .take()
            .ok_or_else(|| invalid("confirm: call respond() first"))?;
        Ok(out(&w.confirm(&sa).js()?))
    }
}

/// Known-answer tests only: signs with the caller's nonce `k` (never reuse or expose a nonce).
#[wasm_bindgen(js_name = hazmatSm2SignWithNonce)]
pub fn hazmat_sign_with_nonce(
    private_key: &Sm2PrivateKey,
    message: &Text,
    k: &Bytes,
    id: Option<Text>,
) -> Result<Uint8Array, JsValue> {
    let signer = SigningKey::with_id(private_key.sk(), &id_or(id, DEFAULT_ID)?).js()?;
    let e = sm2::message_digest(signer.za(), &text(message, "message")?);
    let k: Zeroizing<[u8; 32]> = array(k, "k")?;
    Ok(out(&signer
        .sign_prehash_with_nonce(&e, &k)
        .js()?
        .to_bytes()))
}

/// Known-answer tests only: encrypts with the caller's nonce `k`.
#[wasm_bindgen(js_name = hazmatSm2EncryptWithNonce)]
pub fn hazmat_encrypt_with_nonce(
    public_key: &Sm2PublicKey,
    message: &Text,
    k: &Bytes,
    mode: Option<String>,
) -> Result<Uint8Array, JsValue> {
    let k: Zeroizing<[u8; 32]> = array(k, "k")?;
    let c = public_key
        .0
        .encrypt_with_nonce(&k, &text(message, "message")?)
        .js()?;
    Ok(out(&match format(mode)? {
        Format::Raw(m) => c.to_bytes(m),
        Format::Der => c.to_der().js()?,
    }))
}
