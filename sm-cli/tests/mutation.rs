//! A small mutation campaign (issue 21): a few thousand mutated keys (plain and encrypted, PEM
//! and DER), signatures, ciphertexts, encapsulations, check lists, certificates and certificate
//! requests go through every reading
//! subcommand. Each run must exit 0, 1 or 2, print nothing on standard error when it succeeds
//! and exactly one line when it fails, and never print a secret: no 12-character piece of a
//! private key's base64, no password, no plaintext.
//!
//! Deterministic (a fixed xorshift seed; `SMTOOL_MUTATION_SEED` and `SMTOOL_MUTATIONS` change
//! the seed and the count, 3000 by default; `SMTOOL_MUTATION_SHOW_OK=1` prints the mutants that
//! still succeed, all benign so far: whitespace, hex case); runs on two threads.

use std::path::Path;
use std::process::{Command, Stdio};

use base64::Engine as _;

use crate::common::bin;

const PASSWORD: &str = "hunter2-Pa55word-xyzzy";
const PLAINTEXT: &[u8] = b"TOP-SECRET-PLAINTEXT-0123456789";

/// xorshift64*: a small deterministic generator.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One mutation of `data`: bit flip, byte set, truncation, insertion, deletion, duplication,
/// or (for text) a character that PEM and hex/base64 parsers treat specially.
fn mutate(rng: &mut Rng, data: &[u8]) -> Vec<u8> {
    let mut v = data.to_vec();
    let rounds = 1 + rng.below(3);
    for _ in 0..rounds {
        let len = v.len();
        let at = rng.below(len);
        match rng.below(7) {
            0 if len > 0 => v[at] ^= 1 << rng.below(8),
            1 if len > 0 => v[at] = rng.next() as u8,
            2 => v.truncate(at),
            3 => {
                let b = rng.next() as u8;
                v.insert(at.min(len), b)
            }
            4 if len > 0 => {
                let end = (at + 1 + rng.below(16)).min(len);
                v.drain(at..end);
            }
            5 if len > 0 => {
                let end = (at + 1 + rng.below(64)).min(len);
                let piece = v[at..end].to_vec();
                let to = rng.below(v.len());
                v.splice(to..to, piece);
            }
            _ => {
                let special = b"-\n\r:= \t\x1b\\*0";
                let c = special[rng.below(special.len())];
                if len > 0 && rng.below(2) == 0 {
                    v[at] = c;
                } else {
                    v.insert(at.min(len), c);
                }
            }
        }
    }
    v
}

fn run(args: &[String], env_pw: bool) -> std::process::Output {
    let mut c = Command::new(bin());
    c.args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if env_pw {
        c.env("PW", PASSWORD);
    }
    c.output().unwrap()
}

