//! Known answers from GmSSL, round trips of every scheme, and the rejections: tampered
//! ciphertext, wrong password, parameters out of range or unsupported.

use alloc::vec::Vec;

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_testvectors::{gmssl, hex};

use super::*;

/// An encrypted key GmSSL 3.3 wrote (PBKDF2-HMAC-SM3, 65536 iterations, SM4-CBC), with its
/// recorded password, salt and IV.
struct GmsslKey {
    der: Vec<u8>,
    password: Vec<u8>,
    salt: Vec<u8>,
    iv: [u8; 16],
    /// The key DER the plaintext's `PrivateKeyInfo` wraps (SM9), or the secret scalar it
    /// contains (SM2).
    key: Vec<u8>,
}

fn gmssl_encrypted_keys() -> Vec<GmsslKey> {
    let v = gmssl();
    let mut out = Vec::new();
    let mut push = |e: &serde_json::Value, key: Vec<u8>| {
        let (label, der) =
            der::pem::decode_vec(e["encrypted_pem"].as_str().unwrap().as_bytes()).expect("PEM");
        assert_eq!(label, "ENCRYPTED PRIVATE KEY");
        let s = |k: &str| e[k].as_str().unwrap();
        out.push(GmsslKey {
            der,
            password: s("pem_password").as_bytes().to_vec(),
            salt: hex(s("pem_pbkdf2_salt_hex")),
            iv: hex(s("pem_sm4_cbc_iv_hex")).try_into().unwrap(),
            key,
        });
    };
    for c in v["sm2"].as_array().unwrap().iter().take(2) {
        push(
            &c["private_key_encrypted"],
            hex(c["private_key_hex"].as_str().unwrap()),
        );
    }
    for c in v["sm9"].as_array().unwrap().iter().take(2) {
        let m = &c["sign_master_key"];
        push(m, hex(m["master_key_der_hex"].as_str().unwrap()));
    }
    out
}

#[test]
fn gmssl_known_answers() {
    let keys = gmssl_encrypted_keys();
    assert_eq!(keys.len(), 4);
    for (i, k) in keys.iter().enumerate() {
        assert!(is_encrypted(&k.der), "case {i}");
        let plain = decrypt(&k.der, &k.password).unwrap();
        let pki = PrivateKeyInfoRef::from_der(&plain).unwrap();
        let inner = pki.private_key.as_bytes();
        // The SM9 master key is the whole inner DER; the SM2 scalar sits inside ECPrivateKey.
        assert!(
            inner == k.key.as_slice() || inner.windows(32).any(|w| w == k.key.as_slice()),
            "case {i}: the decrypted PrivateKeyInfo holds the recorded key"
        );
        // Byte for byte what GmSSL wrote, from the recorded salt and IV.
        let again = encrypt(
            &plain,
            Scheme::GmSsl,
            &k.password,
            &k.salt,
            &k.iv,
            DEFAULT_ITERATIONS,
        );
        assert_eq!(again.unwrap(), k.der, "case {i}");
        assert_eq!(decrypt(&k.der, b"wrong").unwrap_err(), Error::Decryption);
    }
}

/// A `PrivateKeyInfo` to encrypt: GmSSL's SM2 key of the first case.
fn sample_pki() -> Zeroizing<Vec<u8>> {
    let k = gmssl_encrypted_keys().swap_remove(0);
    decrypt(&k.der, &k.password).unwrap()
}

fn every_cipher() -> [(Prf, Cbc); 4] {
    [
        (Prf::HmacSm3, Cbc::Sm4),
        (Prf::HmacSha256, Cbc::Aes256),
        (Prf::HmacSha256, Cbc::Aes128),
        (Prf::HmacSm3, Cbc::Aes128),
    ]
}

#[test]
fn round_trips() {
    let pki = sample_pki();
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    for scheme in [Scheme::GmSsl, Scheme::OpenSsl] {
        let enc = encrypt_random(&mut rng, &pki, scheme, b"pass word").unwrap();
        assert!(is_encrypted(&enc));
        assert_eq!(decrypt(&enc, b"pass word").unwrap(), pki);
        assert_eq!(decrypt(&enc, b"pass w0rd").unwrap_err(), Error::Decryption);
        // Fresh salt and IV each time.
        let again = encrypt_random(&mut rng, &pki, scheme, b"pass word").unwrap();
        assert_ne!(again, enc);
    }
    for (prf, cipher) in every_cipher() {
        for iterations in [1, 2, 1000] {
            let enc =
                encrypt_with(&pki, prf, cipher, b"pw", &[3; 8], &[4; 16], iterations).unwrap();
            assert_eq!(decrypt(&enc, b"pw").unwrap(), pki);
            assert_eq!(decrypt(&enc, b"").unwrap_err(), Error::Decryption);
        }
    }
    assert!(!is_encrypted(&pki));
    assert!(!is_encrypted(&[]));
}

