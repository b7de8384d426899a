//! Whole pipelines on every backend, compared byte for byte with `u64`, and the SM9 tower checked
//! against an independent `num-bigint` model of GF(p^12) = GF(p)\[w\]/(w^12 + 2).

use num_bigint::BigUint;
use num_traits::{One, Zero};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::Jacobian;
use sm_field::{Backend, Fp, Fp12, Sm9N, Sm9P, U64};

use super::limbs_big;

/// Named outputs of every pipeline for backend `B`, from inputs drawn from `seed`.
fn outputs<B: Backend>(seed: u64) -> Vec<(&'static str, Vec<u8>)> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    // SM2: d·G, sign with a fixed nonce (k·G, inversions mod n), encrypt with a seeded RNG
    // (k·G, k·PB, KDF) and decrypt (d·C1).
    let mut d = [0u8; 32];
    rng.fill(&mut d[1..]);
    d[1] |= 1;
    let sk = sm2::generic::SecretKey::<B>::from_bytes(&d).expect("d in range");
    out.push((
        "sm2 public key d·G",
        sk.public_key().to_uncompressed().to_vec(),
    ));
    let mut e = [0u8; 32];
    let mut k = [0u8; 32];
    rng.fill(&mut e);
    rng.fill(&mut k[1..]);
    let sig = sm2::generic::SigningKey::<B>::new(&sk)
        .sign_prehash_with_nonce(&e, &k)
        .expect("nonce in range");
    out.push(("sm2 sign with fixed k", sig.to_bytes().to_vec()));
    let mut enc_rng = ChaCha20Rng::seed_from_u64(seed ^ 1);
    let ct = sk
        .public_key()
        .encrypt(&mut enc_rng, b"pipeline message", sm2::Mode::C1C3C2)
        .expect("encrypt");
    out.push(("sm2 encrypt (seeded k)", ct.clone()));
    let pt = sk.decrypt(&ct, sm2::Mode::C1C3C2).expect("decrypt");
    out.push(("sm2 decrypt", pt.to_vec()));
    // SM9 algebra: GLV on G1, GLS on G2, the pairing of the results.
    let a = Fp::<Sm9N, B>::random(&mut rng);
    let b = Fp::<Sm9N, B>::random(&mut rng);
    let p = Jacobian::<Sm9G1Curve<B>>::generator()
        .mul_endo(&a)
        .to_affine();
    let q = Jacobian::<Sm9G2Curve<B>>::generator()
        .mul_endo(&b)
        .to_affine();
    out.push(("sm9 G1 a·P1 (GLV)", p.to_sec1_vec(false)));
    out.push(("sm9 G2 b·P2 (GLS)", q.to_sec1_vec(false)));
    let g = sm_pairing::pairing(&p, &q);
    out.push(("sm9 pairing e(a·P1, b·P2)", g.to_bytes().to_vec()));
    let mut x = [0u64; 4];
    rng.fill(&mut x);
    x[3] >>= 1;
    out.push(("sm9 Gt pow (constant time)", g.pow(&x).to_bytes().to_vec()));
    out
}

fn compare<B: Backend>(seed: u64) -> Result<(), String> {
    let want = outputs::<U64>(seed);
    let got = outputs::<B>(seed);
    for ((name, w), (_, g)) in want.iter().zip(&got) {
        if w != g {
            return Err(format!(
                "pipeline `{name}` differs on backend {} (seed {seed}):\n  u64: {}\n  {}: {}",
                B::NAME,
                hex::encode(w),
                B::NAME,
                hex::encode(g)
            ));
        }
    }
    Ok(())
}

/// Every pipeline on every backend, `runs` seeds each.
pub fn backends(runs: u64, seed: u64, backends: &[String]) -> Result<(), String> {
    let names: Vec<&str> = outputs::<U64>(seed).iter().map(|(n, _)| *n).collect();
    for i in 0..runs {
        for b in backends {
            super::with_backend!(b.as_str(), B => compare::<B>(seed.wrapping_add(i)))?;
        }
    }
    println!(
        "ok  pipelines on {} seeds, {} = u64: {}",
        runs,
        backends.join(", "),
        names.join("; ")
    );
    Ok(())
}

/// GF(p^12) as polynomials of degree < 12 over GF(p) with w^12 = −2.
struct Model {
    p: BigUint,
}

impl Model {
    fn mul(&self, a: &[BigUint], b: &[BigUint]) -> Vec<BigUint> {
        let mut prod = vec![BigUint::zero(); 23];
        for i in 0..12 {
            for j in 0..12 {
                prod[i + j] += &a[i] * &b[j];
            }
        }
        // w^(12+k) = −2·w^k.
        let mut r: Vec<BigUint> = prod[..12].to_vec();
        for k in 0..11 {
            let t = (&prod[12 + k] * 2u32) % &self.p;
            r[k] = (&r[k] + &self.p - t) % &self.p;
        }
        r.iter().map(|c| c % &self.p).collect()
    }

    fn pow(&self, a: &[BigUint], e: &BigUint) -> Vec<BigUint> {
        let mut acc = self.one();
        for i in (0..e.bits()).rev() {
            acc = self.mul(&acc, &acc);
            if e.bit(i) {
                acc = self.mul(&acc, a);
            }
        }
        acc
    }

    fn one(&self) -> Vec<BigUint> {
        let mut v = vec![BigUint::zero(); 12];
        v[0] = BigUint::one();
        v
    }
}

fn to_model(x: &Fp12<U64>) -> Vec<BigUint> {
    x.to_w_coefficients()
        .iter()
        .map(|c| BigUint::from_bytes_be(&c.to_bytes()))
        .collect()
}

/// The tower's multiplication, squaring, Frobenius and inversion against the model.
pub fn tower_reference(samples: usize, seed: u64) -> Result<(), String> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ 0x7077);
    let model = Model {
        p: limbs_big(&<Sm9P as sm_field::Modulus>::P),
    };
    for i in 0..samples {
        let x = Fp12::<U64>::random(&mut rng);
        let y = Fp12::<U64>::random(&mut rng);
        let (mx, my) = (to_model(&x), to_model(&y));
        let fail = |op: &str| {
            Err(format!(
                "tower {op} differs from the w^12 = -2 model (sample {i})"
            ))
        };
        if to_model(&(x * y)) != model.mul(&mx, &my) {
            return fail("mul");
        }
        if to_model(&x.square()) != model.mul(&mx, &mx) {
            return fail("square");
        }
        if i < 2 && to_model(&x.frobenius_map(1)) != model.pow(&mx, &model.p) {
            return fail("frobenius (x^p)");
        }
        let inv = x.invert().unwrap();
        if model.mul(&to_model(&inv), &mx) != model.one() {
            return fail("invert");
        }
    }
    println!(
        "ok  sm9 tower: {samples} random Fp12 pairs, mul/square/invert (and x^p on 2) = num-bigint model GF(p)[w]/(w^12+2)"
    );
    Ok(())
}
