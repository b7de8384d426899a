//! Whole SM9 protocols on every backend in one process (the `sm9` types are generic over the limb
//! backend): for random seeds, key generation, extraction, signing with a fixed and a seeded nonce,
//! verification (single, batch), encryption in every mode and MAC, decryption, the KEM and the key
//! exchange, each backend's bytes compared with `u64`'s; and the GM/T 0044.5 annex A–D known
//! answers on each backend.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm9::generic::{
    BatchItem, EncMasterKey, EphemeralPoint, PreparedEncMasterPublicKey, SignMasterKey,
};
use sm9::{hazmat, EncryptionMode, MacMode};
use sm_field::{Backend, U64};

type Outputs = Vec<(&'static str, Vec<u8>)>;

/// 32 random bytes below n (top byte cleared: n > 2^255), not zero.
fn nonce(rng: &mut ChaCha20Rng) -> [u8; 32] {
    let mut r = [0u8; 32];
    rng.fill(&mut r[1..]);
    r[31] |= 1;
    r
}

fn bytes(rng: &mut ChaCha20Rng, min: usize, max: usize) -> Vec<u8> {
    let mut v = vec![0u8; rng.random_range(min..max)];
    rng.fill(&mut v[..]);
    v
}

fn ok<T, E>(r: &Result<T, E>) -> Vec<u8> {
    vec![u8::from(r.is_ok())]
}

/// Named outputs of the SM9 protocols on backend `B`, from inputs drawn from `seed`.
fn outputs<B: Backend>(seed: u64) -> Result<Outputs, sm9::Error> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut out: Outputs = Vec::new();
    let id_a = bytes(&mut rng, 1, 40);
    let id_b = bytes(&mut rng, 1, 40);
    let msg = bytes(&mut rng, 0, 200);

    // Signatures.
    let kgc = SignMasterKey::<B>::generate(&mut rng);
    out.push(("sign master key (generate)", kgc.to_der()?.to_vec()));
    let alice = kgc.extract(&id_a)?;
    out.push(("sign user key (extract)", alice.to_der()?.to_vec()));
    let master = kgc.public_key().prepare();
    out.push(("g = e(P1, Ppub-s)", master.g().to_bytes().to_vec()));
    let sig = hazmat::sign_with_nonce(&alice, &master, &msg, &nonce(&mut rng))?;
    out.push(("sign (fixed r)", sig.to_der()?));
    let seeded = sm9::sign(&alice, &master, &msg, &mut rng)?;
    out.push(("sign (seeded r)", seeded.to_bytes().to_vec()));
    let prepared = sm9::sign_prepared(&alice.prepare(), &master, &msg, &mut rng)?;
    out.push(("sign (prepared key)", prepared.to_bytes().to_vec()));
    out.push(("verify", ok(&sm9::verify(&master, &id_a, &msg, &sig))));
    out.push((
        "verify (other id)",
        ok(&sm9::verify(&master, &id_b, &msg, &sig)),
    ));
    let item = |signature| BatchItem {
        master: &master,
        id: &id_a,
        message: &msg,
        signature,
    };
    let batch = sm9::verify_batch(&[item(&sig), item(&seeded), item(&prepared)]);
    let wrong = sm9::verify_batch(&[BatchItem {
        message: b"other",
        ..item(&sig)
    }]);
    let flags = [batch.as_slice(), wrong.as_slice()].concat();
    out.push(("verify_batch", flags.iter().map(|&b| u8::from(b)).collect()));

    // Encryption, KEM and key exchange under one encryption master key.
    let kgc = EncMasterKey::<B>::generate(&mut rng);
    out.push(("enc master key (generate)", kgc.to_der()?.to_vec()));
    let bob = kgc.extract(&id_b)?;
    out.push(("enc user key (extract)", bob.to_der()?.to_vec()));
    let master: PreparedEncMasterPublicKey<B> = kgc.public_key().prepare();
    out.push(("g = e(Ppub-e, P2)", master.g().to_bytes().to_vec()));
    let dk = bob.prepare();
    for (mode, mac) in [
        (EncryptionMode::KdfStream, MacMode::Sm3),
        (EncryptionMode::Sm4Ecb, MacMode::HmacSm3),
        (EncryptionMode::Sm4Cbc, MacMode::Sm3),
    ] {
        let (r, iv) = (nonce(&mut rng), rng.random::<[u8; 16]>());
        let ct = hazmat::encrypt_with_nonce(&master, &id_b, &msg, mode, mac, &r, &iv)?;
        out.push(("encrypt (fixed r)", ct.to_der()?));
        out.push(("decrypt", sm9::decrypt(&dk, &id_b, &ct, mac)?.to_vec()));
        let ct = sm9::encrypt(&master, &id_b, &msg, mode, mac, &mut rng)?;
        out.push(("encrypt (seeded r)", ct.to_der()?));
        out.push(("decrypt", sm9::decrypt(&dk, &id_b, &ct, mac)?.to_vec()));
    }
    let key_len = rng.random_range(1..100);
    let (k, c) = hazmat::encapsulate_with_nonce(&master, &id_b, key_len, &nonce(&mut rng))?;
    out.push(("encapsulate (fixed r)", [&k[..], &c.to_bytes()].concat()));
    out.push((
        "decapsulate",
        sm9::decapsulate(&dk, &id_b, &c, key_len)?.to_vec(),
    ));
    let (k, c) = sm9::encapsulate(&master, &id_b, key_len, &mut rng)?;
    out.push(("encapsulate (seeded r)", [&k[..], &c.to_bytes()].concat()));
    let xa = kgc.extract_exchange(&id_a)?.prepare();
    let xb = kgc.extract_exchange(&id_b)?.prepare();
    let (init, ra) =
        hazmat::initiator_start_with_nonce(&xa, &master, &id_a, &id_b, &nonce(&mut rng))?;
    let (resp, rb, sb) =
        hazmat::responder_respond_with_nonce(&xb, &master, &id_b, &id_a, &ra, &nonce(&mut rng))?;
    let (ska, sa) = init.finish(&rb, Some(&sb), key_len)?;
    let skb = resp.confirm(&sa, key_len)?;
    out.push(("exchange RA, RB", [ra.to_bytes(), rb.to_bytes()].concat()));
    out.push(("exchange SB, SA", [sb, sa].concat()));
    out.push(("exchange SKA = SKB", [&ska[..], &skb[..]].concat()));
    let (init, ra) = sm9::generic::Initiator::start(&xa, &master, &id_a, &id_b, &mut rng)?;
    let (_, rb, sb) = sm9::Responder::respond(&xb, &master, &id_b, &id_a, &ra, &mut rng)?;
    let (ska, _) = init.finish(&rb, Some(&sb), key_len)?;
    out.push(("exchange (seeded r)", ska.to_vec()));
    Ok(out)
}

