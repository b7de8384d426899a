//! `smtool x509 req|cert|verify|show` against OpenSSL 3's CLI (a required peer: every test
//! fails without it), both ways: smtool's requests and certificates checked by `openssl req
//! -verify`, `openssl verify` and `openssl x509 -text`; OpenSSL's checked by `smtool x509
//! verify`; each side signing the other's requests; tampered objects refused by both.
//!
//! The SM2 distinguishing ID: smtool signs and verifies under `1234567812345678` unless `--id`
//! says otherwise; OpenSSL 3.0 uses the empty ID unless given `-sigopt distid:ID` (signing) or
//! `-vfyopt distid:ID` (verifying). Both pairings are exercised below.

use std::process::{Command as StdCommand, Output};

use assert_cmd::Command;

use crate::common::Dir;

const SIGOPT: &str = "distid:1234567812345678";

fn smtool(args: &[&str]) -> Output {
    Command::cargo_bin("smtool")
        .unwrap()
        .args(args)
        .output()
        .unwrap()
}

/// `smtool args` succeeds; its standard output.
fn ok(args: &[&str]) -> String {
    let out = smtool(args);
    assert!(
        out.status.success(),
        "smtool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `smtool args` exits with `code` and one line on stderr containing `needle`.
fn fails(args: &[&str], code: i32, needle: &str) {
    let out = smtool(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "smtool {args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(err.contains(needle), "smtool {args:?}: {err}");
}

fn openssl_output(args: &[&str]) -> Output {
    StdCommand::new("openssl")
        .args(args)
        .output()
        .expect("the openssl CLI (OpenSSL 3) is a required peer of these tests")
}

/// `openssl args` succeeds; stdout and stderr.
fn openssl(args: &[&str]) -> String {
    let out = openssl_output(args);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "openssl {args:?}: {text}");
    text
}

fn openssl_fails(args: &[&str]) {
    let out = openssl_output(args);
    assert!(
        !out.status.success(),
        "openssl {args:?} accepted: {}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A copy of the PEM certificate / request `name` with one bit of its DER flipped at
/// `offset_from_end` bytes before the end (in the signature) or at `offset` from the start.
fn tamper(d: &Dir, name: &str, out: &str, at: impl Fn(usize) -> usize) -> String {
    let pem = String::from_utf8(d.read(name)).unwrap();
    let label = pem
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("-----BEGIN ")
        .trim_end_matches("-----")
        .to_string();
    let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let mut der = base64_decode(&b64);
    let i = at(der.len());
    der[i] ^= 0x01;
    let mut text = format!("-----BEGIN {label}-----\n");
    for chunk in base64_encode(&der).as_bytes().chunks(64) {
        text.push_str(std::str::from_utf8(chunk).unwrap());
        text.push('\n');
    }
    text.push_str(&format!("-----END {label}-----\n"));
    d.write(out, text.as_bytes())
}

fn base64_decode(s: &str) -> Vec<u8> {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.decode(s).unwrap()
}

fn base64_encode(b: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::STANDARD.encode(b)
}

/// The byte offset of `needle` in the DER of PEM file `name` (to tamper with a chosen field).
fn der_offset(d: &Dir, name: &str, needle: &[u8]) -> usize {
    let pem = String::from_utf8(d.read(name)).unwrap();
    let b64: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
    let der = base64_decode(&b64);
    der.windows(needle.len())
        .position(|w| w == needle)
        .expect("needle in the DER")
}

/// The hex digits of an `openssl x509 -text` field that follows the line `title`.
fn field_after(text: &str, title: &str) -> String {
    let mut lines = text.lines();
    lines
        .find(|l| l.contains(title))
        .unwrap_or_else(|| panic!("{title} in {text}"));
    lines.next().unwrap().trim().replace(':', "").to_lowercase()
}

#[test]
fn smtool_ca_intermediate_and_leaf_accepted_by_openssl() {
    let d = Dir::new();
    for k in ["root.key", "inter.key", "leaf.key"] {
        ok(&["sm2", "keygen", "-o", &d.s(k)]);
    }
    // Root: self-signed CA.
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("root.key"),
        "--subj",
        "/C=CN/O=smtool test/CN=Test Root",
        "--ca",
        "--days",
        "30",
        "--serial",
        "01",
        "-o",
        &d.s("root.pem"),
    ]);
    // Intermediate: a request signed by the root, path length 0.
    ok(&[
        "x509",
        "req",
        "-k",
        &d.s("inter.key"),
        "--subj",
        "CN=Test Intermediate,O=smtool test,C=CN",
        "-o",
        &d.s("inter.csr"),
    ]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("root.key"),
        "--issuer",
        &d.s("root.pem"),
        "--csr",
        &d.s("inter.csr"),
        "--ca",
        "--path-len",
        "0",
        "-o",
        &d.s("inter.pem"),
    ]);
    // Leaf request with subjectAltNames, which the certificate copies.
    ok(&[
        "x509",
        "req",
        "-k",
        &d.s("leaf.key"),
        "--subj",
        "/C=CN/O=smtool test/CN=tlcp.example",
        "--dns",
        "tlcp.example",
        "--ip",
        "192.0.2.7",
        "-o",
        &d.s("leaf.csr"),
    ]);
    // OpenSSL checks smtool's request under the default ID (with -vfyopt; its own default is
    // the empty ID, under which it refuses it).
    let v = openssl(&[
        "req",
        "-verify",
        "-in",
        &d.s("leaf.csr"),
        "-noout",
        "-vfyopt",
        SIGOPT,
    ]);
    assert!(v.contains("verify OK"), "{v}");
    // (OpenSSL 3.0's `req -verify` exits 0 either way: its message says which.)
    let v = openssl(&["req", "-verify", "-in", &d.s("leaf.csr"), "-noout"]);
    assert!(
        v.contains("verify failure") && !v.contains("verify OK"),
        "{v}"
    );
    let t = openssl(&["req", "-in", &d.s("leaf.csr"), "-noout", "-text"]);
    assert!(t.contains("DNS:tlcp.example, IP Address:192.0.2.7"), "{t}");
    assert!(t.contains("Signature Algorithm: SM2-with-SM3"), "{t}");
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("inter.key"),
        "--issuer",
        &d.s("inter.pem"),
        "--csr",
        &d.s("leaf.csr"),
        "--days",
        "7",
        "-o",
        &d.s("leaf.pem"),
    ]);

    // openssl x509 -text parses all three and sees what was asked for.
    let root = openssl(&["x509", "-in", &d.s("root.pem"), "-noout", "-text"]);
    assert!(
        root.contains("Subject: C = CN, O = smtool test, CN = Test Root"),
        "{root}"
    );
    assert!(
        root.contains("Issuer: C = CN, O = smtool test, CN = Test Root"),
        "{root}"
    );
    assert!(root.contains("Serial Number: 1 (0x1)"), "{root}");
    assert!(root.contains("CA:TRUE"), "{root}");
    assert!(root.contains("Certificate Sign, CRL Sign"), "{root}");
    let inter = openssl(&["x509", "-in", &d.s("inter.pem"), "-noout", "-text"]);
    assert!(inter.contains("CA:TRUE, pathlen:0"), "{inter}");
    assert!(
        inter.contains("Issuer: C = CN, O = smtool test, CN = Test Root"),
        "{inter}"
    );
    let leaf = openssl(&["x509", "-in", &d.s("leaf.pem"), "-noout", "-text"]);
    assert!(leaf.contains("Signature Algorithm: SM2-with-SM3"), "{leaf}");
    assert!(leaf.contains("CA:FALSE"), "{leaf}");
    assert!(
        leaf.contains("Digital Signature, Non Repudiation"),
        "{leaf}"
    );
    assert!(
        leaf.contains("DNS:tlcp.example, IP Address:192.0.2.7"),
        "{leaf}"
    );
    assert!(
        leaf.contains("Subject: C = CN, O = smtool test, CN = tlcp.example"),
        "{leaf}"
    );
    // The key identifiers link up.
    assert_eq!(
        field_after(&leaf, "Authority Key Identifier"),
        field_after(&inter, "Subject Key Identifier")
    );
    assert_eq!(
        field_after(&inter, "Authority Key Identifier"),
        field_after(&root, "Subject Key Identifier")
    );
    // ... and the subject key identifier is OpenSSL's (SHA-1 of the key, RFC 5280 §4.2.1.2).
    let own = openssl(&[
        "x509",
        "-in",
        &d.s("leaf.pem"),
        "-noout",
        "-ext",
        "subjectKeyIdentifier",
    ]);
    assert!(own
        .to_lowercase()
        .replace(':', "")
        .contains(&field_after(&leaf, "Subject Key Identifier")));

    // openssl verify accepts each link (with the ID), and smtool the whole chain. OpenSSL
    // 3.0 applies -vfyopt to the target certificate only, so it cannot check a longer chain
    // under a non-empty ID: the leaf is checked against the intermediate as a partial chain.
    let v = openssl(&[
        "verify",
        "-vfyopt",
        SIGOPT,
        "-CAfile",
        &d.s("root.pem"),
        &d.s("inter.pem"),
    ]);
    assert!(v.contains(": OK"), "{v}");
    let v = openssl(&[
        "verify",
        "-vfyopt",
        SIGOPT,
        "-partial_chain",
        "-CAfile",
        &d.s("inter.pem"),
        &d.s("leaf.pem"),
    ]);
    assert!(v.contains(": OK"), "{v}");
    assert_eq!(
        ok(&[
            "x509",
            "verify",
            "--ca-file",
            &d.s("root.pem"),
            "--chain",
            &d.s("inter.pem"),
            &d.s("leaf.pem")
        ]),
        "OK\n"
    );
    // The root's own signature: OpenSSL 3.0 cannot check it (`-check_ss_sig` fails with "EVP
    // lib" even on its own roots); smtool checks it when the target is an anchor.
    assert_eq!(
        ok(&[
            "x509",
            "verify",
            "--ca-file",
            &d.s("root.pem"),
            &d.s("root.pem")
        ]),
        "OK\n"
    );

    // Tampered leaves: a bit of the signature, a bit of the subject's CN. Both refuse them.
    let bad_sig = tamper(&d, "leaf.pem", "bad_sig.pem", |n| n - 3);
    let cn = der_offset(&d, "leaf.pem", b"tlcp.example");
    let bad_tbs = tamper(&d, "leaf.pem", "bad_tbs.pem", |_| cn);
    for bad in [&bad_sig, &bad_tbs] {
        let out = openssl_output(&[
            "verify",
            "-vfyopt",
            SIGOPT,
            "-partial_chain",
            "-CAfile",
            &d.s("inter.pem"),
            bad,
        ]);
        assert!(!out.status.success(), "openssl verify accepted {bad}");
        fails(
            &[
                "x509",
                "verify",
                "--ca-file",
                &d.s("root.pem"),
                "--chain",
                &d.s("inter.pem"),
                bad,
            ],
            1,
            "verification failed",
        );
    }
    let bad_root = tamper(&d, "root.pem", "bad_root.pem", |n| n - 3);
    fails(
        &["x509", "verify", "--ca-file", &bad_root, &bad_root],
        1,
        "self-signature",
    );
    // Under another ID the signature is another one.
    fails(
        &[
            "x509",
            "verify",
            "--id",
            "another",
            "--ca-file",
            &d.s("root.pem"),
            "--chain",
            &d.s("inter.pem"),
            &d.s("leaf.pem"),
        ],
        1,
        "does not verify",
    );
    // The chain without the intermediate, or with the leaf as a CA: refused.
    fails(
        &[
            "x509",
            "verify",
            "--ca-file",
            &d.s("root.pem"),
            &d.s("leaf.pem"),
        ],
        1,
        "no issuer certificate",
    );
    ok(&["sm2", "keygen", "-o", &d.s("x.key")]);
    ok(&["sm2", "pubkey", "-k", &d.s("x.key"), "-o", &d.s("x.pub")]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("leaf.key"),
        "--issuer",
        &d.s("leaf.pem"),
        "--pubkey",
        &d.s("x.pub"),
        "--subj",
        "/CN=below a leaf",
        "-o",
        &d.s("x.pem"),
    ]);
    let chain = format!(
        "{}{}",
        String::from_utf8(d.read("inter.pem")).unwrap(),
        String::from_utf8(d.read("leaf.pem")).unwrap()
    );
    d.write("chain.pem", chain.as_bytes());
    fails(
        &[
            "x509",
            "verify",
            "--ca-file",
            &d.s("root.pem"),
            "--chain",
            &d.s("chain.pem"),
            &d.s("x.pem"),
        ],
        1,
        "not a CA",
    );
    // The path length constraint 0 of the intermediate: no CA below it.
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("inter.key"),
        "--issuer",
        &d.s("inter.pem"),
        "--pubkey",
        &d.s("x.pub"),
        "--subj",
        "/CN=sub CA",
        "--ca",
        "-o",
        &d.s("sub.pem"),
    ]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("x.key"),
        "--issuer",
        &d.s("sub.pem"),
        "--pubkey",
        &d.s("x.pub"),
        "--subj",
        "/CN=too deep",
        "-o",
        &d.s("deep.pem"),
    ]);
    let chain = format!(
        "{}{}",
        String::from_utf8(d.read("inter.pem")).unwrap(),
        String::from_utf8(d.read("sub.pem")).unwrap()
    );
    d.write("chain2.pem", chain.as_bytes());
    fails(
        &[
            "x509",
            "verify",
            "--ca-file",
            &d.s("root.pem"),
            "--chain",
            &d.s("chain2.pem"),
            &d.s("deep.pem"),
        ],
        1,
        "path length",
    );
    // A wrong issuer key, a self-signed certificate of another key: usage errors.
    fails(
        &[
            "x509",
            "cert",
            "-k",
            &d.s("leaf.key"),
            "--issuer",
            &d.s("root.pem"),
            "--csr",
            &d.s("leaf.csr"),
            "-o",
            &d.s("no.pem"),
        ],
        2,
        "not the key of the issuer certificate",
    );
    fails(
        &[
            "x509",
            "cert",
            "-k",
            &d.s("leaf.key"),
            "--csr",
            &d.s("inter.csr"),
            "-o",
            &d.s("no.pem"),
        ],
        2,
        "self-signed",
    );
    fails(&["x509", "verify", &d.s("leaf.pem")], 2, "--ca-file");
    fails(
        &[
            "x509",
            "cert",
            "-k",
            &d.s("leaf.key"),
            "--subj",
            "/CN=z",
            "--serial",
            "0000",
            "-o",
            &d.s("no.pem"),
        ],
        2,
        "positive",
    );
    fails(
        &[
            "x509",
            "cert",
            "-k",
            &d.s("leaf.key"),
            "--subj",
            "/CN",
            "-o",
            &d.s("no.pem"),
        ],
        2,
        "not a distinguished name",
    );
    fails(
        &["x509", "show", &d.s("leaf.key")],
        2,
        "PEM label 'PRIVATE KEY'",
    );
    assert!(!d.p("no.pem").exists());
}

