//! SM3: single stream at several sizes, multi-buffer, HMAC and KDF; peers (RustCrypto `sm3`,
//! OpenSSL) in the same process when the `peers` feature is on.

use std::hint::black_box;

use super::harness::Case;
use super::sm3;

fn msg(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + 7) as u8).collect()
}

fn case(op: &str, variant: &str, bytes: u64, output: Vec<u8>, run: Box<dyn FnMut(u64)>) -> Case {
    Case::new("sm3", op, variant, bytes, output, run)
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
    // Independent messages hashed at once (aggregate throughput): 16 lanes on AVX-512, 8 on
    // AVX2 (the forced-AVX2 row shows that path on AVX-512 machines).
    for (count, len, backend) in [
        (16usize, 1024usize, None),
        (16, 8192, None),
        (8, 8192, Some(sm3::backend_info::Backend::Avx2)),
    ] {
        if backend.is_some_and(|b| !b.is_available()) {
            continue;
        }
        let msgs: Vec<Vec<u8>> = (0..count).map(|i| msg(len + i).split_off(i)).collect();
        let refs_out: Vec<u8> = msgs.iter().flat_map(|m| sm3::hash(m)).collect();
        let (op, variant) = match backend {
            None => (
                format!("hash_many {count} x {} KiB", len / 1024),
                ours.clone(),
            ),
            Some(b) => (
                format!("hash_many {count} x {} KiB", len / 1024),
                format!("{ours}-{}", b.name()),
            ),
        };
        out.push(case(
            &op,
            &variant,
            (count * len) as u64,
            refs_out,
            Box::new(move |n| {
                let refs: Vec<&[u8]> = msgs.iter().map(|m| m.as_slice()).collect();
                let mut d = vec![[0u8; 32]; count];
                for _ in 0..n {
                    match backend {
                        None => sm3::hash_many(black_box(&refs), &mut d),
                        Some(b) => sm3::hash_many_with(b, black_box(&refs), &mut d)
                            .expect("backend checked available"),
                    }
                    black_box(&d);
                }
            }),
        ));
    }
    // SM2's e = SM3(Z_A ‖ M) for a batch of 64 signatures with 100-byte messages: in the lanes
    // (parts read in place) and one by one (streaming, as a single signature does).
    let za = msg(32);
    let bodies: Vec<Vec<u8>> = (0..64).map(|i| msg(100 + i).split_off(i)).collect();
    let expect: Vec<u8> = bodies
        .iter()
        .flat_map(|m| sm3::hash(&[&za[..], m].concat()))
        .collect();
    let op = "hash Z_A ‖ M, 64 x (32 + 100 B)";
    let (za1, bodies1) = (za.clone(), bodies.clone());
    out.push(case(
        op,
        &format!("{ours} hash_many_prefixed"),
        64 * 132,
        expect.clone(),
        Box::new(move |n| {
            let pairs: Vec<(&[u8], &[u8])> =
                bodies1.iter().map(|m| (&za1[..], m.as_slice())).collect();
            let mut d = vec![[0u8; 32]; pairs.len()];
            for _ in 0..n {
                sm3::hash_many_prefixed(black_box(&pairs), &mut d);
                black_box(&d);
            }
        }),
    ));
    out.push(case(
        op,
        &format!("{ours} one by one"),
        64 * 132,
        expect,
        Box::new(move |n| {
            use sm3::Digest as _;
            let mut d = vec![[0u8; 32]; bodies.len()];
            for _ in 0..n {
                for (m, d) in bodies.iter().zip(d.iter_mut()) {
                    let mut h = sm3::Sm3::new();
                    h.update(black_box(&za));
                    h.update(black_box(m));
                    *d = h.finalize().into();
                }
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
