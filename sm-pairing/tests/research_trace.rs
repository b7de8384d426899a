//! The step diagnostics of `sm_pairing::research` against an independent `num-bigint`
//! computation: the textbook Miller loop with affine points and full lines in
//! GF(p¹²) = GF(p)[w]/(w¹² + 2), written here from the definitions (GM/T 0044.1 §B.4.2 and
//! Vercauteren, ePrint 2008/096), with p and n derived from t and the loop's NAF recomputed.
//!
//! Our lines and accumulator differ from the textbook ones by factors in GF(p⁴) (see the
//! `research` module docs). `a/b ∈ GF(p⁴)` is checked without inversions as
//! `a·π⁴(b) = π⁴(a)·b` (π⁴ fixes exactly GF(p⁴)). The final exponentiation's intermediates are
//! compared exactly with plain exponentiations.

use num_bigint::{BigInt, BigUint};
use num_traits::{One, Zero};
use sm_field::U64;
use sm_pairing::research::{final_exp_trace, miller_trace};
use sm_pairing::{pairing, Fp12, Fp2, G1Affine, G2Affine, Step, BN_T, LOOP_SCHEDULE};

/// The field data: p, n and γ = (−2)^((p−1)/12) (the Frobenius factor of w).
struct Ctx {
    p: BigUint,
    n: BigUint,
    gamma: BigUint,
}

impl Ctx {
    fn new() -> Self {
        let t = BigUint::from(BN_T);
        let poly = |c: [u32; 5]| -> BigUint {
            // c4·t⁴ + c3·t³ + c2·t² + c1·t + c0
            c.iter()
                .rev()
                .fold(BigUint::zero(), |acc, &ci| acc * &t + BigUint::from(ci))
        };
        let p = poly([1, 6, 24, 36, 36]);
        let n = poly([1, 6, 18, 36, 36]);
        let minus_two = &p - 2u32;
        let gamma = minus_two.modpow(&((&p - 1u32) / 12u32), &p);
        Ctx { p, n, gamma }
    }

    fn neg(&self, a: &BigUint) -> BigUint {
        (&self.p - a % &self.p) % &self.p
    }

    fn inv(&self, a: &BigUint) -> BigUint {
        assert!(!a.is_zero());
        a.modpow(&(&self.p - 2u32), &self.p)
    }
}

/// GF(p²) = GF(p)[u]/(u² + 2), as (c0, c1).
type F2 = (BigUint, BigUint);
/// GF(p¹²) as the 12 coefficients of 1, w, …, w¹¹, w¹² = −2 (u = w⁶).
type F12 = Vec<BigUint>;

fn f2_add(c: &Ctx, a: &F2, b: &F2) -> F2 {
    ((&a.0 + &b.0) % &c.p, (&a.1 + &b.1) % &c.p)
}
fn f2_sub(c: &Ctx, a: &F2, b: &F2) -> F2 {
    ((&a.0 + c.neg(&b.0)) % &c.p, (&a.1 + c.neg(&b.1)) % &c.p)
}
fn f2_mul(c: &Ctx, a: &F2, b: &F2) -> F2 {
    // (a0 + a1u)(b0 + b1u) = a0b0 − 2a1b1 + (a0b1 + a1b0)u
    let re = (&a.0 * &b.0 + c.neg(&(BigUint::from(2u32) * &a.1 * &b.1 % &c.p))) % &c.p;
    let im = (&a.0 * &b.1 + &a.1 * &b.0) % &c.p;
    (re, im)
}
fn f2_inv(c: &Ctx, a: &F2) -> F2 {
    // 1/(a0 + a1u) = (a0 − a1u)/(a0² + 2a1²)
    let norm = (&a.0 * &a.0 + BigUint::from(2u32) * &a.1 * &a.1) % &c.p;
    let ni = c.inv(&norm);
    (&a.0 * &ni % &c.p, c.neg(&(&a.1 * &ni % &c.p)))
}
fn f2_small(k: u32) -> F2 {
    (BigUint::from(k), BigUint::zero())
}

