//! The `Asm` backend on a CPU without BMI2/ADX: multiplication and squaring fall back to the
//! portable kernels and must give the same limbs. Simulated through the test hook (its own test
//! binary, so no other test observes the switched path).
#![cfg(all(target_arch = "x86_64", feature = "asm"))]

use rand_chacha::rand_core::{Rng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use sm_field::backend::asm::override_mulx_adx;
use sm_field::{Asm, Backend, Fp, Modulus, Sm2N, Sm2P, Sm9N, Sm9P, U64};

fn check<M: Modulus>(rng: &mut ChaCha20Rng) {
    for _ in 0..2000 {
        let mut w = [0u8; 64];
        rng.fill_bytes(&mut w);
        let a = Fp::<M, U64>::from_wide_bytes(&w).to_mont_limbs();
        rng.fill_bytes(&mut w);
        let b = Fp::<M, U64>::from_wide_bytes(&w).to_mont_limbs();
        assert_eq!(
            Asm::mul::<M>(&a, &b),
            U64::mul::<M>(&a, &b),
            "{} mul",
            M::NAME
        );
        assert_eq!(
            Asm::square::<M>(&a),
            U64::square::<M>(&a),
            "{} square",
            M::NAME
        );
    }
    // Whole-element operations on the fallback path (pow, invert use mul/square throughout).
    let x = Fp::<M, Asm>::from_u64(0x1234_5678_9abc_def1);
    let y = Fp::<M, U64>::from_u64(0x1234_5678_9abc_def1);
    assert_eq!(
        x.invert().unwrap().to_bytes(),
        y.invert().unwrap().to_bytes()
    );
    assert_eq!(
        x.pow(&[7, 5, 3, 1]).to_bytes(),
        y.pow(&[7, 5, 3, 1]).to_bytes()
    );
}

#[test]
fn fallback_matches_portable_and_detection_recovers() {
    let mut rng = ChaCha20Rng::seed_from_u64(91);
    override_mulx_adx(Some(false));
    assert!(!Asm::is_supported());
    check::<Sm2P>(&mut rng);
    check::<Sm2N>(&mut rng);
    check::<Sm9P>(&mut rng);
    check::<Sm9N>(&mut rng);
    // Back to detection: this machine has the extensions (CI's do), and the kernels run again.
    override_mulx_adx(None);
    assert!(Asm::is_supported(), "this test machine lacks BMI2/ADX");
    check::<Sm2P>(&mut rng);
    check::<Sm9P>(&mut rng);
}
