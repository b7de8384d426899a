//! Field operations for every modulus and backend.

use std::hint::black_box;

use super::harness::{with_backend, Case};
use super::sm_field::{self, Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P};

fn start<M: Modulus, B: Backend>(k: u64) -> Fp<M, B> {
    // Deterministic, full-width operands.
    Fp::from_wide_bytes(&[(k as u8).wrapping_mul(37) ^ 0x5a; 48])
}

fn cases_for<M: Modulus, B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    let name = M::NAME;
    let variant = format!("{prefix}{}", B::NAME);
    let mk = |op: &str, output: Fp<M, B>, run: Box<dyn FnMut(u64)>| {
        let output = output.to_bytes().to_vec();
        Case::new("field", &format!("{name} {op}"), &variant, 0, output, run)
    };
    let (x0, y) = (start::<M, B>(1), start::<M, B>(2));
    // Each operation is a chain of dependent calls (latency); closures are monomorphised so the
    // operation is inlined exactly as in library code.
    macro_rules! op {
        ($name:literal, $n:expr, |$x:ident, $y:ident| $body:expr) => {{
            let f = move |$x: Fp<M, B>, $y: Fp<M, B>| -> Fp<M, B> { $body };
            let chain = move |n: u64| {
                let (mut x, y) = (black_box(x0), black_box(y));
                for _ in 0..n {
                    x = f(x, y);
                }
                x
            };
            out.push(mk(
                $name,
                chain($n),
                Box::new(move |iters| {
                    black_box(chain(iters));
                }),
            ));
        }};
    }
    op!("mul", 1000, |x, y| x * y);
    op!("square", 1000, |x, _y| x.square());
    op!("add", 1000, |x, y| x + y);
    op!("sub", 1000, |x, y| x - y);
    op!("invert", 10, |x, _y| x.invert().unwrap_or(Fp::ONE));
    op!("invert_vartime", 10, |x, _y| x
        .invert_vartime()
        .unwrap_or(Fp::ONE));
    op!("sqrt", 10, |x, _y| x.square().sqrt().unwrap_or(Fp::ONE)
        + Fp::ONE);
}

/// SM9 tower operations (Fp2, Fp4, Fp12), each as a chain of dependent calls: these are the
/// building blocks whose cost the pairing's op counts multiply.
fn tower_for<B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    use sm_field::{Fp12, Fp2, Fp4};
    let fp = |k: u64| start::<Sm9P, B>(k);
    let f2 = |k: u64| Fp2::<B>::new(fp(k), fp(k + 1));
    let f4 = |k: u64| Fp4::<B>::new(f2(k), f2(k + 2));
    let f12 = |k: u64| Fp12::<B>::new(f4(k), f4(k + 4), f4(k + 8));
    macro_rules! op {
        ($name:literal, $n:expr, $x0:expr, $y0:expr, |$x:ident, $y:ident| $body:expr, $bytes:expr) => {{
            let (x0, y0) = ($x0, $y0);
            let chain = move |n: u64| {
                let (mut $x, $y) = (black_box(x0), black_box(y0));
                for _ in 0..n {
                    $x = $body;
                }
                $x
            };
            let bytes = $bytes;
            out.push(Case::new(
                "field",
                $name,
                &format!("{prefix}{}", B::NAME),
                0,
                bytes(chain($n)),
                Box::new(move |iters| {
                    black_box(chain(iters));
                }),
            ));
        }};
    }
    let b2 = |v: Fp2<B>| v.to_bytes().to_vec();
    let b4 = |v: Fp4<B>| v.to_bytes().to_vec();
    let b12 = |v: Fp12<B>| v.to_bytes().to_vec();
    op!("sm9 Fp2 mul", 1000, f2(1), f2(3), |x, y| x.mul(&y), b2);
    op!("sm9 Fp2 square", 1000, f2(1), f2(3), |x, _y| x.square(), b2);
    op!("sm9 Fp4 mul", 1000, f4(1), f4(5), |x, y| x.mul(&y), b4);
    op!("sm9 Fp12 mul", 100, f12(1), f12(13), |x, y| x.mul(&y), b12);
    op!(
        "sm9 Fp12 square",
        100,
        f12(1),
        f12(13),
        |x, _y| x.square(),
        b12
    );
    op!(
        "sm9 Fp12 mul_by_023",
        100,
        f12(1),
        [f2(21), f2(23), f2(25)],
        |x, y| x.mul_by_023(&y[0], &y[1], &y[2]),
        b12
    );
}

fn for_backend<B: Backend>(out: &mut Vec<Case>, prefix: &str) {
    cases_for::<Sm2P, B>(out, prefix);
    cases_for::<Sm2N, B>(out, prefix);
    cases_for::<Sm9P, B>(out, prefix);
    cases_for::<Sm9N, B>(out, prefix);
    tower_for::<B>(out, prefix);
}

/// Cases for the requested backends.
pub fn cases(backends: &[String], prefix: &str) -> Vec<Case> {
    let mut out = Vec::new();
    for b in backends {
        with_backend!(b.as_str(), B => for_backend::<B>(&mut out, prefix));
    }
    out
}
