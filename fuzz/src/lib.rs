//! Fixed keys and helpers shared by the fuzz targets (built once per process).
#![forbid(unsafe_code)]

use std::sync::OnceLock;

use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;

/// A deterministic RNG for building fixtures.
pub fn rng(tag: u64) -> ChaCha20Rng {
    ChaCha20Rng::seed_from_u64(tag)
}

/// A fixed SM2 key pair.
pub fn sm2_key() -> &'static sm2::SecretKey {
    static K: OnceLock<sm2::SecretKey> = OnceLock::new();
    K.get_or_init(|| sm2::SecretKey::from_bytes(&[0x42; 32]).expect("valid"))
}

/// Fixed SM9 fixtures: KGCs, Alice's signing key, Bob's decryption and exchange keys.
pub struct Sm9 {
    pub sign_master: sm9::PreparedSignMasterPublicKey,
    pub enc_master: sm9::PreparedEncMasterPublicKey,
    pub alice_sign: sm9::SignUserKey,
    pub bob_dec: sm9::DecryptionKey,
    pub alice_x: sm9::ExchangeKey,
    pub bob_x: sm9::ExchangeKey,
}

pub fn sm9() -> &'static Sm9 {
    static S: OnceLock<Sm9> = OnceLock::new();
    S.get_or_init(|| {
        let ks = sm9::SignMasterKey::from_bytes(&[0x21; 32]).expect("valid");
        let ke = sm9::EncMasterKey::from_bytes(&[0x12; 32]).expect("valid");
        Sm9 {
            sign_master: ks.public_key().prepare(),
            enc_master: ke.public_key().prepare(),
            alice_sign: ks.extract(b"Alice").expect("extract"),
            bob_dec: ke.extract(b"Bob").expect("extract").prepare(),
            alice_x: ke.extract_exchange(b"Alice").expect("extract").prepare(),
            bob_x: ke.extract_exchange(b"Bob").expect("extract").prepare(),
        }
    })
}

/// Splits `data` at its first byte: (selector, rest).
pub fn split1(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((s, rest)) => (*s, rest),
        None => (0, data),
    }
}

/// Password of the encrypted-key fixtures (the one the targets try).
pub const PASSWORD: &[u8] = b"password";

/// Valid encrypted PKCS#8 documents (DER, PEM) under [`PASSWORD`] with 16 PBKDF2 iterations
/// (within the fuzzing builds' decryption bound of 256): the SM2 key of [`sm2_key`] and
/// Alice's SM9 signing key. No seed file decrypts under the targets' password, so without
/// these the fuzzer would rarely get past SM4-CBC unpadding into the inner key parser.
pub struct Encrypted {
    pub sm2_der: Vec<u8>,
    pub sm2_pem: String,
    pub sm9_der: Vec<u8>,
    pub sm9_pem: String,
}

pub fn encrypted() -> &'static Encrypted {
    static E: OnceLock<Encrypted> = OnceLock::new();
    E.get_or_init(|| {
        let pem = |der: &[u8]| {
            sm2::pkcs8::der::pem::encode_string(
                "ENCRYPTED PRIVATE KEY",
                sm2::pkcs8::LineEnding::LF,
                der,
            )
            .expect("pem")
        };
        let sm2_der = sm2_key()
            .to_pkcs8_encrypted_der_with_params(PASSWORD, &[0x5a; 16], &[0xa5; 16], 16)
            .expect("encrypt");
        let sm9_der = sm9()
            .alice_sign
            .to_encrypted_pkcs8_der_with(PASSWORD, &[0x3c; 16], &[0xc3; 16], 16)
            .expect("encrypt");
        Encrypted {
            sm2_pem: pem(&sm2_der),
            sm2_der,
            sm9_pem: pem(&sm9_der),
            sm9_der,
        }
    })
}

/// `base` with `patch[1..]` XORed in from the offset `patch[0]` picks (scaled to the length),
/// then cut to `keep` bytes when `keep` is shorter: mutations of a valid artefact. Also says
/// whether the result is `base` unchanged.
pub fn mutate(base: &[u8], patch: &[u8], keep: Option<usize>) -> (Vec<u8>, bool) {
    let mut v = base.to_vec();
    if let Some((&at, bytes)) = patch.split_first() {
        let start = usize::from(at) * v.len() / 256;
        for (x, b) in v[start..].iter_mut().zip(bytes) {
            *x ^= b;
        }
    }
    if let Some(k) = keep {
        v.truncate(k);
    }
    let same = v == base;
    (v, same)
}
