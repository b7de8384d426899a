//! `cargo xtask ledger [--quick] [--markdown FILE]`: the pairing-optimization ledger. For each
//! optimization, the production configuration against the same configuration with only that
//! optimization switched off, timed interleaved in one process by `xtask bench`'s harness (which
//! first checks that both give the same bytes), with GF(p) operation counts from
//! `sm_field::Counting` and the source of each formula.
//!
//! Pairing rows come from `sm_pairing::research::variants::visit_rows` (one row per strategy
//! type there); GT, G1/G2 and backend rows compare production functions with each other or with
//! the plain variant written in `variants`. At protocol level, `protocol` builds SM9 sign,
//! verify and decrypt from the `sm9` crate's steps with each configuration of `visit_rows` (and
//! signing with `Gt::pow` in place of the fixed-base table), one row per operation the
//! optimization reaches; the backend rows time the `sm9` operations themselves (`sm9` is generic
//! over the backend). `--markdown FILE` writes the generated document (`docs/LEDGER.md`), never
//! edited by hand.

use std::fmt::Write as _;
use std::hint::black_box;

use crate::bench::harness::{self, Case};
use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve, Sm9P2Table};
use sm_curve::{CurveParams, Jacobian};
use sm_field::{counting, Backend, Fp, Sm9N};
use sm_pairing::research::variants::{self, Config, Production, Stage, Visitor};
use sm_pairing::{G1Affine, G2Affine, GtTable};

/// The limb backends, named in this one place (rename here when sm-field's types change).
mod backends {
    /// The backend every row is timed on unless it compares backends.
    pub type Timed = sm_field::DefaultBackend;
    /// The backend whose operations are counted.
    pub type Counted = sm_field::Counting<sm_field::U64>;
    /// Portable without 128-bit products (29-bit digits).
    pub type Portable32 = sm_field::U32;
    /// Portable 4 × 64-bit limbs.
    pub type Portable64 = sm_field::U64;
    /// x86_64 MULX/ADX (with AVX-512 IFMA batching where the CPU has it).
    #[cfg(target_arch = "x86_64")]
    pub type Asm = sm_field::Asm;
    /// The asm backend with batching switched off.
    #[cfg(target_arch = "x86_64")]
    pub type AsmNoBatch = sm_pairing::research::variants::NoBatch<Asm>;
}
use backends::{Counted, Timed};

mod protocol;

/// A fixed scalar below n (public).
const K: [u64; 4] = [
    0x0123_4567_89ab_cdef,
    0xfedc_ba98_7654_3210,
    0x0f1e_2d3c_4b5a_6978,
    0x1122_3344_5566_7788,
];

fn scalar<B: Backend>(i: u64) -> Fp<Sm9N, B> {
    Fp::from_canonical_limbs([K[0] ^ i, K[1], K[2], K[3]]).unwrap_or(Fp::ONE)
}

/// Two fixed pairs (multiples of P1 and P2).
fn pairs<B: Backend>() -> [(G1Affine<B>, G2Affine<B>); 2] {
    let pair = |i| {
        (
            Jacobian::<Sm9G1Curve<B>>::generator()
                .mul(&scalar(i))
                .to_affine(),
            Jacobian::<Sm9G2Curve<B>>::generator()
                .mul(&scalar(i + 1))
                .to_affine(),
        )
    };
    [pair(1), pair(3)]
}

/// An operation's output (compared across the two sides) and its timing loop.
type Made = (Vec<u8>, Box<dyn FnMut(u64)>);

/// `stage` under the variant configuration `C`.
fn variant<C: Config, B: Backend>(stage: Stage) -> Made {
    let pairs = pairs::<B>();
    let (p, q) = pairs[0];
    let f = variants::miller_loop::<C, B>(&p, &q);
    match stage {
        Stage::Miller => (
            sm_pairing::final_exponentiation(&f).to_bytes().to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(variants::miller_loop::<C, B>(black_box(&p), black_box(&q)));
                }
            }),
        ),
        Stage::FinalExp => (
            variants::final_exponentiation::<C, B>(&f)
                .to_bytes()
                .to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(variants::final_exponentiation::<C, B>(black_box(&f)));
                }
            }),
        ),
        Stage::Pairing => (
            variants::pairing::<C, B>(&p, &q).to_bytes().to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(variants::pairing::<C, B>(black_box(&p), black_box(&q)));
                }
            }),
        ),
        Stage::MultiPairing2 => (
            variants::multi_pairing::<C, B>(&pairs).to_bytes().to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(variants::multi_pairing::<C, B>(black_box(&pairs)));
                }
            }),
        ),
    }
}

