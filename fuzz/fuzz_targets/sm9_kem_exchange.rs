//! SM9 KEM decapsulation and key-exchange messages (R_A, R_B, S_A, S_B) from fuzzed bytes.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let f = sm_fuzz::sm9();
    let (sel, rest) = sm_fuzz::split1(data);
    let (point, tag) = rest.split_at(rest.len().min(65));
    let mut t = [0u8; 32];
    let n = tag.len().min(32);
    t[..n].copy_from_slice(&tag[..n]);
    let klen = usize::from(sel) + 1;
    match sel % 3 {
        0 => {
            // Decapsulation is deterministic, and K of klen bytes is a prefix of a longer K
            // (the same KDF output). A short K may be all zero and refused while the longer one
            // is not; never the other way round.
            if let Ok(c) = sm9::EncapsulatedKey::from_bytes(point) {
                let key = |len| {
                    sm9::decapsulate(&f.bob_dec, b"Bob", &c, len)
                        .map(|k| k.to_vec())
                        .ok()
                };
                let k = key(klen);
                assert_eq!(key(klen), k, "deterministic");
                match (k, key(klen + 33)) {
                    (Some(k), Some(longer)) => assert_eq!(longer[..klen], k[..]),
                    (Some(_), None) => panic!("a longer K refused, its prefix accepted"),
                    _ => {}
                }
            }
            if let Ok(c) = sm9::EncapsulatedKey::from_der(rest) {
                let der = c.to_der().expect("encode");
                assert_eq!(
                    sm9::EncapsulatedKey::from_der(&der)
                        .expect("re-decode")
                        .to_bytes(),
                    c.to_bytes()
                );
            }
        }
        1 => {
            let Ok(rb) = sm9::EphemeralPoint::from_bytes(point) else {
                return;
            };
            let (alice, _ra) = sm9::Initiator::start(
                &f.alice_x,
                &f.enc_master,
                b"Alice",
                b"Bob",
                &mut sm_fuzz::rng(4),
            )
            .expect("start");
            assert!(alice.finish(&rb, Some(&t), klen).is_err());
        }
        _ => {
            let Ok(ra) = sm9::EphemeralPoint::from_bytes(point) else {
                return;
            };
            if let Ok((bob, _rb, _sb)) = sm9::Responder::respond(
                &f.bob_x,
                &f.enc_master,
                b"Bob",
                b"Alice",
                &ra,
                &mut sm_fuzz::rng(5),
            ) {
                assert!(bob.confirm(&t, klen).is_err());
            }
        }
    }
});