fn smtool_ok(args: &[&str]) -> Vec<u8> {
    let out = Command::new(bin()).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn pem(label: &str, der: &[u8]) -> Vec<u8> {
    let b = base64::engine::general_purpose::STANDARD.encode(der);
    let mut s = format!("-----BEGIN {label}-----\n");
    for chunk in b.as_bytes().chunks(64) {
        s.push_str(std::str::from_utf8(chunk).unwrap());
        s.push('\n');
    }
    s.push_str(&format!("-----END {label}-----\n"));
    s.into_bytes()
}

/// A reading subcommand: its arguments with `{}` where the mutated artefact goes, the artefact
/// it mutates, and whether it needs the password.
struct Case {
    args: Vec<String>,
    artefact: Vec<u8>,
    password: bool,
}

/// The secret texts that must never reach standard error.
fn secret_windows(dir: &Path, files: &[&str]) -> Vec<String> {
    let mut v = vec![
        PASSWORD.to_string(),
        String::from_utf8(PLAINTEXT.to_vec()).unwrap(),
    ];
    for f in files {
        let text = std::fs::read_to_string(dir.join(f)).unwrap();
        for line in text.lines().filter(|l| !l.starts_with("-----")) {
            for w in line.as_bytes().windows(12) {
                v.push(String::from_utf8(w.to_vec()).unwrap());
            }
        }
    }
    v
}

#[test]
fn mutated_artefacts_give_one_line_and_no_secret() {
    let d = tempfile::tempdir().unwrap();
    let p = |n: &str| d.path().join(n).to_str().unwrap().to_owned();
    let read = |n: &str| std::fs::read(d.path().join(n)).unwrap();
    let write = |n: &str, data: &[u8]| std::fs::write(d.path().join(n), data).unwrap();

    // Artefacts.
    smtool_ok(&[
        "sm2",
        "keygen",
        "--out",
        &p("k.pem"),
        "--pubout",
        &p("p.pem"),
    ]);
    smtool_ok(&["sm2", "keygen", "--key-format", "der", "--out", &p("k.der")]);
    let sk = {
        use sm2::pkcs8::DecodePrivateKey as _;
        sm2::SecretKey::from_pkcs8_pem(&String::from_utf8(read("k.pem")).unwrap()).unwrap()
    };
    let ke = sk
        .to_pkcs8_encrypted_der_with_params(PASSWORD.as_bytes(), &[3; 16], &[4; 16], 16)
        .unwrap();
    write("ke.pem", &pem("ENCRYPTED PRIVATE KEY", &ke));
    write("msg", b"a message");
    write("secret", PLAINTEXT);
    let sig = smtool_ok(&["sm2", "sign", "--key", &p("k.pem"), "--in", &p("msg")]);
    let sig_hex = smtool_ok(&[
        "sm2",
        "sign",
        "--key",
        &p("k.pem"),
        "--in",
        &p("msg"),
        "--encoding",
        "hex",
    ]);
    let ct = smtool_ok(&[
        "sm2",
        "encrypt",
        "--pubkey",
        &p("p.pem"),
        "--in",
        &p("secret"),
    ]);
    let ct_raw = smtool_ok(&[
        "sm2",
        "encrypt",
        "--pubkey",
        &p("p.pem"),
        "--in",
        &p("secret"),
        "--format",
        "c1c3c2",
        "--encoding",
        "base64",
    ]);
    smtool_ok(&[
        "sm9",
        "setup",
        "--no-encrypt",
        "--sign",
        "--out",
        &p("smsk.pem"),
        "--pubout",
        &p("smpk.pem"),
    ]);
    smtool_ok(&[
        "sm9",
        "setup",
        "--no-encrypt",
        "--enc",
        "--out",
        &p("emsk.pem"),
        "--pubout",
        &p("empk.pem"),
    ]);
    smtool_ok(&[
        "sm9",
        "extract",
        "--master",
        &p("smsk.pem"),
        "--id",
        "A",
        "--out",
        &p("a.pem"),
    ]);
    smtool_ok(&[
        "sm9",
        "extract",
        "--master",
        &p("emsk.pem"),
        "--id",
        "B",
        "--out",
        &p("b.pem"),
    ]);
    let be = sm9::EncUserKey::from_pkcs8_pem(&String::from_utf8(read("b.pem")).unwrap())
        .unwrap()
        .to_encrypted_pkcs8_der_with(PASSWORD.as_bytes(), &[5; 16], &[6; 16], 16)
        .unwrap();
    write("be.der", &be);
    let sig9 = smtool_ok(&["sm9", "sign", "--key", &p("a.pem"), "--in", &p("msg")]);
    let ct9 = smtool_ok(&[
        "sm9",
        "encrypt",
        "--mpk",
        &p("empk.pem"),
        "--id",
        "B",
        "--in",
        &p("secret"),
        "--cipher",
        "sm4-cbc",
        "--mac",
        "gmssl",
    ]);
    let c9 = smtool_ok(&[
        "sm9",
        "kem",
        "encap",
        "--mpk",
        &p("empk.pem"),
        "--id",
        "B",
        "--key-out",
        &p("kem.key"),
    ]);
    let list = smtool_ok(&["sm3", &p("msg"), &p("secret"), &p("p.pem")]);

    let gcm_key = "000102030405060708090a0b0c0d0e0f";
    let gcm_iv = "00112233445566778899aabb";
    let sm4 = |dir: &'static str| {
        vec![
            "sm4", dir, "-m", "gcm", "-K", gcm_key, "--iv", gcm_iv, "--aad", "aa",
        ]
    };
    let ct4 = smtool_ok(&[&sm4("-e")[..], &["--in", &p("secret")]].concat());

    // X.509: a CA, a leaf it issued, a request.
    let x509 = |args: &[&str]| smtool_ok(&[&["x509"][..], args].concat());
    let ca = p("ca.pem");
    x509(&[
        "cert",
        "--key",
        &p("k.pem"),
        "--subj",
        "/CN=m",
        "--ca",
        "--out",
        &ca,
    ]);
    let req = x509(&[
        "req",
        "--key",
        &p("k.pem"),
        "--subj",
        "/CN=r",
        "--dns",
        "r.example",
    ]);
    let leaf = x509(&[
        "cert",
        "--key",
        &p("k.pem"),
        "--issuer",
        &ca,
        "--pubkey",
        &p("p.pem"),
        "--subj",
        "/CN=leaf",
    ]);

    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let out = p("out");
    let cases = vec![
        Case {
            args: s(&["x509", "verify", "--ca-file", &ca, "{}"]),
            artefact: leaf.clone(),
            password: false,
        },
        Case {
            args: s(&["x509", "show", "{}"]),
            artefact: leaf,
            password: false,
        },
        Case {
            args: s(&["x509", "verify", "{}"]),
            artefact: req.clone(),
            password: false,
        },
        Case {
            args: s(&[
                "x509",
                "cert",
                "--key",
                &p("k.pem"),
                "--issuer",
                &ca,
                "--csr",
                "{}",
                "--out",
                &out,
            ]),
            artefact: req,
            password: false,
        },
        Case {
            args: s(&["sm2", "show", "--key", "{}"]),
            artefact: read("k.pem"),
            password: false,
        },
        Case {
            args: s(&["sm9", "show", "--key", "{}"]),
            artefact: read("b.pem"),
            password: false,
        },
        Case {
            args: s(&["sm9", "pubkey", "--key", "{}", "--out", &out]),
            artefact: read("smsk.pem"),
            password: false,
        },
        Case {
            args: s(&[&sm4("-d")[..], &["--in", "{}", "--out", &out]].concat()),
            artefact: ct4,
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "sign",
                "--key",
                "{}",
                "--in",
                &p("msg"),
                "--out",
                &out,
            ]),
            artefact: read("k.pem"),
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "sign",
                "--key",
                "{}",
                "--pass-env",
                "PW",
                "--in",
                &p("msg"),
                "--out",
                &out,
            ]),
            artefact: read("ke.pem"),
            password: true,
        },
        Case {
            args: s(&["sm2", "pubkey", "--key", "{}", "--out", &out]),
            artefact: read("k.der"),
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "verify",
                "--pubkey",
                "{}",
                "--sig",
                &p("sig"),
                "--in",
                &p("msg"),
            ]),
            artefact: read("p.pem"),
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "verify",
                "--pubkey",
                &p("p.pem"),
                "--sig",
                "{}",
                "--in",
                &p("msg"),
            ]),
            artefact: sig.clone(),
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "verify",
                "--pubkey",
                &p("p.pem"),
                "--sig",
                "{}",
                "--encoding",
                "hex",
                "--in",
                &p("msg"),
            ]),
            artefact: sig_hex,
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "encrypt",
                "--pubkey",
                "{}",
                "--in",
                &p("msg"),
                "--out",
                &out,
            ]),
            artefact: read("p.pem"),
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "decrypt",
                "--key",
                &p("k.pem"),
                "--in",
                "{}",
                "--out",
                &out,
            ]),
            artefact: ct,
            password: false,
        },
        Case {
            args: s(&[
                "sm2",
                "decrypt",
                "--key",
                &p("k.pem"),
                "--format",
                "c1c3c2",
                "--encoding",
                "base64",
                "--in",
                "{}",
                "--out",
                &out,
            ]),
            artefact: ct_raw,
            password: false,
        },
        Case {
            args: s(&[
                "sm9",
                "sign",
                "--key",
                "{}",
                "--in",
                &p("msg"),
                "--out",
                &out,
            ]),
            artefact: read("a.pem"),
            password: false,
        },
        Case {
            args: s(&[
                "sm9",
                "verify",
                "--mpk",
                "{}",
                "--id",
                "A",
                "--sig",
                &p("sig9"),
                "--in",
                &p("msg"),
            ]),
            artefact: read("smpk.pem"),
            password: false,
        },
        Case {
            args: s(&[
                "sm9",
                "verify",
                "--mpk",
                &p("smpk.pem"),
                "--id",
                "A",
                "--sig",
                "{}",
                "--in",
                &p("msg"),
            ]),
            artefact: sig9.clone(),
            password: false,
        },
        Case {
            args: s(&[
                "sm9", "extract", "--master", "{}", "--id", "C", "--out", &out,
            ]),
            artefact: read("emsk.pem"),
            password: false,
        },
        Case {
            args: s(&[
                "sm9",
                "encrypt",
                "--mpk",
                "{}",
                "--id",
                "B",
                "--in",
                &p("msg"),
                "--out",
                &out,
            ]),
            artefact: read("empk.pem"),
            password: false,
        },
        Case {
            args: s(&[
                "sm9",
                "decrypt",
                "--key",
                &p("b.pem"),
                "--id",
                "B",
                "--mac",
                "gmssl",
                "--in",
                "{}",
                "--out",
                &out,
            ]),
            artefact: ct9.clone(),
            password: false,
        },
        Case {
            args: s(&[
                "sm9",
                "decrypt",
                "--key",
                "{}",
                "--pass-env",
                "PW",
                "--id",
                "B",
                "--mac",
                "gmssl",
                "--in",
                &p("ct9"),
                "--out",
                &out,
            ]),
            artefact: be,
            password: true,
        },
        Case {
            args: s(&[
                "sm9",
                "kem",
                "decap",
                "--key",
                &p("b.pem"),
                "--id",
                "B",
                "--in",
                "{}",
                "--out",
                &out,
            ]),
            artefact: c9.clone(),
            password: false,
        },
        Case {
            args: s(&["sm3", "--check", "{}"]),
            artefact: list,
            password: false,
        },
    ];
    write("sig", &sig);
    write("sig9", &sig9);
    write("ct9", &ct9);
    // Each case passes unmutated (the campaign starts from valid artefacts).
    for (i, c) in cases.iter().enumerate() {
        let f = p(&format!("valid{i}"));
        write(&format!("valid{i}"), &c.artefact);
        let args: Vec<String> = c
            .args
            .iter()
            .map(|a| if a == "{}" { f.clone() } else { a.clone() })
            .collect();
        let o = run(&args, c.password);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }

    let secrets = secret_windows(
        d.path(),
        &["k.pem", "ke.pem", "a.pem", "b.pem", "smsk.pem", "emsk.pem"],
    );
    let mut raw_secrets: Vec<Vec<u8>> = vec![read("k.der"), be_secret(&read("b.pem"))];
    raw_secrets.retain(|s| !s.is_empty());
    let total: usize = std::env::var("SMTOOL_MUTATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3000);
    let seed: u64 = std::env::var("SMTOOL_MUTATION_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0x5eed_2026_0021);
    let start = std::time::Instant::now();
    let threads = 2;
    let results: Vec<[usize; 3]> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let (cases, secrets, raw_secrets, dir) = (&cases, &secrets, &raw_secrets, d.path());
                scope.spawn(move || {
                    let mut rng = Rng(seed ^ (t as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                    let mut codes = [0usize; 3];
                    let f = dir.join(format!("mutant{t}"));
                    let out_t = dir.join(format!("out{t}")).to_str().unwrap().to_owned();
                    for n in (t..total).step_by(threads) {
                        let c = &cases[n % cases.len()];
                        let m = mutate(&mut rng, &c.artefact);
                        std::fs::write(&f, &m).unwrap();
                        let args: Vec<String> = c
                            .args
                            .iter()
                            .map(|a| match a.as_str() {
                                "{}" => f.to_str().unwrap().to_owned(),
                                a if a.ends_with("/out") => out_t.clone(),
                                a => a.to_owned(),
                            })
                            .collect();
                        let o = run(&args, c.password);
                        let err = String::from_utf8_lossy(&o.stderr);
                        let code = o.status.code();
                        let what = format!(
                            "mutation {n} of case {} ({args:?}); stderr {err:?}",
                            n % cases.len()
                        );
                        assert!(matches!(code, Some(0..=2)), "exit {code:?}: {what}");
                        codes[code.unwrap() as usize] += 1;
                        if code == Some(0) {
                            assert!(err.is_empty(), "{what}");
                            if std::env::var_os("SMTOOL_MUTATION_SHOW_OK").is_some() {
                                eprintln!(
                                    "exit 0: case {} {:?}",
                                    n % cases.len(),
                                    String::from_utf8_lossy(&m)
                                );
                            }
                        } else {
                            assert!(
                                err.starts_with("smtool: ")
                                    && err.ends_with('\n')
                                    && err.matches('\n').count() == 1,
                                "not one line: {what}"
                            );
                        }
                        for s in secrets {
                            assert!(!err.contains(s.as_str()), "secret {s:?} in {what}");
                        }
                        for s in raw_secrets {
                            assert!(
                                !o.stderr.windows(12).any(|w| s.windows(12).any(|x| x == w)),
                                "raw key bytes in {what}"
                            );
                        }
                    }
                    codes
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let codes = results
        .iter()
        .fold([0usize; 3], |a, r| [a[0] + r[0], a[1] + r[1], a[2] + r[2]]);
    eprintln!(
        "{total} mutated artefacts through {} subcommand cases in {:.1?}: exit 0/1/2 = {codes:?}",
        cases.len(),
        start.elapsed()
    );
    assert_eq!(codes.iter().sum::<usize>(), total);
    // The campaign reaches both failure kinds.
    assert!(codes[1] > 0 && codes[2] > 0, "{codes:?}");
}

/// The DER body of a PEM file (the raw key bytes).
fn be_secret(pem_text: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(pem_text);
    let body: String = text.lines().filter(|l| !l.starts_with("-----")).collect();
    base64::engine::general_purpose::STANDARD
        .decode(body)
        .unwrap_or_default()
}