/// The production `sm_pairing::pairing`.
fn production_pairing<B: Backend>() -> Made {
    let (p, q) = pairs::<B>()[0];
    (
        sm_pairing::pairing(&p, &q).to_bytes().to_vec(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(sm_pairing::pairing(black_box(&p), black_box(&q)));
            }
        }),
    )
}

/// SM9 operations on backend `B` (keys and inputs from a fixed seed, so every backend makes the
/// same bytes): 0 = sign (fixed nonce), 1 = verify, 2 = decrypt 32 bytes (KDF stream, SM3 MAC).
fn sm9_protocol<B: Backend, const OP: u8>() -> Made {
    use rand::SeedableRng;
    use sm9::generic::{EncMasterKey, SignMasterKey};
    use sm9::{EncryptionMode, MacMode};
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(20);
    let (id, msg) = (b"alice@example.com", [0x5au8; 32]);
    let kgc = SignMasterKey::<B>::generate(&mut rng);
    let alice = kgc.extract(id).expect("extract");
    let master = kgc.public_key().prepare();
    let mut nonce = [0x33u8; 32];
    nonce[0] = 0x0f; // below n
    let sig = sm9::hazmat::sign_with_nonce(&alice, &master, &msg, &nonce).expect("sign");
    let ekgc = EncMasterKey::<B>::generate(&mut rng);
    let bob = ekgc.extract(id).expect("extract").prepare();
    let ct = sm9::encrypt(
        &ekgc.public_key().prepare(),
        id,
        &msg,
        EncryptionMode::KdfStream,
        MacMode::Sm3,
        &mut rng,
    )
    .expect("encrypt");
    match OP {
        0 => (
            sig.to_bytes().to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(sm9::hazmat::sign_with_nonce(&alice, &master, &msg, &nonce).ok());
                }
            }),
        ),
        1 => (
            vec![u8::from(sm9::verify(&master, id, &msg, &sig).is_ok())],
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(sm9::verify(&master, id, black_box(&msg), &sig).is_ok());
                }
            }),
        ),
        _ => (
            sm9::decrypt(&bob, id, &ct, MacMode::Sm3)
                .expect("decrypt")
                .to_vec(),
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(sm9::decrypt(&bob, id, black_box(&ct), MacMode::Sm3).ok());
                }
            }),
        ),
    }
}

/// GT exponentiation of a pairing value: 0 = fixed-base table, 1 = `Gt::pow` (Frobenius split),
/// 2 = without the split.
fn gt_pow<B: Backend, const HOW: u8>() -> Made {
    let (p, q) = pairs::<B>()[0];
    let g = sm_pairing::pairing(&p, &q);
    let table = GtTable::new(&g);
    let pow = move |k: &[u64; 4]| match HOW {
        0 => table.pow(k),
        1 => g.pow(k),
        _ => variants::gt_pow_unsplit(&g, k),
    };
    let out = pow(&K).to_bytes().to_vec();
    (
        out,
        Box::new(move |n| {
            for _ in 0..n {
                black_box(pow(black_box(&K)));
            }
        }),
    )
}