fn f12_zero() -> F12 {
    vec![BigUint::zero(); 12]
}
fn f12_one() -> F12 {
    let mut r = f12_zero();
    r[0] = BigUint::one();
    r
}
fn f12_mul(c: &Ctx, a: &F12, b: &F12) -> F12 {
    let mut acc = vec![BigInt::zero(); 12];
    for i in 0..12 {
        for j in 0..12 {
            let prod = BigInt::from(&a[i] * &b[j]);
            if i + j < 12 {
                acc[i + j] += prod;
            } else {
                acc[i + j - 12] -= prod * 2; // w¹² = −2
            }
        }
    }
    let p = BigInt::from(c.p.clone());
    acc.into_iter()
        .map(|x| (((x % &p) + &p) % &p).to_biguint().unwrap())
        .collect()
}
fn f12_pow(c: &Ctx, a: &F12, e: &BigUint) -> F12 {
    let mut r = f12_one();
    for i in (0..e.bits()).rev() {
        r = f12_mul(c, &r, &r);
        if e.bit(i) {
            r = f12_mul(c, &r, a);
        }
    }
    r
}
/// π^k: the coefficient of wⁱ is multiplied by γ^(i·(1 + p + … + p^(k−1))) = (γ^i)^… ; computed
/// as k successive p-powers, each wⁱ ↦ γ^i·wⁱ.
fn f12_frobenius(c: &Ctx, a: &F12, k: usize) -> F12 {
    let mut r = a.clone();
    for _ in 0..k {
        r = (0..12)
            .map(|i| &r[i] * c.gamma.modpow(&BigUint::from(i), &c.p) % &c.p)
            .collect();
    }
    r
}
/// `a·w^k` for a GF(p²) element a = a0 + a1·w⁶, k ≥ 0.
fn f2_times_w(c: &Ctx, a: &F2, k: usize) -> F12 {
    let mut r = f12_zero();
    for (coeff, base) in [(&a.0, 0usize), (&a.1, 6)] {
        let e = base + k;
        let (slot, v) = if e < 12 {
            (e, coeff.clone())
        } else {
            (e - 12, c.neg(&(BigUint::from(2u32) * coeff % &c.p)))
        };
        r[slot] = (&r[slot] + v) % &c.p;
    }
    r
}
fn f12_add(c: &Ctx, a: &F12, b: &F12) -> F12 {
    (0..12).map(|i| (&a[i] + &b[i]) % &c.p).collect()
}
fn f12_scale(c: &Ctx, a: &F12, s: &BigUint) -> F12 {
    a.iter().map(|x| x * s % &c.p).collect()
}

/// Our GF(p¹²) element as coefficients of wⁱ: the 384-byte encoding lists w^[11, 5, 8, 2, 10,
/// 4, 7, 1, 9, 3, 6, 0] (GM/T 0044 / GmSSL order).
fn from_ours(f: &Fp12<U64>) -> F12 {
    const ORDER: [usize; 12] = [11, 5, 8, 2, 10, 4, 7, 1, 9, 3, 6, 0];
    let bytes = f.to_bytes();
    let mut r = f12_zero();
    for (k, &e) in ORDER.iter().enumerate() {
        r[e] = BigUint::from_bytes_be(&bytes[32 * k..32 * k + 32]);
    }
    r
}
/// Our GF(p²) element: encoding `c1 ‖ c0`.
fn f2_from_ours(a: &Fp2<U64>) -> F2 {
    let b = a.to_bytes();
    (
        BigUint::from_bytes_be(&b[32..]),
        BigUint::from_bytes_be(&b[..32]),
    )
}

/// `a/b ∈ GF(p⁴)`, for b ≠ 0.
fn ratio_in_fp4(c: &Ctx, a: &F12, b: &F12) -> bool {
    f12_mul(c, a, &f12_frobenius(c, b, 4)) == f12_mul(c, &f12_frobenius(c, a, 4), b)
}

/// A twist point in affine coordinates.
type Tw = (F2, F2);

/// The textbook line through ψ(T) and ψ(T) + ψ(R) (slope λ' on the twist), at P, in GF(p¹²):
/// with ψ(x', y') = (x'·w⁻², y'·w⁻³) the slope upstairs is λ'·w⁻¹, so
/// `l(P) = yP − λ'·xP·w⁻¹ + (λ'·xT − yT)·w⁻³`; w⁻¹ = −w¹¹/2, w⁻³ = −w⁹/2.
fn textbook_line(c: &Ctx, t: &Tw, lambda: &F2, xp: &BigUint, yp: &BigUint) -> F12 {
    let minus_half = c.neg(&c.inv(&BigUint::from(2u32)));
    let mut l = f12_zero();
    l[0] = yp.clone();
    let a = f2_mul(c, lambda, &(c.neg(xp), BigUint::zero()));
    let b = f2_sub(c, &f2_mul(c, lambda, &t.0), &t.1);
    let l = f12_add(c, &l, &f12_scale(c, &f2_times_w(c, &a, 11), &minus_half));
    f12_add(c, &l, &f12_scale(c, &f2_times_w(c, &b, 9), &minus_half))
}

