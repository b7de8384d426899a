//! `Asm::mul_batch` with the IFMA kernel switched off (as on a CPU without AVX-512 IFMA) gives
//! the same limbs as with it. Its own test binary: the switch is process-wide.
#![cfg(all(target_arch = "x86_64", feature = "asm"))]

use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use sm_field::backend::asm::override_ifma;
use sm_field::{Asm, Backend, Fp, Limbs, Sm9P, U64};

#[test]
fn scalar_and_vector_batches_agree() {
    let mut rng = ChaCha20Rng::seed_from_u64(11);
    for len in [1usize, 3, 4, 8, 13, 36, 54] {
        let a: Vec<Limbs> = (0..len)
            .map(|_| Fp::<Sm9P, U64>::random(&mut rng).to_mont_limbs())
            .collect();
        let b: Vec<Limbs> = (0..len)
            .map(|_| Fp::<Sm9P, U64>::random(&mut rng).to_mont_limbs())
            .collect();
        let mut fast = vec![[0u64; 4]; len];
        let mut slow = vec![[0u64; 4]; len];
        override_ifma(None);
        <Asm as Backend>::mul_batch::<Sm9P>(&a, &b, &mut fast);
        override_ifma(Some(false));
        assert!(!Asm::has_ifma());
        <Asm as Backend>::mul_batch::<Sm9P>(&a, &b, &mut slow);
        override_ifma(None);
        assert_eq!(fast, slow, "length {len}");
        for i in 0..len {
            assert_eq!(fast[i], <U64 as Backend>::mul::<Sm9P>(&a[i], &b[i]));
        }
    }
}