/// Scalar multiplications: G1 (`G2 = false`) or G2 of a fixed point; 0 = endomorphism
/// (GLV/GLS), 1 = plain signed window, 2 = generator by comb, 3 = generator by endomorphism.
fn scalar_mul<B: Backend, const G2: bool, const HOW: u8>() -> Made {
    let k = scalar::<B>(5);
    if G2 {
        let base = match HOW {
            0 | 1 => Jacobian::from_affine(&pairs::<B>()[0].1),
            _ => Jacobian::<Sm9G2Curve<B>>::generator(),
        };
        let mul = move |k: &Fp<Sm9N, B>| match HOW {
            0 | 3 => base.mul_endo(k),
            1 => base.mul(k),
            _ => Sm9P2Table.mul(k),
        };
        let out = mul(&k).to_affine().to_sec1_vec(false);
        (
            out,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(mul(black_box(&k)));
                }
            }),
        )
    } else {
        let base = match HOW {
            0 | 1 => Jacobian::from_affine(&pairs::<B>()[0].0),
            _ => Jacobian::<Sm9G1Curve<B>>::generator(),
        };
        let mul = move |k: &Fp<Sm9N, B>| match HOW {
            0 | 3 => base.mul_endo(k),
            1 => base.mul(k),
            _ => Sm9G1Curve::<B>::mul_generator(k),
        };
        let out = mul(&k).to_affine().to_sec1_vec(false);
        (
            out,
            Box::new(move |n| {
                for _ in 0..n {
                    black_box(mul(black_box(&k)));
                }
            }),
        )
    }
}

/// GF(p) operation counts of one run (add includes doublings, sub includes negations).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Counts {
    mul: u64,
    sqr: u64,
    add: u64,
    sub: u64,
    inv: u64,
}

impl Counts {
    fn of(mut made: Made) -> Self {
        counting::reset();
        variants::reset_inversions();
        (made.1)(1);
        let c = counting::snapshot();
        Counts {
            mul: c.mul,
            sqr: c.square,
            add: c.add + c.double,
            sub: c.sub + c.neg,
            inv: variants::inversions(),
        }
    }
}

/// One ledger line: production ("on") against the optimization switched off.
struct Line {
    optimization: String,
    off: String,
    stage: String,
    source: String,
    counts: Option<[Counts; 2]>,
    cases: [Made; 2],
}

fn line(
    optimization: &str,
    off: &str,
    stage: &str,
    source: &str,
    counts: Option<[Made; 2]>,
    cases: [Made; 2],
) -> Line {
    Line {
        optimization: optimization.into(),
        off: off.into(),
        stage: stage.into(),
        source: source.into(),
        counts: counts.map(|[a, b]| [Counts::of(a), Counts::of(b)]),
        cases,
    }
}

fn stage_name(s: Stage) -> &'static str {
    match s {
        Stage::Miller => "Miller loop",
        Stage::FinalExp => "final exponentiation",
        Stage::Pairing => "pairing",
        Stage::MultiPairing2 => "product of 2 pairings",
    }
}

struct Collect(Vec<Line>);

impl Visitor for Collect {
    fn visit<C: Config>(&mut self, row: variants::Row) {
        let s = row.stage;
        self.0.push(line(
            row.optimization,
            row.off,
            stage_name(s),
            row.source,
            Some([variant::<Production, Counted>(s), variant::<C, Counted>(s)]),
            [variant::<Production, Timed>(s), variant::<C, Timed>(s)],
        ));
    }
}

/// Optimization, switched off, stage, source, and the counted and timed on/off operations.
type CurveRow = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    [fn() -> Made; 4],
);

