//! Protocol-level ledger rows: SM9 sign, verify and decrypt built from the steps the `sm9`
//! crate takes (its public API: `h1`, `h2`, the keys' points, the ciphertext's parts; the
//! `sm-curve` group operations; the `sm3` KDF), with the pairing or GT exponentiation replaced
//! by a variant of `sm_pairing::research::variants`. Each composition is checked to give the
//! production result (the signature bytes for a fixed nonce; the verdict and the intermediate
//! `w'` of verification; the plaintext) before it is timed, and `tests` checks them on random
//! keys and messages.
//!
//! What each operation calls per run, and so which optimizations can reach it:
//! * sign (A3–A6, GM/T 0044.2 §6.2): `w = g^r` by the fixed-base table of the prepared master
//!   key ([`sm_pairing::GtTable::pow`]: GF(p¹²) products only, no squaring), `H2`, `[l]dsA` (GLV);
//! * verify (B1–B9, §6.4): `[h1]S` and `S + [h]P1` in G1, then `e([h1]S, P2) · e(S + [h]P1,
//!   Ppub-s)` as one Miller loop over the *prepared* lines of P2 and Ppub-s and one final
//!   exponentiation (no GT exponentiation, no G2 arithmetic), `H2`;
//! * decrypt (B1–B5, GM/T 0044.4 §7.3): `e(C1, deB)` over the prepared lines of the user key,
//!   KDF, MAC, XOR.
//!
//! A variant is shown at an operation only where it changes the operation's GF(p) operation
//! counts; the others are listed under the table as not reached (the line formulas, for example,
//! run once per key when the lines are prepared, not per call).

use std::hint::black_box;
use std::rc::Rc;

use rand::SeedableRng;
use sm3::Digest;
use sm9::generic::{DecryptionKey, EncMasterKey, SignMasterKey};
use sm9::{EncryptionMode, MacMode};
use sm_curve::sm9::{Sm9G1Curve, Sm9G2Curve};
use sm_curve::{CurveParams, Jacobian};
use sm_field::{Backend, Fp, Sm9N};
use sm_pairing::research::variants::{self, Config, Prepared, Production, Visitor};
use sm_pairing::{G1Affine, G2Affine, G2Prepared, Gt, GtTable};

use super::{backends::Counted, backends::Timed, Counts, Line, Made};

/// The signer's and recipient's identity.
const ID: &[u8] = b"alice@example.com";

/// The three SM9 operations of the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    Sign,
    Verify,
    Decrypt,
}

impl Op {
    pub(super) const ALL: [Op; 3] = [Op::Sign, Op::Verify, Op::Decrypt];

    pub(super) fn name(self) -> &'static str {
        match self {
            Op::Sign => "SM9 sign (fixed nonce)",
            Op::Verify => "SM9 verify",
            Op::Decrypt => "SM9 decrypt 32 B",
        }
    }
}

/// A scalar of backend `B` from 32 big-endian bytes (reduced mod n).
fn scalar<B: Backend>(bytes: &[u8; 32]) -> Fp<Sm9N, B> {
    Fp::from_bytes_reduced(bytes)
}

