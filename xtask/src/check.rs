//! `cargo xtask check`: recompute every constant with `num-bigint`, check each field operation of
//! the `u64` backend against a `num-bigint` definition, and run the backend conformance suite
//! (`sm-conformance`, the one sm-field's tests instantiate) on every other backend; whole
//! pipelines, the SM9 protocols and the operation catalogue across backends likewise, in this
//! one process.

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
mod catalogue;
mod pipelines;
mod sm9_protocols;

use sm_field::{Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

/// Names of the backends compiled into this binary (`--backends` of `check` and `bench`): the
/// pure types by name (`mulx` = `Mulx`, `mulx-ifma` = `MulxIfma`) and `asm` (`Auto` on x86_64,
/// `Aarch64` on aarch64).
pub const BACKEND_NAMES: &[&str] = &[
    "u64",
    "u32",
    #[cfg(target_arch = "x86_64")]
    "mulx",
    #[cfg(target_arch = "x86_64")]
    "mulx-ifma",
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    "asm",
];

/// `Ok` if `name` is a backend of this binary that this CPU runs; otherwise why not (an unknown
/// name, or a pure type whose instructions the CPU lacks: asking for it is an error, never a
/// crash or a silent skip). Asks sm-field's one CPU probe.
pub fn backend_runs_here(name: &str) -> Result<(), String> {
    if !BACKEND_NAMES.contains(&name) {
        return Err(format!(
            "unknown backend {name} (this binary has {})",
            BACKEND_NAMES.join(", ")
        ));
    }
    #[cfg(target_arch = "x86_64")]
    {
        use sm_field::backend::cpu;
        let lacks = match name {
            "mulx" => (!cpu::has_mulx_adx()).then_some("BMI2/ADX"),
            "mulx-ifma" => (!(cpu::has_mulx_adx() && cpu::has_ifma()))
                .then_some("AVX-512 IFMA (AVX-512F + AVX512-IFMA) or BMI2/ADX"),
            _ => None,
        };
        if let Some(what) = lacks {
            return Err(format!("backend {name}: this CPU lacks {what}"));
        }
    }
    Ok(())
}

pub(crate) use crate::bench::harness::with_backend;

/// Runs `$f::<M, B>(args)` for every backend of `$names`, stopping at the first error.
macro_rules! for_other_backends {
    ($names:expr, $f:ident::<$M:ty>($($arg:expr),*)) => {{
        let mut r: Result<(), String> = Ok(());
        for name in $names {
            if r.is_ok() {
                r = with_backend!(name.as_str(), B => $f::<$M, B>($($arg),*));
            }
        }
        r
    }};
}

pub use sm_conformance::big as limbs_big;

fn big_bytes(v: &BigUint) -> [u8; 32] {
    let b = v.to_bytes_be();
    let mut out = [0u8; 32];
    out[32 - b.len()..].copy_from_slice(&b);
    out
}

fn hexs(v: &BigUint) -> String {
    format!("0x{:064x}", v)
}

struct Opts {
    quick: bool,
    seed: u64,
    /// The backends compared with `u64` (never `u64` itself).
    backends: Vec<String>,
}

pub fn run(args: &[String]) -> Result<(), String> {
    let mut opts = Opts {
        quick: false,
        seed: rand::random(),
        backends: Vec::new(),
    };
    let mut named = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => opts.quick = true,
            "--seed" => {
                opts.seed = it
                    .next()
                    .and_then(|s| s.parse().ok())
                    .ok_or("--seed needs a number")?
            }
            "--backends" => {
                let list = it
                    .next()
                    .ok_or("--backends needs a list, e.g. u32,mulx,asm")?;
                for b in list.split(',') {
                    backend_runs_here(b)?;
                    if b != "u64" && !opts.backends.iter().any(|x| x == b) {
                        opts.backends.push(b.to_string());
                    }
                }
                named = true;
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if !named {
        // Every backend this CPU runs; the others are named, not skipped silently.
        for b in &BACKEND_NAMES[1..] {
            match backend_runs_here(b) {
                Ok(()) => opts.backends.push(b.to_string()),
                Err(e) => println!("not run: {e} (name it with --backends to make that an error)"),
            }
        }
    }
    crate::sysinfo::print_header();
    println!("seed:     {} (rerun with --seed {})", opts.seed, opts.seed);
    let start = std::time::Instant::now();
    constants()?;
    println!("ok  constants recomputed with num-bigint (p, n, R, R^2, R^3, -p^-1, primality)");
    let n = if opts.quick { 2_000 } else { 100_000 };
    let b = &opts.backends;
    field::<Sm2P>(n, opts.seed, b)?;
    field::<Sm2N>(n, opts.seed, b)?;
    field::<Sm9P>(n, opts.seed, b)?;
    field::<Sm9N>(n, opts.seed, b)?;
    for name in b {
        with_backend!(name.as_str(), B => suite(&format!("tower on {name}"), || {
            sm_conformance::tower::<B>(opts.seed, n)
        }))?;
    }
    println!(
        "ok  tower products (Fp12 mul/square/mul_by_023, Fp4 square_batch) on {} and with the other formula family = u64",
        b.join(", ")
    );
    pipelines::tower_reference(if opts.quick { 4 } else { 40 }, opts.seed)?;
    pipelines::backends(if opts.quick { 2 } else { 20 }, opts.seed, b)?;
    sm9_protocols::run(if opts.quick { 2 } else { 20 }, opts.seed, b)?;
    catalogue::run(if opts.quick { 1 } else { 8 }, opts.seed, b)?;
    println!(
        "all checks passed in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn expect_eq(what: &str, got: &BigUint, want: &BigUint) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {}, want {}", hexs(got), hexs(want)))
    }
}