fn compare<B: Backend>(seed: u64) -> Result<(), String> {
    let run = |name| move |e: sm9::Error| format!("sm9 protocols on {name} (seed {seed}): {e}");
    let want = outputs::<U64>(seed).map_err(run("u64"))?;
    let got = outputs::<B>(seed).map_err(run(B::NAME))?;
    assert_eq!(want.len(), got.len());
    for ((name, w), (_, g)) in want.iter().zip(&got) {
        if w != g {
            return Err(format!(
                "sm9 `{name}` differs on backend {} (seed {seed}):\n  u64: {}\n  {}: {}",
                B::NAME,
                hex::encode(w),
                B::NAME,
                hex::encode(g)
            ));
        }
    }
    Ok(())
}

fn hex_at(v: &serde_json::Value, p: &str) -> Result<Vec<u8>, String> {
    let s = v
        .pointer(p)
        .and_then(serde_json::Value::as_str)
        .ok_or_else(|| format!("no {p} in the SM9 vectors"))?;
    hex::decode(s).map_err(|e| format!("{p}: {e}"))
}

/// `04 ‖ bytes` (the annexes print points without the prefix).
fn pt(b: Vec<u8>) -> Vec<u8> {
    [vec![0x04], b].concat()
}

fn arr32(b: &[u8]) -> Result<[u8; 32], String> {
    b.try_into().map_err(|_| "expected 32 bytes".to_string())
}