/// Keys, a signature and a ciphertext from `seed`, and the production results.
pub(super) struct Fixture<B: Backend> {
    /// The signed (and encrypted) message.
    msg: Vec<u8>,
    /// The message verification is given (the signed one, or one bit flipped).
    verify_msg: Vec<u8>,
    /// The signing nonce r (below n, l = r − h ≠ 0: checked against `sm9`'s signer).
    r: Fp<Sm9N, B>,
    /// The signing key dsA.
    ds: G1Affine<B>,
    /// The table of g = e(P1, Ppub-s) (as `PreparedSignMasterPublicKey` holds it).
    table: GtTable<B>,
    /// The lines of P2 and Ppub-s (as verification uses them).
    p2: G2Affine<B>,
    ppub: G2Affine<B>,
    p2_lines: G2Prepared<B>,
    ppub_lines: G2Prepared<B>,
    /// The signature (h, S).
    h: Fp<Sm9N, B>,
    s: G1Affine<B>,
    /// The decryption key deB and the ciphertext (KDF stream, SM3 MAC).
    de: G2Affine<B>,
    c1: G1Affine<B>,
    c2: Vec<u8>,
    c3: [u8; 32],
    /// `sm9`'s objects, for the production side of the reference rows.
    sign_key: sm9::generic::SignUserKey<B>,
    sign_master: sm9::generic::PreparedSignMasterPublicKey<B>,
    nonce: [u8; 32],
    sig: sm9::generic::Signature<B>,
    dec_key: DecryptionKey<B>,
    ct: sm9::generic::Ciphertext<B>,
    /// The production results: signature bytes, verdict ‖ w', plaintext.
    expected: [Vec<u8>; 3],
}

impl<B: Backend> Fixture<B> {
    /// Everything from `seed`; with `tamper`, verification is given the message with one bit
    /// flipped (and must then fail, with the same w' on every side).
    pub(super) fn new(seed: u64, tamper: bool) -> Self {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let msg = Fp::<Sm9N, B>::random(&mut rng).to_bytes().to_vec();
        let kgc = SignMasterKey::<B>::generate(&mut rng);
        let sign_key = kgc.extract(ID).expect("extract");
        let sign_master = kgc.public_key().prepare();
        let r = Fp::<Sm9N, B>::random(&mut rng);
        let nonce = r.to_bytes();
        let sig = sm9::hazmat::sign_with_nonce(&sign_key, &sign_master, &msg, &nonce)
            .expect("sign (l = 0 has probability 1/n)");
        let ds = G1Affine::from_sec1(&sign_key.ds_bytes()[..]).expect("dsA");
        let ppub = *kgc.public_key().point();
        let p2 = G2Affine::GENERATOR;
        let h = scalar::<B>(&sig.h_bytes());
        let s = G1Affine::from_sec1(&sig.s_bytes()).expect("S");
        let mut verify_msg = msg.clone();
        verify_msg[0] ^= u8::from(tamper);
        let verdict = sm9::verify(&sign_master, ID, &verify_msg, &sig).is_ok();
        assert_eq!(verdict, !tamper, "sm9::verify");

        let ekgc = EncMasterKey::<B>::generate(&mut rng);
        let user = ekgc.extract(ID).expect("extract");
        let dec_key = user.prepare();
        let de = sm_curve::sm9::g2_from_sec1(&user.de_bytes()[..]).expect("deB");
        let plaintext = msg.clone();
        let ct = sm9::encrypt(
            &ekgc.public_key().prepare(),
            ID,
            &plaintext,
            EncryptionMode::KdfStream,
            MacMode::Sm3,
            &mut rng,
        )
        .expect("encrypt");
        let decrypted = sm9::decrypt(&dec_key, ID, &ct, MacMode::Sm3).expect("decrypt");
        assert_eq!(&decrypted[..], &plaintext[..]);
        let c1 = G1Affine::from_sec1(&ct.c1_bytes()).expect("C1");

        let mut fx = Self {
            msg,
            verify_msg,
            r,
            ds,
            table: GtTable::new(sign_master.g()),
            p2,
            ppub,
            p2_lines: G2Prepared::new(&p2),
            ppub_lines: G2Prepared::new(&ppub),
            h,
            s,
            de,
            c1,
            c2: ct.c2().to_vec(),
            c3: *ct.c3(),
            sign_key,
            sign_master,
            nonce,
            sig,
            dec_key,
            ct,
            expected: [sig.to_bytes().to_vec(), Vec::new(), decrypted.to_vec()],
        };
        // w' as `sm9::verify` computes it (the production pairing functions on the points it
        // pairs; `verify` does not return w'), and as the standard writes it: e(S, [h1]P2 +
        // Ppub-s) · g^h (B4–B7).
        let (_, w) = fx.verify(|[a, b]| {
            sm_pairing::final_exponentiation(&sm_pairing::multi_miller_loop_prepared(&[
                (*a, &fx.p2_lines),
                (*b, &fx.ppub_lines),
            ]))
        });
        let h1 = scalar::<B>(&sm9::h1(ID, sm9::HID_SIGN).to_bytes());
        let big_p = Jacobian::<Sm9G2Curve<B>>::from(p2)
            .mul(&h1)
            .add(&Jacobian::from(ppub))
            .to_affine();
        let standard = sm_pairing::pairing(&s, &big_p).mul(&fx.table.pow(&h.to_canonical_limbs()));
        assert_eq!(w, standard, "w' by bilinearity = w' of GM/T 0044.2 B4–B7");
        fx.expected[1] = [&[u8::from(verdict)][..], &w.to_bytes()[..]].concat();
        fx
    }

