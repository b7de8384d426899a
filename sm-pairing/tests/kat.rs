//! Known answers from GM/T 0044.5 Annexes A–D (sm-testvectors/data/sm9-vectors.json), byte for
//! byte, on every compiled backend.

use serde_json::Value;
use sm_pairing::{pairing, Backend, G1Affine, G2Affine, G2Prepared, Gt, GtTable};
use sm_testvectors::hex;

fn s<'a>(v: &'a Value, sec: &str, key: &str) -> &'a str {
    v[sec][key]
        .as_str()
        .unwrap_or_else(|| panic!("missing {sec}/{key}"))
}

/// The annexes write points as x ‖ y; the SEC1 / GM/T encoding adds the `04` tag.
fn g1<B: Backend>(h: &str) -> G1Affine<B> {
    G1Affine::from_sec1(&hex(&format!("04{h}"))).expect("G1 point on curve")
}

fn g2<B: Backend>(h: &str) -> G2Affine<B> {
    sm_curve::sm9::g2_from_sec1(&hex(&format!("04{h}"))).expect("G2 point in G2")
}

fn scalar(h: &str) -> [u64; 4] {
    let b = hex(h);
    let mut l = [0u64; 4];
    for i in 0..4 {
        l[i] = u64::from_be_bytes(b[24 - 8 * i..32 - 8 * i].try_into().unwrap());
    }
    l
}

fn check_gt<B: Backend>(g: &Gt<B>, expected: &str, what: &str) {
    assert_eq!(
        hex::encode_upper(g.to_bytes()),
        expected.to_uppercase(),
        "{what} ({})",
        B::NAME
    );
}