/// Every line of the ledger, in table order, and the (optimization, SM9 operation) pairs where
/// the optimization does not reach the operation.
fn lines() -> (Vec<Line>, Vec<(&'static str, protocol::Op)>) {
    let mut out = vec![line(
        "production code (reference)",
        "the ledger's generic production configuration",
        "pairing",
        "— (overhead of the research code itself)",
        Some([
            production_pairing::<Counted>(),
            variant::<Production, Counted>(Stage::Pairing),
        ]),
        [
            production_pairing::<Timed>(),
            variant::<Production, Timed>(Stage::Pairing),
        ],
    )];
    let mut c = Collect(Vec::new());
    variants::visit_rows(&mut c);
    out.extend(c.0);
    out.push(line(
        "GT fixed-base table (`GtTable::pow`)",
        "`Gt::pow`",
        "GT exponentiation",
        "comb-style fixed-base table (Lim–Lee); SM9 sign's g^r",
        Some([gt_pow::<Counted, 0>(), gt_pow::<Counted, 1>()]),
        [gt_pow::<Timed, 0>(), gt_pow::<Timed, 1>()],
    ));
    out.push(line(
        "GT 2-way Frobenius split (`Gt::pow`)",
        "one 256-bit signed window chain",
        "GT exponentiation",
        "Galbraith–Scott ePrint 2008/117 §4",
        Some([gt_pow::<Counted, 1>(), gt_pow::<Counted, 2>()]),
        [gt_pow::<Timed, 1>(), gt_pow::<Timed, 2>()],
    ));
    let curve_rows: [CurveRow; 4] = [
        (
            "G1 GLV (`mul_endo`)",
            "plain signed window (`mul`)",
            "G1 scalar mul",
            "Gallant–Lambert–Vanstone CRYPTO 2001",
            [
                scalar_mul::<Counted, false, 0>,
                scalar_mul::<Counted, false, 1>,
                scalar_mul::<Timed, false, 0>,
                scalar_mul::<Timed, false, 1>,
            ],
        ),
        (
            "G2 GLS (`mul_endo`)",
            "plain signed window (`mul`)",
            "G2 scalar mul",
            "Galbraith–Lin–Scott EUROCRYPT 2009",
            [
                scalar_mul::<Counted, true, 0>,
                scalar_mul::<Counted, true, 1>,
                scalar_mul::<Timed, true, 0>,
                scalar_mul::<Timed, true, 1>,
            ],
        ),
        (
            "G1 fixed-base comb (k·P1)",
            "GLV window (`mul_endo`)",
            "G1 scalar mul",
            "Lim–Lee comb, CRYPTO 1994",
            [
                scalar_mul::<Counted, false, 2>,
                scalar_mul::<Counted, false, 3>,
                scalar_mul::<Timed, false, 2>,
                scalar_mul::<Timed, false, 3>,
            ],
        ),
        (
            "G2 fixed-base comb (k·P2)",
            "GLS window (`mul_endo`)",
            "G2 scalar mul",
            "Lim–Lee comb, CRYPTO 1994",
            [
                scalar_mul::<Counted, true, 2>,
                scalar_mul::<Counted, true, 3>,
                scalar_mul::<Timed, true, 2>,
                scalar_mul::<Timed, true, 3>,
            ],
        ),
    ];
    for (opt, off, stage, source, [c0, c1, t0, t1]) in curve_rows {
        out.push(line(
            opt,
            off,
            stage,
            source,
            Some([c0(), c1()]),
            [t0(), t1()],
        ));
    }
    // Protocol level: SM9 sign, verify and decrypt built from the production steps with each
    // variant in place of the production pairing / GT exponentiation (see `protocol`).
    let mut proto = protocol::Rows::new();
    proto.reference();
    proto.gt_table();
    variants::visit_rows(&mut proto);
    out.extend(proto.lines);
    #[cfg(target_arch = "x86_64")]
    {
        use backends::{Asm, AsmNoBatch, Portable32, Portable64};
        out.push(line(
            "asm backend (MULX/ADCX/ADOX)",
            "portable u64 (u128 products)",
            "pairing",
            "Intel ADX white paper (Ozturk et al. 2012)",
            None,
            [
                production_pairing::<Asm>(),
                production_pairing::<Portable64>(),
            ],
        ));
        out.push(line(
            "asm with AVX-512 IFMA batching",
            "asm, one product at a time",
            "pairing",
            "Drucker–Gueron 2016 (IFMA); batching needs avx512ifma on this CPU",
            None,
            [
                production_pairing::<Asm>(),
                production_pairing::<AsmNoBatch>(),
            ],
        ));
        // Where the backend choice reaches the protocols: SM9 sign, verify and decrypt.
        type Op = fn() -> Made;
        let protocol_rows: [(&str, [Op; 3]); 3] = [
            (
                "SM9 sign (fixed nonce)",
                [
                    sm9_protocol::<Asm, 0>,
                    sm9_protocol::<Portable64, 0>,
                    sm9_protocol::<AsmNoBatch, 0>,
                ],
            ),
            (
                "SM9 verify",
                [
                    sm9_protocol::<Asm, 1>,
                    sm9_protocol::<Portable64, 1>,
                    sm9_protocol::<AsmNoBatch, 1>,
                ],
            ),
            (
                "SM9 decrypt 32 B",
                [
                    sm9_protocol::<Asm, 2>,
                    sm9_protocol::<Portable64, 2>,
                    sm9_protocol::<AsmNoBatch, 2>,
                ],
            ),
        ];
        for (stage, [asm, portable, no_batch]) in protocol_rows {
            out.push(line(
                "asm backend (MULX/ADCX/ADOX)",
                "portable u64 (u128 products)",
                stage,
                "Intel ADX white paper (Ozturk et al. 2012)",
                None,
                [asm(), portable()],
            ));
            out.push(line(
                "asm with AVX-512 IFMA batching",
                "asm, one product at a time",
                stage,
                "Drucker–Gueron 2016 (IFMA); batching needs avx512ifma on this CPU",
                None,
                [asm(), no_batch()],
            ));
        }
        out.push(line(
            "64-bit limbs (u64)",
            "29-bit digits (u32)",
            "pairing",
            "—",
            None,
            [
                production_pairing::<Portable64>(),
                production_pairing::<Portable32>(),
            ],
        ));
    }
    (out, proto.not_reached)
}

/// A timed line.
struct Timed2 {
    line: Line,
    min: [f64; 2],
    median: [f64; 2],
}

fn time(lines: Vec<Line>, quick: bool) -> Result<Vec<Timed2>, String> {
    let mut out = Vec::new();
    for (i, mut l) in lines.into_iter().enumerate() {
        let cases: Vec<Case> = std::mem::replace(
            &mut l.cases,
            [
                (Vec::new(), Box::new(|_| {})),
                (Vec::new(), Box::new(|_| {})),
            ],
        )
        .into_iter()
        .zip(["on", "off"])
        .map(|((output, run), variant)| Case {
            group: "ledger",
            op: format!("{i}: {}", l.optimization),
            variant: variant.into(),
            output,
            bytes: 0,
            per_run: 1,
            run,
        })
        .collect();
        let rows = harness::run_group(cases, quick)?;
        eprintln!(
            "  {:<55} {:>6.2}x (min) {:>6.2}x (median)",
            l.optimization,
            rows[1].min / rows[0].min,
            rows[1].median / rows[0].median
        );
        out.push(Timed2 {
            min: [rows[0].min, rows[1].min],
            median: [rows[0].median, rows[1].median],
            line: l,
        });
    }
    Ok(out)
}

fn fmt_counts(c: &Counts) -> String {
    format!("{}/{}/{}/{}/{}", c.mul, c.sqr, c.add, c.sub, c.inv)
}

fn table(rows: &[Timed2]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| optimization | switched off | stage | ops on (mul/sqr/add/sub/inv) | ops off | min on | min off | median on | median off | off/on (min) | off/on (median) | source |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---:|---:|---:|---:|---:|---:|---|");
    for r in rows {
        let l = &r.line;
        let (c0, c1) = match &l.counts {
            Some([a, b]) => (fmt_counts(a), fmt_counts(b)),
            None => ("same".into(), "same".into()),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2}× | {:.2}× | {} |",
            l.optimization,
            l.off,
            l.stage,
            c0,
            c1,
            harness::fmt_ns(r.min[0]),
            harness::fmt_ns(r.min[1]),
            harness::fmt_ns(r.median[0]),
            harness::fmt_ns(r.median[1]),
            r.min[1] / r.min[0],
            r.median[1] / r.median[0],
            l.source
        );
    }
    s
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn date() -> String {
    std::process::Command::new("date")
        .args(["-u", "+%Y-%m-%d %H:%M UTC"])
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut quick = false;
    let mut markdown = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => quick = true,
            "--markdown" => markdown = Some(it.next().ok_or("--markdown needs a file")?.clone()),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    crate::sysinfo::print_header();
    let load_before = load();
    let start = std::time::Instant::now();
    eprintln!("[ledger] building variants and counting operations");
    let (lines, not_reached) = lines();
    eprintln!("[ledger] timing {} lines (on/off interleaved)", lines.len());
    let rows = time(lines, quick)?;
    let secs = start.elapsed().as_secs_f64();
    let command = format!("cargo xtask ledger{}", if quick { " --quick" } else { "" });
    let header = format!(
        "_Generated by `{command}` on {} — {}, rustc {}, revision {}, timing backend {}; \
         load average {} (before) / {} (after); run time {secs:.0} s. \
         \"on\" is the production configuration, \"off\" the same with only this optimization \
         switched off; off/on > 1 means the optimization pays (on a loaded machine the ratio of the \
         minima is the steadier one). Both sides are checked to give \
         identical bytes before they are timed. Counts are GF(p) operations of one run \
         (`sm_field::Counting<U64>`; add includes doublings, sub negations; inv counts the \
         research variants' inversions only). AVX-512 IFMA on this CPU: {}._\n",
        date(),
        crate::sysinfo::cpu_model(),
        crate::sysinfo::rustc_version().trim_start_matches("rustc "),
        crate::sysinfo::git_rev(),
        <Timed as Backend>::NAME,
        load_before,
        load(),
        ifma(),
    );
    let md = table(&rows);
    println!("\n{header}\n{md}");
    if let Some(path) = markdown {
        let doc = format!(
            "# Pairing-optimization ledger\n\n<!-- Generated by `{command} --markdown {path}`; \
             do not edit by hand. -->\n\n{header}\n{md}\n{}{NOTES}",
            not_reached_note(&not_reached)
        );
        std::fs::write(&path, doc).map_err(|e| format!("{path}: {e}"))?;
        println!("ledger written to {path}");
    }
    Ok(())
}

/// Whether the asm backend batches with AVX-512 IFMA here.
fn ifma() -> &'static str {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512ifma") {
        return "yes";
    }
    "no (the IFMA batching rows then time the same one-product-at-a-time code on both sides)"
}

