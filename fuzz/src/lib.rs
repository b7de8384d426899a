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