/// What the schemes write: the PRF (with OpenSSL's NULL parameter for HMAC-SHA256), the key
/// length and the cipher.
#[test]
fn written_parameters() {
    let pki = sample_pki();
    for (scheme, prf, params, key_len, cipher) in [
        (Scheme::GmSsl, OID_HMAC_SM3, None, 16, OID_SM4_CBC),
        (
            Scheme::OpenSsl,
            OID_HMAC_SHA256,
            Some(AnyRef::NULL),
            32,
            OID_AES256_CBC,
        ),
    ] {
        let enc = encrypt(&pki, scheme, b"pw", &[5; 16], &[6; 16], 7).unwrap();
        let info = EncryptedPrivateKeyInfo::from_der(&enc).unwrap();
        let kdf = &info.algorithm.params.kdf.params;
        assert_eq!(info.algorithm.oid, OID_PBES2);
        assert_eq!(info.algorithm.params.kdf.oid, OID_PBKDF2);
        assert_eq!(kdf.prf.unwrap().oid, prf);
        assert_eq!(kdf.prf.unwrap().parameters, params);
        assert_eq!(kdf.key_length, Some(key_len));
        assert_eq!(kdf.iteration_count, 7);
        assert_eq!(kdf.salt.as_bytes(), &[5; 16]);
        assert_eq!(info.algorithm.params.encryption.oid, cipher);
        assert_eq!(info.algorithm.params.encryption.iv.as_bytes(), &[6; 16]);
        // PKCS#7 always pads: one to sixteen bytes.
        assert_eq!(info.data.as_bytes().len(), (pki.len() / 16 + 1) * 16);
    }
}

/// Every bit flip in the final ciphertext block breaks the padding or the `PrivateKeyInfo`
/// framing: the opaque error, never a plaintext. So do a missing or an extra block.
#[test]
fn tampered_ciphertext() {
    let pki = sample_pki();
    for (prf, cipher) in every_cipher() {
        let enc = encrypt_with(&pki, prf, cipher, b"pw", &[1; 16], &[2; 16], 3).unwrap();
        for bit in 0..128 {
            let mut t = enc.clone();
            let at = t.len() - 16 + bit / 8;
            t[at] ^= 1 << (bit % 8);
            assert_eq!(
                decrypt(&t, b"pw").unwrap_err(),
                Error::Decryption,
                "bit {bit}"
            );
        }
        let info = EncryptedPrivateKeyInfo::from_der(&enc).unwrap();
        let data = info.data.as_bytes();
        let mut longer = data.to_vec();
        longer.extend_from_slice(&data[data.len() - 16..]);
        for body in [
            &data[..data.len() - 16],
            &longer[..],
            &data[..data.len() - 1],
        ] {
            let t = EncryptedPrivateKeyInfo {
                data: OctetStringRef::new(body).unwrap(),
                ..info
            };
            let t = t.to_der().unwrap();
            assert_eq!(decrypt(&t, b"pw").unwrap_err(), Error::Decryption);
        }
    }
}

