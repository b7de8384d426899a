//! Prints the SM4 implementation `Sm4::new` picks on this CPU (e.g. under valgrind, whose
//! emulated CPUID has no GFNI/AVX-512), and checks it on the GB/T 32907 example (exit status 1 when
//! the ciphertext is wrong).

use sm4_ct::cipher::{BlockCipherEncrypt, KeyInit};

fn main() {
    let key = [
        0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98, 0x76, 0x54, 0x32,
        0x10,
    ];
    let c = sm4_ct::Sm4::new(&key.into());
    let mut b = key.into();
    c.encrypt_block(&mut b);
    let ok = b[..4] == [0x68, 0x1e, 0xdf, 0x34];
    println!(
        "detected: {} (GB/T 32907 example 1: {})",
        c.implementation().name(),
        if ok { "ok" } else { "WRONG" }
    );
    if !ok {
        std::process::exit(1);
    }
}
