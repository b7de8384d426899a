//! Timing loops for the field backends (an example, not a test: it only prints figures):
//!
//! ```text
//! cargo run --profile test -p sm-field --features all-backends --example asm_timing
//! ```
//!
//! Each figure is ns per operation over a chain of dependent operations (latency, as in a
//! ladder), min and median over repeated batches; backends are measured interleaved batch by
//! batch so machine noise hits them alike.

fn main() {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    timing::main();
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    eprintln!("asm_timing: the asm backend exists on x86_64 and aarch64 only");
}

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
mod timing {
    use std::hint::black_box;
    use std::time::Instant;

    use sm_field::{Asm, Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U32, U64};

    fn batch<M: Modulus, B: Backend>(f: impl Fn(Fp<M, B>, Fp<M, B>) -> Fp<M, B>, n: u32) -> f64 {
        let mut x = black_box(Fp::<M, B>::from_u64(0x1234_5678_9abc_def1));
        let y = black_box(Fp::<M, B>::from_u64(0x0fed_cba9_8765_4321)).square();
        let t = Instant::now();
        for _ in 0..n {
            x = f(x, y);
        }
        black_box(x);
        t.elapsed().as_nanos() as f64 / n as f64
    }

    /// Four independent chains interleaved: throughput rather than latency.
    fn batch4<M: Modulus, B: Backend>(f: impl Fn(Fp<M, B>, Fp<M, B>) -> Fp<M, B>, n: u32) -> f64 {
        let y = black_box(Fp::<M, B>::from_u64(0x0fed_cba9_8765_4321)).square();
        let mut x = [0u64, 1, 2, 3].map(|i| black_box(Fp::<M, B>::from_u64(0x1234_5678 + i)));
        let t = Instant::now();
        for _ in 0..n {
            x = [f(x[0], y), f(x[1], y), f(x[2], y), f(x[3], y)];
        }
        black_box(x);
        t.elapsed().as_nanos() as f64 / (4 * n) as f64
    }

    fn stats(mut v: Vec<f64>) -> (f64, f64) {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        (v[0], v[v.len() / 2])
    }

    /// Runs one operation on every backend, interleaved batch by batch, and prints the figures.
    macro_rules! measure {
        ($M:ty, $name:literal, $n:expr, |$x:ident, $y:ident| $body:expr) => {
            measure!($M, $name, $n, batch, |$x, $y| $body)
        };
        ($M:ty, $name:literal, $n:expr, $batch:ident, |$x:ident, $y:ident| $body:expr) => {{
            let (mut a, mut b, mut c) = (vec![], vec![], vec![]);
            for _ in 0..31 {
                a.push($batch::<$M, Asm>(|$x, $y| $body, $n));
                b.push($batch::<$M, U64>(|$x, $y| $body, $n));
                c.push($batch::<$M, U32>(|$x, $y| $body, $n));
            }
            let ((amin, amed), (bmin, bmed), (cmin, cmed)) = (stats(a), stats(b), stats(c));
            println!(
                "{:6} {:15} asm {:8.1} / {:8.1}   u64 {:8.1} / {:8.1}   u32 {:8.1} / {:8.1}   u64/asm {:.2}",
                <$M as Modulus>::NAME,
                $name,
                amin,
                amed,
                bmin,
                bmed,
                cmin,
                cmed,
                bmed / amed
            );
        }};
    }

    fn run<M: Modulus>() {
        measure!(M, "mul", 20_000, |x, y| x * y);
        measure!(M, "square", 20_000, |x, y| x.square() + y - y);
        measure!(M, "square only", 20_000, |x, _y| x.square());
        measure!(M, "mul (4 chains)", 5_000, batch4, |x, y| x * y);
        measure!(M, "square (4 chains)", 5_000, batch4, |x, _y| x.square());
        measure!(M, "add", 50_000, |x, y| x + y);
        measure!(M, "sub", 50_000, |x, y| x - y);
        measure!(M, "invert", 200, |x, y| x.invert().unwrap_or(y) + y);
        measure!(M, "invert_fermat", 200, |x, y| x
            .invert_fermat()
            .unwrap_or(y)
            + y);
        measure!(M, "invert_vartime", 200, |x, y| x
            .invert_vartime()
            .unwrap_or(y)
            + y);
        measure!(M, "sqrt", 200, |x, y| x.sqrt().unwrap_or(y) + y);
    }

    pub fn main() {
        println!("ns/op, min / median of 31 batches");
        run::<Sm2P>();
        run::<Sm2N>();
        run::<Sm9P>();
        run::<Sm9N>();
    }
}
