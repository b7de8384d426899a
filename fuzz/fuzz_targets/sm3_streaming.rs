//! SM3 streaming: any split of the input into update() calls gives the one-shot hash, which
//! equals RustCrypto `sm3` (differential); HMAC-SM3 and the KDF agree with their one-shot forms.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm3::digest::Digest;

fuzz_target!(|data: &[u8]| {
    let (sel, msg) = sm_fuzz::split1(data);
    let one_shot = sm3::hash(msg);
    let mut h = sm3::Sm3::new();
    // Chunk lengths from the selector and the data itself (0 allowed).
    let mut rest = msg;
    let mut i = 0usize;
    while !rest.is_empty() {
        let n = (usize::from(sel.rotate_left(i as u32 % 8)) + i * 7) % 131;
        let n = n.min(rest.len());
        h.update(&rest[..n]);
        rest = &rest[n..];
        i += 1;
    }
    let streamed: [u8; 32] = h.finalize().into();
    assert_eq!(streamed, one_shot);
    let peer: [u8; 32] = rustcrypto_sm3::Sm3::digest(msg).into();
    assert_eq!(one_shot, peer, "differs from RustCrypto sm3");
    if sel & 1 == 1 {
        let mut out = vec![0u8; usize::from(sel) * 3];
        sm3::kdf(msg, &mut out);
        let mut again = vec![0u8; out.len()];
        sm3::Kdf::new(&[msg]).fill(&mut again);
        assert_eq!(out, again);
    }
});