/// The note on the optimizations that do not reach an SM9 operation.
fn not_reached_note(not_reached: &[(&'static str, protocol::Op)]) -> String {
    let mut by_opt: Vec<(&str, Vec<&str>)> = Vec::new();
    for (opt, op) in not_reached {
        let short = match op {
            protocol::Op::Sign => "sign",
            protocol::Op::Verify => "verify",
            protocol::Op::Decrypt => "decrypt",
        };
        match by_opt.iter_mut().find(|(o, _)| o == opt) {
            Some((_, ops)) => ops.push(short),
            None => by_opt.push((opt, vec![short])),
        }
    }
    let list: Vec<String> = by_opt
        .iter()
        .map(|(opt, ops)| format!("{opt} ({})", ops.join(", ")))
        .collect();
    format!(
        "Protocol rows: SM9 sign, verify and decrypt are built from the `sm9` crate's steps \
         with the pairing or GT exponentiation of the variant configuration, and checked to give \
         the production signature (fixed nonce), verdict and w', and plaintext before they are \
         timed (`xtask/src/ledger/protocol.rs`; its test runs every configuration on random keys). \
         Signing's g^r is a fixed-base table exponentiation (GF(p¹²) products only); verification \
         (a product of two pairings by bilinearity, no GT exponentiation) and decryption pair with \
         Miller-loop lines prepared once per key, so the line formulas do not run per call. An \
         optimization is timed at an operation only where it changes the operation's GF(p) \
         operation counts; not reached: {}. The 2-way Frobenius split has no sign row: in the \
         fixed-base table it halves the table (26 rows of 16 instead of 52) for the same 51 \
         products per exponentiation.\n\n",
        list.join("; ")
    )
}

/// Fixed notes under the table.
const NOTES: &str = "Not in the table: lazy reduction. The scalar backends keep every residue \
fully reduced; only the AVX-512 IFMA lanes (`sm_field::lanes`, used by batch verification) \
reduce lazily (representatives below 2p), and they have no eager variant to switch to: \
writing one would be a second SIMD kernel, not testable on machines without IFMA. The \
variants and how to add one: `sm_pairing::research::variants` (feature `research`); their \
equality with the production pairing: `cargo test -p sm-pairing --features research --test \
ledger_variants`; with the production SM9 operations: `cargo test -p xtask ledger`.\n";