#[test]
fn smtool_with_the_empty_id_matches_openssl_defaults() {
    // With --id '' smtool writes what OpenSSL 3.0 checks without -vfyopt.
    let d = Dir::new();
    ok(&["sm2", "keygen", "-o", &d.s("k.pem")]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("k.pem"),
        "--id",
        "",
        "--subj",
        "/CN=empty id",
        "--ca",
        "-o",
        &d.s("ca.pem"),
    ]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("k.pem"),
        "--id",
        "",
        "--issuer",
        &d.s("ca.pem"),
        "--subj",
        "/CN=leaf",
        "-o",
        &d.s("leaf.pem"),
    ]);
    let v = openssl(&["verify", "-CAfile", &d.s("ca.pem"), &d.s("leaf.pem")]);
    assert!(v.contains(": OK"), "{v}");
    // A three-certificate chain, which OpenSSL can check whole only under the empty ID.
    ok(&["sm2", "keygen", "-o", &d.s("i.pem")]);
    ok(&["sm2", "pubkey", "-k", &d.s("i.pem"), "-o", &d.s("i.pub")]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("k.pem"),
        "--id",
        "",
        "--issuer",
        &d.s("ca.pem"),
        "--pubkey",
        &d.s("i.pub"),
        "--subj",
        "/CN=inter",
        "--ca",
        "-o",
        &d.s("inter.pem"),
    ]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("i.pem"),
        "--id",
        "",
        "--issuer",
        &d.s("inter.pem"),
        "--subj",
        "/CN=leaf2",
        "--pubkey",
        &d.s("i.pub"),
        "-o",
        &d.s("leaf2.pem"),
    ]);
    let v = openssl(&[
        "verify",
        "-CAfile",
        &d.s("ca.pem"),
        "-untrusted",
        &d.s("inter.pem"),
        &d.s("leaf2.pem"),
    ]);
    assert!(v.contains(": OK"), "{v}");
    ok(&[
        "x509",
        "verify",
        "--id",
        "",
        "--ca-file",
        &d.s("ca.pem"),
        "--chain",
        &d.s("inter.pem"),
        &d.s("leaf2.pem"),
    ]);
    openssl_fails(&[
        "verify",
        "-vfyopt",
        SIGOPT,
        "-CAfile",
        &d.s("ca.pem"),
        &d.s("leaf.pem"),
    ]);
    ok(&[
        "x509",
        "req",
        "-k",
        &d.s("k.pem"),
        "--id",
        "",
        "--subj",
        "/CN=r",
        "-o",
        &d.s("r.csr"),
    ]);
    assert!(openssl(&["req", "-verify", "-in", &d.s("r.csr"), "-noout"]).contains("verify OK"));
    ok(&[
        "x509",
        "verify",
        "--id",
        "",
        "--ca-file",
        &d.s("ca.pem"),
        &d.s("leaf.pem"),
    ]);
    fails(
        &[
            "x509",
            "verify",
            "--ca-file",
            &d.s("ca.pem"),
            &d.s("leaf.pem"),
        ],
        1,
        "does not verify",
    );
}

