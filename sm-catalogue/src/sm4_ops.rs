//! SM4 (`sm4-ct`): key schedule, multi-block encryption (16-block kernel + tail + single
//! block) and CBC decryption, all with a secret key and secret data, on the portable bitsliced
//! path and on the detected (GFNI) path.
//!
//! Under valgrind the CPUID that the program sees has no GFNI / AVX-512 (valgrind emulates
//! neither), so the `detected` operations run the portable code there; the GFNI kernels are
//! constant time by construction (no data-dependent index or branch: the S-box is two affine
//! instructions) and are checked by dudect on real hardware.

use sm4_ct::cipher::block_padding::NoPadding;
use sm4_ct::cipher::{BlockCipherEncrypt, BlockModeDecrypt, InnerIvInit};
use sm4_ct::{Implementation, Sm4};

use crate::{ensure, Op, Prepared, Secret};

/// Blocks per operation: two 16-block passes plus a tail of 5 (every kernel shape).
const BLOCKS: usize = 37;

fn key(s: &Secret) -> [u8; 16] {
    s.key[..16].try_into().expect("16 bytes")
}

/// Secret data: the nonce seed and the rest of the key, repeated with a block counter.
fn data(s: &Secret) -> Vec<[u8; 16]> {
    (0..BLOCKS)
        .map(|i| {
            let mut b: [u8; 16] = s.seed[(i % 2) * 16..(i % 2) * 16 + 16]
                .try_into()
                .expect("16 bytes");
            b[0] ^= i as u8;
            for (x, k) in b.iter_mut().zip(&s.key[16..]) {
                *x ^= k;
            }
            b
        })
        .collect()
}

fn cipher(s: &Secret, imp: Implementation) -> Sm4 {
    match imp {
        Implementation::Portable => {
            Sm4::with_implementation(&key(s), imp).expect("portable always exists")
        }
        _ => Sm4::from_key(&key(s)),
    }
}

/// The reference: one block at a time on the portable single-block path.
fn reference_encrypt(s: &Secret) -> Vec<u8> {
    let c = Sm4::with_implementation(&key(s), Implementation::Portable).expect("portable");
    let mut out = Vec::new();
    for b in data(s) {
        let mut g = b.into();
        c.encrypt_block(&mut g);
        out.extend_from_slice(&g);
    }
    out
}

/// Key schedule and ECB encryption of [`BLOCKS`] secret blocks (setup is checked too, but the
/// key schedule is repeated inside the run so that dudect times it).
fn encrypt(s: &Secret, imp: Implementation) -> Prepared {
    let k = key(s);
    let blocks = data(s);
    Prepared::new(
        move || {
            let c = match imp {
                Implementation::Portable => {
                    Sm4::with_implementation(&k, imp).expect("portable always exists")
                }
                _ => Sm4::from_key(&k),
            };
            let mut g: Vec<_> = blocks.iter().map(|b| (*b).into()).collect();
            c.encrypt_blocks(&mut g);
            g.iter().flat_map(|b| b.iter().copied()).collect()
        },
        |s, out| ensure(out == reference_encrypt(s), "ECB ≠ single-block portable"),
    )
}

/// CBC decryption of [`BLOCKS`] secret ciphertext blocks under a secret key (the parallel
/// kernel), public IV.
fn cbc_decrypt(s: &Secret, imp: Implementation) -> Prepared {
    let c = cipher(s, imp);
    let ct: Vec<u8> = data(s).concat();
    let iv = [0x5Au8; 16];
    Prepared::new(
        move || {
            cbc::Decryptor::<Sm4>::inner_iv_init(c.clone(), &iv.into())
                .decrypt_padded_vec::<NoPadding>(&ct)
                .expect("whole blocks")
        },
        move |s, out| {
            // Re-encrypt the plaintext: CBC with the same IV must give the ciphertext back.
            let c = Sm4::with_implementation(&key(s), Implementation::Portable).expect("portable");
            let mut prev = iv;
            let mut back = Vec::new();
            for p in out.chunks(16) {
                let mut b: [u8; 16] = core::array::from_fn(|i| p[i] ^ prev[i]);
                let mut g = b.into();
                c.encrypt_block(&mut g);
                b = g.into();
                back.extend_from_slice(&b);
                prev = b;
            }
            ensure(
                back == data(s).concat(),
                "CBC decrypt does not invert encrypt",
            )
        },
    )
}

pub(crate) fn ops() -> Vec<Op> {
    let op = Op::secret;
    vec![
        op(
            "sm4.encrypt.portable",
            "SM4 key (schedule) and 37 plaintext blocks, bitsliced",
            (|s| encrypt(s, Implementation::Portable)) as fn(&Secret) -> Prepared,
            true,
        ),
        op(
            "sm4.encrypt.detected",
            "SM4 key (schedule) and 37 plaintext blocks, detected path (GFNI natively)",
            |s| encrypt(s, Implementation::detected()),
            true,
        ),
        op(
            "sm4.cbc_decrypt.portable",
            "SM4 key and 37 ciphertext blocks, bitsliced",
            |s| cbc_decrypt(s, Implementation::Portable),
            true,
        ),
        op(
            "sm4.cbc_decrypt.detected",
            "SM4 key and 37 ciphertext blocks, detected path (GFNI natively)",
            |s| cbc_decrypt(s, Implementation::detected()),
            true,
        ),
    ]
}