/// GM/T 0044.5 annexes A (signature), B (key exchange), C (KEM) and D (encryption, KDF-stream
/// mode) on backend `B`: every printed value, byte for byte.
fn annexes<B: Backend>() -> Result<(), String> {
    let v = sm_testvectors::sm9();
    let e = |e: sm9::Error| format!("sm9 annex on {}: {e}", B::NAME);
    let mut checks: Vec<(&str, Vec<u8>, Vec<u8>)> = Vec::new();
    let a = |p: &str| hex_at(&v, &format!("/sign_annexA/{p}"));
    let kgc = SignMasterKey::<B>::from_bytes(&arr32(&a("ks")?)?).map_err(e)?;
    let master = kgc.public_key().prepare();
    let id = a("ID_A_hex")?;
    let alice = kgc.extract(&id).map_err(e)?;
    let sig =
        hazmat::sign_with_nonce(&alice, &master, &a("M_hex")?, &arr32(&a("r")?)?).map_err(e)?;
    checks.push((
        "A Ppub-s",
        kgc.public_key().to_bytes().to_vec(),
        pt(a("Ppubs")?),
    ));
    checks.push(("A g", master.g().to_bytes().to_vec(), a("g_e(P1,Ppubs)")?));
    checks.push(("A dsA", alice.ds_bytes().to_vec(), pt(a("dsA")?)));
    checks.push(("A h", sig.h_bytes().to_vec(), a("h")?));
    checks.push(("A S", sig.s_bytes().to_vec(), pt(a("S")?)));
    checks.push((
        "A verify",
        ok(&sm9::verify(&master, &id, &a("M_hex")?, &sig)),
        vec![1],
    ));

    let b = |p: &str| hex_at(&v, &format!("/key_exchange_annexB/{p}"));
    let kgc = EncMasterKey::<B>::from_bytes(&arr32(&b("ke")?)?).map_err(e)?;
    let master = kgc.public_key().prepare();
    let xa = kgc.extract_exchange(b"Alice").map_err(e)?;
    let xb = kgc.extract_exchange(b"Bob").map_err(e)?;
    checks.push(("B deA", xa.de_bytes().to_vec(), pt(b("deA")?)));
    checks.push(("B deB", xb.de_bytes().to_vec(), pt(b("deB")?)));
    let (xa, xb) = (xa.prepare(), xb.prepare());
    let (init, ra) =
        hazmat::initiator_start_with_nonce(&xa, &master, b"Alice", b"Bob", &arr32(&b("rA")?)?)
            .map_err(e)?;
    let (resp, rb, sb) = hazmat::responder_respond_with_nonce(
        &xb,
        &master,
        b"Bob",
        b"Alice",
        &ra,
        &arr32(&b("rB")?)?,
    )
    .map_err(e)?;
    let (ska, sa) = init.finish(&rb, Some(&sb), 16).map_err(e)?;
    let skb = resp.confirm(&sa, 16).map_err(e)?;
    checks.push(("B RA", ra.to_bytes().to_vec(), pt(b("RA")?)));
    checks.push(("B RB", rb.to_bytes().to_vec(), pt(b("RB")?)));
    checks.push(("B SB", sb.to_vec(), b("SB")?));
    checks.push(("B SA", sa.to_vec(), b("SA")?));
    checks.push(("B SKA", ska.to_vec(), b("SKA=SKB")?));
    checks.push(("B SKB", skb.to_vec(), b("SKA=SKB")?));
    // The peer's RA decodes to the same point.
    let ra2 = EphemeralPoint::<B>::from_bytes(&pt(b("RA")?)).map_err(e)?;
    checks.push(("B RA decode", ra2.to_bytes().to_vec(), pt(b("RA")?)));

    let c = |p: &str| hex_at(&v, &format!("/kem_annexC/{p}"));
    let kgc = EncMasterKey::<B>::from_bytes(&arr32(&c("ke")?)?).map_err(e)?;
    let master = kgc.public_key().prepare();
    let bob = kgc.extract(b"Bob").map_err(e)?;
    let (k, enc) =
        hazmat::encapsulate_with_nonce(&master, b"Bob", 32, &arr32(&c("r")?)?).map_err(e)?;
    let k2 = sm9::decapsulate(&bob.prepare(), b"Bob", &enc, 32).map_err(e)?;
    checks.push(("C deB", bob.de_bytes().to_vec(), pt(c("deB")?)));
    checks.push((
        "C g",
        master.g().to_bytes().to_vec(),
        c("derived/g=e(Ppube,P2)")?,
    ));
    checks.push(("C C", enc.to_bytes().to_vec(), pt(c("C")?)));
    checks.push(("C K", k.to_vec(), c("K")?));
    checks.push(("C K decapsulated", k2.to_vec(), c("K")?));

    let d = |p: &str| hex_at(&v, &format!("/encrypt_annexD/{p}"));
    let kgc = EncMasterKey::<B>::from_bytes(&arr32(&d("ke")?)?).map_err(e)?;
    let master = kgc.public_key().prepare();
    let bob = kgc.extract(b"Bob").map_err(e)?;
    let m = d("M_hex")?;
    let ct = hazmat::encrypt_with_nonce(
        &master,
        b"Bob",
        &m,
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &arr32(&d("r")?)?,
        &[0; 16],
    )
    .map_err(e)?;
    let back = sm9::decrypt(&bob.prepare(), b"Bob", &ct, MacMode::Sm3).map_err(e)?;
    checks.push(("D deB", bob.de_bytes().to_vec(), pt(d("deB")?)));
    checks.push(("D C1", ct.c1_bytes().to_vec(), pt(d("C1")?)));
    checks.push(("D C2", ct.c2().to_vec(), d("xor_mode/C2")?));
    checks.push(("D C3", ct.c3().to_vec(), d("xor_mode/C3=SM3(C2||K2)")?));
    checks.push(("D decrypt", back.to_vec(), m));

    for (name, got, want) in checks {
        if got != want {
            return Err(format!(
                "sm9 annex {name} on backend {}:\n  got  {}\n  want {}",
                B::NAME,
                hex::encode(got),
                hex::encode(want)
            ));
        }
    }
    Ok(())
}

/// The annexes on every backend, then the protocols on `runs` seeds, every backend = `u64`.
pub fn run(runs: u64, seed: u64, backends: &[String]) -> Result<(), String> {
    annexes::<U64>()?;
    for b in backends {
        super::with_backend!(b.as_str(), B => annexes::<B>())?;
    }
    println!(
        "ok  sm9 GM/T 0044.5 annex A-D known answers on backends u64, {}",
        backends.join(", ")
    );
    for i in 0..runs {
        for b in backends {
            super::with_backend!(b.as_str(), B => compare::<B>(seed.wrapping_add(i)))?;
        }
    }
    let mut names: Vec<&str> = Vec::new();
    for (name, _) in outputs::<U64>(seed).map_err(|e| format!("sm9 protocols: {e}"))? {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    println!(
        "ok  sm9 protocols on {runs} seeds, every backend = u64: {}",
        names.join("; ")
    );
    Ok(())
}
