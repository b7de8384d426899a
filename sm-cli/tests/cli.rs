//! End-to-end tests of `smtool`: against OpenSSL 3.0's CLI (SM3, SM2 keys, signatures with
//! distinguishing IDs, DER C1C3C2 encryption) in both directions, against the PyPI peers
//! `gmalg` (SM9 signatures, standard-MAC encryption, KEM) and `gmssl-pyx` (GmSSL 3.2: SM9
//! encryption keys as PEM / encrypted PKCS#8, GmSSL-MAC DER ciphertexts) in both directions,
//! and bad input: every failure is one line and the documented exit status (1 for a failed
//! verification / decryption, 2 for usage or input errors), never a panic.
//!
//! The Python interpreter is `$SM_PEERS_PYTHON` (set by `cargo xtask test`); without it the
//! tests create `target/peers-venv` and install the pinned peers there, as sm9's tests do.
//! gmalg is slow (≈ 4 signatures/s), so each gmalg test does a handful of operations.

use std::process::{Command as StdCommand, Output, Stdio};

use assert_cmd::Command;

use crate::common::Dir;
use sm2::pkcs8::DecodePrivateKey as _;

fn smtool() -> Command {
    Command::cargo_bin("smtool").unwrap()
}

/// Runs `smtool args` and asserts success; returns stdout.
fn ok(args: &[&str]) -> Vec<u8> {
    ok_in(args, b"")
}

