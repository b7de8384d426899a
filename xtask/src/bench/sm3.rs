//! SM3: single stream at several sizes, multi-buffer, HMAC and KDF; peers (RustCrypto `sm3`,
//! OpenSSL) in the same process when the `peers` feature is on.

use std::hint::black_box;

use super::harness::Case;
use super::sm3;

fn msg(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + 7) as u8).collect()
}

fn case(op: &str, variant: &str, bytes: u64, output: Vec<u8>, run: Box<dyn FnMut(u64)>) -> Case {
    Case {
        group: "sm3",
        op: op.to_string(),
        variant: variant.to_string(),
        output,
        bytes,
        per_run: 1,
        run,
    }
}

/// SM3 cases; peers only when `peers` is set (not in `--against` runs).
pub fn cases(_backends: &[String], prefix: &str) -> Vec<Case> {
    let ours = format!("{prefix}ours");
    let mut out = Vec::new();
    for len in [64usize, 1024, 8192, 65536] {
        let m = msg(len);
        let op = format!("hash {len} B");
        let m1 = m.clone();
        out.push(case(
            &op,
            &ours,
            len as u64,
            sm3::hash(&m).to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(sm3::hash(black_box(&m1)));
                }
            }),
        ));
        if prefix.is_empty() {
            peers::hash(&mut out, &op, &m);
        }
    }
    // 16 independent 1 KiB messages (aggregate throughput).
    let msgs: Vec<Vec<u8>> = (0..16).map(|i| msg(1024 + i).split_off(i)).collect();
    let refs_out: Vec<u8> = msgs.iter().flat_map(|m| sm3::hash(m)).collect();
    out.push(case(
        "hash_many 16 x 1 KiB",
        &ours,
        16 * 1024,
        refs_out.clone(),
        Box::new(move |n| {
            let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
            let mut d = [[0u8; 32]; 16];
            for _ in 0..n {
                sm3::hash_many(black_box(&refs), &mut d);
                black_box(&d);
            }
        }),
    ));
    let key = msg(32);
    let m = msg(64);
    out.push(case(
        "hmac 64 B",
        &ours,
        64,
        sm3::hmac_sm3(&key, &m).to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(sm3::hmac_sm3(black_box(&key), black_box(&m)));
            }
        }),
    ));
    for len in [32usize, 1024] {
        let z = msg(64);
        let mut expect = vec![0u8; len];
        sm3::kdf(&z, &mut expect);
        out.push(case(
            &format!("kdf {len} B"),
            &ours,
            len as u64,
            expect,
            Box::new(move |n| {
                let mut buf = vec![0u8; len];
                for _ in 0..n {
                    sm3::kdf(black_box(&z), &mut buf);
                    black_box(&buf);
                }
            }),
        ));
    }
    out
}

#[cfg(feature = "peers")]
mod peers {
    use super::*;

    pub fn hash(out: &mut Vec<Case>, op: &str, m: &[u8]) {
        use rustcrypto_sm3::Digest as _;
        let m1 = m.to_vec();
        out.push(case(
            op,
            "rustcrypto",
            m.len() as u64,
            rustcrypto_sm3::Sm3::digest(m).to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(rustcrypto_sm3::Sm3::digest(black_box(&m1)));
                }
            }),
        ));
        let md = openssl::hash::MessageDigest::sm3();
        let m2 = m.to_vec();
        out.push(case(
            op,
            "openssl",
            m.len() as u64,
            openssl::hash::hash(md, m).expect("openssl sm3").to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(openssl::hash::hash(md, black_box(&m2)).expect("openssl sm3"));
                }
            }),
        ));
    }
}

#[cfg(not(feature = "peers"))]
mod peers {
    use super::*;
    pub fn hash(_: &mut Vec<Case>, _: &str, _: &[u8]) {}
}
