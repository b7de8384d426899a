//! SM9 signature decoders (DER, raw h||S) and verification (one-shot and streamed).
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let f = sm_fuzz::sm9();
    let (sel, rest) = sm_fuzz::split1(data);
    let (sig, msg) = rest.split_at(rest.len().min(usize::from(sel).max(8)));
    for s in [
        sm9::Signature::from_der(sig),
        sm9::Signature::from_bytes(sig),
    ]
    .into_iter()
    .flatten()
    {
        let der = s.to_der().expect("encode");
        assert_eq!(
            sm9::Signature::from_der(&der)
                .expect("re-decode")
                .to_bytes(),
            s.to_bytes()
        );
        assert!(sm9::verify(&f.sign_master, b"Alice", msg, &s).is_err());
    }
    if sel == 0xff {
        // A valid signature with one bit flipped must fail.
        let s = sm9::sign(&f.alice_sign, &f.sign_master, msg, &mut sm_fuzz::rng(3)).expect("sign");
        let mut b = s.to_bytes();
        let bit = msg.first().map_or(0, |&x| usize::from(x)) % (b.len() * 8);
        b[bit / 8] ^= 1 << (bit % 8);
        if let Ok(t) = sm9::Signature::from_bytes(&b) {
            assert!(sm9::verify(&f.sign_master, b"Alice", msg, &t).is_err());
        }
    }
});