/// Runs `smtool args` with `stdin` and asserts success; returns stdout.
fn ok_in(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = smtool().args(args).write_stdin(stdin).output().unwrap();
    assert!(
        out.status.success(),
        "smtool {args:?} failed ({:?}): {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs `smtool args` with `stdin`, expects exit status `code` and a one-line message on
/// stderr containing `needle`; returns that line.
fn fails(args: &[&str], stdin: &[u8], code: i32, needle: &str) -> String {
    let out = smtool().args(args).write_stdin(stdin).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(code),
        "smtool {args:?}: stderr {err:?}"
    );
    assert_eq!(
        err.trim_end().lines().count(),
        1,
        "smtool {args:?}: not one line: {err:?}"
    );
    assert!(err.starts_with("smtool: "), "{err:?}");
    for bad in ["panicked", "backtrace", "RUST_BACKTRACE", "internal error"] {
        assert!(!err.contains(bad), "smtool {args:?}: {err:?}");
    }
    assert!(
        err.contains(needle),
        "smtool {args:?}: {err:?} lacks {needle:?}"
    );
    err
}

/// Runs OpenSSL, asserting success; returns stdout.
fn openssl(args: &[&str]) -> Vec<u8> {
    let out = StdCommand::new("openssl")
        .args(args)
        .output()
        .expect("openssl on PATH");
    assert!(
        out.status.success(),
        "openssl {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Runs OpenSSL and returns the whole output (for expected failures).
fn openssl_output(args: &[&str]) -> Output {
    StdCommand::new("openssl")
        .args(args)
        .output()
        .expect("openssl on PATH")
}

use sm_testvectors::peers::run_python as py;

fn unhex(s: &[u8]) -> Vec<u8> {
    hex::decode(String::from_utf8_lossy(s).trim()).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Help and usage.

#[test]
fn help_on_every_subcommand_and_usage_errors() {
    let cmds: &[&[&str]] = &[
        &[],
        &["sm3"],
        &["sm2"],
        &["sm2", "keygen"],
        &["sm2", "pubkey"],
        &["sm2", "show"],
        &["sm2", "sign"],
        &["sm2", "verify"],
        &["sm2", "encrypt"],
        &["sm2", "decrypt"],
        &["sm2", "exchange"],
        &["sm9"],
        &["sm9", "setup"],
        &["sm9", "extract"],
        &["sm9", "pubkey"],
        &["sm9", "show"],
        &["sm9", "sign"],
        &["sm9", "verify"],
        &["sm9", "encrypt"],
        &["sm9", "decrypt"],
        &["sm9", "kem"],
        &["sm9", "kem", "encap"],
        &["sm9", "kem", "decap"],
        &["sm9", "exchange"],
        &["sm4"],
        &["x509"],
        &["x509", "req"],
        &["x509", "cert"],
        &["x509", "verify"],
        &["x509", "show"],
        &["speed"],
        &["completions"],
        &["man"],
    ];
    for c in cmds {
        let mut args = c.to_vec();
        args.push("--help");
        let out = String::from_utf8(ok(&args)).unwrap();
        let usage = format!("Usage: smtool {}", c.join(" "));
        assert!(out.contains(usage.trim_end()), "{args:?}: {out}");
    }
    fails(
        &["sm2", "sign", "--bogus"],
        b"",
        2,
        "unexpected argument '--bogus'",
    );
    fails(&["sm5"], b"", 2, "unrecognized subcommand");
    fails(&["sm2", "sign"], b"", 2, "--key <FILE>");
    fails(
        &["sm2", "sign", "--key", "k", "--format", "ber"],
        b"",
        2,
        "invalid value 'ber'",
    );
    fails(&["sm9", "setup", "--out", "x"], b"", 2, "--sign");
    fails(
        &[
            "sm2",
            "verify",
            "--pubkey",
            "/nonexistent/p.pem",
            "--sig",
            "-",
        ],
        b"",
        2,
        "standard input",
    );
    fails(
        &[
            "sm2",
            "verify",
            "--pubkey",
            "/nonexistent/p.pem",
            "--sig",
            "/nonexistent/s",
        ],
        b"",
        2,
        "cannot open '/nonexistent/p.pem': No such file or directory",
    );
}

// ---------------------------------------------------------------------------------------------
// SM3.

#[test]
fn sm3_digests_hmac_and_check_match_openssl() {
    let d = Dir::new();
    let big: Vec<u8> = (0..3_000_017u32)
        .map(|i| (i.wrapping_mul(2654435761) >> 13) as u8)
        .collect();
    let files = [
        d.write("empty", b""),
        d.write("abc", b"abc"),
        d.write("big", &big),
    ];
    let ours = String::from_utf8(ok(&["sm3", &files[0], &files[1], &files[2]])).unwrap();
    let lines: Vec<&str> = ours.lines().collect();
    assert_eq!(lines.len(), 3);
    // GB/T 32905 example 1.
    assert_eq!(
        lines[1],
        format!(
            "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  {}",
            files[1]
        )
    );
    for (line, f) in lines.iter().zip(&files) {
        let theirs = String::from_utf8(openssl(&["dgst", "-sm3", "-r", f])).unwrap();
        let (digest, _) = theirs.split_once(' ').unwrap();
        assert_eq!(*line, format!("{digest}  {f}"));
    }
    // Standard input, named '-'.
    let stdin = String::from_utf8(ok_in(&["sm3"], b"abc")).unwrap();
    assert_eq!(
        stdin,
        "66c7f0f462eeedd9d1f2d46bdc10e4e24167c4875cf2f7a2297da02b8f4ba8e0  -\n"
    );

    // HMAC-SM3 against OpenSSL.
    let key = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f2021";
    let ours = String::from_utf8(ok(&["sm3", "--hmac-key", key, &files[2]])).unwrap();
    let theirs = String::from_utf8(openssl(&[
        "dgst",
        "-sm3",
        "-mac",
        "HMAC",
        "-macopt",
        &format!("hexkey:{key}"),
        "-r",
        &files[2],
    ]))
    .unwrap();
    assert_eq!(
        ours.split_whitespace().next(),
        theirs.split_whitespace().next()
    );
    assert_ne!(
        ours.split_whitespace().next(),
        lines[2].split_whitespace().next()
    );

    // --check: all OK, then one file changed -> FAILED and exit 1.
    let sums = d.write("sums", format!("{}\n", lines.join("\n")));
    let out = String::from_utf8(ok(&["sm3", "--check", &sums])).unwrap();
    assert_eq!(out.matches(": OK").count(), 3, "{out}");
    d.write("abc", b"abd");
    let out = smtool().args(["sm3", "--check", &sums]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(&format!("{}: FAILED", files[1])),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("did NOT match"));
    // HMAC lists check with the key.
    let hsums = d.write("hsums", ok(&["sm3", "--hmac-key", key, &files[0]]));
    ok(&["sm3", "--check", "--hmac-key", key, &hsums]);
    fails(&["sm3", "--check", &hsums], b"", 1, "did NOT match");
    fails(
        &["sm3", "--check", &d.write("junk", "not a checksum\n")],
        b"",
        2,
        "no properly formatted",
    );
    fails(
        &["sm3", "--hmac-key", "xyz", &files[0]],
        b"",
        2,
        "--hmac-key is not valid hex",
    );
}

// ---------------------------------------------------------------------------------------------
// SM2 with OpenSSL 3.0.

#[test]
fn sm2_keys_interoperate_with_openssl() {
    let d = Dir::new();
    // smtool -> OpenSSL: PKCS#8 and SPKI, PEM and DER.
    ok(&[
        "sm2",
        "keygen",
        "--out",
        &d.s("k.pem"),
        "--pubout",
        &d.s("p.pem"),
    ]);
    assert!(d.text("k.pem").starts_with("-----BEGIN PRIVATE KEY-----\n"));
    let text =
        String::from_utf8(openssl(&["pkey", "-in", &d.s("k.pem"), "-noout", "-text"])).unwrap();
    assert!(text.contains("ASN1 OID: SM2"), "{text}");
    let pub_by_openssl = openssl(&["pkey", "-in", &d.s("k.pem"), "-pubout"]);
    assert_eq!(pub_by_openssl, d.read("p.pem"));
    ok(&[
        "sm2",
        "keygen",
        "--key-format",
        "der",
        "--out",
        &d.s("k.der"),
        "--pubout",
        &d.s("p.der"),
    ]);
    let der_pub = openssl(&[
        "pkey",
        "-inform",
        "DER",
        "-in",
        &d.s("k.der"),
        "-pubout",
        "-outform",
        "DER",
    ]);
    assert_eq!(der_pub, d.read("p.der"));
    openssl(&[
        "pkey",
        "-pubin",
        "-inform",
        "DER",
        "-in",
        &d.s("p.der"),
        "-noout",
    ]);

    // OpenSSL -> smtool: PKCS#8, SEC1 ("EC PRIVATE KEY" with parameters), DER.
    openssl(&[
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        "ec_paramgen_curve:SM2",
        "-out",
        &d.s("o.pem"),
    ]);
    let want = openssl(&["pkey", "-in", &d.s("o.pem"), "-pubout"]);
    assert_eq!(ok(&["sm2", "pubkey", "--key", &d.s("o.pem")]), want);
    openssl(&["ec", "-in", &d.s("o.pem"), "-out", &d.s("o_sec1.pem")]);
    assert_eq!(ok(&["sm2", "pubkey", "--key", &d.s("o_sec1.pem")]), want);
    openssl(&[
        "pkey",
        "-in",
        &d.s("o.pem"),
        "-outform",
        "DER",
        "-out",
        &d.s("o.der"),
    ]);
    assert_eq!(ok(&["sm2", "pubkey", "--key", &d.s("o.der")]), want);
    // PEM wrapped at another width (RFC 7468 §2: parsers should accept it).
    let text = String::from_utf8(want.clone()).unwrap();
    let body: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
    let one_line = format!("-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----\n");
    assert_eq!(
        ok(&["sm2", "pubkey", "--key", &d.write("one_line.pem", one_line)]),
        want
    );
    // A public key re-encodes to itself.
    assert_eq!(
        ok(&["sm2", "pubkey", "--key", &d.write("o_pub.pem", &want)]),
        want
    );

    // Encrypted keys. OpenSSL 3.0 has no hmacWithSM3 PBKDF2 PRF, so `--pbe openssl` writes
    // PBKDF2-HMAC-SHA256 + AES-256-CBC (the sm2 crate's `Pbes2::OpenSsl`), which it reads; the
    // GmSSL form round-trips through smtool.
    ok_env(
        &[
            "sm2",
            "keygen",
            "--pass-env",
            "PW",
            "--pbe",
            "openssl",
            "--out",
            &d.s("ke.pem"),
            "--pubout",
            &d.s("ke_pub.pem"),
        ],
        "PW",
        "pass phrase",
    );
    assert!(d
        .text("ke.pem")
        .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
    let pub_ke = openssl(&[
        "pkey",
        "-in",
        &d.s("ke.pem"),
        "-passin",
        "pass:pass phrase",
        "-pubout",
    ]);
    assert_eq!(pub_ke, d.read("ke_pub.pem"));
    ok_env(
        &[
            "sm2",
            "keygen",
            "--pass-env",
            "PW",
            "--out",
            &d.s("kg.pem"),
            "--pubout",
            &d.s("kg_pub.pem"),
        ],
        "PW",
        "pw2",
    );
    let asn1 = String::from_utf8(openssl(&["asn1parse", "-in", &d.s("kg.pem")])).unwrap();
    assert!(
        asn1.contains("1.2.156.10197.1.401.2") || asn1.contains("hmacWithSM3"),
        "{asn1}"
    );
    assert!(asn1.contains("sm4-cbc"), "{asn1}");
    assert_eq!(
        ok_env(
            &["sm2", "pubkey", "--key", &d.s("kg.pem"), "--pass-env", "PW"],
            "PW",
            "pw2"
        ),
        d.read("kg_pub.pem")
    );
    // OpenSSL's own encrypted PKCS#8: default (AES-256-CBC) and SM4-CBC, both PBKDF2-HMAC-SHA256.
    for (name, v2) in [("oe_aes.pem", "aes-256-cbc"), ("oe_sm4.pem", "sm4-cbc")] {
        openssl(&[
            "pkcs8",
            "-topk8",
            "-in",
            &d.s("o.pem"),
            "-v2",
            v2,
            "-passout",
            "pass:xyz",
            "-out",
            &d.s(name),
        ]);
        d.write("pwfile", "xyz\n");
        assert_eq!(
            ok(&[
                "sm2",
                "pubkey",
                "--key",
                &d.s(name),
                "--pass-file",
                &d.s("pwfile")
            ]),
            want
        );
    }
}

/// Runs `smtool args` with environment variable `var=value`; asserts success.
fn ok_env(args: &[&str], var: &str, value: &str) -> Vec<u8> {
    let out = smtool().args(args).env(var, value).output().unwrap();
    assert!(
        out.status.success(),
        "smtool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn sm2_signatures_with_ids_interoperate_with_openssl() {
    let d = Dir::new();
    ok(&[
        "sm2",
        "keygen",
        "--out",
        &d.s("k.pem"),
        "--pubout",
        &d.s("p.pem"),
    ]);
    openssl(&[
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        "ec_paramgen_curve:SM2",
        "-out",
        &d.s("o.pem"),
    ]);
    openssl(&[
        "pkey",
        "-in",
        &d.s("o.pem"),
        "-pubout",
        "-out",
        &d.s("o_pub.pem"),
    ]);
    let msg = d.write("msg", b"SM2 interop message\n\x00\xff");
    let (k, p, o, o_pub) = (d.s("k.pem"), d.s("p.pem"), d.s("o.pem"), d.s("o_pub.pem"));
    // (smtool ID args, OpenSSL -pkeyopt or none)
    let ids: [(&[&str], Option<&str>); 4] = [
        (
            &["--id", "alice@example.com"],
            Some("distid:alice@example.com"),
        ),
        (&["--id", ""], None), // OpenSSL's default is the EMPTY ID
        (&[], Some("distid:1234567812345678")), // smtool's default is the GM/T 0009 one
        (&["--id-hex", "00ff10"], Some("hexdistid:00ff10")),
    ];
    for (i, (our_id, their_id)) in ids.iter().enumerate() {
        let opt: Vec<&str> = their_id.map(|o| vec!["-pkeyopt", o]).unwrap_or_default();
        // smtool signs, OpenSSL verifies.
        let sig = d.s(&format!("ours{i}.der"));
        let mut args = vec!["sm2", "sign", "--key", &k, "--in", &msg, "--out", &sig];
        args.extend_from_slice(our_id);
        ok(&args);
        let mut v = vec![
            "pkeyutl", "-verify", "-pubin", "-inkey", &p, "-rawin", "-digest", "sm3", "-in", &msg,
            "-sigfile", &sig,
        ];
        v.extend_from_slice(&opt);
        assert!(String::from_utf8(openssl(&v))
            .unwrap()
            .contains("Signature Verified Successfully"));
        // OpenSSL signs, smtool verifies (from stdin).
        let theirs = d.s(&format!("theirs{i}.der"));
        let mut s = vec![
            "pkeyutl", "-sign", "-inkey", &o, "-rawin", "-digest", "sm3", "-in", &msg, "-out",
            &theirs,
        ];
        s.extend_from_slice(&opt);
        openssl(&s);
        let mut args = vec!["sm2", "verify", "--pubkey", &o_pub, "--sig", &theirs];
        args.extend_from_slice(our_id);
        assert_eq!(ok_in(&args, &d.read("msg")), b"Signature OK\n");
        // A different ID does not verify (exit 1), on either side.
        let args = [
            "sm2",
            "verify",
            "--pubkey",
            &d.s("o_pub.pem"),
            "--sig",
            &theirs,
            "--id",
            "mallory",
        ];
        fails(&args, &d.read("msg"), 1, "signature verification failed");
        let out = openssl_output(&[
            "pkeyutl",
            "-verify",
            "-pubin",
            "-inkey",
            &d.s("p.pem"),
            "-rawin",
            "-digest",
            "sm3",
            "-in",
            &msg,
            "-sigfile",
            &sig,
            "-pkeyopt",
            "distid:mallory",
        ]);
        assert!(!out.status.success());
    }
    // Raw r||s and text encodings round-trip; a changed message fails.
    let sig = ok_in(
        &[
            "sm2",
            "sign",
            "--key",
            &d.s("k.pem"),
            "--format",
            "raw",
            "--encoding",
            "base64",
        ],
        b"m",
    );
    assert_eq!(base64_len(&sig), 64);
    let s = d.write("sig.b64", &sig);
    ok_in(
        &[
            "sm2",
            "verify",
            "--pubkey",
            &d.s("p.pem"),
            "--sig",
            &s,
            "--format",
            "raw",
            "--encoding",
            "base64",
            "-q",
        ],
        b"m",
    );
    fails(
        &[
            "sm2",
            "verify",
            "--pubkey",
            &d.s("p.pem"),
            "--sig",
            &s,
            "--format",
            "raw",
            "--encoding",
            "base64",
        ],
        b"M",
        1,
        "verification failed",
    );
}

/// Length of the bytes a standard (padded) base64 text decodes to; panics if it is not base64.
fn base64_len(s: &[u8]) -> usize {
    use base64::Engine;
    let t = String::from_utf8_lossy(s);
    base64::engine::general_purpose::STANDARD
        .decode(t.trim())
        .unwrap_or_else(|e| panic!("not base64 ({e}): {t}"))
        .len()
}

#[test]
fn sm2_encryption_interoperates_with_openssl() {
    let d = Dir::new();
    ok(&[
        "sm2",
        "keygen",
        "--out",
        &d.s("k.pem"),
        "--pubout",
        &d.s("p.pem"),
    ]);
    openssl(&[
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        "ec_paramgen_curve:SM2",
        "-out",
        &d.s("o.pem"),
    ]);
    openssl(&[
        "pkey",
        "-in",
        &d.s("o.pem"),
        "-pubout",
        "-out",
        &d.s("o_pub.pem"),
    ]);
    let msg = d.write("msg", b"encrypt me: \x00\x01\x02 and some more text");
    // smtool encrypts (DER C1C3C2), OpenSSL decrypts.
    ok(&[
        "sm2",
        "encrypt",
        "--pubkey",
        &d.s("o_pub.pem"),
        "--in",
        &msg,
        "--out",
        &d.s("c.der"),
    ]);
    assert_eq!(
        openssl(&[
            "pkeyutl",
            "-decrypt",
            "-inkey",
            &d.s("o.pem"),
            "-in",
            &d.s("c.der")
        ]),
        d.read("msg")
    );
    // OpenSSL encrypts, smtool decrypts.
    openssl(&[
        "pkeyutl",
        "-encrypt",
        "-pubin",
        "-inkey",
        &d.s("p.pem"),
        "-in",
        &msg,
        "-out",
        &d.s("c2.der"),
    ]);
    assert_eq!(
        ok_in(
            &["sm2", "decrypt", "--key", &d.s("k.pem")],
            &d.read("c2.der")
        ),
        d.read("msg")
    );
    // Raw orders and text encodings round-trip; the orders are not interchangeable.
    for (fmt, other) in [("c1c3c2", "c1c2c3"), ("c1c2c3", "c1c3c2")] {
        let ct = ok_in(
            &[
                "sm2",
                "encrypt",
                "--pubkey",
                &d.s("p.pem"),
                "--format",
                fmt,
                "--encoding",
                "hex",
            ],
            b"hello",
        );
        assert_eq!(unhex(&ct).len(), 65 + 32 + 5);
        assert_eq!(
            ok_in(
                &[
                    "sm2",
                    "decrypt",
                    "--key",
                    &d.s("k.pem"),
                    "--format",
                    fmt,
                    "--encoding",
                    "hex"
                ],
                &ct
            ),
            b"hello"
        );
        fails(
            &[
                "sm2",
                "decrypt",
                "--key",
                &d.s("k.pem"),
                "--format",
                other,
                "--encoding",
                "hex",
            ],
            &ct,
            1,
            "decryption failed",
        );
    }
}

/// SPKI DER prefix of an SM2 public key (id-ecPublicKey, sm2p256v1, 66-byte BIT STRING).
const SM2_SPKI_PREFIX: &str = "3059301306072a8648ce3d020106082a811ccf5501822d03420004";

#[test]
fn sm2_signatures_and_encryption_interoperate_with_gmssl() {
    let d = Dir::new();
    ok(&[
        "sm2",
        "keygen",
        "--key-format",
        "der",
        "--out",
        &d.s("k.der"),
        "--pubout",
        &d.s("p.der"),
    ]);
    let spki = d.read("p.der");
    assert_eq!(hex::encode(&spki[..27]), SM2_SPKI_PREFIX);
    let msg = d.write("msg", b"GmSSL SM2 interop");
    // smtool signs with the default ID and encrypts; GmSSL (default ID 1234567812345678)
    // verifies and decrypts with its own key; GmSSL signs with ID "alice" and encrypts to ours.
    ok(&[
        "sm2",
        "sign",
        "--key",
        &d.s("k.der"),
        "--in",
        &msg,
        "--out",
        &d.s("s.der"),
    ]);
    let out = py(
        r#"
import sys, gmssl_pyx
ours, msg, sig = (bytes.fromhex(a) for a in sys.argv[1:4])
print(gmssl_pyx.sm2_verify(ours, msg, sig), gmssl_pyx.sm2_verify(ours, msg + b"x", sig))
pk, sk = gmssl_pyx.sm2_key_generate()
open(sys.argv[4], "wb").write(sk)
print(pk.hex())
print(gmssl_pyx.sm2_sign(sk, pk, msg, b"alice").hex())
print(gmssl_pyx.sm2_encrypt(ours, b"from GmSSL").hex())
"#,
        &[
            &hex::encode(&spki[27..]),
            &hex::encode(d.read("msg")),
            &hex::encode(d.read("s.der")),
            &d.s("g_sk"),
        ],
    );
    assert_eq!(out[0], "True False");
    let their_pub = d.write(
        "g_pub.der",
        hex::decode(format!("{SM2_SPKI_PREFIX}{}", out[1])).unwrap(),
    );
    let sig = d.write("g_sig.der", hex::decode(&out[2]).unwrap());
    ok(&[
        "sm2", "verify", "--pubkey", &their_pub, "--id", "alice", "--sig", &sig, "--in", &msg,
    ]);
    fails(
        &[
            "sm2", "verify", "--pubkey", &their_pub, "--sig", &sig, "--in", &msg,
        ],
        b"",
        1,
        "verification failed",
    );
    let ct = d.write("g_ct.der", hex::decode(&out[3]).unwrap());
    assert_eq!(
        ok(&["sm2", "decrypt", "--key", &d.s("k.der"), "--in", &ct]),
        b"from GmSSL"
    );
    ok_in(
        &[
            "sm2",
            "encrypt",
            "--pubkey",
            &their_pub,
            "--out",
            &d.s("c.der"),
        ],
        b"from smtool",
    );
    let out = py(
        r#"
import sys, gmssl_pyx
print(gmssl_pyx.sm2_decrypt(open(sys.argv[1], "rb").read(), open(sys.argv[2], "rb").read()))
"#,
        &[&d.s("g_sk"), &d.s("c.der")],
    );
    assert_eq!(out, ["b'from smtool'"]);
}

// ---------------------------------------------------------------------------------------------
// SM9 with gmalg (standard MAC, raw encodings) and gmssl-pyx (GmSSL DER / PEM, GmSSL MAC).

#[test]
fn sm9_signatures_interoperate_with_gmalg() {
    let d = Dir::new();
    ok(&[
        "sm9",
        "setup",
        "--no-encrypt",
        "--sign",
        "--out",
        &d.s("msk.pem"),
        "--pubout",
        &d.s("mpk.pem"),
    ]);
    assert!(d
        .text("mpk.pem")
        .starts_with("-----BEGIN SM9 SIGN MASTER PUBLIC KEY-----\n"));
    ok(&[
        "sm9",
        "extract",
        "--master",
        &d.s("msk.pem"),
        "--id",
        "alice@example.com",
        "--out",
        &d.s("alice.pem"),
    ]);
    let msg = d.write("msg", b"Chinese IBS standard \x00\x01");
    // The raw values gmalg works with, from our PEM files (read back by the sm9 crate).
    let kgc = sm9::SignMasterKey::from_pkcs8_pem(&d.text("msk.pem")).unwrap();
    let mpk = sm9::SignMasterPublicKey::from_pem(&d.text("mpk.pem")).unwrap();
    assert_eq!(&mpk, kgc.public_key());
    let user = sm9::SignUserKey::from_pkcs8_pem(&d.text("alice.pem")).unwrap();
    assert_eq!(
        user.ds_bytes(),
        kgc.extract(b"alice@example.com").unwrap().ds_bytes()
    );

    // smtool signs (raw h||S, hex); gmalg verifies it and rejects it for another message.
    let sig = ok(&[
        "sm9",
        "sign",
        "--key",
        &d.s("alice.pem"),
        "--in",
        &msg,
        "--format",
        "raw",
        "--encoding",
        "hex",
    ]);
    let sig = unhex(&sig);
    // gmalg signs with the key it extracts itself from the same master key.
    let out = py(
        r#"
import sys, gmalg
ks, mpk, msg, h, S = (bytes.fromhex(a) for a in sys.argv[1:6])
uid = b"alice@example.com"
v = gmalg.SM9(hid_s=b"\x01", mpk_s=mpk, uid=uid)
print(v.verify(msg, h, S)); print(v.verify(msg + b"x", h, S))
kgc = gmalg.SM9KGC(hid_s=b"\x01", msk_s=ks, mpk_s=mpk)
s = gmalg.SM9(hid_s=b"\x01", mpk_s=mpk, sk_s=kgc.generate_sk_sign(uid), uid=uid)
h2, S2 = s.sign(msg)
print((h2 + S2).hex())
"#,
        &[
            &hex::encode(kgc.to_bytes()),
            &hex::encode(mpk.to_bytes()),
            &hex::encode(d.read("msg")),
            &hex::encode(&sig[..32]),
            &hex::encode(&sig[32..]),
        ],
    );
    assert_eq!(out[..2], ["True", "False"]);
    // gmalg's signature verifies with smtool, raw (hex) and converted to GmSSL DER.
    let raw = d.write("g.hex", &out[2]);
    assert_eq!(
        ok(&[
            "sm9",
            "verify",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "alice@example.com",
            "--sig",
            &raw,
            "--format",
            "raw",
            "--encoding",
            "hex",
            "--in",
            &msg
        ]),
        b"Signature OK\n"
    );
    let der = sm9::Signature::from_bytes(&hex::decode(&out[2]).unwrap())
        .unwrap()
        .to_der()
        .unwrap();
    let der = d.write("g.der", der);
    ok_in(
        &[
            "sm9",
            "verify",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "alice@example.com",
            "--sig",
            &der,
        ],
        &d.read("msg"),
    );
    fails(
        &[
            "sm9",
            "verify",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "bob@example.com",
            "--sig",
            &der,
        ],
        &d.read("msg"),
        1,
        "signature verification failed",
    );
    fails(
        &[
            "sm9",
            "verify",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "alice@example.com",
            "--sig",
            &der,
        ],
        b"other",
        1,
        "signature verification failed",
    );
}

/// An unencrypted SM9 encryption master key pair (`msk.pem`, `mpk.pem`) and Bob's user key
/// (`bob.pem`), made by smtool.
fn sm9_enc_keys_for_bob() -> Dir {
    let d = Dir::new();
    ok(&[
        "sm9",
        "setup",
        "--no-encrypt",
        "--enc",
        "--out",
        &d.s("msk.pem"),
        "--pubout",
        &d.s("mpk.pem"),
    ]);
    ok(&[
        "sm9",
        "extract",
        "--master",
        &d.s("msk.pem"),
        "--id",
        "Bob",
        "--out",
        &d.s("bob.pem"),
    ]);
    d
}

#[test]
fn sm9_encryption_and_kem_interoperate_with_gmalg() {
    let d = sm9_enc_keys_for_bob();
    let kgc = sm9::EncMasterKey::from_pkcs8_pem(&d.text("msk.pem")).unwrap();
    let mpk = sm9::EncMasterPublicKey::from_pem(&d.text("mpk.pem")).unwrap();
    assert_eq!(&mpk, kgc.public_key());
    let msg = b"standard MAC interop".as_slice();
    // smtool encrypts (raw C1||C3||C2, standard MAC) and encapsulates; gmalg decrypts and
    // decapsulates, then encrypts and encapsulates for smtool.
    let ct = ok_in(
        &[
            "sm9",
            "encrypt",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "Bob",
            "--format",
            "raw",
            "--encoding",
            "hex",
        ],
        msg,
    );
    ok(&[
        "sm9",
        "kem",
        "encap",
        "--pubkey",
        &d.s("mpk.pem"),
        "--id",
        "Bob",
        "--len",
        "40",
        "--encoding",
        "hex",
        "--key-out",
        &d.s("k.hex"),
        "--out",
        &d.s("c.hex"),
    ]);
    let out = py(
        r#"
import sys, gmalg
ke, mpk, ct, c = (bytes.fromhex(a) for a in sys.argv[1:5])
kgc = gmalg.SM9KGC(hid_e=b"\x03", msk_e=ke, mpk_e=mpk)
bob = gmalg.SM9(hid_e=b"\x03", mpk_e=mpk, sk_e=kgc.generate_sk_encrypt(b"Bob"), uid=b"Bob")
print(bob.decrypt(ct).hex())
print(bob.decapsulate(c, 40).hex())
print(bob.encrypt(b"from gmalg", b"Bob").hex())
K, C = bob.encapsulate(24, b"Bob"); print(K.hex()); print(C.hex())
"#,
        &[
            &hex::encode(kgc.to_bytes()),
            &hex::encode(mpk.to_bytes()),
            String::from_utf8(ct).unwrap().trim(),
            d.text("c.hex").trim(),
        ],
    );
    assert_eq!(hex::decode(&out[0]).unwrap(), msg);
    assert_eq!(out[1], d.text("k.hex").trim());
    let theirs = d.write("g.hex", &out[2]);
    assert_eq!(
        ok(&[
            "sm9",
            "decrypt",
            "--key",
            &d.s("bob.pem"),
            "--id",
            "Bob",
            "--format",
            "raw",
            "--cipher",
            "kdf",
            "--encoding",
            "hex",
            "--in",
            &theirs
        ]),
        b"from gmalg"
    );
    fails(
        &[
            "sm9",
            "decrypt",
            "--key",
            &d.s("bob.pem"),
            "--id",
            "Bob",
            "--format",
            "raw",
            "--cipher",
            "kdf",
            "--encoding",
            "hex",
            "--mac",
            "gmssl",
            "--in",
            &theirs,
        ],
        b"",
        1,
        "decryption failed",
    );
    let c = d.write("gc.hex", &out[4]);
    assert_eq!(
        String::from_utf8(ok(&[
            "sm9",
            "kem",
            "decap",
            "--key",
            &d.s("bob.pem"),
            "--id",
            "Bob",
            "--len",
            "24",
            "--encoding",
            "hex",
            "--in",
            &c
        ]))
        .unwrap()
        .trim(),
        out[3]
    );
}

/// The empty message (accepted as by the library and GmSSL): smtool round trips in every cipher
/// and format; the raw KDF-stream ciphertext is C1 || C3 (97 bytes), which gmalg decrypts to the
/// empty message.
#[test]
fn sm9_encrypts_the_empty_message() {
    let d = sm9_enc_keys_for_bob();
    for (cipher, raw_len) in [("kdf", 97), ("sm4-ecb", 97 + 16), ("sm4-cbc", 97 + 32)] {
        for format in ["raw", "der"] {
            let base = ["--id", "Bob", "--format", format, "--cipher", cipher];
            let (mpk, bob) = (d.s("mpk.pem"), d.s("bob.pem"));
            let mut enc = vec!["sm9", "encrypt", "--pubkey", &mpk];
            enc.extend(base);
            let ct = ok_in(&enc, b"");
            if format == "raw" {
                assert_eq!(ct.len(), raw_len, "{cipher} raw");
            }
            let path = d.write(&format!("{cipher}.{format}"), &ct);
            let mut dec = vec!["sm9", "decrypt", "--key", &bob, "--in", &path];
            dec.extend(base);
            assert_eq!(ok(&dec), b"", "{cipher} {format}");
        }
    }
    let kgc = sm9::EncMasterKey::from_pkcs8_pem(&d.text("msk.pem")).unwrap();
    let out = py(
        r#"
import sys, gmalg
ke, mpk, ct = (bytes.fromhex(a) for a in sys.argv[1:4])
kgc = gmalg.SM9KGC(hid_e=b"\x03", msk_e=ke, mpk_e=mpk)
bob = gmalg.SM9(hid_e=b"\x03", mpk_e=mpk, sk_e=kgc.generate_sk_encrypt(b"Bob"), uid=b"Bob")
print(repr(bob.decrypt(ct)))
"#,
        &[
            &hex::encode(kgc.to_bytes()),
            &hex::encode(kgc.public_key().to_bytes()),
            &hex::encode(std::fs::read(d.s("kdf.raw")).unwrap()),
        ],
    );
    assert_eq!(out[0], "b''");
}

#[test]
fn sm9_keys_and_ciphertexts_interoperate_with_gmssl() {
    let d = Dir::new();
    // GmSSL writes an encrypted master key, its public key, an encrypted user key and a
    // ciphertext; smtool reads them all and decrypts.
    py(
        r#"
import sys
from gmssl_pyx import SM9MasterKey
d = sys.argv[1]
m = SM9MasterKey.generate()
m.encrypt_to_pem("master pw", d + "/g_msk.pem")
m.public_key().to_pem(d + "/g_mpk.pem")
k = m.extract_key(b"Bob")
k.encrypt_to_pem("user pw", d + "/g_bob.pem")
open(d + "/g_ct.der", "wb").write(m.public_key().encrypt(b"Bob", b"from GmSSL"))
"#,
        &[d.0.path().to_str().unwrap()],
    );
    let bob = |pw: &str, ct: &str, mac: &str| {
        smtool()
            .args([
                "sm9",
                "decrypt",
                "--key",
                &d.s("g_bob.pem"),
                "--pass-env",
                "PW",
                "--id",
                "Bob",
                "--mac",
                mac,
                "--in",
                ct,
            ])
            .env("PW", pw)
            .output()
            .unwrap()
    };
    let out = bob("user pw", &d.s("g_ct.der"), "gmssl");
    assert_eq!(out.stdout, b"from GmSSL");
    // The default MAC for DER is GmSSL's.
    assert_eq!(
        ok_env(
            &[
                "sm9",
                "decrypt",
                "--key",
                &d.s("g_bob.pem"),
                "--pass-env",
                "PW",
                "--id",
                "Bob",
                "--in",
                &d.s("g_ct.der"),
            ],
            "PW",
            "user pw"
        ),
        b"from GmSSL"
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stdout, b"from GmSSL");
    assert_eq!(
        bob("user pw", &d.s("g_ct.der"), "standard").status.code(),
        Some(1)
    );
    let wrong = bob("not it", &d.s("g_ct.der"), "gmssl");
    assert_eq!(wrong.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("wrong password"));
    // smtool extracts from GmSSL's master key; smtool encrypts to GmSSL's master public key.
    ok_env(
        &[
            "sm9",
            "extract",
            "--master",
            &d.s("g_msk.pem"),
            "--pass-env",
            "PW",
            "--id",
            "Carol",
            "--out",
            &d.s("carol.pem"),
        ],
        "PW",
        "master pw",
    );
    ok_in(
        &[
            "sm9",
            "encrypt",
            "--pubkey",
            &d.s("g_mpk.pem"),
            "--id",
            "Carol",
            "--mac",
            "gmssl",
            "--cipher",
            "sm4-cbc",
            "--out",
            &d.s("c_cbc.der"),
        ],
        b"cbc to Carol",
    );
    assert_eq!(
        ok(&[
            "sm9",
            "decrypt",
            "--key",
            &d.s("carol.pem"),
            "--id",
            "Carol",
            "--mac",
            "gmssl",
            "--in",
            &d.s("c_cbc.der")
        ]),
        b"cbc to Carol"
    );

    // smtool writes an encrypted master key, master public key, encrypted user key and a
    // GmSSL-MAC ciphertext; GmSSL reads them all and decrypts.
    ok_env(
        &[
            "sm9",
            "setup",
            "--enc",
            "--out-pass-env",
            "PW",
            "--out",
            &d.s("msk.pem"),
            "--pubout",
            &d.s("mpk.pem"),
        ],
        "PW",
        "s3cret",
    );
    assert!(d
        .text("msk.pem")
        .starts_with("-----BEGIN ENCRYPTED PRIVATE KEY-----\n"));
    ok_env(
        &[
            "sm9",
            "extract",
            "--master",
            &d.s("msk.pem"),
            "--pass-env",
            "PW",
            "--out-pass-env",
            "PW",
            "--id",
            "Dave",
            "--out",
            &d.s("dave.pem"),
        ],
        "PW",
        "s3cret",
    );
    ok_in(
        &[
            "sm9",
            "encrypt",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "Dave",
            "--out",
            &d.s("ct.der"),
        ],
        b"from smtool",
    );
    let out = py(
        r#"
import sys
from gmssl_pyx import SM9MasterKey, SM9PrivateKey, SM9MasterPublicKey
d = sys.argv[1]
m = SM9MasterKey.decrypt_from_pem("s3cret", d + "/msk.pem")
mpk = SM9MasterPublicKey.from_pem(d + "/mpk.pem")
print(m.public_key().to_der() == mpk.to_der())
dave = SM9PrivateKey.decrypt_from_pem("s3cret", d + "/dave.pem")
print(dave.to_der() == m.extract_key(b"Dave").to_der())
print(dave.decrypt(b"Dave", open(d + "/ct.der", "rb").read()))
"#,
        &[d.0.path().to_str().unwrap()],
    );
    assert_eq!(out, ["True", "True", "b'from smtool'"]);
}

// ---------------------------------------------------------------------------------------------
// Bad input.

#[test]
fn bad_input_gives_one_line_and_documented_status() {
    let d = Dir::new();
    ok(&[
        "sm2",
        "keygen",
        "--out",
        &d.s("k.pem"),
        "--pubout",
        &d.s("p.pem"),
    ]);
    ok_env(
        &["sm2", "keygen", "--pass-env", "PW", "--out", &d.s("ke.pem")],
        "PW",
        "right",
    );
    ok(&[
        "sm9",
        "setup",
        "--no-encrypt",
        "--sign",
        "--out",
        &d.s("msk.pem"),
        "--pubout",
        &d.s("mpk.pem"),
    ]);
    ok(&[
        "sm9",
        "extract",
        "--master",
        &d.s("msk.pem"),
        "--id",
        "A",
        "--out",
        &d.s("a.pem"),
    ]);
    openssl(&[
        "genpkey",
        "-algorithm",
        "EC",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-out",
        &d.s("p256.pem"),
    ]);
    let k = d.s("k.pem");

    // Wrong key types (exit 2).
    fails(
        &["sm2", "sign", "--key", &d.s("a.pem")],
        b"m",
        2,
        "wrong key type: ",
    );
    fails(
        &["sm2", "sign", "--key", &d.s("a.pem")],
        b"m",
        2,
        "holds an SM9 user signing key, expected an SM2 private key",
    );
    fails(
        &["sm2", "sign", "--key", &d.s("p.pem")],
        b"m",
        2,
        "holds an SM2 public key, expected an SM2 private key",
    );
    fails(
        &["sm2", "sign", "--key", &d.s("p256.pem")],
        b"m",
        2,
        "EC private key on curve P-256 (not SM2)",
    );
    fails(
        &["sm2", "verify", "--pubkey", &k, "--sig", &k],
        b"m",
        2,
        "sm2 pubkey",
    );
    fails(
        &["sm9", "sign", "--key", &k],
        b"m",
        2,
        "holds an SM2 private key, expected an SM9 user signing key",
    );
    fails(
        &[
            "sm9",
            "verify",
            "--pubkey",
            &d.s("msk.pem"),
            "--id",
            "A",
            "--sig",
            &k,
        ],
        b"m",
        2,
        "expected an SM9 signature master public key",
    );
    fails(
        &["sm9", "encrypt", "--pubkey", &d.s("mpk.pem"), "--id", "A"],
        b"m",
        2,
        "expected an SM9 encryption master public key",
    );

    // Passwords.
    fails(
        &["sm2", "sign", "--key", &d.s("ke.pem")],
        b"m",
        2,
        "password-encrypted: give the password",
    );
    let out = smtool()
        .args(["sm2", "sign", "--key", &d.s("ke.pem"), "--pass-env", "PW"])
        .env("PW", "wrong")
        .write_stdin("m")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "smtool: '{}': wrong password (or corrupted encrypted key)\n",
            d.s("ke.pem")
        )
    );
    fails(
        &[
            "sm2",
            "sign",
            "--key",
            &d.s("ke.pem"),
            "--pass-env",
            "SMTOOL_TEST_UNSET_VAR",
        ],
        b"m",
        2,
        "SMTOOL_TEST_UNSET_VAR",
    );

    // Corrupted PEM and DER.
    let pem = d.text("k.pem");
    let broken = pem.replacen("MIG", "M*G", 1);
    fails(
        &["sm2", "sign", "--key", &d.write("b1.pem", broken)],
        b"m",
        2,
        "corrupted PEM",
    );
    fails(
        &[
            "sm2",
            "sign",
            "--key",
            &d.write("b2.pem", &pem[..pem.len() - 30]),
        ],
        b"m",
        2,
        "no END line",
    );
    fails(
        &[
            "sm2",
            "sign",
            "--key",
            &d.write("b3.der", b"\x30\x03\x02\x01"),
        ],
        b"m",
        2,
        "not a recognised key",
    );
    fails(
        &["sm2", "sign", "--key", &d.write("empty", b"")],
        b"m",
        2,
        "empty key file",
    );

    // Truncated / malformed signatures (exit 1).
    let sig = ok_in(&["sm2", "sign", "--key", &k], b"m");
    let s = d.write("short.der", &sig[..sig.len() - 1]);
    fails(
        &["sm2", "verify", "--pubkey", &d.s("p.pem"), "--sig", &s],
        b"m",
        1,
        "invalid signature",
    );
    fails(
        &[
            "sm2",
            "verify",
            "--pubkey",
            &d.s("p.pem"),
            "--sig",
            &d.write("e", b""),
        ],
        b"m",
        1,
        "invalid signature",
    );
    fails(
        &[
            "sm2",
            "verify",
            "--pubkey",
            &d.s("p.pem"),
            "--sig",
            &d.write("h", b"zz"),
            "--encoding",
            "hex",
        ],
        b"m",
        1,
        "not valid hex",
    );
    let sig9 = ok_in(&["sm9", "sign", "--key", &d.s("a.pem")], b"m");
    let s9 = d.write("short9.der", &sig9[..sig9.len() - 5]);
    fails(
        &[
            "sm9",
            "verify",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "A",
            "--sig",
            &s9,
        ],
        b"m",
        1,
        "invalid signature",
    );
    // Byte 10 lies in the DER OCTET STRING of h: a well-formed signature that does not verify.
    let mut bad = sig9.clone();
    bad[10] ^= 1;
    fails(
        &[
            "sm9",
            "verify",
            "--pubkey",
            &d.s("mpk.pem"),
            "--id",
            "A",
            "--sig",
            &d.write("bad9", bad),
        ],
        b"m",
        1,
        "signature verification failed",
    );

    // Tampered ciphertexts (exit 1), wherever the flipped bit lands.
    let ct = ok_in(
        &["sm2", "encrypt", "--pubkey", &d.s("p.pem")],
        b"secret message",
    );
    for i in [3, 40, ct.len() - 40, ct.len() - 1] {
        let mut t = ct.clone();
        t[i] ^= 0x04;
        fails(&["sm2", "decrypt", "--key", &k], &t, 1, "decryption failed");
    }
    fails(
        &["sm2", "decrypt", "--key", &k],
        &ct[..ct.len() - 2],
        1,
        "decryption failed",
    );
    ok(&[
        "sm9",
        "setup",
        "--no-encrypt",
        "--enc",
        "--out",
        &d.s("emsk.pem"),
        "--pubout",
        &d.s("empk.pem"),
    ]);
    ok(&[
        "sm9",
        "extract",
        "--master",
        &d.s("emsk.pem"),
        "--id",
        "B",
        "--out",
        &d.s("b.pem"),
    ]);
    let ct9 = ok_in(
        &["sm9", "encrypt", "--pubkey", &d.s("empk.pem"), "--id", "B"],
        b"secret",
    );
    for i in [10, 50, ct9.len() - 1] {
        let mut t = ct9.clone();
        t[i] ^= 0x01;
        fails(
            &["sm9", "decrypt", "--key", &d.s("b.pem"), "--id", "B"],
            &t,
            1,
            "decryption failed",
        );
    }
    assert_eq!(
        ok_in(
            &["sm9", "decrypt", "--key", &d.s("b.pem"), "--id", "B"],
            &ct9
        ),
        b"secret"
    );
    fails(
        &["sm9", "decrypt", "--key", &d.s("b.pem"), "--id", "C"],
        &ct9,
        1,
        "decryption failed",
    );
    fails(
        &[
            "sm9",
            "decrypt",
            "--key",
            &d.s("b.pem"),
            "--id",
            "B",
            "--format",
            "raw",
        ],
        &ct9,
        2,
        "--cipher",
    );

    // Other input errors.
    fails(
        &["sm2", "encrypt", "--pubkey", &d.s("p.pem")],
        b"",
        2,
        "empty plaintext",
    );
    fails(
        &[
            "sm9",
            "extract",
            "--master",
            &d.s("msk.pem"),
            "--out",
            &d.s("x"),
        ],
        b"",
        2,
        "--id",
    );
    fails(
        &["sm2", "sign", "--key", &k, "--id-hex", "0g"],
        b"m",
        2,
        "--id-hex is not valid hex",
    );
    fails(
        &["sm2", "sign", "--key", &k, "--id", &"x".repeat(8192)],
        b"m",
        2,
        "at most 8191",
    );
    fails(
        &["sm3", "/nonexistent/file"],
        b"",
        2,
        "cannot open '/nonexistent/file'",
    );
    fails(
        &["sm3", d.0.path().to_str().unwrap()],
        b"",
        2,
        "is a directory",
    );
}

// ---------------------------------------------------------------------------------------------
// Streaming.

/// Runs `smtool args` under a 64 MiB address-space limit with `mib` MiB of zeros on stdin (the
/// last byte 0x01 instead when `flip_last`), so an implementation that loads its input would fail.
fn run_under_memory_limit(args: &str, mib: usize, flip_last: bool) -> std::process::Output {
    let bin = assert_cmd::cargo::cargo_bin("smtool");
    let input = if flip_last {
        format!("{{ head -c $(({mib} * 1048576 - 1)) /dev/zero; printf '\\001'; }}")
    } else {
        format!("head -c {mib}M /dev/zero")
    };
    let script = format!(
        "{input} | (ulimit -v 65536 && exec {} {args})",
        bin.display()
    );
    StdCommand::new("bash")
        .arg("-c")
        .arg(&script)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

/// [`run_under_memory_limit`] on the all-zero stream, which must succeed; returns stdout.
fn under_memory_limit(args: &str, mib: usize) -> String {
    let out = run_under_memory_limit(args, mib, false);
    assert!(
        out.status.success(),
        "smtool {args}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The same stream with its last byte changed must fail verification (exit 1).
fn fails_on_changed_stream(args: &str, mib: usize) {
    let out = run_under_memory_limit(args, mib, true);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "smtool {args}: {err}");
    assert!(err.contains("verification failed"), "smtool {args}: {err}");
}

#[test]
fn large_inputs_are_streamed() {
    let d = Dir::new();
    let mib = 256;
    let ours = under_memory_limit("sm3", mib);
    let theirs = StdCommand::new("bash")
        .arg("-c")
        .arg(format!("head -c {mib}M /dev/zero | openssl dgst -sm3 -r"))
        .output()
        .unwrap();
    let theirs = String::from_utf8(theirs.stdout).unwrap();
    assert_eq!(ours.split(' ').next(), theirs.split(' ').next());
    // SM2 and SM9 signatures over the same stream verify against the same bytes, and fail
    // against the stream with its last byte changed.
    ok(&[
        "sm2",
        "keygen",
        "--out",
        &d.s("k.pem"),
        "--pubout",
        &d.s("p.pem"),
    ]);
    let sig = under_memory_limit(
        &format!("sm2 sign --key {} --encoding hex", d.s("k.pem")),
        mib,
    );
    let sig = d.write("sig.hex", sig);
    let verify = format!(
        "sm2 verify --pubkey {} --sig {sig} --encoding hex",
        d.s("p.pem")
    );
    under_memory_limit(&verify, mib);
    fails_on_changed_stream(&verify, mib);
    ok(&[
        "sm9",
        "setup",
        "--no-encrypt",
        "--sign",
        "--out",
        &d.s("msk.pem"),
        "--pubout",
        &d.s("mpk.pem"),
    ]);
    ok(&[
        "sm9",
        "extract",
        "--master",
        &d.s("msk.pem"),
        "--id",
        "A",
        "--out",
        &d.s("a.pem"),
    ]);
    let sig = under_memory_limit(
        &format!("sm9 sign --key {} --encoding base64", d.s("a.pem")),
        mib,
    );
    let sig = d.write("sig9.b64", sig);
    let verify = format!(
        "sm9 verify --mpk {} --id A --sig {sig} --encoding base64",
        d.s("mpk.pem")
    );
    under_memory_limit(&verify, mib);
    fails_on_changed_stream(&verify, mib);
}

// ---------------------------------------------------------------------------------------------
// Operators' traps (issue 19): defaults, names and messages.

#[test]
fn openssl_ecparam_keys_with_sm2_parameters_are_read() {
    let d = Dir::new();
    // OpenSSL 3 writes a "SM2 PARAMETERS" block before the key.
    openssl(&["ecparam", "-genkey", "-name", "SM2", "-out", &d.s("k.pem")]);
    assert!(d
        .text("k.pem")
        .starts_with("-----BEGIN SM2 PARAMETERS-----\n"));
    let want = openssl(&["pkey", "-in", &d.s("k.pem"), "-pubout"]);
    assert_eq!(ok(&["sm2", "pubkey", "--key", &d.s("k.pem")]), want);
}

#[test]
fn sm9_master_keys_are_encrypted_unless_asked_and_checked() {
    let d = Dir::new();
    let e = fails(
        &["sm9", "setup", "--sign", "--out", &d.s("m.pem")],
        b"",
        2,
        "--no-encrypt",
    );
    assert!(e.contains("--out-pass-env"), "{e}");
    assert!(!d.p("m.pem").exists());
    // The SM9 --id help does not advertise SM2's default ID.
    for sub in ["extract", "verify", "encrypt", "decrypt"] {
        let help = String::from_utf8(ok(&["sm9", sub, "--help"])).unwrap();
        assert!(help.contains("--id <ID>"), "{help}");
        assert!(!help.contains("1234567812345678"), "sm9 {sub}: {help}");
    }
    let help = String::from_utf8(ok(&["sm2", "sign", "--help"])).unwrap();
    assert!(help.contains("1234567812345678"), "{help}");
    // --pbe gmssl says OpenSSL 3.0 cannot read it.
    let help = String::from_utf8(ok(&["sm2", "keygen", "--help"])).unwrap();
    assert!(help.contains("OpenSSL 3.0 cannot read"), "{help}");

    // A bare master secret becomes a key file; its master public key is re-derived.
    let ks = "0130E78459D78545CB54C587E02CF480CE0B66340F319F348A1D5B1F2DC5F4";
    let ks = format!("00{ks}"); // 32 bytes
    d.write("ks.hex", format!("{ks}\n"));
    ok_env(
        &[
            "sm9",
            "setup",
            "--sign",
            "--secret-file",
            &d.s("ks.hex"),
            "--out-pass-env",
            "PW",
            "--out",
            &d.s("msk.pem"),
            "--pubout",
            &d.s("mpk.pem"),
        ],
        "PW",
        "pw",
    );
    let kgc =
        sm9::SignMasterKey::from_bytes(&hex::decode(&ks).unwrap().try_into().unwrap()).unwrap();
    assert_eq!(d.text("mpk.pem"), kgc.public_key().to_pem().unwrap());
    assert_eq!(
        ok_env(
            &[
                "sm9",
                "pubkey",
                "--key",
                &d.s("msk.pem"),
                "--pass-env",
                "PW"
            ],
            "PW",
            "pw"
        ),
        d.read("mpk.pem")
    );
    // From a user key too (it carries the master public key), and from the mpk itself.
    ok_env(
        &[
            "sm9",
            "extract",
            "--master",
            &d.s("msk.pem"),
            "--pass-env",
            "PW",
            "--id",
            "Alice",
            "--out",
            &d.s("a.pem"),
        ],
        "PW",
        "pw",
    );
    assert_eq!(
        ok(&["sm9", "pubkey", "--key", &d.s("a.pem")]),
        d.read("mpk.pem")
    );
    assert_eq!(
        ok(&["sm9", "pubkey", "--key", &d.s("mpk.pem")]),
        d.read("mpk.pem")
    );
    d.write("bad.hex", "12345");
    fails(
        &[
            "sm9",
            "setup",
            "--enc",
            "--no-encrypt",
            "--secret-file",
            &d.s("bad.hex"),
        ],
        b"",
        2,
        "64 hexadecimal digits",
    );

    // A master key whose public point belongs to another secret: the pair does not match.
    let other = sm9::SignMasterKey::from_bytes(&[7u8; 32]).unwrap();
    let mut der = kgc.to_der().unwrap().to_vec();
    let mine = kgc.public_key().to_bytes();
    let pos = der.windows(mine.len()).position(|w| w == mine).unwrap();
    der[pos..pos + mine.len()].copy_from_slice(&other.public_key().to_bytes());
    let spliced = d.write("spliced.der", &der);
    fails(
        &["sm9", "extract", "--master", &spliced, "--id", "x"],
        b"",
        2,
        "does not match its secret",
    );
}

// ---------------------------------------------------------------------------------------------
// SM4 file encryption.

/// Sizes around the block and the 64 KiB chunk of the streaming.
const SM4_SIZES: &[usize] = &[0, 1, 15, 16, 17, 65535, 65536, 65537, 200_003];

fn pseudo_random(n: usize, seed: u8) -> Vec<u8> {
    (0..n)
        .map(|i| (i as u32).wrapping_mul(2654435761).to_be_bytes()[0] ^ seed)
        .collect()
}

#[test]
fn sm4_cbc_and_ctr_match_openssl_enc_both_ways() {
    let d = Dir::new();
    let key = "0123456789abcdeffedcba9876543210";
    let key_file = d.write("key.hex", format!("{key}\n"));
    let iv = "000102030405060708090a0b0c0d0e0f";
    for &n in SM4_SIZES {
        let p = d.write("p", pseudo_random(n, n as u8));
        for mode in ["cbc", "ctr"] {
            let ours = ok(&[
                "sm4",
                "-e",
                "--mode",
                mode,
                "--key-file",
                &key_file,
                "--iv",
                iv,
                "--in",
                &p,
            ]);
            let cipher = format!("-sm4-{mode}");
            let theirs = openssl(&["enc", &cipher, "-K", key, "-iv", iv, "-in", &p]);
            assert_eq!(ours, theirs, "{mode} {n}");
            let c = d.write("c", &theirs);
            assert_eq!(
                ok(&["sm4", "-d", "-m", mode, "-K", key, "--iv", iv, "--in", &c]),
                pseudo_random(n, n as u8),
                "{mode} {n}"
            );
            // And OpenSSL decrypts what we wrote to a file.
            let out = d.s("c2");
            ok(&[
                "sm4", "-e", "-m", mode, "-K", key, "--iv", iv, "--in", &p, "--out", &out,
            ]);
            assert_eq!(
                openssl(&["enc", "-d", &cipher, "-K", key, "-iv", iv, "-in", &out]),
                pseudo_random(n, n as u8)
            );
        }
    }
    // A wrong key fails the padding check (status 1) and leaves no output file; a truncated
    // ciphertext too.
    let p = d.write("p", b"sixteen bytes!!!0");
    let c = d.write("c", ok(&["sm4", "-e", "-K", key, "--iv", iv, "--in", &p]));
    let wrong = "00000000000000000000000000000000";
    let mut failures = 0;
    for k in [wrong, "0123456789abcdeffedcba9876543211"] {
        let out = smtool()
            .args([
                "sm4",
                "-d",
                "-K",
                k,
                "--iv",
                iv,
                "--in",
                &c,
                "--out",
                &d.s("x"),
            ])
            .output()
            .unwrap();
        // A wrong key gives valid padding with probability about 1/256 per key.
        if out.status.code() == Some(1) {
            failures += 1;
            assert!(!d.p("x").exists());
        }
    }
    assert!(failures >= 1);
    let t = d.write("t", &d.read("c")[..31]);
    fails(
        &["sm4", "-d", "-K", key, "--iv", iv, "--in", &t],
        b"",
        1,
        "decryption failed",
    );
    fails(
        &["sm4", "-e", "-K", key, "--iv", "0011", "--in", &p],
        b"",
        2,
        "--iv must be 16 bytes",
    );
    fails(
        &["sm4", "-e", "-K", "0011", "--iv", iv, "--in", &p],
        b"",
        2,
        "32 hexadecimal digits",
    );
    fails(&["sm4", "-K", key, "--iv", iv], b"", 2, "--encrypt");
}

#[test]
fn sm4_gcm_matches_rfc8998_and_gmssl_both_ways() {
    let d = Dir::new();
    // RFC 8998 Appendix A.1.
    let key = "0123456789ABCDEFFEDCBA9876543210";
    let iv = "00001234567800000000ABCD";
    let aad = "FEEDFACEDEADBEEFFEEDFACEDEADBEEFABADDAD2";
    let p = d.write(
        "p",
        hex::decode(
            "AAAAAAAAAAAAAAAABBBBBBBBBBBBBBBBCCCCCCCCCCCCCCCCDDDDDDDDDDDDDDDD\
             EEEEEEEEEEEEEEEEFFFFFFFFFFFFFFFFEEEEEEEEEEEEEEEEAAAAAAAAAAAAAAAA",
        )
        .unwrap(),
    );
    let want = hex::decode(
        "17F399F08C67D5EE19D0DC9969C4BB7D5FD46FD3756489069157B282BB200735\
         D82710CA5C22F0CCFA7CBF93D496AC15A56834CBCF98C397B4024A2691233B8D\
         83DE3541E4C2B58177E065A9BF7B62EC",
    )
    .unwrap();
    let gcm = |dir: &str, input: &str, aad: &str| {
        let mut args = vec![
            "sm4", dir, "-m", "gcm", "-K", key, "--iv", iv, "--in", input,
        ];
        if !aad.is_empty() {
            args.extend(["--aad", aad]);
        }
        args.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    let run = |args: &[String]| {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        ok(&a)
    };
    assert_eq!(run(&gcm("-e", &p, aad)), want);
    let c = d.write("c", &want);
    assert_eq!(run(&gcm("-d", &c, aad)), d.read("p"));
    // A flipped bit anywhere, or another AAD: status 1, nothing written.
    for i in [0, 63, 64, 79] {
        let mut bad = want.clone();
        bad[i] ^= 1;
        let b = d.write("bad", &bad);
        let mut args: Vec<String> = gcm("-d", &b, aad);
        args.extend(["--out".into(), d.s("x")]);
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        fails(&a, b"", 1, "decryption failed");
        assert!(!d.p("x").exists());
    }
    let a: Vec<String> = gcm("-d", &c, "00");
    let a: Vec<&str> = a.iter().map(String::as_str).collect();
    let e = fails(&a, b"", 1, "decryption failed");
    assert!(e.contains("--aad"), "{e}");

    // GmSSL (gmssl-pyx) both ways, across the streaming chunks, with and without AAD.
    // (gmssl-pyx refuses an empty plaintext.)
    for (n, aad) in [(1usize, "ab"), (65_551, "00112233"), (200_003, "")] {
        let data = pseudo_random(n, 7);
        let p = d.write("p", &data);
        let ours = run(&gcm("-e", &p, aad));
        let out = py(
            r#"
import sys
from gmssl_pyx import sm4_gcm_encrypt, sm4_gcm_decrypt
key, iv, aad = (bytes.fromhex(a) for a in sys.argv[1:4])
ct = open(sys.argv[4], "rb").read()
print(sm4_gcm_decrypt(key, iv, aad, ct[:-16], ct[-16:]) == open(sys.argv[5], "rb").read())
c, t = sm4_gcm_encrypt(key, iv, aad, open(sys.argv[5], "rb").read())
open(sys.argv[6], "wb").write(c + t)
"#,
            &[key, iv, aad, &d.write("ours", &ours), &p, &d.s("theirs")],
        );
        assert_eq!(out, ["True"], "{n}");
        assert_eq!(d.read("theirs"), ours, "{n}");
        let theirs = d.s("theirs");
        assert_eq!(run(&gcm("-d", &theirs, aad)), data, "{n}");
    }
    fails(
        &[
            "sm4",
            "-e",
            "-m",
            "gcm",
            "-K",
            key,
            "--iv",
            "000102030405060708090a0b0c0d0e0f",
        ],
        b"",
        2,
        "--iv must be 12 bytes",
    );
    fails(
        &["sm4", "-d", "-m", "gcm", "-K", key, "--iv", iv],
        b"0123456789",
        1,
        "shorter than a GCM tag",
    );
}

// ---------------------------------------------------------------------------------------------
// Key inspection.

/// `bytes` as `hex_block` prints them (OpenSSL's layout), for the SM9 checks.
fn colon_hex(bytes: &[u8]) -> String {
    bytes
        .chunks(15)
        .map(|l| {
            let h: Vec<String> = l.iter().map(|b| format!("{b:02x}")).collect();
            format!("    {}", h.join(":"))
        })
        .collect::<Vec<_>>()
        .join(":\n")
}

#[test]
fn key_show_matches_openssl_pkey_text_and_hides_secrets() {
    let d = Dir::new();
    ok_env(
        &[
            "sm2",
            "keygen",
            "--out-pass-env",
            "PW",
            "--pbe",
            "openssl",
            "--out",
            &d.s("k.pem"),
            "--pubout",
            &d.s("p.pem"),
        ],
        "PW",
        "pw",
    );
    let text = |args: &[&str]| {
        String::from_utf8(openssl(&[args, &["-passin", "pass:pw", "-noout"]].concat())).unwrap()
    };
    let full = text(&["pkey", "-in", &d.s("k.pem"), "-text"]);
    let public = text(&["pkey", "-in", &d.s("k.pem"), "-text_pub"]);
    let show = |args: &[&str]| String::from_utf8(ok_env(args, "PW", "pw")).unwrap();
    assert_eq!(
        show(&[
            "sm2",
            "show",
            "--key",
            &d.s("k.pem"),
            "--pass-env",
            "PW",
            "--secret"
        ]),
        full
    );
    let hidden = show(&["sm2", "show", "--key", &d.s("k.pem"), "--pass-env", "PW"]);
    assert_eq!(
        hidden,
        format!("{public}priv: (not shown; --secret prints it)\n")
    );
    // The secret's hex appears in the full text only.
    let priv_line = full.lines().nth(2).unwrap().trim().to_string();
    assert!(!hidden.contains(&priv_line), "{hidden}");
    assert_eq!(show(&["sm2", "show", "--key", &d.s("p.pem")]), public);

    // SM9: every kind of key file, the secret only with --secret.
    d.write("ke.hex", "00".repeat(31) + "2a");
    ok(&[
        "sm9",
        "setup",
        "--enc",
        "--no-encrypt",
        "--secret-file",
        &d.s("ke.hex"),
        "--out",
        &d.s("msk.pem"),
        "--pubout",
        &d.s("mpk.pem"),
    ]);
    let kgc = sm9::EncMasterKey::from_bytes(&{
        let mut k = [0u8; 32];
        k[31] = 42;
        k
    })
    .unwrap();
    let ppub = colon_hex(&kgc.public_key().to_bytes());
    let m = show(&["sm9", "show", "--key", &d.s("msk.pem")]);
    assert_eq!(
        m,
        format!(
            "SM9 encryption master key (KGC)\nke: (not shown; --secret prints it)\nPpub-e (G1):\n{ppub}\n"
        )
    );
    let m = show(&["sm9", "show", "--key", &d.s("msk.pem"), "--secret"]);
    assert!(
        m.contains(&format!("ke:\n{}\n", colon_hex(&kgc.to_bytes()[..]))),
        "{m}"
    );
    assert_eq!(
        show(&["sm9", "show", "--key", &d.s("mpk.pem")]),
        format!("SM9 encryption master public key\nPpub-e (G1):\n{ppub}\n")
    );
    for (flag, title) in [
        ("", "SM9 user decryption key (hid 03)"),
        ("--exchange", "SM9 user key-exchange key (hid 02)"),
    ] {
        let (msk, out) = (d.s("msk.pem"), d.s("u.pem"));
        let mut args = vec![
            "sm9", "extract", "--master", &msk, "--id", "Bob", "--out", &out,
        ];
        if !flag.is_empty() {
            args.push(flag);
        }
        ok(&args);
        let u = show(&["sm9", "show", "--key", &d.s("u.pem")]);
        assert_eq!(
            u,
            format!("{title}\nde (G2): (not shown; --secret prints it)\nPpub-e (G1):\n{ppub}\n")
        );
        let de = if flag.is_empty() {
            kgc.extract(b"Bob").unwrap().de_bytes()
        } else {
            kgc.extract_exchange(b"Bob").unwrap().de_bytes()
        };
        let u = show(&["sm9", "show", "--key", &d.s("u.pem"), "--secret"]);
        assert!(u.contains(&colon_hex(&de[..])), "{u}");
    }
    fails(
        &["sm9", "show", "--key", &d.s("p.pem")],
        b"",
        2,
        "expected an SM9",
    );
}

// ---------------------------------------------------------------------------------------------
// Key exchange: two processes on two FIFOs.

fn mkfifo(d: &Dir, name: &str) -> String {
    let p = d.s(name);
    let st = StdCommand::new("mkfifo").arg(&p).status().expect("mkfifo");
    assert!(st.success());
    p
}

/// Runs two smtool parties at once; returns their outputs.
fn two_parties(a: &[&str], b: &[&str]) -> (Output, Output) {
    let bin = assert_cmd::cargo::cargo_bin("smtool");
    let spawn = |args: &[&str]| {
        StdCommand::new(&bin)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (pa, pb) = (spawn(a), spawn(b));
    (
        pa.wait_with_output().unwrap(),
        pb.wait_with_output().unwrap(),
    )
}

#[test]
fn sm2_and_sm9_exchange_between_two_smtools_and_with_gmalg() {
    let d = Dir::new();
    let (ab, ba) = (mkfifo(&d, "ab"), mkfifo(&d, "ba"));
    for who in ["a", "b"] {
        ok(&[
            "sm2",
            "keygen",
            "--out",
            &d.s(&format!("{who}.pem")),
            "--pubout",
            &d.s(&format!("{who}.pub")),
        ]);
    }
    let (ka, kb) = (d.s("ka"), d.s("kb"));
    let sm2_party = |me: &'static str,
                     peer: &'static str,
                     role: &'static str,
                     id: &'static str,
                     extra: &[&'static str]| {
        let mut v: Vec<String> = [
            "sm2",
            "exchange",
            "--key",
            &d.s(&format!("{me}.pem")),
            "--pubkey",
            &d.s(&format!("{peer}.pub")),
            "--id",
            id,
            "--peer-id",
            if id == "alice" { "bob" } else { "alice" },
            role,
            "--send",
            if role == "--initiator" { &ab } else { &ba },
            "--recv",
            if role == "--initiator" { &ba } else { &ab },
            "--key-out",
            if me == "a" { &ka } else { &kb },
            "--encoding",
            "hex",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let run2 = |a: Vec<String>, b: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        let b: Vec<&str> = b.iter().map(String::as_str).collect();
        two_parties(&a, &b)
    };
    for extra in [&[][..], &["--no-confirm", "--len", "40"][..]] {
        let (oa, ob) = run2(
            sm2_party("a", "b", "--initiator", "alice", extra),
            sm2_party("b", "a", "--responder", "bob", extra),
        );
        assert!(
            oa.status.success(),
            "{}",
            String::from_utf8_lossy(&oa.stderr)
        );
        assert!(
            ob.status.success(),
            "{}",
            String::from_utf8_lossy(&ob.stderr)
        );
        let (x, y) = (d.text("ka"), d.text("kb"));
        assert_eq!(x, y);
        let want_len = if extra.is_empty() { 16 } else { 40 };
        assert_eq!(x.trim().len(), 2 * want_len);
    }
    // A wrong peer ID: the confirmation fails on both sides (status 1) and no key is written.
    std::fs::remove_file(d.p("ka")).unwrap();
    std::fs::remove_file(d.p("kb")).unwrap();
    let mut b = sm2_party("b", "a", "--responder", "bob", &[]);
    let pos = b.iter().position(|s| s == "alice").unwrap();
    b[pos] = "mallory".into();
    let (oa, ob) = run2(sm2_party("a", "b", "--initiator", "alice", &[]), b);
    assert_eq!(
        oa.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&oa.stderr)
    );
    assert_eq!(
        ob.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&ob.stderr)
    );
    assert!(String::from_utf8_lossy(&oa.stderr).contains("key exchange failed"));
    assert!(!d.p("ka").exists() && !d.p("kb").exists());

    // gmalg (unconfirmed exchange) as either party.
    let raw = |who: &str| {
        let sk = sm2::SecretKey::from_pkcs8_pem(&d.text(&format!("{who}.pem"))).unwrap();
        (
            hex::encode(&sk.to_bytes()[..]),
            hex::encode(sk.public_key().to_uncompressed()),
        )
    };
    let ((ska, pka), (skb, pkb)) = (raw("a"), raw("b"));
    let gmalg_sm2 = r#"
import sys, gmalg
role, send, recv, sk, pk, peer_pk = sys.argv[1:7]
me = gmalg.SM2(bytes.fromhex(sk), role.encode(), bytes.fromhex(pk))
R, t = me.begin_key_exchange()
if role == "alice":
    open(send, "wb").write(R); peer = open(recv, "rb").read(65)
    mode, peer_id = gmalg.base.KEYXCHG_MODE.INITIATOR, b"bob"
else:
    peer = open(recv, "rb").read(65); open(send, "wb").write(R)
    mode, peer_id = gmalg.base.KEYXCHG_MODE.RESPONDER, b"alice"
print(me.end_key_exchange(40, t, peer, peer_id, bytes.fromhex(peer_pk), mode).hex())
"#;
    let bin = assert_cmd::cargo::cargo_bin("smtool");
    let spawn = |args: Vec<String>| {
        StdCommand::new(&bin)
            .args(args)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let nc = ["--no-confirm", "--len", "40"];
    // smtool A, gmalg B.
    let child = spawn(sm2_party("a", "b", "--initiator", "alice", &nc));
    let out = py(gmalg_sm2, &["bob", &ba, &ab, &skb, &pkb, &pka]);
    assert!(child.wait_with_output().unwrap().status.success());
    assert_eq!(out, [d.text("ka").trim()]);
    // gmalg A, smtool B.
    let child = spawn(sm2_party("b", "a", "--responder", "bob", &nc));
    let out = py(gmalg_sm2, &["alice", &ab, &ba, &ska, &pka, &pkb]);
    assert!(child.wait_with_output().unwrap().status.success());
    assert_eq!(out, [d.text("kb").trim()]);

    // SM9: key-exchange keys from one encryption master key.
    ok(&[
        "sm9",
        "setup",
        "--enc",
        "--no-encrypt",
        "--out",
        &d.s("msk.pem"),
        "--pubout",
        &d.s("mpk.pem"),
    ]);
    for id in ["alice", "bob"] {
        ok(&[
            "sm9",
            "extract",
            "--exchange",
            "--master",
            &d.s("msk.pem"),
            "--id",
            id,
            "--out",
            &d.s(&format!("x{id}.pem")),
        ]);
    }
    let sm9_party = |id: &'static str, role: &'static str, extra: &[&'static str]| {
        let mut v: Vec<String> = [
            "sm9",
            "exchange",
            "--key",
            &d.s(&format!("x{id}.pem")),
            "--id",
            id,
            "--peer-id",
            if id == "alice" { "bob" } else { "alice" },
            role,
            "--send",
            if role == "--initiator" { &ab } else { &ba },
            "--recv",
            if role == "--initiator" { &ba } else { &ab },
            "--key-out",
            if id == "alice" { &ka } else { &kb },
            "--encoding",
            "hex",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    for extra in [&[][..], &nc[..]] {
        let (oa, ob) = run2(
            sm9_party("alice", "--initiator", extra),
            sm9_party("bob", "--responder", extra),
        );
        assert!(
            oa.status.success(),
            "{}",
            String::from_utf8_lossy(&oa.stderr)
        );
        assert!(
            ob.status.success(),
            "{}",
            String::from_utf8_lossy(&ob.stderr)
        );
        assert_eq!(d.text("ka"), d.text("kb"));
    }
    fails(
        &[
            "sm9",
            "exchange",
            "--key",
            &d.s("msk.pem"),
            "--id",
            "a",
            "--peer-id",
            "b",
            "--initiator",
            "--key-out",
            &d.s("k"),
        ],
        b"",
        2,
        "sm9 extract --exchange",
    );
    // gmalg as the responder (unconfirmed).
    let kgc = sm9::EncMasterKey::from_pkcs8_pem(&d.text("msk.pem")).unwrap();
    let child = spawn(sm9_party("alice", "--initiator", &nc));
    let out = py(
        r#"
import sys, gmalg
send, recv, ke, mpk = sys.argv[1:5]
ke, mpk = bytes.fromhex(ke), bytes.fromhex(mpk)
kgc = gmalg.SM9KGC(hid_e=b"\x02", msk_e=ke, mpk_e=mpk)
bob = gmalg.SM9(hid_e=b"\x02", mpk_e=mpk, sk_e=kgc.generate_sk_encrypt(b"bob"), uid=b"bob")
r, R = bob.begin_key_exchange(b"alice")
peer = open(recv, "rb").read(65)
open(send, "wb").write(R)
print(bob.end_key_exchange(40, r, R, b"alice", peer, gmalg.base.KEYXCHG_MODE.RESPONDER).hex())
"#,
        &[
            &ba,
            &ab,
            &hex::encode(&kgc.to_bytes()[..]),
            &hex::encode(kgc.public_key().to_bytes()),
        ],
    );
    assert!(child.wait_with_output().unwrap().status.success());
    assert_eq!(out, [d.text("ka").trim()]);
}

// ---------------------------------------------------------------------------------------------
// speed, completions, man page.

#[test]
fn speed_completions_and_man_page() {
    let out = String::from_utf8(ok(&[
        "speed",
        "sm3",
        "sm4-gcm",
        "sm2-sign",
        "--seconds",
        "0.05",
    ]))
    .unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[0].starts_with("algorithm"), "{out}");
    for (line, name, has_mbs) in [
        (lines[1], "sm3", true),
        (lines[2], "sm4-gcm", true),
        (lines[3], "sm2 sign", false),
    ] {
        assert!(line.starts_with(name), "{out}");
        let nums: Vec<&str> = line[name.len()..].split_whitespace().collect();
        let ops: f64 = nums[0].parse().unwrap();
        assert!(ops > 0.0, "{out}");
        match has_mbs {
            true => assert!(nums[1].parse::<f64>().unwrap() > 0.0, "{out}"),
            false => assert_eq!(nums[1], "-", "{out}"),
        }
    }
    fails(&["speed", "--seconds", "0"], b"", 2, "--seconds");
    fails(&["speed", "md5"], b"", 2, "invalid value 'md5'");

    // A bash completion script that bash accepts and that knows the subcommands.
    let d = Dir::new();
    let script = d.write("smtool.bash", ok(&["completions", "bash"]));
    let st = StdCommand::new("bash")
        .args(["-n", &script])
        .status()
        .unwrap();
    assert!(st.success());
    let text = d.text("smtool.bash");
    for word in [
        "exchange",
        "show",
        "speed",
        "--no-encrypt",
        "--out-pass-env",
    ] {
        assert!(text.contains(word), "{word}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert!(String::from_utf8(ok(&["completions", shell]))
            .unwrap()
            .contains("smtool"));
    }
    fails(&["completions", "tcsh"], b"", 2, "invalid value 'tcsh'");
    let man = String::from_utf8(ok(&["man"])).unwrap();
    assert!(
        man.starts_with(".ie") || man.contains(".TH smtool 1"),
        "{man}"
    );
    for word in [
        ".TH smtool 1",
        ".SH NAME",
        ".SH SUBCOMMANDS",
        "sm4",
        "speed",
    ] {
        assert!(man.contains(word), "{word}: {man}");
    }
}

#[test]
fn sm2_keygen_writes_gmssl_pkcs8_layout_on_request() {
    let d = Dir::new();
    ok(&[
        "sm2",
        "keygen",
        "--pkcs8-layout",
        "gmssl",
        "--key-format",
        "der",
        "--out",
        &d.s("g.der"),
        "--pubout",
        &d.s("g.pub"),
    ]);
    let der = d.read("g.der");
    let sk = sm2::SecretKey::from_pkcs8_der(&der).unwrap();
    assert_eq!(der, sk.to_pkcs8_der_gmssl().unwrap().as_bytes());
    assert_ne!(
        der,
        sm2::pkcs8::EncodePrivateKey::to_pkcs8_der(&sk)
            .unwrap()
            .as_bytes()
    );
    let pub_pem = openssl(&["pkey", "-inform", "DER", "-in", &d.s("g.der"), "-pubout"]);
    assert_eq!(pub_pem, ok(&["sm2", "pubkey", "--key", &d.s("g.pub")]));
    // Encrypted (OpenSSL's PBES2): the GmSSL layout inside, and OpenSSL reads it.
    ok_env(
        &[
            "sm2",
            "keygen",
            "--pkcs8-layout",
            "gmssl",
            "--out-pass-env",
            "PW",
            "--pbe",
            "openssl",
            "--out",
            &d.s("ge.pem"),
            "--pubout",
            &d.s("ge.pub"),
        ],
        "PW",
        "pw",
    );
    let (_, enc) = sm2::pkcs8::der::pem::decode_vec(&d.read("ge.pem")).unwrap();
    let pki = sm2::decrypt_pkcs8_der(&enc, b"pw").unwrap();
    let sk = sm2::SecretKey::from_pkcs8_der(&pki).unwrap();
    assert_eq!(pki.as_slice(), sk.to_pkcs8_der_gmssl().unwrap().as_bytes());
    assert_eq!(
        openssl(&[
            "pkey",
            "-in",
            &d.s("ge.pem"),
            "-passin",
            "pass:pw",
            "-pubout"
        ]),
        d.read("ge.pub")
    );
}
