//! Regression tests for smtool under hostile use (issue 21): no secret in a message, no lost or
//! half-written file, every standard-input reader counted, every input bounded, and the messages
//! that used to be wrong. Each test names the finding it covers.

use std::os::unix::fs::PermissionsExt as _;
use std::process::{Command, Output, Stdio};

use base64::Engine as _;

use crate::common::{bin, Dir};

fn run_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    use std::io::Write as _;
    let mut c = Command::new(bin());
    c.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        c.env(k, v);
    }
    let mut child = c.spawn().unwrap();
    let mut si = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let t = std::thread::spawn(move || {
        let _ = si.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    t.join().unwrap();
    out
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    run_env(args, stdin, &[])
}

/// Runs a bash script with `$SMTOOL` set to the binary.
fn sh(script: &str) -> Output {
    Command::new("bash")
        .arg("-c")
        .arg(script)
        .env("SMTOOL", bin())
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn ok(args: &[&str], stdin: &[u8]) -> Vec<u8> {
    let out = run(args, stdin);
    assert!(
        out.status.success(),
        "smtool {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Asserts exit status `code` and exactly one stderr line starting "smtool: "; returns it.
fn one_line(out: &Output, code: i32, what: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "{what}: stderr {err:?}");
    assert!(
        err.ends_with('\n') && err.matches('\n').count() == 1,
        "{what}: not exactly one line: {err:?}"
    );
    assert!(err.starts_with("smtool: "), "{what}: {err:?}");
    err
}

fn fails(args: &[&str], stdin: &[u8], code: i32, needle: &str) -> String {
    let err = one_line(&run(args, stdin), code, &format!("{args:?}"));
    assert!(err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
    err
}

/// Every 12-character window of the base64 lines of a PEM text.
fn base64_windows(pem: &str) -> Vec<String> {
    let mut v = Vec::new();
    for line in pem.lines().filter(|l| !l.starts_with("-----")) {
        let b = line.as_bytes();
        for w in b.windows(12) {
            v.push(String::from_utf8(w.to_vec()).unwrap());
        }
    }
    assert!(!v.is_empty());
    v
}

fn assert_no_secret(err: &str, pem: &str, what: &str) {
    for w in base64_windows(pem) {
        assert!(
            !err.contains(&w),
            "{what}: stderr {err:?} contains key text {w:?}"
        );
    }
}

/// The key files every test needs: an SM2 pair, SM9 signature and encryption systems and users.
struct Keys {
    d: Dir,
}

impl Keys {
    fn new() -> Self {
        let d = Dir::new();
        ok(
            &[
                "sm2",
                "keygen",
                "--out",
                &d.s("k.pem"),
                "--pubout",
                &d.s("p.pem"),
            ],
            b"",
        );
        for (sys, msk, mpk) in [
            ("--sign", "smsk.pem", "smpk.pem"),
            ("--enc", "emsk.pem", "empk.pem"),
        ] {
            ok(
                &[
                    "sm9",
                    "setup",
                    "--no-encrypt",
                    sys,
                    "--out",
                    &d.s(msk),
                    "--pubout",
                    &d.s(mpk),
                ],
                b"",
            );
        }
        ok(
            &[
                "sm9",
                "extract",
                "--master",
                &d.s("smsk.pem"),
                "--id",
                "A",
                "--out",
                &d.s("a.pem"),
            ],
            b"",
        );
        ok(
            &[
                "sm9",
                "extract",
                "--master",
                &d.s("emsk.pem"),
                "--id",
                "B",
                "--out",
                &d.s("b.pem"),
            ],
            b"",
        );
        let out = run_env(
            &["sm2", "keygen", "--pass-env", "PW", "--out", &d.s("ke.pem")],
            b"",
            &[("PW", "pw")],
        );
        assert!(out.status.success());
        Keys { d }
    }
}

// ---------------------------------------------------------------------------------------------
// Finding 1: a damaged PEM header printed the whole key.

#[test]
fn damaged_pem_never_echoes_the_key() {
    let k = Keys::new();
    let d = &k.d;
    // (key file, command using it as a private key or master key)
    let cases: Vec<(&str, Vec<String>)> = vec![
        ("k.pem", vec!["sm2".into(), "sign".into()]),
        ("k.pem", vec!["sm2".into(), "pubkey".into()]),
        (
            "k.pem",
            vec!["sm2".into(), "decrypt".into(), "--in".into(), d.s("p.pem")],
        ),
        ("a.pem", vec!["sm9".into(), "sign".into()]),
        (
            "b.pem",
            vec![
                "sm9".into(),
                "decrypt".into(),
                "--id".into(),
                "B".into(),
                "--in".into(),
                d.s("p.pem"),
            ],
        ),
        (
            "b.pem",
            vec![
                "sm9".into(),
                "kem".into(),
                "decap".into(),
                "--id".into(),
                "B".into(),
                "--in".into(),
                d.s("p.pem"),
            ],
        ),
    ];
    for (file, cmd) in &cases {
        let pem = String::from_utf8(d.read(file)).unwrap();
        let label = pem.lines().next().unwrap().to_owned();
        let damages = [
            pem.replacen(&label, &format!("{}----,", &label[..label.len() - 5]), 1),
            pem.replacen(&label, &label[..label.len() - 5], 1),
            pem.replacen(&label, &format!("{label}x"), 1),
            pem.replacen("-----END", "-----EN D", 1),
            pem.replacen("-----END", "----END", 1),
            pem.replacen(&label, &format!("{}\n-----", &label[..label.len() - 5]), 1),
        ];
        for (i, bad) in damages.iter().enumerate() {
            let f = d.write("damaged.pem", bad);
            let mut args: Vec<&str> = cmd.iter().map(String::as_str).collect();
            args.extend(["--key", &f]);
            let out = run(&args, b"m");
            let err = one_line(&out, 2, &format!("{args:?} damage {i}"));
            assert_no_secret(&err, &pem, &format!("{args:?} damage {i}"));
            assert!(err.contains("line"), "{args:?} damage {i}: {err:?}");
        }
    }
    let master = String::from_utf8(d.read("smsk.pem")).unwrap();
    let bad = master.replacen(
        "-----BEGIN PRIVATE KEY-----",
        "-----BEGIN PRIVATE KEY----,",
        1,
    );
    let f = d.write("damaged.pem", &bad);
    let out = run(
        &[
            "sm9",
            "extract",
            "--master",
            &f,
            "--id",
            "x",
            "--out",
            &d.s("u.pem"),
        ],
        b"",
    );
    assert_no_secret(&one_line(&out, 2, "extract"), &master, "extract");
    assert!(!d.exists("u.pem"));
}

// ---------------------------------------------------------------------------------------------
// Findings 2 and 3: a failing second output, and two outputs on one path.

#[test]
fn failing_second_output_leaves_the_first_untouched() {
    let k = Keys::new();
    let d = &k.d;
    let old = b"OLD CONTENT\n";
    let cases: Vec<Vec<String>> = vec![
        vec![
            "sm2".into(),
            "keygen".into(),
            "--out".into(),
            d.s("x"),
            "--pubout".into(),
            "/nonexistent/p".into(),
        ],
        vec![
            "sm9".into(),
            "setup".into(),
            "--no-encrypt".into(),
            "--sign".into(),
            "--out".into(),
            d.s("x"),
            "--pubout".into(),
            "/nonexistent/p".into(),
        ],
        vec![
            "sm9".into(),
            "setup".into(),
            "--no-encrypt".into(),
            "--enc".into(),
            "--out".into(),
            d.s("x"),
            "--pubout".into(),
            d.s(""),
        ],
        vec![
            "sm9".into(),
            "kem".into(),
            "encap".into(),
            "--mpk".into(),
            d.s("empk.pem"),
            "--id".into(),
            "B".into(),
            "--key-out".into(),
            d.s("x"),
            "--out".into(),
            "/nonexistent/c".into(),
        ],
    ];
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        d.write("x", old);
        one_line(&run(&args, b""), 2, &format!("{args:?}"));
        assert_eq!(d.read("x"), old, "{args:?} replaced its first output");
        std::fs::remove_file(d.s("x")).unwrap();
        one_line(&run(&args, b""), 2, &format!("{args:?}"));
        assert!(!d.exists("x"), "{args:?} created its first output");
    }
}

#[test]
fn two_outputs_on_one_path_are_refused() {
    let k = Keys::new();
    let d = &k.d;
    std::fs::create_dir(d.s("sub")).unwrap();
    let same = [
        d.s("sub/x"),
        format!("{}/./x", d.s("sub")),
        format!("{}/../sub/x", d.s("sub")),
    ];
    for other in &same {
        let cases: Vec<Vec<&str>> = vec![
            vec!["sm2", "keygen", "--out", &same[0], "--pubout", other],
            vec![
                "sm9",
                "setup",
                "--no-encrypt",
                "--sign",
                "--out",
                &same[0],
                "--pubout",
                other,
            ],
            vec![
                "sm9",
                "setup",
                "--no-encrypt",
                "--enc",
                "--out",
                other,
                "--pubout",
                &same[0],
            ],
        ];
        let mpk = d.s("empk.pem");
        let encap = vec![
            "sm9",
            "kem",
            "encap",
            "--mpk",
            &mpk,
            "--id",
            "B",
            "--key-out",
            &same[0],
            "--out",
            other,
        ];
        for args in cases.iter().chain([&encap]) {
            let _ = std::fs::remove_file(&same[0]);
            fails(args, b"", 2, "same file");
            assert!(!std::path::Path::new(&same[0]).exists(), "{args:?}");
            std::fs::write(&same[0], b"OLD").unwrap();
            fails(args, b"", 2, "same file");
            assert_eq!(std::fs::read(&same[0]).unwrap(), b"OLD", "{args:?}");
        }
    }
    // Standard output redirected to an output file is that file; devices may repeat.
    let y = d.write("so", b"OLD");
    let out = sh(&format!(
        "exec \"$SMTOOL\" sm2 keygen --out {y} --pubout - >> {y}"
    ));
    assert!(one_line(&out, 2, "stdout").contains("same file"));
    assert_eq!(d.read("so"), b"OLD");
    let out = sh("exec \"$SMTOOL\" sm2 keygen --out /dev/null --pubout /dev/null");
    assert!(out.status.success(), "{out:?}");
    let out = sh("exec \"$SMTOOL\" sm2 keygen --out /dev/stdout --pubout /dev/null | head -1");
    assert_eq!(out.stdout, b"-----BEGIN PRIVATE KEY-----\n");
    // A hard link to the same file is the same file too.
    std::fs::write(d.s("y"), b"OLD").unwrap();
    std::fs::hard_link(d.s("y"), d.s("y2")).unwrap();
    fails(
        &["sm2", "keygen", "--out", &d.s("y"), "--pubout", &d.s("y2")],
        b"",
        2,
        "same file",
    );
    assert_eq!(d.read("y"), b"OLD");
}

// ---------------------------------------------------------------------------------------------
// Finding 4: writes are atomic (a full disk, simulated with a file-size limit, keeps the old file).

#[test]
fn a_write_that_fails_midway_keeps_the_old_file() {
    let k = Keys::new();
    let d = &k.d;
    let msg = vec![b'M'; 8000];
    let ct = ok(&["sm2", "encrypt", "--pubkey", &d.s("p.pem")], &msg);
    let ct = d.write("ct", ct);
    let old = vec![b'O'; 3000];
    let scripts = [
        format!(
            "\"$SMTOOL\" sm2 decrypt --key {} --in {ct} --out {}",
            d.s("k.pem"),
            d.s("out")
        ),
        format!(
            "\"$SMTOOL\" sm2 encrypt --pubkey {} --in {ct} --out {}",
            d.s("p.pem"),
            d.s("out")
        ),
    ];
    for script in &scripts {
        d.write("out", &old);
        let before = d.names();
        // Ignore SIGXFSZ so that the write fails with EFBIG instead of killing the process.
        let out = sh(&format!("trap '' XFSZ; ulimit -f 2; exec {script}"));
        one_line(&out, 2, script);
        assert_eq!(d.read("out"), old, "{script} damaged its output");
        assert_eq!(d.names(), before, "{script} left a temporary file");
    }
    // A key output with no room at all.
    d.write("key", &old);
    let out = sh(&format!(
        "trap '' XFSZ; ulimit -f 0; exec \"$SMTOOL\" sm2 keygen --out {} --pubout {}",
        d.s("key"),
        d.s("pub")
    ));
    one_line(&out, 2, "keygen");
    assert_eq!(d.read("key"), old);
    assert!(!d.exists("pub"));
}

// ---------------------------------------------------------------------------------------------
// Finding 5: secrets get mode 0600 whether or not the target exists.

#[test]
fn secrets_are_0600_even_over_an_existing_file() {
    let k = Keys::new();
    let d = &k.d;
    let ct = ok(&["sm2", "encrypt", "--pubkey", &d.s("p.pem")], b"plain");
    let ct = d.write("ct", ct);
    let ct9 = ok(
        &["sm9", "encrypt", "--mpk", &d.s("empk.pem"), "--id", "B"],
        b"plain",
    );
    let ct9 = d.write("ct9", ct9);
    let t = d.s("t");
    let pubf = d.s("pub");
    let (kp, bp, emsk, empk) = (d.s("k.pem"), d.s("b.pem"), d.s("emsk.pem"), d.s("empk.pem"));
    let cases: Vec<Vec<&str>> = vec![
        vec!["sm2", "keygen", "--out", &t, "--pubout", &pubf],
        vec![
            "sm9",
            "setup",
            "--no-encrypt",
            "--sign",
            "--out",
            &t,
            "--pubout",
            &pubf,
        ],
        vec!["sm2", "decrypt", "--key", &kp, "--in", &ct, "--out", &t],
        vec![
            "sm9", "decrypt", "--key", &bp, "--id", "B", "--in", &ct9, "--out", &t,
        ],
        vec![
            "sm9", "extract", "--master", &emsk, "--id", "C", "--out", &t,
        ],
        vec![
            "sm9",
            "kem",
            "encap",
            "--mpk",
            &empk,
            "--id",
            "B",
            "--key-out",
            &t,
            "--out",
            &pubf,
        ],
    ];
    let owned: Vec<Vec<String>> = cases
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    for args in &owned {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        d.write("t", b"old");
        std::fs::set_permissions(&t, std::fs::Permissions::from_mode(0o644)).unwrap();
        d.write("pub", b"old");
        std::fs::set_permissions(&pubf, std::fs::Permissions::from_mode(0o640)).unwrap();
        ok(&args, b"");
        assert_eq!(d.mode("t"), 0o600, "{args:?}");
        assert_ne!(d.read("t"), b"old", "{args:?}");
        if args.contains(&pubf.as_str()) {
            // A public output keeps the mode of the file it replaces.
            assert_eq!(d.mode("pub"), 0o640, "{args:?}");
            assert_ne!(d.read("pub"), b"old", "{args:?}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Finding 6: every input read whole is bounded while it is read.

#[test]
fn endless_inputs_stop_at_the_bound() {
    let k = Keys::new();
    let d = &k.d;
    let cases = [
        format!(
            "\"$SMTOOL\" sm2 decrypt --key {} --in /dev/zero",
            d.s("k.pem")
        ),
        format!(
            "yes AAAAAAAA | \"$SMTOOL\" sm2 decrypt --key {} --encoding base64",
            d.s("k.pem")
        ),
        format!(
            "\"$SMTOOL\" sm9 decrypt --key {} --id B --in /dev/zero",
            d.s("b.pem")
        ),
        format!(
            "yes 0000 | \"$SMTOOL\" sm9 decrypt --key {} --id B --encoding hex",
            d.s("b.pem")
        ),
        format!(
            "\"$SMTOOL\" sm2 encrypt --pubkey {} --in /dev/zero",
            d.s("p.pem")
        ),
        format!(
            "\"$SMTOOL\" sm9 encrypt --mpk {} --id B --in /dev/zero",
            d.s("empk.pem")
        ),
        "\"$SMTOOL\" sm2 sign --key /dev/zero --in /dev/null".to_string(),
        format!(
            "\"$SMTOOL\" sm2 sign --key {} --pass-file /dev/zero --in /dev/null",
            d.s("ke.pem")
        ),
        format!(
            "\"$SMTOOL\" sm2 verify --pubkey {} --sig /dev/zero --in /dev/null",
            d.s("p.pem")
        ),
        format!(
            "\"$SMTOOL\" sm9 kem decap --key {} --id B --in /dev/zero",
            d.s("b.pem")
        ),
        "\"$SMTOOL\" sm3 --check /dev/zero".to_string(),
        "\"$SMTOOL\" sm3 --check < /dev/zero".to_string(),
    ];
    for c in &cases {
        // 1 GiB of address space: the documented bounds fit, an unbounded read does not.
        let out = sh(&format!("ulimit -v 1048576; timeout 60 bash -c '{c}'"));
        let err = one_line(&out, 2, c);
        assert!(
            err.contains("larger than") || err.contains("longer than"),
            "{c}: {err:?}"
        );
    }
}

/// Peak resident set size (KiB) of `script` (which ends in `exec smtool …`): getrusage of the
/// child, through Python's `resource` module (`python3` is what the peer tests need anyway;
/// `/usr/bin/time -v` reports the same number where installed).
fn peak_rss_kib(script: &str) -> u64 {
    let py = "import resource, subprocess, sys\n\
              r = subprocess.run(['bash', '-c', sys.argv[1]], stdout=subprocess.DEVNULL)\n\
              assert r.returncode == 0, r\n\
              print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)";
    let out = Command::new("python3")
        .args(["-c", py, script])
        .env("SMTOOL", bin())
        .output()
        .expect("python3 on PATH");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{script}: {text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.trim().parse().unwrap()
}

#[test]
fn encryption_of_64_mib_stays_near_the_data_size() {
    let k = Keys::new();
    let d = &k.d;
    let mib = 64u64;
    sh(&format!("head -c {mib}M /dev/urandom > {}", d.s("m")));
    let kib = mib * 1024;
    // (command, output that must equal the message afterwards)
    let mut cases: Vec<(String, Option<&str>)> = Vec::new();
    for (fmt, enc, c, m) in [
        ("der", "raw", "c", "m2"),
        ("der", "base64", "c64", "m3"),
        ("c1c3c2", "raw", "c132", "m5"),
        ("c1c2c3", "raw", "c123", "m6"),
    ] {
        cases.push((
            format!(
                "exec \"$SMTOOL\" sm2 encrypt --pubkey {} --format {fmt} --in {} --encoding {enc} --out {}",
                d.s("p.pem"),
                d.s("m"),
                d.s(c)
            ),
            None,
        ));
        cases.push((
            format!(
                "exec \"$SMTOOL\" sm2 decrypt --key {} --format {fmt} --in {} --encoding {enc} --out {}",
                d.s("k.pem"),
                d.s(c),
                d.s(m)
            ),
            Some(m),
        ));
    }
    for (cipher, fmt, c, m) in [
        ("kdf", "der", "c9", "m4"),
        ("sm4-cbc", "der", "c9cbc", "m7"),
        ("sm4-ecb", "der", "c9ecb", "m8"),
        ("kdf", "raw", "c9raw", "m9"),
    ] {
        cases.push((
            format!(
                "exec \"$SMTOOL\" sm9 encrypt --mpk {} --id B --cipher {cipher} --format {fmt} --in {} --out {}",
                d.s("empk.pem"),
                d.s("m"),
                d.s(c)
            ),
            None,
        ));
        cases.push((
            format!(
                "exec \"$SMTOOL\" sm9 decrypt --key {} --id B --cipher {cipher} --format {fmt} --in {} --out {}",
                d.s("b.pem"),
                d.s(c),
                d.s(m)
            ),
            Some(m),
        ));
    }
    let rss: Vec<u64> = cases.iter().map(|(c, _)| peak_rss_kib(c)).collect();
    for ((c, _), rss) in cases.iter().zip(&rss) {
        eprintln!("peak RSS {rss} KiB for {mib} MiB: {c}");
    }
    let m = d.read("m");
    for ((c, out), rss) in cases.iter().zip(&rss) {
        // The file buffer is the only large allocation: encryption and decryption work in
        // place, the KDF stream comes in small pieces, base64 is decoded and encoded in chunks.
        assert!(*rss <= kib * 3 / 2, "{c}: {rss} KiB for {kib} KiB of data");
        if let Some(f) = out {
            assert!(d.read(f) == m, "{f}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Finding 7: every reader of standard input is counted.

#[test]
fn two_readers_of_standard_input_are_refused() {
    let k = Keys::new();
    let d = &k.d;
    let ke = d.s("ke.pem");
    let kp = d.s("k.pem");
    let m = d.write("msg", b"MSG\n");
    let cases: Vec<Vec<&str>> = vec![
        vec!["sm2", "sign", "--key", &ke, "--pass-file", "-"],
        vec!["sm2", "sign", "--key", &ke, "--pass-file", "/dev/stdin"],
        vec!["sm2", "sign", "--key", "/dev/stdin"],
        vec!["sm2", "sign", "--key", "-", "--in", "/dev/stdin"],
        vec!["sm2", "decrypt", "--key", &ke, "--pass-file", "-"],
        vec!["sm2", "pubkey", "--key", "-", "--pass-file", "-"],
        vec!["sm9", "sign", "--key", "/dev/stdin"],
        vec![
            "sm9",
            "extract",
            "--master",
            "-",
            "--pass-file",
            "/dev/fd/0",
            "--id",
            "x",
            "--out",
            "-",
        ],
        vec!["sm3", "-", "/dev/stdin"],
    ];
    for args in &cases {
        let e = fails(args, b"secret\nMSG\n", 2, "standard input");
        assert!(!e.contains("secret"), "{e}");
    }
    // One reader is fine: the password on standard input, the message from a file.
    let sig = ok(
        &["sm2", "sign", "--key", &ke, "--pass-file", "-", "--in", &m],
        b"pw\n",
    );
    let sig = d.write("sig", sig);
    let pubf = d.s("pe.pem");
    ok(
        &[
            "sm2",
            "pubkey",
            "--key",
            &ke,
            "--pass-file",
            "-",
            "--out",
            &pubf,
        ],
        b"pw\n",
    );
    ok(
        &[
            "sm2", "verify", "--pubkey", &pubf, "--sig", &sig, "--in", &m,
        ],
        b"",
    );
    let _ = kp;
}

// ---------------------------------------------------------------------------------------------
// Finding 8: sm3 --check.

#[test]
fn sm3_check_one_line_per_file_escaped_names_no_hang() {
    let d = Dir::new();
    let good = d.write("good", b"abc");
    let digest = String::from_utf8(ok(&["sm3", &good], b"")).unwrap();
    let hex = &digest[..64];
    let esc = d.write("evil\x1b[1A\x1b[2Kname", b"abc");
    std::fs::create_dir(d.s("adir")).unwrap();
    sh(&format!("mkfifo {}", d.s("fifo")));
    let list = format!(
        "{hex}  {good}\n{hex}  {}\n{hex}  {esc}\n{hex}  /dev/zero\n{hex}  {}\n{hex}  {}\n{}  {good}\n",
        d.s("missing"),
        d.s("adir"),
        d.s("fifo"),
        "0".repeat(64)
    );
    let l = d.write("list", list);
    let out = sh(&format!("exec timeout 20 \"$SMTOOL\" sm3 --check {l}"));
    let err = one_line(&out, 1, "check");
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 7, "{stdout}");
    assert!(
        !stdout.contains('\x1b') && !err.contains('\x1b'),
        "{stdout:?} {err:?}"
    );
    assert!(stdout.contains("\\x1b[1A"), "{stdout:?}");
    assert!(stdout.contains(&format!("{good}: OK")), "{stdout}");
    assert!(
        stdout.contains(&format!("{}: FAILED open or read", d.s("missing"))),
        "{stdout}"
    );
    assert!(
        stdout.contains("/dev/zero: FAILED not a regular file"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!("{}: FAILED not a regular file", d.s("fifo"))),
        "{stdout}"
    );
    assert!(stdout.contains(&format!("{good}: FAILED\n")), "{stdout}");
    assert!(err.contains("5 of 7"), "{err}");

    // The list is streamed: 64 MiB of lines under a 64 MiB address-space limit.
    let out = sh(&format!(
        "(cat {l}; yes xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx | head -c 64M) | (ulimit -v 65536; exec \"$SMTOOL\" sm3 --check --quiet) > /dev/null"
    ));
    let err = one_line(&out, 1, "streamed list");
    assert!(
        err.contains("5 of 7") && err.contains("improperly formatted"),
        "{err}"
    );

    // A name with a newline: the digest line escapes it and --check reads it back.
    let nl = d.write("new\nline", b"xyz");
    let line = ok(&["sm3", &nl], b"");
    assert_eq!(
        String::from_utf8_lossy(&line).lines().count(),
        1,
        "{line:?}"
    );
    assert!(line.starts_with(b"\\"));
    let l2 = d.write("list2", &line);
    let out = ok(&["sm3", "--check", &l2], b"");
    assert_eq!(String::from_utf8_lossy(&out).lines().count(), 1, "{out:?}");
}

// ---------------------------------------------------------------------------------------------
// Finding 9: raw file names in errors.

#[test]
fn file_names_in_errors_are_quoted_and_escaped() {
    for name in [
        "/nonexistent/a\nb",
        "/nonexistent/\x1b]0;pwned\x07x",
        "/nonexistent/\u{202e}x",
    ] {
        let err = fails(&["sm3", name], b"", 2, "cannot open");
        assert!(
            !err.contains('\x1b') && !err.contains('\x07') && !err.contains('\u{202e}'),
            "{err:?}"
        );
        assert!(err.contains("'/nonexistent/"), "{err:?}");
        let err = fails(&["sm2", "sign", "--key", name], b"", 2, "cannot open");
        assert!(!err.contains('\x1b'), "{err:?}");
    }
    let err = fails(
        &["sm2", "sign", "--key", "/nonexistent/a\nb"],
        b"",
        2,
        "a\\nb",
    );
    assert!(err.contains("'/nonexistent/a\\nb'"), "{err}");
}

// ---------------------------------------------------------------------------------------------
// Finding 10: a missing subcommand; a closed standard output.

#[test]
fn missing_subcommand_is_one_line_and_closed_stdout_is_an_error() {
    for (args, needle) in [
        (&[][..], "sm3"),
        (&["sm2"][..], "keygen"),
        (&["sm9"][..], "setup"),
        (&["sm9", "kem"][..], "encap"),
    ] {
        fails(args, b"", 2, needle);
    }
    let d = Dir::new();
    let f = d.write("f", b"abc");
    for c in [
        format!("exec \"$SMTOOL\" sm3 {f} >&-"),
        "exec \"$SMTOOL\" sm2 keygen >&-".to_string(),
        format!("exec \"$SMTOOL\" sm3 {f} > /dev/full"),
    ] {
        let err = one_line(&sh(&c), 2, &c);
        assert!(err.contains("standard output"), "{c}: {err}");
    }
    // /dev/null is a fine destination.
    let out = sh(&format!("exec \"$SMTOOL\" sm3 {f} > /dev/null"));
    assert!(out.status.success() && out.stderr.is_empty());
}

// ---------------------------------------------------------------------------------------------
// Finding 11: the PBKDF2 bound is the libraries' (2^20).

fn encrypted_key(iterations: u32) -> Vec<u8> {
    let sk = sm2::SecretKey::from_bytes(&[7u8; 32]).unwrap();
    sk.to_pkcs8_encrypted_der_with_params(b"pw", &[1u8; 16], &[2u8; 16], iterations)
        .unwrap()
}

#[test]
fn pbkdf2_bound_is_the_libraries() {
    assert_eq!(sm2::MAX_PBKDF2_ITERATIONS, 1 << 20);
    assert_eq!(sm9::MAX_PBKDF2_ITERATIONS, 1 << 20);
    let d = Dir::new();
    let at = d.write("at.der", encrypted_key(sm2::MAX_PBKDF2_ITERATIONS));
    let pw = [("PW", "pw")];
    let out = run_env(
        &["sm2", "pubkey", "--key", &at, "--pass-env", "PW"],
        b"",
        &pw,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // 65536 encoded as INTEGER 02 03 01 00 00; make it 2^21 (02 03 20 00 00).
    let mut over = encrypted_key(65536);
    let pos = over.windows(5).position(|w| w == [2, 3, 1, 0, 0]).unwrap();
    over[pos + 2] = 0x20;
    let over = d.write("over.der", over);
    let out = run_env(
        &["sm2", "pubkey", "--key", &over, "--pass-env", "PW"],
        b"",
        &pw,
    );
    let err = one_line(&out, 2, "over");
    assert!(err.contains("1048576"), "{err}");
    // Refused before any PBKDF2 work (the old bound, 2^24, ran 2^21 iterations first).
}

// ---------------------------------------------------------------------------------------------
// Finding 12: wrong or misleading messages.

#[test]
fn messages_are_right() {
    let k = Keys::new();
    let d = &k.d;
    let kp = d.s("k.pem");
    let pem = String::from_utf8(d.read("k.pem")).unwrap();
    let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();

    // OpenSSL legacy encryption.
    let legacy = format!(
        "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,00112233445566778899AABBCCDDEEFF\n\n{body}\n-----END EC PRIVATE KEY-----\n"
    );
    let e = fails(
        &["sm2", "sign", "--key", &d.write("legacy.pem", &legacy)],
        b"m",
        2,
        "legacy encrypted PEM",
    );
    assert!(e.contains("PKCS#8"), "{e}");
    assert_no_secret(&e, &pem, "legacy");

    // Labels must fit the content.
    let cert = pem.replace("PRIVATE KEY", "CERTIFICATE");
    fails(
        &["sm2", "sign", "--key", &d.write("cert.pem", cert)],
        b"m",
        2,
        "'CERTIFICATE'",
    );
    let mislabelled = pem.replace("PRIVATE KEY", "ENCRYPTED PRIVATE KEY");
    fails(
        &["sm2", "sign", "--key", &d.write("ml.pem", mislabelled)],
        b"m",
        2,
        "not encrypted",
    );
    let ek = base64::engine::general_purpose::STANDARD.encode(encrypted_key(16));
    let enc_plain = format!("-----BEGIN PRIVATE KEY-----\n{ek}\n-----END PRIVATE KEY-----\n");
    fails(
        &["sm2", "sign", "--key", &d.write("ep.pem", enc_plain)],
        b"m",
        2,
        "password-encrypted",
    );
    let pubpem = String::from_utf8(d.read("p.pem"))
        .unwrap()
        .replace("PUBLIC KEY", "PRIVATE KEY");
    fails(
        &["sm2", "encrypt", "--pubkey", &d.write("pp.pem", pubpem)],
        b"m",
        2,
        "'PRIVATE KEY'",
    );

    // Whitespace in --id-hex; --id-file.
    let m = d.write("m", b"message");
    let p = d.s("p.pem");
    fails(
        &[
            "sm2",
            "sign",
            "--key",
            &kp,
            "--in",
            &m,
            "--id-hex",
            "61 6c\n69:63 65",
        ],
        b"",
        2,
        "--id-hex",
    );
    let sig = d.write(
        "sig",
        ok(
            &[
                "sm2",
                "sign",
                "--key",
                &kp,
                "--id-hex",
                " 61 6c\n69 63\t65 ",
                "--in",
                &m,
            ],
            b"",
        ),
    );
    ok(
        &[
            "sm2", "verify", "--pubkey", &p, "--sig", &sig, "--in", &m, "--id", "alice",
        ],
        b"",
    );
    let idf = d.write("id", b"alice\n");
    ok(
        &[
            "sm2",
            "verify",
            "--pubkey",
            &p,
            "--sig",
            &sig,
            "--in",
            &m,
            "--id-file",
            &idf,
        ],
        b"",
    );
    let e = fails(
        &["sm2", "sign", "--key", &kp, "--id-hex", "123", "--in", &m],
        b"",
        2,
        "--id-hex",
    );
    assert!(!e.contains("Odd number"), "{e}");

    // Cipher names as the CLI spells them.
    let ct9 = d.write(
        "ct9",
        ok(
            &["sm9", "encrypt", "--mpk", &d.s("empk.pem"), "--id", "B"],
            b"x",
        ),
    );
    let e = fails(
        &[
            "sm9",
            "decrypt",
            "--key",
            &d.s("b.pem"),
            "--id",
            "B",
            "--cipher",
            "sm4-cbc",
            "--in",
            &ct9,
        ],
        b"",
        1,
        "'kdf'",
    );
    assert!(!e.contains("KdfStream"), "{e}");

    // Format mismatches get a hint.
    let ct = d.write("ct", ok(&["sm2", "encrypt", "--pubkey", &p], b"x"));
    fails(
        &[
            "sm2", "decrypt", "--key", &kp, "--format", "c1c3c2", "--in", &ct,
        ],
        b"",
        1,
        "--format der",
    );
    let raw = d.write(
        "raw",
        ok(
            &["sm2", "encrypt", "--pubkey", &p, "--format", "c1c3c2"],
            b"x",
        ),
    );
    fails(
        &["sm2", "decrypt", "--key", &kp, "--in", &raw],
        b"",
        1,
        "--format c1c3c2",
    );
    fails(
        &[
            "sm2", "decrypt", "--key", &kp, "--in", &raw, "--format", "c1c2c3",
        ],
        b"",
        1,
        "--format",
    );
    let ct9r = d.write(
        "ct9r",
        ok(
            &[
                "sm9",
                "encrypt",
                "--mpk",
                &d.s("empk.pem"),
                "--id",
                "B",
                "--format",
                "raw",
            ],
            b"x",
        ),
    );
    fails(
        &[
            "sm9",
            "decrypt",
            "--key",
            &d.s("b.pem"),
            "--id",
            "B",
            "--in",
            &ct9r,
        ],
        b"",
        1,
        "--format raw",
    );
    fails(
        &[
            "sm9",
            "decrypt",
            "--key",
            &d.s("b.pem"),
            "--id",
            "B",
            "--in",
            &ct9,
            "--mac",
            "standard",
        ],
        b"",
        1,
        "this was --mac standard, check --mac gmssl",
    );
    // The default MAC follows the format (DER: GmSSL's HMAC); a failure names it and the other.
    let ct9s = d.write(
        "ct9s",
        ok(
            &[
                "sm9",
                "encrypt",
                "--pubkey",
                &d.s("empk.pem"),
                "--id",
                "B",
                "--mac",
                "standard",
            ],
            b"x",
        ),
    );
    fails(
        &[
            "sm9",
            "decrypt",
            "--key",
            &d.s("b.pem"),
            "--id",
            "B",
            "--in",
            &ct9s,
        ],
        b"",
        1,
        "this was --mac gmssl, the default for this --format, check --mac standard",
    );

    // "both", --pbe without a password, an empty --pass-env.
    fails(&["sm2", "sign", "--key", "-"], b"", 2, "both");
    fails(
        &["sm2", "keygen", "--pbe", "openssl", "--out", &d.s("nk")],
        b"",
        2,
        "--pbe",
    );
    assert!(!d.exists("nk"));
    let e = fails(
        &["sm2", "sign", "--key", &d.s("ke.pem"), "--pass-env", ""],
        b"",
        2,
        "--pass-env",
    );
    assert!(!e.contains("  "), "{e}");
}