    /// The production result of `op`.
    pub(super) fn expected(&self, op: Op) -> &[u8] {
        &self.expected[op as usize]
    }

    /// Steps A3–A6 with `w = pow(table, r)`: the signature `h ‖ S`.
    fn sign(&self, pow: impl Fn(&GtTable<B>, &[u64; 4]) -> Gt<B>) -> Vec<u8> {
        // A3: w = g^r.
        let w = pow(&self.table, &self.r.to_canonical_limbs());
        // A4: h = H2(M ‖ w, n).
        let h = scalar::<B>(&sm9::h2(&self.msg, &w.to_bytes()).to_bytes());
        // A5: l = (r − h) mod n (≠ 0: the fixture's signature was made with this nonce).
        let l = self.r.sub(&h);
        // A6: S = [l]dsA.
        let s = Jacobian::from(self.ds).mul_endo(&l).to_affine();
        [&h.to_bytes()[..], &s.to_sec1_vec(false)].concat()
    }

    /// Steps B3–B9 with `w' = pair([h1]S, S + [h]P1)` (the pairing product with P2 and
    /// Ppub-s): the verdict and w'.
    fn verify(&self, pair: impl Fn(&[G1Affine<B>; 2]) -> Gt<B>) -> (bool, Gt<B>) {
        let h1 = scalar::<B>(&sm9::h1(ID, sm9::HID_SIGN).to_bytes());
        let s = Jacobian::from(self.s);
        let pts = [
            s.mul_endo_vartime(&h1),
            s.add_vartime(&Sm9G1Curve::<B>::mul_generator_vartime(&self.h)),
        ];
        let mut aff = [G1Affine::IDENTITY; 2];
        Jacobian::batch_to_affine(&pts, &mut aff);
        let w = pair(&aff);
        let h2 = sm9::h2(&self.verify_msg, &w.to_bytes()).to_bytes();
        (h2 == self.h.to_bytes(), w)
    }

    /// Steps B2–B5 (KDF stream, SM3 MAC) with `w' = pair(C1)`: the plaintext (empty when the
    /// MAC check fails).
    fn decrypt(&self, pair: impl Fn(&G1Affine<B>) -> Gt<B>) -> Vec<u8> {
        let w = pair(&self.c1);
        let c1 = self.c1.to_sec1_vec(false);
        let mut k = vec![0u8; self.c2.len() + 32];
        sm3::Kdf::new(&[&c1[1..], &w.to_bytes(), ID]).fill(&mut k);
        let (k1, k2) = k.split_at(self.c2.len());
        let mut mac = sm3::Sm3::new();
        mac.update(&self.c2);
        mac.update(k2);
        if mac.finalize()[..] != self.c3 || k1.iter().all(|b| *b == 0) {
            return Vec::new();
        }
        self.c2.iter().zip(k1).map(|(c, k)| c ^ k).collect()
    }