/// An OpenSSL SM2 CA and a leaf issued from an OpenSSL request, all under the default ID.
fn openssl_ca(d: &Dir) {
    openssl(&["genpkey", "-algorithm", "SM2", "-out", &d.s("ca.key")]);
    openssl(&["genpkey", "-algorithm", "SM2", "-out", &d.s("leaf.key")]);
    openssl(&[
        "req",
        "-new",
        "-x509",
        "-key",
        &d.s("ca.key"),
        "-sm3",
        "-sigopt",
        SIGOPT,
        "-subj",
        "/C=CN/O=OpenSSL test/CN=OpenSSL Root",
        "-days",
        "30",
        "-out",
        &d.s("ca.pem"),
    ]);
    openssl(&[
        "req",
        "-new",
        "-key",
        &d.s("leaf.key"),
        "-sm3",
        "-sigopt",
        SIGOPT,
        "-subj",
        "/C=CN/CN=openssl leaf",
        "-addext",
        "subjectAltName=DNS:leaf.example",
        "-out",
        &d.s("leaf.csr"),
    ]);
    openssl(&[
        "x509",
        "-req",
        "-in",
        &d.s("leaf.csr"),
        "-CA",
        &d.s("ca.pem"),
        "-CAkey",
        &d.s("ca.key"),
        "-sm3",
        "-sigopt",
        SIGOPT,
        "-vfyopt",
        SIGOPT,
        "-days",
        "7",
        "-copy_extensions",
        "copy",
        "-out",
        &d.s("leaf.pem"),
    ]);
}

