//! Field-operation counts per SM2 operation (feature `op-count`), a load-independent cost
//! measure: `cargo test --manifest-path sm2/Cargo.toml --features op-count --test op_count -- --nocapture`.
//! Inversions (safegcd) are not Montgomery operations and are counted separately by hand.
#![cfg(feature = "op-count")]

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::exchange::{Initiator, Responder};
use shangmi_sm2::generic::{SecretKey, SigningKey, VerifyingKey};
use shangmi_sm2::Mode;
use sm_field::{counting, Counting, U64};

type B = Counting<U64>;

fn measure<T>(name: &str, f: impl FnOnce() -> T) -> T {
    counting::reset();
    let r = f();
    let c = counting::snapshot();
    println!(
        "{name:28} mul {:5} sqr {:5} (mul+sqr {:5})  add/sub/neg/dbl {:6}",
        c.mul,
        c.square,
        c.mul + c.square,
        c.add + c.sub + c.neg + c.double
    );
    r
}

#[test]
fn op_counts() {
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let sk = measure("keygen", || SecretKey::<B>::random(&mut rng));
    let signer = SigningKey::new(&sk);
    let vk = VerifyingKey::new(sk.public_key());
    let sig = measure("sign", || signer.sign_with_rng(&mut rng, b"msg"));
    measure("verify", || vk.verify(b"msg", &sig).unwrap());
    let vkt = vk.clone().with_precomputed_table();
    measure("verify (precomputed table)", || {
        vkt.verify(b"msg", &sig).unwrap()
    });
    let ct = measure("encrypt 32 B", || {
        sk.public_key()
            .encrypt(&mut rng, &[7u8; 32], Mode::C1C3C2)
            .unwrap()
    });
    measure("decrypt 32 B", || sk.decrypt(&ct, Mode::C1C3C2).unwrap());
    let peer = SecretKey::<B>::random(&mut rng);
    let a = Initiator::new(&sk, b"a", peer.public_key(), b"b").unwrap();
    let b = Responder::new(&peer, b"b", sk.public_key(), b"a").unwrap();
    let (a, ra) = measure("kx initiator start", || a.start(&mut rng));
    let (b, rb, sb) = measure("kx responder respond", || {
        b.respond(&mut rng, &ra, 16).unwrap()
    });
    let (_, sa) = measure("kx initiator finish", || a.finish(&rb, &sb, 16).unwrap());
    measure("kx responder confirm", || b.confirm(&sa).unwrap());
}