    /// `op` with the pairing and GT exponentiation of configuration `C`.
    pub(super) fn run_variant<C: Config>(self: &Rc<Self>, op: Op) -> impl FnMut() -> Vec<u8> {
        let fx = Rc::clone(self);
        let p2 = Prepared::<C, B>::new(&fx.p2);
        let ppub = Prepared::<C, B>::new(&fx.ppub);
        let de = Prepared::<C, B>::new(&fx.de);
        move || match op {
            Op::Sign => fx.sign(|t, k| variants::gt_table_pow::<C::Tower, B>(t, k)),
            Op::Verify => {
                let (ok, w) = fx.verify(|[a, b]| {
                    variants::multi_pairing_prepared::<C, B>(&[(*a, &p2), (*b, &ppub)])
                });
                [&[u8::from(ok)][..], &w.to_bytes()[..]].concat()
            }
            Op::Decrypt => fx.decrypt(|c| variants::pairing_prepared::<C, B>(c, &de)),
        }
    }

    /// `op` as the `sm9` crate runs it (verify: its verdict, with the w' computed at setup).
    fn run_production(self: &Rc<Self>, op: Op) -> impl FnMut() -> Vec<u8> {
        let fx = Rc::clone(self);
        move || match op {
            Op::Sign => {
                sm9::hazmat::sign_with_nonce(&fx.sign_key, &fx.sign_master, &fx.msg, &fx.nonce)
                    .expect("sign")
                    .to_bytes()
                    .to_vec()
            }
            Op::Verify => {
                let ok = sm9::verify(&fx.sign_master, ID, &fx.verify_msg, &fx.sig).is_ok();
                let mut out = fx.expected[1].clone();
                out[0] = u8::from(ok);
                out
            }
            Op::Decrypt => sm9::decrypt(&fx.dec_key, ID, &fx.ct, MacMode::Sm3)
                .map(|m| m.to_vec())
                .unwrap_or_default(),
        }
    }
}

/// A timed operation from a closure that returns its output.
fn made(mut f: impl FnMut() -> Vec<u8> + 'static) -> Made {
    (
        f(),
        Box::new(move |n| {
            for _ in 0..n {
                black_box(f());
            }
        }),
    )
}

/// `made`, first checking that the output is the production result of `op`.
fn checked<B: Backend>(
    fx: &Fixture<B>,
    op: Op,
    what: &str,
    f: impl FnMut() -> Vec<u8> + 'static,
) -> Made {
    let m = made(f);
    assert_eq!(
        m.0,
        fx.expected(op),
        "{what}: {} differs from the production result",
        op.name()
    );
    m
}

/// The protocol rows and the (optimization, operation) pairs that were not reached.
pub(super) struct Rows {
    fx: (Rc<Fixture<Counted>>, Rc<Fixture<Timed>>),
    pub(super) lines: Vec<Line>,
    pub(super) not_reached: Vec<(&'static str, Op)>,
}

impl Rows {
    pub(super) fn new() -> Self {
        Self {
            fx: (
                Rc::new(Fixture::new(20, false)),
                Rc::new(Fixture::new(20, false)),
            ),
            lines: Vec::new(),
            not_reached: Vec::new(),
        }
    }

    /// One row per operation: the production `sm9` call against the composition with the
    /// production configuration (the research code's own overhead).
    pub(super) fn reference(&mut self) {
        for op in Op::ALL {
            let (c, t) = &self.fx;
            let what = "production configuration";
            self.lines.push(super::line(
                "production code (reference)",
                "composition with the ledger's generic production configuration",
                op.name(),
                "— (overhead of the research code itself)",
                Some([
                    checked(c, op, "sm9", c.run_production(op)),
                    checked(c, op, what, c.run_variant::<Production>(op)),
                ]),
                [
                    checked(t, op, "sm9", t.run_production(op)),
                    checked(t, op, what, t.run_variant::<Production>(op)),
                ],
            ));
        }
    }