#[test]
fn openssl_certificates_and_requests_verified_by_smtool() {
    let d = Dir::new();
    openssl_ca(&d);
    assert_eq!(
        ok(&[
            "x509",
            "verify",
            "--ca-file",
            &d.s("ca.pem"),
            &d.s("leaf.pem")
        ]),
        "OK\n"
    );
    // OpenSSL's root self-signature, which OpenSSL 3.0 itself cannot check.
    assert_eq!(
        ok(&[
            "x509",
            "verify",
            "--ca-file",
            &d.s("ca.pem"),
            &d.s("ca.pem")
        ]),
        "OK\n"
    );
    assert_eq!(
        ok(&["x509", "verify", &d.s("leaf.csr")]),
        "Request self-signature OK\n"
    );
    // DER input as well.
    openssl(&[
        "x509",
        "-in",
        &d.s("leaf.pem"),
        "-outform",
        "DER",
        "-out",
        &d.s("leaf.der"),
    ]);
    openssl(&[
        "req",
        "-in",
        &d.s("leaf.csr"),
        "-outform",
        "DER",
        "-out",
        &d.s("leaf.csr.der"),
    ]);
    ok(&[
        "x509",
        "verify",
        "-q",
        "--ca-file",
        &d.s("ca.pem"),
        &d.s("leaf.der"),
    ]);
    ok(&["x509", "verify", "-q", &d.s("leaf.csr.der")]);
    let shown = ok(&["x509", "show", &d.s("leaf.pem")]);
    assert!(shown.contains("Subject: CN=openssl leaf,C=CN"), "{shown}");
    assert!(
        shown.contains("subjectAltName: DNS:leaf.example"),
        "{shown}"
    );
    assert!(
        shown.contains("Signature Algorithm: SM2-with-SM3"),
        "{shown}"
    );
    // The public key smtool shows is the one OpenSSL shows.
    let pk = openssl(&["x509", "-in", &d.s("leaf.pem"), "-noout", "-pubkey"]);
    d.write("leaf.pub", pk.as_bytes());
    let ossl_text = openssl(&["pkey", "-pubin", "-in", &d.s("leaf.pub"), "-noout", "-text"]);
    let ossl_hex: String = ossl_text
        .lines()
        .filter(|l| l.starts_with("    "))
        .map(|l| l.trim().replace(':', ""))
        .collect();
    assert!(
        shown.replace(':', "").contains(&ossl_hex),
        "{shown} / {ossl_text}"
    );

    // Tampered: the signature, the subject; and the request.
    let bad = tamper(&d, "leaf.pem", "bad.pem", |n| n - 2);
    fails(
        &["x509", "verify", "--ca-file", &d.s("ca.pem"), &bad],
        1,
        "does not verify",
    );
    let at = der_offset(&d, "leaf.pem", b"openssl leaf");
    let bad = tamper(&d, "leaf.pem", "bad2.pem", |_| at);
    fails(
        &["x509", "verify", "--ca-file", &d.s("ca.pem"), &bad],
        1,
        "does not verify",
    );
    let at = der_offset(&d, "leaf.csr", b"openssl leaf");
    let bad = tamper(&d, "leaf.csr", "bad.csr", |_| at);
    fails(&["x509", "verify", &bad], 1, "self-signature");
    let bad = tamper(&d, "ca.pem", "badca.pem", |n| n - 2);
    fails(
        &["x509", "verify", "--ca-file", &bad, &bad],
        1,
        "self-signature",
    );
    // OpenSSL's leaf is no CA (no basicConstraints): what it signs is refused.
    openssl(&[
        "x509",
        "-req",
        "-in",
        &d.s("leaf.csr"),
        "-CA",
        &d.s("leaf.pem"),
        "-CAkey",
        &d.s("leaf.key"),
        "-sm3",
        "-sigopt",
        SIGOPT,
        "-vfyopt",
        SIGOPT,
        "-days",
        "1",
        "-out",
        &d.s("sub.pem"),
    ]);
    fails(
        &[
            "x509",
            "verify",
            "--ca-file",
            &d.s("ca.pem"),
            "--chain",
            &d.s("leaf.pem"),
            &d.s("sub.pem"),
        ],
        1,
        "not a CA",
    );
    // A certificate valid for no time at all (notAfter = notBefore = now): expired a second
    // later, for both.
    openssl(&[
        "x509",
        "-req",
        "-in",
        &d.s("leaf.csr"),
        "-CA",
        &d.s("ca.pem"),
        "-CAkey",
        &d.s("ca.key"),
        "-sm3",
        "-sigopt",
        SIGOPT,
        "-vfyopt",
        SIGOPT,
        "-days",
        "0",
        "-out",
        &d.s("exp.pem"),
    ]);
    std::thread::sleep(std::time::Duration::from_millis(1100));
    fails(
        &[
            "x509",
            "verify",
            "--ca-file",
            &d.s("ca.pem"),
            &d.s("exp.pem"),
        ],
        1,
        "expired",
    );
    let out = openssl_output(&[
        "verify",
        "-vfyopt",
        SIGOPT,
        "-CAfile",
        &d.s("ca.pem"),
        &d.s("exp.pem"),
    ]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("expired")
            || String::from_utf8_lossy(&out.stderr).contains("expired")
    );
    // OpenSSL's default (empty) ID: smtool verifies it with --id ''.
    openssl(&[
        "req",
        "-new",
        "-key",
        &d.s("leaf.key"),
        "-sm3",
        "-subj",
        "/CN=no id",
        "-out",
        &d.s("noid.csr"),
    ]);
    ok(&["x509", "verify", "--id", "", &d.s("noid.csr")]);
    fails(&["x509", "verify", &d.s("noid.csr")], 1, "self-signature");
}

