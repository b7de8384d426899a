//! SM4 (`sm4-ct`), shown in the `sm3` group (the symmetric primitives): the detected path
//! (GFNI on x86_64 CPUs that have it) and the portable bitsliced path; peers (RustCrypto `sm4`
//! 0.5 with its table S-box, OpenSSL) when the `peers` feature is on. Not part of `--against`
//! runs (older revisions have no `sm4-ct`).

use std::hint::black_box;

use cbc::cipher::block_padding::NoPadding;
use cbc::cipher::{BlockModeDecrypt, BlockModeEncrypt, InnerIvInit};
use sm4_ct::{Implementation, Sm4};

use super::harness::Case;

const KEY: [u8; 16] = *b"sm4-bench-key-16";
const IV: [u8; 16] = [0x5A; 16];
const LEN: usize = 4096;

fn msg() -> Vec<u8> {
    (0..LEN).map(|i| (i * 131 + 7) as u8).collect()
}

fn case(op: &str, variant: &str, bytes: u64, output: Vec<u8>, run: Box<dyn FnMut(u64)>) -> Case {
    Case::new("sm3", op, variant, bytes, output, run)
}

/// The three SM4 operations for one block cipher type `C` built by `make`.
fn push_variant<C>(out: &mut Vec<Case>, variant: &str, make: impl Fn() -> C + Clone + 'static)
where
    C: cipher::BlockCipherEncrypt
        + cipher::BlockCipherDecrypt
        + cipher::BlockSizeUser<BlockSize = cipher::consts::U16>
        + Clone
        + 'static,
{
    let m = msg();
    // CBC decryption (parallel) of 4 KiB, key schedule included (as SM9 decryption does).
    let ct =
        cbc::Encryptor::<C>::inner_iv_init(make(), &IV.into()).encrypt_padded_vec::<NoPadding>(&m);
    let pt = cbc::Decryptor::<C>::inner_iv_init(make(), &IV.into())
        .decrypt_padded_vec::<NoPadding>(&ct)
        .expect("whole blocks");
    let mk = make.clone();
    let ct1 = ct.clone();
    out.push(case(
        "SM4-CBC decrypt 4 KiB",
        variant,
        LEN as u64,
        pt,
        Box::new(move |n| {
            let mut buf = ct1.clone();
            for _ in 0..n {
                buf.copy_from_slice(&ct1);
                let d = cbc::Decryptor::<C>::inner_iv_init(mk(), &IV.into());
                black_box(d.decrypt_padded::<NoPadding>(black_box(&mut buf)).is_ok());
            }
        }),
    ));
    // CBC encryption (sequential: one block at a time).
    let mk = make.clone();
    let m1 = m.clone();
    out.push(case(
        "SM4-CBC encrypt 4 KiB",
        variant,
        LEN as u64,
        ct,
        Box::new(move |n| {
            let mut buf = m1.clone();
            for _ in 0..n {
                buf.copy_from_slice(&m1);
                let e = cbc::Encryptor::<C>::inner_iv_init(mk(), &IV.into());
                black_box(
                    e.encrypt_padded::<NoPadding>(black_box(&mut buf), LEN)
                        .is_ok(),
                );
            }
        }),
    ));
    // ECB encryption straight on the block cipher (`BlockCipherEncrypt::encrypt_blocks`, as SM9's
    // SM4-ECB mode does: the `ecb` encryptor hands blocks over one at a time).
    let ecb_ct = {
        let mut buf = m.clone();
        make().encrypt_blocks(cipher::array::Array::slice_as_chunks_mut(&mut buf).0);
        buf
    };
    let mk = make.clone();
    let m2 = m.clone();
    out.push(case(
        "SM4-ECB encrypt 4 KiB",
        variant,
        LEN as u64,
        ecb_ct,
        Box::new(move |n| {
            let mut buf = m2.clone();
            for _ in 0..n {
                buf.copy_from_slice(&m2);
                let e = mk();
                let (blocks, _) = cipher::array::Array::slice_as_chunks_mut(black_box(&mut buf));
                e.encrypt_blocks(blocks);
                black_box(&buf);
            }
        }),
    ));
    // One block with a prepared key.
    let c = make();
    let mut one = cipher::Block::<C>::default();
    one.copy_from_slice(&m[..16]);
    let mut want = one;
    c.encrypt_block(&mut want);
    out.push(case(
        "SM4 encrypt 1 block",
        variant,
        16,
        want.to_vec(),
        Box::new(move |n| {
            let mut b = one;
            for _ in 0..n {
                c.encrypt_block(black_box(&mut b));
            }
            black_box(&b);
        }),
    ));
}

/// SM4 cases (only outside `--against` runs, where `prefix` is empty).
pub fn cases(_backends: &[String], prefix: &str) -> Vec<Case> {
    let mut out = Vec::new();
    if !prefix.is_empty() {
        return out;
    }
    let detected = Implementation::detected();
    push_variant(&mut out, &format!("ours ({})", detected.name()), || {
        Sm4::from_key(&KEY)
    });
    if detected != Implementation::Portable {
        push_variant(&mut out, "ours (portable)", || {
            Sm4::with_implementation(&KEY, Implementation::Portable).expect("portable")
        });
    }
    peers::push(&mut out);
    out
}

#[cfg(feature = "peers")]
mod peers {
    use super::*;
    use cbc::cipher::KeyInit;

    pub fn push(out: &mut Vec<Case>) {
        push_variant(out, "rustcrypto (table)", || {
            rustcrypto_sm4::Sm4::new(&KEY.into())
        });
        // OpenSSL through its EVP interface (one context per call, like the others' key setup).
        let m = msg();
        let cipher = openssl::symm::Cipher::sm4_cbc();
        let crypt = |mode, data: &[u8]| -> Option<Vec<u8>> {
            let mut c = openssl::symm::Crypter::new(cipher, mode, &KEY, Some(&IV)).ok()?;
            c.pad(false);
            let mut buf = vec![0u8; data.len() + 16];
            let k = c.update(data, &mut buf).ok()?;
            buf.truncate(k);
            Some(buf)
        };
        // Skipped when this libcrypto has no SM4.
        let Some(ct) = crypt(openssl::symm::Mode::Encrypt, &m) else {
            return;
        };
        let Some(pt) = crypt(openssl::symm::Mode::Decrypt, &ct) else {
            return;
        };
        let ct1 = ct.clone();
        out.push(case(
            "SM4-CBC decrypt 4 KiB",
            "openssl",
            LEN as u64,
            pt,
            Box::new(move |n| {
                let mut buf = vec![0u8; LEN + 16];
                for _ in 0..n {
                    let mut d = openssl::symm::Crypter::new(
                        cipher,
                        openssl::symm::Mode::Decrypt,
                        &KEY,
                        Some(&IV),
                    )
                    .expect("openssl sm4");
                    d.pad(false);
                    black_box(d.update(black_box(&ct1), &mut buf).expect("openssl sm4"));
                }
            }),
        ));
    }
}

#[cfg(not(feature = "peers"))]
mod peers {
    use super::*;
    pub fn push(_: &mut Vec<Case>) {}
}