fn run<B: Backend>() {
    let v = sm_testvectors::sm9();
    let p1 = G1Affine::<B>::GENERATOR;
    let p2 = G2Affine::<B>::GENERATOR;
    assert!(bool::from(p1.is_on_curve()) && bool::from(p2.is_on_curve()));

    // e(P1, P2): the standard does not print it; the vector file's value (from its generator's
    // pure-Python pairing) must equal GmSSL's, case 0 of the GmSSL pairing cases (a = b = 1).
    let e = pairing(&p1, &p2);
    let e_hex = v["curve"]["derived"]
        ["e(P1,P2) (not printed in the standard; computed by sm9_ref.py)"]
        .as_str()
        .unwrap();
    let gmssl = sm_testvectors::gmssl();
    let cases = gmssl["sm9_pairing"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    assert_eq!(cases[0]["a_hex"].as_str(), Some(&*format!("{:064x}", 1)));
    assert_eq!(cases[0]["b_hex"].as_str(), Some(&*format!("{:064x}", 1)));
    assert_eq!(
        cases[0]["e_hex"].as_str().unwrap().to_uppercase(),
        e_hex.to_uppercase(),
        "e(P1, P2): vector file and GmSSL differ"
    );
    check_gt(&e, e_hex, "e(P1,P2)");
    assert_eq!(Gt::<B>::from_bytes_checked(&e.to_bytes()).unwrap(), e);

    // GmSSL's cases: P = a·P1, Q = b·P2 as GmSSL computed them, e(P, Q) as GmSSL computed it, and
    // e(P, Q) = e(P1, P2)^(a·b) (bilinearity, with our exponentiation).
    for c in cases {
        let pq = |k: &str| {
            let h = c[k].as_str().unwrap();
            assert_eq!(&h[..2], "04", "{k}: uncompressed");
            h[2..].to_string()
        };
        let (p, q) = (g1::<B>(&pq("P_hex")), g2::<B>(&pq("Q_hex")));
        let what = format!("GmSSL pairing case {}", c["case"]);
        let e_pq = pairing(&p, &q);
        check_gt(&e_pq, c["e_hex"].as_str().unwrap(), &what);
        let (a, b) = (
            scalar(c["a_hex"].as_str().unwrap()),
            scalar(c["b_hex"].as_str().unwrap()),
        );
        assert_eq!(e.pow(&a).pow(&b), e_pq, "{what}: e(P1, P2)^(ab)");
    }

    // Annex A: g = e(P1, Ppub-s), w = g^r.
    let ppubs = g2::<B>(s(&v, "sign_annexA", "Ppubs"));
    let g = pairing(&p1, &ppubs);
    check_gt(&g, s(&v, "sign_annexA", "g_e(P1,Ppubs)"), "Annex A g");
    let r = scalar(s(&v, "sign_annexA", "r"));
    let w = s(&v, "sign_annexA", "w_g^r");
    check_gt(&g.pow(&r), w, "Annex A w = g^r (ct)");
    check_gt(&g.pow_vartime(&r), w, "Annex A w (vartime)");
    check_gt(&GtTable::new(&g).pow(&r), w, "Annex A w (table)");
    // e(P1, Ppub-s) = e(P1, P2)^ks.
    check_gt(
        &e.pow(&scalar(s(&v, "sign_annexA", "ks"))),
        s(&v, "sign_annexA", "g_e(P1,Ppubs)"),
        "e^ks",
    );

    // Annex B: g1 = e(RA, deB), g2 = e(Ppub-e, P2)^rB, g3 = g1^rB.
    let kx = "key_exchange_annexB";
    let ra = g1::<B>(s(&v, kx, "RA"));
    let deb = g2::<B>(s(&v, kx, "deB"));
    let g1v = pairing(&ra, &deb);
    check_gt(&g1v, s(&v, kx, "g1_B_side_e(RA,deB)"), "Annex B g1");
    check_gt(
        &sm_pairing::pairing_prepared(&ra, &G2Prepared::new(&deb)),
        s(&v, kx, "g1_B_side_e(RA,deB)"),
        "Annex B g1 prepared",
    );
    let rb = scalar(s(&v, kx, "rB"));
    let ppube = g1::<B>(s(&v, kx, "Ppube"));
    check_gt(
        &pairing(&ppube, &p2).pow(&rb),
        s(&v, kx, "g2_B_side_e(Ppube,P2)^rB"),
        "Annex B g2",
    );
    check_gt(
        &g1v.pow(&rb),
        v[kx]["derived"]["g3=g1^rB"].as_str().unwrap(),
        "Annex B g3",
    );

    // Annex C (KEM): g = e(Ppub-e, P2), w = g^r.
    let kem = "kem_annexC";
    let ppube = g1::<B>(s(&v, kem, "Ppube"));
    let g = pairing(&ppube, &p2);
    check_gt(
        &g,
        v[kem]["derived"]["g=e(Ppube,P2)"].as_str().unwrap(),
        "Annex C g",
    );
    check_gt(
        &g.pow(&scalar(s(&v, kem, "r"))),
        v[kem]["derived"]["w=g^r"].as_str().unwrap(),
        "Annex C w",
    );

    // Annex D (encryption): w = e(Ppub-e, P2)^r.
    let enc = "encrypt_annexD";
    let ppube = g1::<B>(s(&v, enc, "Ppube"));
    let w = pairing(&ppube, &p2).pow(&scalar(s(&v, enc, "r")));
    check_gt(
        &w,
        v[enc]["derived"]["w=e(Ppube,P2)^r"].as_str().unwrap(),
        "Annex D w",
    );
}

#[test]
fn known_answers_u64() {
    run::<sm_field::U64>();
}

#[cfg(feature = "u32")]
#[test]
fn known_answers_u32() {
    run::<sm_field::U32>();
}

/// `Asm` (`Auto` on x86_64: each entry point dispatches to `MulxIfma`, `Mulx` or `U64`).
#[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
#[test]
fn known_answers_asm() {
    run::<sm_field::Asm>();
}

/// The pure x86_64 backends by name (the IFMA-batched tower and the scalar MULX one).
#[cfg(all(feature = "asm", target_arch = "x86_64"))]
#[test]
fn known_answers_mulx() {
    use sm_field::backend::cpu;
    if sm_testvectors::backend_runs_here("Mulx", cpu::has_mulx_adx(), "SM_EXPECT_MULX") {
        run::<sm_field::Mulx>();
    }
}

#[cfg(all(feature = "asm", target_arch = "x86_64"))]
#[test]
fn known_answers_mulx_ifma() {
    use sm_field::backend::cpu;
    let here = cpu::has_mulx_adx() && cpu::has_ifma();
    if sm_testvectors::backend_runs_here("MulxIfma", here, "SM_EXPECT_IFMA") {
        run::<sm_field::MulxIfma>();
    }
}

/// The backend suites above are all compiled under `cargo xtask test` (`SM_EXPECT_ALL_BACKENDS`).
#[test]
fn backend_suites_compiled() {
    sm_testvectors::expect_backends(
        "sm-pairing kat",
        &[
            "u64",
            #[cfg(feature = "u32")]
            "u32",
            #[cfg(all(feature = "asm", any(target_arch = "x86_64", target_arch = "aarch64")))]
            "asm",
        ],
    );
}