    /// Signing's `g^r` by the fixed-base table against `Gt::pow` (production functions both).
    pub(super) fn gt_table(&mut self) {
        let (c, t) = &self.fx;
        self.lines.push(super::line(
            "GT fixed-base table (`GtTable::pow`)",
            "`Gt::pow`",
            Op::Sign.name(),
            "comb-style fixed-base table (Lim–Lee); SM9 sign's g^r",
            Some([sign_pow(c, true), sign_pow(c, false)]),
            [sign_pow(t, true), sign_pow(t, false)],
        ));
    }
}

/// Signing with `g^r` by the table (`table`) or by `Gt::pow`.
fn sign_pow<B: Backend>(fx: &Rc<Fixture<B>>, table: bool) -> Made {
    let fx2 = Rc::clone(fx);
    let f = move || {
        if table {
            fx2.sign(|t, k| t.pow(k))
        } else {
            fx2.sign(|t, k| t.base().pow(k))
        }
    };
    checked(fx, Op::Sign, "GT exponentiation", f)
}

impl Visitor for Rows {
    /// The row's "off" configuration `C` at every operation whose operation counts it changes.
    fn visit<C: Config>(&mut self, row: variants::Row) {
        for op in Op::ALL {
            let (c, t) = &self.fx;
            let counted = [
                checked(
                    c,
                    op,
                    "production configuration",
                    c.run_variant::<Production>(op),
                ),
                checked(c, op, row.optimization, c.run_variant::<C>(op)),
            ];
            let counts = counted.map(Counts::of);
            if counts[0] == counts[1] {
                if !self.not_reached.contains(&(row.optimization, op)) {
                    self.not_reached.push((row.optimization, op));
                }
                continue;
            }
            if self
                .lines
                .iter()
                .any(|l| l.optimization == row.optimization && l.stage == op.name())
            {
                // The same configuration again (a second pairing-level row of one optimization).
                continue;
            }
            self.lines.push(Line {
                optimization: row.optimization.into(),
                off: row.off.into(),
                stage: op.name().into(),
                source: row.source.into(),
                counts: Some(counts),
                cases: [
                    checked(
                        t,
                        op,
                        "production configuration",
                        t.run_variant::<Production>(op),
                    ),
                    checked(t, op, row.optimization, t.run_variant::<C>(op)),
                ],
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sm_pairing::research::variants::Row;

    /// Every composition gives the production result (the signature, the verdict and w', the
    /// plaintext) for every configuration of the ledger, on random keys, messages, nonces and
    /// ciphertexts, with a valid and with a tampered message.
    struct Check(Vec<Rc<Fixture<sm_field::U64>>>, usize);

    impl Visitor for Check {
        fn visit<C: Config>(&mut self, row: Row) {
            for fx in &self.0 {
                for op in Op::ALL {
                    let mut f = fx.run_variant::<C>(op);
                    assert_eq!(
                        f(),
                        fx.expected(op),
                        "{} at {}",
                        row.optimization,
                        op.name()
                    );
                }
            }
            self.1 += 1;
        }
    }

    #[test]
    fn protocol_compositions_give_the_production_results() {
        let fixtures: Vec<_> = [(1, false), (2, true), (3, false)]
            .into_iter()
            .map(|(seed, tamper)| Rc::new(Fixture::new(seed, tamper)))
            .collect();
        for fx in &fixtures {
            for op in Op::ALL {
                assert_eq!(fx.run_production(op)(), fx.expected(op), "{}", op.name());
                assert_eq!(fx.run_variant::<Production>(op)(), fx.expected(op));
            }
            assert_eq!(sign_pow(fx, false).0, fx.expected(Op::Sign));
        }
        // A tampered message fails verification on every side (with the same w').
        assert_eq!(fixtures[1].expected(Op::Verify)[0], 0);
        assert_eq!(fixtures[0].expected(Op::Verify)[0], 1);
        let mut c = Check(fixtures, 0);
        variants::visit_rows(&mut c);
        assert!(c.1 >= 16, "{} rows", c.1);
    }
}
