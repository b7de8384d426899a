//! SM2 key exchange messages: the peer's ephemeral point (any SEC1 bytes) and confirmation.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm2::exchange::{Initiator, Responder};
use sm2::{PublicKey, SecretKey};

fuzz_target!(|data: &[u8]| {
    let a = sm_fuzz::sm2_key();
    let b = SecretKey::from_bytes(&[0x24; 32]).expect("valid");
    let (sel, rest) = sm_fuzz::split1(data);
    let split = rest.len().min(65);
    let (point, tag) = rest.split_at(split);
    let Ok(r) = PublicKey::from_sec1_bytes(point) else {
        return;
    };
    let tag: [u8; 32] = {
        let mut t = [0u8; 32];
        let n = tag.len().min(32);
        t[..n].copy_from_slice(&tag[..n]);
        t
    };
    let klen = usize::from(sel) + 1;
    if sel & 1 == 0 {
        let alice = Initiator::new(a, b"alice", b.public_key(), b"bob").expect("new");
        let (alice, _ra) = alice.start(&mut sm_fuzz::rng(1));
        // A fuzzed R_B with a fuzzed S_B must be rejected.
        assert!(alice.finish(&r, &tag, klen).is_err());
    } else {
        let bob = Responder::new(&b, b"bob", a.public_key(), b"alice").expect("new");
        if let Ok((bob, _rb, _sb)) = bob.respond(&mut sm_fuzz::rng(2), &r, klen) {
            assert!(bob.confirm(&tag).is_err());
        }
    }
});
