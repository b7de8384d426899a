//! SM2 key exchange with confirmation against `gmalg` 1.1.2 (pure Python), both ways.
//!
//! No peer on these machines exposes the confirmation tags S1 (= SB) and S2 (= SA): gmalg's
//! `end_key_exchange` returns only the session key, OpenSSL 3 and RustCrypto's `sm2` 0.14 have no
//! SM2 key exchange, gmssl-pyx (GmSSL 3) none for SM2, snowland-smx's raises NotImplementedError,
//! and `libsm` 0.6 hashes a two-byte 0x0002/0x0003 prefix (`write_u16`) where GB/T 32918.3 has
//! one byte, so its tags cannot match any standard implementation. So gmalg does the curve
//! arithmetic (its ephemeral points, the shared point U = V, ZA, ZB and the session key) and the
//! tags are computed here in Python with gmalg's SM3 by the standard's formula
//! (S1 = SM3(0x02 ‖ yV ‖ SM3(xV ‖ ZA ‖ ZB ‖ x1 ‖ y1 ‖ x2 ‖ y2)), S2 the same with 0x03), whose
//! values the GB/T 32918.3 Annex A example pins in `sm3/tests/kat.rs` (BouncyCastle's numbers).
//!
//! The interpreter is `$SM_PEERS_PYTHON` (set by `cargo xtask test`); without it the test
//! creates `target/peers-venv` itself and installs the pinned peers there.

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use shangmi_sm2::exchange::{Initiator, Responder};
use shangmi_sm2::{PublicKey, SecretKey};
use sm_testvectors::peers::run_python as py;

const KLEN: usize = 20;

/// Defines `shared(own_sk, t, R_peer, P_peer)`: gmalg's shared point, and `tags(S, ZA, ZB, RA,
/// RB)`: S1 and S2 from the standard's formula.
const PRELUDE: &str = r#"
import sys, gmalg
from gmalg.sm2 import bytes_to_point
core = gmalg.SM2()._core
etob = core.ecdlp.fp.etob
def sm3(b):
    h = gmalg.SM3(); h.update(b); return h.value()
def z(uid, pk):
    return core.entity_info(uid, bytes_to_point(pk))
def tags(S, za, zb, ra, rb):
    ra, rb = bytes_to_point(ra), bytes_to_point(rb)
    inner = sm3(etob(S[0]) + za + zb + etob(ra[0]) + etob(ra[1]) + etob(rb[0]) + etob(rb[1]))
    return sm3(b"\x02" + etob(S[1]) + inner), sm3(b"\x03" + etob(S[1]) + inner)
args = [bytes.fromhex(a) for a in sys.argv[1:]]
"#;

fn unhex(s: &str) -> Vec<u8> {
    hex::decode(s.trim()).unwrap()
}

/// An ephemeral scalar's bytes (top bit clear, so below n).
fn ephemeral(rng: &mut ChaCha20Rng) -> [u8; 32] {
    use rand_chacha::rand_core::Rng;
    let mut r = [0u8; 32];
    rng.fill_bytes(&mut r);
    r[0] &= 0x7f;
    r
}

fn arr32(v: &[u8]) -> [u8; 32] {
    v.try_into().expect("32 bytes")
}