/// The iteration count is refused outside `1..=MAX_ITERATIONS` when writing, and when reading
/// before any key is derived; at the bound the key is derived.
#[test]
fn iteration_bound() {
    assert_eq!(MAX_ITERATIONS, 1 << 20);
    assert_eq!(
        DECRYPT_MAX_ITERATIONS, MAX_ITERATIONS,
        "not a cfg(fuzzing) build"
    );
    let pki = sample_pki();
    for scheme in [Scheme::GmSsl, Scheme::OpenSsl] {
        for bad in [0, MAX_ITERATIONS + 1, u32::MAX] {
            assert_eq!(
                encrypt(&pki, scheme, b"pw", &[1; 16], &[2; 16], bad).unwrap_err(),
                Error::InvalidParameters
            );
        }
    }
    let enc = encrypt(&pki, Scheme::OpenSsl, b"pw", &[1; 16], &[2; 16], 5).unwrap();
    let info = EncryptedPrivateKeyInfo::from_der(&enc).unwrap();
    let with_count = |count: u32| {
        let mut t = EncryptedPrivateKeyInfo::from_der(&enc).unwrap();
        t.algorithm.params.kdf.params.iteration_count = count;
        t.to_der().unwrap()
    };
    for bad in [0, MAX_ITERATIONS + 1, u32::MAX] {
        assert_eq!(
            decrypt(&with_count(bad), b"pw").unwrap_err(),
            Error::InvalidParameters
        );
    }
    // At the bound: derived (another key, so the padding or the framing fails) ...
    assert_eq!(
        decrypt(&with_count(MAX_ITERATIONS), b"pw").unwrap_err(),
        Error::Decryption
    );
    // ... and written.
    let at_max = encrypt(
        &pki,
        Scheme::OpenSsl,
        b"pw",
        &[1; 16],
        &[2; 16],
        MAX_ITERATIONS,
    );
    assert_eq!(decrypt(&at_max.unwrap(), b"pw").unwrap(), pki);
    assert_eq!(info.to_der().unwrap(), enc);
}

#[test]
fn empty_salt_is_not_written() {
    let pki = sample_pki();
    assert_eq!(
        encrypt(&pki, Scheme::GmSsl, b"pw", &[], &[2; 16], 5).unwrap_err(),
        Error::InvalidParameters
    );
}

fn kdf<'a, 'b>(t: &'b mut EncryptedPrivateKeyInfo<'a>) -> &'b mut Pbkdf2Params<'a> {
    &mut t.algorithm.params.kdf.params
}

fn prf(oid: ObjectIdentifier, parameters: Option<AnyRef<'_>>) -> AlgorithmIdentifierRef<'_> {
    AlgorithmIdentifierRef { oid, parameters }
}

/// Unknown or inconsistent parameters are named before any work; malformed DER is
/// `Encoding`.
#[test]
fn unsupported_and_malformed_parameters() {
    let pki = sample_pki();
    let enc = encrypt(&pki, Scheme::GmSsl, b"pw", &[1; 16], &[2; 16], 5).unwrap();
    let base = EncryptedPrivateKeyInfo::from_der(&enc).unwrap();
    let sha1 = ObjectIdentifier::new_unwrap("1.2.840.113549.2.7");
    let des = ObjectIdentifier::new_unwrap("1.2.840.113549.3.7");
    let oid_param = AnyRef::from(&OID_SM4_CBC);
    let unsupported: [&dyn Fn(&mut EncryptedPrivateKeyInfo<'_>); 7] = [
        &|t| t.algorithm.oid = OID_PBKDF2,
        &|t| t.algorithm.params.kdf.oid = OID_PBES2,
        &|t| t.algorithm.params.encryption.oid = des,
        // Absent PRF: HMAC-SHA1 (RFC 8018 A.2), not supported.
        &|t| kdf(t).prf = None,
        &|t| kdf(t).prf = Some(prf(sha1, None)),
        &|t| kdf(t).prf = Some(prf(OID_HMAC_SM3, Some(oid_param))),
        &|t| kdf(t).key_length = Some(32),
    ];
    for (i, change) in unsupported.iter().enumerate() {
        let mut t = EncryptedPrivateKeyInfo::from_der(&enc).unwrap();
        change(&mut t);
        assert_eq!(
            decrypt(&t.to_der().unwrap(), b"pw").unwrap_err(),
            Error::UnsupportedAlgorithm,
            "change {i}"
        );
    }
    // NULL PRF parameters and an absent key length are fine.
    let mut t = EncryptedPrivateKeyInfo::from_der(&enc).unwrap();
    kdf(&mut t).prf = Some(prf(OID_HMAC_SM3, Some(AnyRef::NULL)));
    kdf(&mut t).key_length = None;
    assert_eq!(decrypt(&t.to_der().unwrap(), b"pw").unwrap(), pki);
    // An IV of another length, trailing data, truncation, garbage.
    let mut short_iv = base;
    short_iv.algorithm.params.encryption.iv = OctetStringRef::new(&[2; 8]).unwrap();
    let mut trailing = enc.clone();
    trailing.push(0);
    for bad in [
        short_iv.to_der().unwrap(),
        trailing,
        enc[..enc.len() - 1].to_vec(),
        pki.to_vec(),
        Vec::new(),
    ] {
        assert_eq!(decrypt(&bad, b"pw").unwrap_err(), Error::Encoding);
    }
}