/// Miller–Rabin with fixed bases (deterministic enough for a sanity check of published primes).
fn is_probable_prime(n: &BigUint) -> bool {
    let one = BigUint::one();
    let n1 = n - &one;
    let s = n1.trailing_zeros().unwrap_or(0);
    let d = &n1 >> s;
    'bases: for a in [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37] {
        let mut x = BigUint::from(a).modpow(&d, n);
        if x == one || x == n1 {
            continue;
        }
        for _ in 1..s {
            x = x.modpow(&BigUint::from(2u8), n);
            if x == n1 {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

fn constants() -> Result<(), String> {
    let v = sm_testvectors::sm9();
    let sm2 = sm_testvectors::sm2_sm3();
    let from_hex = |s: &str| BigUint::parse_bytes(s.as_bytes(), 16).expect("hex");
    let jstr = |v: &serde_json::Value, ptr: &str| -> Result<String, String> {
        v.pointer(ptr)
            .and_then(|x| x.as_str())
            .map(str::to_string)
            .ok_or_else(|| format!("vector file lacks {ptr}"))
    };
    // SM9: p and n from the BN parameter t (GM/T 0044.5 §A), and as published.
    let t = from_hex(&jstr(&v, "/curve/t_bn_parameter")?);
    let t2 = &t * &t;
    let t3 = &t2 * &t;
    let t4 = &t3 * &t;
    let p9 = 36u32 * &t4 + 36u32 * &t3 + 24u32 * &t2 + 6u32 * &t + 1u32;
    let n9 = 36u32 * &t4 + 36u32 * &t3 + 18u32 * &t2 + 6u32 * &t + 1u32;
    expect_eq("sm9 p from t", &p9, &from_hex(&jstr(&v, "/curve/p")?))?;
    expect_eq("sm9 n from t", &n9, &from_hex(&jstr(&v, "/curve/n")?))?;
    // SM2: p = 2^256 − 2^224 − 2^96 + 2^64 − 1 (GB/T 32918.5).
    let one = BigUint::one();
    let p2 = (&one << 256) - (&one << 224) - (&one << 96) + (&one << 64) - 1u32;
    expect_eq(
        "sm2 p formula",
        &p2,
        &from_hex(&jstr(&sm2, "/sm2_curve_recommended/p")?),
    )?;
    let n2 = from_hex(&jstr(&sm2, "/sm2_curve_recommended/n")?);
    check_modulus::<Sm2P>(&p2)?;
    check_modulus::<Sm2N>(&n2)?;
    check_modulus::<Sm9P>(&p9)?;
    check_modulus::<Sm9N>(&n9)?;
    Ok(())
}

fn check_modulus<M: Modulus>(p: &BigUint) -> Result<(), String> {
    let name = M::NAME;
    expect_eq(&format!("{name} P"), &limbs_big(&M::P), p)?;
    if !is_probable_prime(p) {
        return Err(format!("{name} is not prime"));
    }
    let r = BigUint::one() << 256;
    expect_eq(&format!("{name} R"), &limbs_big(&M::R), &(&r % p))?;
    expect_eq(&format!("{name} R^2"), &limbs_big(&M::R2), &((&r * &r) % p))?;
    expect_eq(
        &format!("{name} R^3"),
        &limbs_big(&M::R3),
        &((&r * &r * &r) % p),
    )?;
    let w = BigUint::one() << 64;
    let p_low: BigUint = p % &w;
    let inv = (&w - p_low.modpow(&(BigUint::from(2u8).pow(63) - 1u32), &w)) % &w;
    // -p^-1 mod 2^64: p^(2^63-1) is p^-1 in the group of units mod 2^64 (order 2^63).
    expect_eq(
        &format!("{name} -p^-1 mod 2^64"),
        &BigUint::from(M::INV),
        &inv,
    )?;
    if !(p >> 255u32).is_one() {
        return Err(format!("{name}: top bit must be set"));
    }
    Ok(())
}

/// Edge inputs: 0, 1, 2, p−1, p−2, (p−1)/2, 2^255 mod p, (2^256−1) mod p, R mod p, limbs with
/// all-ones words below p, 2^64−1, 2^128.
fn edges<M: Modulus>() -> Vec<BigUint> {
    let p = limbs_big(&M::P);
    let one = BigUint::one();
    let mut v = vec![
        BigUint::zero(),
        one.clone(),
        BigUint::from(2u8),
        &p - 1u8,
        &p - 2u8,
        (&p - 1u8) >> 1,
        (&one << 255) % &p,
        ((&one << 256) - 1u8) % &p,
        (&one << 256) % &p,
        BigUint::from(u64::MAX),
        &one << 128,
    ];
    for i in 0..4 {
        let mut l = M::P;
        l[i] = u64::MAX;
        v.push(limbs_big(&l) % &p);
        let mut l = [0u64; 4];
        l[i] = u64::MAX;
        v.push(limbs_big(&l) % &p);
    }
    v
}

fn fp<M: Modulus, B: Backend>(v: &BigUint) -> Fp<M, B> {
    Fp::from_bytes(&big_bytes(v)).unwrap()
}

/// Compares `u64` against num-bigint, then every other backend against `u64`.
fn field<M: Modulus>(n_random: usize, seed: u64, backends: &[String]) -> Result<(), String> {
    let p = limbs_big(&M::P);
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ M::P[0]);
    let edges = edges::<M>();
    let mut pairs: Vec<(BigUint, BigUint)> = Vec::new();
    for a in &edges {
        for b in &edges {
            pairs.push((a.clone(), b.clone()));
        }
    }
    for _ in 0..n_random {
        let mut a = [0u8; 32];
        let mut b = [0u8; 32];
        rng.fill(&mut a);
        rng.fill(&mut b);
        pairs.push((
            BigUint::from_bytes_be(&a) % &p,
            BigUint::from_bytes_be(&b) % &p,
        ));
    }
    reference::<M>(&pairs)?;
    for_other_backends!(backends, conformance::<M>(seed, n_random))?;
    println!(
        "ok  {:<6} {} input pairs: u64 = num-bigint (add sub neg double mul square pow invert sqrt encodings); conformance suite on {} ({n_random} random pairs)",
        M::NAME,
        pairs.len(),
        backends.join(", ")
    );
    Ok(())
}

fn reference<M: Modulus>(pairs: &[(BigUint, BigUint)]) -> Result<(), String> {
    let p = limbs_big(&M::P);
    let big = |x: &Fp<M, U64>| BigUint::from_bytes_be(&x.to_bytes());
    for (i, (a, b)) in pairs.iter().enumerate() {
        let (fa, fb) = (fp::<M, U64>(a), fp::<M, U64>(b));
        let ctx = || {
            format!(
                "{} u64 vs num-bigint, a = {}, b = {}",
                M::NAME,
                hexs(a),
                hexs(b)
            )
        };
        let chk = |what: &str, got: BigUint, want: BigUint| {
            if got != want {
                Err(format!(
                    "{}: {what}: got {}, want {}",
                    ctx(),
                    hexs(&got),
                    hexs(&want)
                ))
            } else {
                Ok(())
            }
        };
        chk("add", big(&(fa + fb)), (a + b) % &p)?;
        chk("sub", big(&(fa - fb)), (a + &p - b) % &p)?;
        chk("mul", big(&(fa * fb)), (a * b) % &p)?;
        chk("square", big(&fa.square()), (a * a) % &p)?;
        chk("neg", big(&(-fa)), (&p - a) % &p)?;
        chk("double", big(&fa.double()), (a * 2u8) % &p)?;
        // Encodings: canonical big-endian bytes out; a + p (not reduced) rejected on the way in.
        if fa.to_bytes() != big_bytes(a) {
            return Err(format!("{}: to_bytes is not the big-endian value", ctx()));
        }
        let unreduced = a + &p;
        if unreduced.bits() <= 256
            && bool::from(Fp::<M, U64>::from_bytes(&big_bytes(&unreduced)).is_some())
        {
            return Err(format!("{}: from_bytes accepted a + p", ctx()));
        }
        // The slower ones on a subset.
        if i % 16 == 0 && !a.is_zero() {
            chk(
                "invert",
                big(&fa.invert().unwrap()),
                a.modpow(&(&p - 2u8), &p),
            )?;
            let mut e = b.to_u64_digits();
            e.resize(4, 0);
            chk("pow", big(&fa.pow(&e)), a.modpow(b, &p))?;
            // sqrt: a² has a root whose square is a² (num-bigint); a has one iff Euler says so.
            let r: Option<Fp<M, U64>> = fa.square().sqrt().into();
            let r = r.ok_or_else(|| format!("{}: sqrt(a²) is none", ctx()))?;
            chk("sqrt", (big(&r) * big(&r)) % &p, (a * a) % &p)?;
            let is_qr = a.modpow(&((&p - 1u8) >> 1), &p) == BigUint::from(1u8);
            if bool::from(fa.sqrt().is_some()) != is_qr {
                return Err(format!(
                    "{}: sqrt existence differs from Euler's criterion",
                    ctx()
                ));
            }
        }
    }
    Ok(())
}

/// The backend conformance suite (`sm-conformance`, the one sm-field's tests instantiate) on
/// `B` and the modulus `M`: every operation against `U64`, `U32` and num-bigint on random,
/// adversarial and chained operands, the `Fp` algorithms and batched products.
fn conformance<M: Modulus, B: Backend>(seed: u64, n: usize) -> Result<(), String> {
    suite(&format!("{} on {}", M::NAME, B::NAME), || {
        sm_conformance::modulus::<M, B>(seed, n)
    })
}

/// Runs a part of the conformance suite (which panics with the operands on a mismatch).
fn suite(what: &str, f: impl FnOnce() + std::panic::UnwindSafe) -> Result<(), String> {
    std::panic::catch_unwind(f).map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        format!("{what}: conformance suite failed: {msg}")
    })
}