#[test]
fn each_side_signs_the_others_requests() {
    let d = Dir::new();
    openssl_ca(&d);
    // smtool's CA signs OpenSSL's request; openssl verify accepts the result.
    ok(&["sm2", "keygen", "-o", &d.s("sca.key")]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("sca.key"),
        "--subj",
        "/CN=smtool CA",
        "--ca",
        "-o",
        &d.s("sca.pem"),
    ]);
    ok(&[
        "x509",
        "cert",
        "-k",
        &d.s("sca.key"),
        "--issuer",
        &d.s("sca.pem"),
        "--csr",
        &d.s("leaf.csr"),
        "--key-usage",
        "keyEncipherment,dataEncipherment,keyAgreement",
        "-o",
        &d.s("s_leaf.pem"),
    ]);
    let v = openssl(&[
        "verify",
        "-vfyopt",
        SIGOPT,
        "-CAfile",
        &d.s("sca.pem"),
        &d.s("s_leaf.pem"),
    ]);
    assert!(v.contains(": OK"), "{v}");
    let t = openssl(&["x509", "-in", &d.s("s_leaf.pem"), "-noout", "-text"]);
    assert!(
        t.contains("Key Encipherment, Data Encipherment, Key Agreement"),
        "{t}"
    );
    assert!(t.contains("Subject: C = CN, CN = openssl leaf"), "{t}");
    assert!(t.contains("DNS:leaf.example"), "{t}"); // copied from the request
                                                    // A request whose self-signature fails (wrong --csr-id) is not certified.
    fails(
        &[
            "x509",
            "cert",
            "-k",
            &d.s("sca.key"),
            "--issuer",
            &d.s("sca.pem"),
            "--csr",
            &d.s("leaf.csr"),
            "--csr-id",
            "x",
            "-o",
            &d.s("no.pem"),
        ],
        1,
        "self-signature",
    );
    // OpenSSL's CA signs smtool's request.
    ok(&["sm2", "keygen", "-o", &d.s("s.key")]);
    ok(&[
        "x509",
        "req",
        "-k",
        &d.s("s.key"),
        "--subj",
        "/CN=smtool leaf",
        "-o",
        &d.s("s.csr"),
        "--format",
        "der",
    ]);
    openssl(&[
        "x509",
        "-req",
        "-inform",
        "DER",
        "-in",
        &d.s("s.csr"),
        "-CA",
        &d.s("ca.pem"),
        "-CAkey",
        &d.s("ca.key"),
        "-sm3",
        "-sigopt",
        SIGOPT,
        "-vfyopt",
        SIGOPT,
        "-days",
        "3",
        "-out",
        &d.s("o_leaf.pem"),
    ]);
    assert_eq!(
        ok(&[
            "x509",
            "verify",
            "--ca-file",
            &d.s("ca.pem"),
            &d.s("o_leaf.pem")
        ]),
        "OK\n"
    );
    // OpenSSL's -vfyopt check of smtool's request is real: under another ID it refuses it.
    openssl_fails(&[
        "x509",
        "-req",
        "-inform",
        "DER",
        "-in",
        &d.s("s.csr"),
        "-CA",
        &d.s("ca.pem"),
        "-CAkey",
        &d.s("ca.key"),
        "-sm3",
        "-sigopt",
        SIGOPT,
        "-vfyopt",
        "distid:other",
        "-out",
        &d.s("o_bad.pem"),
    ]);
}