#[test]
fn gmalg_key_exchange_with_confirmation_both_ways() {
    let mut rng = ChaCha20Rng::seed_from_u64(22);
    let alice = SecretKey::random(&mut rng);
    let bob = SecretKey::random(&mut rng);
    let (pa, pb) = (alice.public_key(), bob.public_key());
    let hx = |pk: &PublicKey| hex::encode(pk.to_uncompressed());

    // We are A (initiator), gmalg is B (responder): gmalg's RB, session key and SB; our finish
    // checks SB, and our SA must be the S2 computed on B's side.
    for round in 0..3 {
        // The same ephemeral twice: one state takes a wrong SB, the other the right one.
        let r = ephemeral(&mut rng);
        let start = || {
            Initiator::new(&alice, b"Alice", pb, b"Bob")
                .unwrap()
                .start_with_ephemeral(&r)
                .unwrap()
        };
        let ((a, ra), (a2, _)) = (start(), start());
        let out = py(
            &format!(
                r#"{PRELUDE}
skb, pa, pb, ra = args
bob = gmalg.SM2(sk=skb, uid=b"Bob")
RB, t = bob.begin_key_exchange()
S = core.get_secret_point(t, bytes_to_point(ra), bytes_to_point(pa))
print(RB.hex())
print(core.generate_skey({KLEN}, S, b"Alice", bytes_to_point(pa), b"Bob", bytes_to_point(pb)).hex())
for tag in tags(S, z(b"Alice", pa), z(b"Bob", pb), ra, RB): print(tag.hex())
"#
            ),
            &[&hex::encode(bob.to_bytes()), &hx(pa), &hx(pb), &hx(&ra)],
        );
        let rb = PublicKey::from_sec1_bytes(&unhex(&out[0])).unwrap();
        let (sb, sa_b) = (arr32(&unhex(&out[2])), unhex(&out[3]));
        let mut bad = sb;
        bad[round] ^= 1;
        assert_eq!(
            a2.finish(&rb, &bad, KLEN).unwrap_err(),
            shangmi_sm2::Error::KeyExchange
        );
        let (key, sa) = a.finish(&rb, &sb, KLEN).expect("gmalg's SB accepted");
        assert_eq!(key.to_vec(), unhex(&out[1]), "session key, round {round}");
        assert_eq!(sa.to_vec(), sa_b, "SA, round {round}");
    }

    // gmalg is A (initiator), we are B (responder): our SB must be A's S1; A's S2 confirms.
    for round in 0..3 {
        let out = py(
            &format!(
                "{PRELUDE}\nRA, t = gmalg.SM2(sk=args[0], uid=b\"Alice\").begin_key_exchange()\nprint(RA.hex()); print(hex(t)[2:])"
            ),
            &[&hex::encode(alice.to_bytes())],
        );
        let (ra_hex, t_hex) = (out[0].clone(), out[1].clone());
        let ra = PublicKey::from_sec1_bytes(&unhex(&ra_hex)).unwrap();
        let r = ephemeral(&mut rng);
        let respond = || {
            Responder::new(&bob, b"Bob", pa, b"Alice")
                .unwrap()
                .respond_with_ephemeral(&r, &ra, KLEN)
                .unwrap()
        };
        let ((b, rb, sb), (b2, _, _)) = (respond(), respond());
        let t_even = if t_hex.len() % 2 == 1 {
            format!("0{t_hex}")
        } else {
            t_hex
        };
        let out = py(
            &format!(
                r#"{PRELUDE}
t, pa, pb, ra, rb = args
S = core.get_secret_point(int.from_bytes(t, "big"), bytes_to_point(rb), bytes_to_point(pb))
print(core.generate_skey({KLEN}, S, b"Alice", bytes_to_point(pa), b"Bob", bytes_to_point(pb)).hex())
for tag in tags(S, z(b"Alice", pa), z(b"Bob", pb), ra, rb): print(tag.hex())
"#
            ),
            &[&t_even, &hx(pa), &hx(pb), &ra_hex, &hx(&rb)],
        );
        assert_eq!(sb.to_vec(), unhex(&out[1]), "SB, round {round}");
        let sa = arr32(&unhex(&out[2]));
        let mut bad = sa;
        bad[31 - round] ^= 0x80;
        assert_eq!(
            b2.confirm(&bad).unwrap_err(),
            shangmi_sm2::Error::KeyExchange
        );
        let key = b.confirm(&sa).expect("gmalg's SA accepted");
        assert_eq!(key.to_vec(), unhex(&out[0]), "session key, round {round}");
    }
}
