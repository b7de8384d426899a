//! SM2 signature decoders (strict DER, lenient DER, raw r||s) and verification.
#![no_main]
use libfuzzer_sys::fuzz_target;
use sm2::{Signature, VerifyingKey};

fuzz_target!(|data: &[u8]| {
    let vk = VerifyingKey::new(sm_fuzz::sm2_key().public_key());
    let (sel, rest) = sm_fuzz::split1(data);
    let (sig, msg) = rest.split_at(rest.len().min(usize::from(sel).max(8)));
    for s in [
        Signature::from_der(sig),
        Signature::from_der_lenient(sig),
        Signature::from_bytes(sig),
    ]
    .into_iter()
    .flatten()
    {
        assert_eq!(
            Signature::from_der(&s.to_der()).expect("strict re-decode"),
            s
        );
        assert_eq!(
            Signature::from_bytes(&s.to_bytes()).expect("raw re-decode"),
            s
        );
        // A forged signature on a fuzzed message must not verify (probability 2^-256).
        assert!(vk.verify(msg, &s).is_err());
    }
});