/// Slope of the tangent at T or of the chord T–R on the twist, and T + R (or 2T).
fn twist_step(c: &Ctx, t: &Tw, r: Option<&Tw>) -> (F2, Tw) {
    let lambda = match r {
        None => f2_mul(
            c,
            &f2_mul(c, &f2_small(3), &f2_mul(c, &t.0, &t.0)),
            &f2_inv(c, &f2_add(c, &t.1, &t.1)),
        ),
        Some(r) => f2_mul(
            c,
            &f2_sub(c, &r.1, &t.1),
            &f2_inv(c, &f2_sub(c, &r.0, &t.0)),
        ),
    };
    let other_x = r.map_or(&t.0, |r| &r.0);
    let x3 = f2_sub(c, &f2_sub(c, &f2_mul(c, &lambda, &lambda), &t.0), other_x);
    let y3 = f2_sub(c, &f2_mul(c, &lambda, &f2_sub(c, &t.0, &x3)), &t.1);
    (lambda, (x3, y3))
}

/// The p-power Frobenius of E(GF(p¹²)) brought back to the twist: π(ψ(Q)) = ψ(Q'), so
/// x' = π(x'·w⁻²)·w², y' = π(y'·w⁻³)·w³; both must land in GF(p²) = span(1, w⁶).
fn twist_frobenius(c: &Ctx, q: &Tw, k: usize) -> Tw {
    let half = c.inv(&BigUint::from(2u32));
    let minus_half = c.neg(&half);
    let back = |a: &F2, e: usize| -> F2 {
        // a·w^(−e) = a·w^(12−e)·(−1/2)
        let up = f12_scale(c, &f2_times_w(c, a, 12 - e), &minus_half);
        let fr = f12_frobenius(c, &up, k);
        let down = f12_mul(c, &fr, &f2_times_w(c, &f2_small(1), e));
        for (i, x) in down.iter().enumerate() {
            assert!(
                i == 0 || i == 6 || x.is_zero(),
                "π^{k}(Q) is not on the twist"
            );
        }
        (down[0].clone(), down[6].clone())
    };
    (back(&q.0, 2), back(&q.1, 3))
}

/// NAF digits of k, little-endian (written independently of the crate's recoding).
fn naf(k: &BigUint) -> Vec<i8> {
    let mut k = BigInt::from(k.clone());
    let mut d = Vec::new();
    while !k.is_zero() {
        let z = if (&k % 2u32).is_zero() {
            0
        } else if (&k % 4u32) == BigInt::from(1) {
            1
        } else {
            -1
        };
        k -= z;
        k /= 2;
        d.push(z as i8);
    }
    d
}

/// One textbook state per step of the schedule: (T after the step, line at P, f after it).
fn textbook_trace(c: &Ctx, p: (&BigUint, &BigUint), q: &Tw) -> Vec<(Tw, F12, F12)> {
    let a = BigUint::from(6u32) * BigUint::from(BN_T) + 2u32;
    let digits = naf(&a);
    let neg_q = (q.0.clone(), f2_sub(c, &f2_small(0), &q.1));
    let mut t = q.clone();
    let mut f = f12_one();
    let mut out = Vec::new();
    let mut expected_steps = Vec::new();
    for &d in digits.iter().rev().skip(1) {
        let (lambda, t2) = twist_step(c, &t, None);
        let l = textbook_line(c, &t, &lambda, p.0, p.1);
        f = f12_mul(c, &f12_mul(c, &f, &f), &l);
        t = t2;
        out.push((t.clone(), l, f.clone()));
        expected_steps.push(Step::Double);
        if d != 0 {
            let r = if d == 1 { q } else { &neg_q };
            let (lambda, t2) = twist_step(c, &t, Some(r));
            let l = textbook_line(c, &t, &lambda, p.0, p.1);
            f = f12_mul(c, &f, &l);
            t = t2;
            out.push((t.clone(), l, f.clone()));
            expected_steps.push(if d == 1 { Step::AddQ } else { Step::SubQ });
        }
    }
    // Frobenius corrections: T + π(Q), then the line through T + π(Q) and −π²(Q).
    let q1 = twist_frobenius(c, q, 1);
    let q2 = twist_frobenius(c, q, 2);
    let neg_q2 = (q2.0.clone(), f2_sub(c, &f2_small(0), &q2.1));
    for r in [&q1, &neg_q2] {
        let (lambda, t2) = twist_step(c, &t, Some(r));
        let l = textbook_line(c, &t, &lambda, p.0, p.1);
        f = f12_mul(c, &f, &l);
        t = t2;
        out.push((t.clone(), l, f.clone()));
    }
    expected_steps.extend([Step::AddFrobenius, Step::SubFrobenius2]);
    assert_eq!(expected_steps, LOOP_SCHEDULE.to_vec(), "loop schedule");
    out
}

fn check_pair(p: &G1Affine<U64>, q: &G2Affine<U64>) {
    let c = Ctx::new();
    let xp = BigUint::from_bytes_be(&p.x().to_bytes());
    let yp = BigUint::from_bytes_be(&p.y().to_bytes());
    let qt = (f2_from_ours(&q.x()), f2_from_ours(&q.y()));
    let ours = miller_trace(p, q);
    let book = textbook_trace(&c, (&xp, &yp), &qt);
    assert_eq!(ours.len(), book.len());
    for (s, (t, l, f)) in ours.iter().zip(&book) {
        assert_eq!(s.step, LOOP_SCHEDULE[s.index]);
        // T after the step; the last step's T is not needed, so not checked.
        if s.step != Step::SubFrobenius2 {
            let (x, y, z) = (
                f2_from_ours(&s.t.0),
                f2_from_ours(&s.t.1),
                f2_from_ours(&s.t.2),
            );
            let zi = f2_inv(&c, &z);
            assert_eq!(f2_mul(&c, &x, &zi), t.0, "T.x after step {}", s.index);
            assert_eq!(f2_mul(&c, &y, &zi), t.1, "T.y after step {}", s.index);
        }
        assert!(
            ratio_in_fp4(&c, &from_ours(&s.line_at_p), l),
            "line of step {} differs by more than a GF(p⁴) factor",
            s.index
        );
        assert!(
            ratio_in_fp4(&c, &from_ours(&s.f), f),
            "f after step {} differs by more than a GF(p⁴) factor",
            s.index
        );
    }
    // A wrong line is caught: the first line's value against the second's.
    assert!(!ratio_in_fp4(
        &c,
        &from_ours(&ours[0].line_at_p),
        &book[1].1
    ));

    // Final exponentiation: intermediates against plain exponentiations.
    let f = ours.last().unwrap().f;
    let fe = final_exp_trace(&f);
    assert_eq!(fe.result, pairing(p, q), "trace result = pairing");
    let f_big = from_ours(&f);
    let p2 = &c.p * &c.p;
    let p4 = &p2 * &p2;
    let p6 = &p4 * &p2;
    let easy_exp = (&p6 - 1u32) * (&p2 + 1u32);
    let easy = from_ours(&fe.easy);
    assert_eq!(easy, f12_pow(&c, &f_big, &easy_exp), "easy part");
    let mut x = easy.clone();
    for (i, fx) in fe.t_powers.iter().enumerate() {
        x = f12_pow(&c, &x, &BigUint::from(BN_T));
        assert_eq!(from_ours(fx), x, "easy^(t^{})", i + 1);
    }
    let hard_exp = (&p4 - &p2 + 1u32) / &c.n;
    assert!(((&p4 - &p2 + 1u32) % &c.n).is_zero());
    let result = f12_pow(&c, &easy, &hard_exp);
    let ours_result = Fp12::<U64>::from_bytes(&fe.result.to_bytes()).unwrap();
    assert_eq!(from_ours(&ours_result), result, "hard part");
    // And the textbook loop value gives the same pairing.
    let book_f = &book.last().unwrap().2;
    assert_eq!(
        f12_pow(&c, &f12_pow(&c, book_f, &easy_exp), &hard_exp),
        result,
        "textbook Miller value, final exponentiation"
    );
}

#[test]
fn trace_of_generators_matches_textbook() {
    check_pair(&G1Affine::GENERATOR, &G2Affine::GENERATOR);
}

#[test]
fn trace_of_annex_points_matches_textbook() {
    // GM/T 0044.5 Annex B: RA ∈ G1, deB ∈ G2 (outside data, not generators).
    let v = sm_testvectors::sm9();
    let kx = &v["key_exchange_annexB"];
    let ra = sm_testvectors::hex(&format!("04{}", kx["RA"].as_str().unwrap()));
    let deb = sm_testvectors::hex(&format!("04{}", kx["deB"].as_str().unwrap()));
    let p = G1Affine::from_sec1(&ra).unwrap();
    let q = sm_curve::sm9::g2_from_sec1(&deb).unwrap();
    check_pair(&p, &q);
}
