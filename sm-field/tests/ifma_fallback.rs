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

#[test]
fn tower_formulas_agree_with_and_without_batches() {
    use sm_field::{Fp12, Fp2, Fp4};
    let mut rng = ChaCha20Rng::seed_from_u64(12);
    for _ in 0..20 {
        let x = Fp12::<Asm>::random(&mut rng);
        let y = Fp12::<Asm>::random(&mut rng);
        let (a, b, c) = (
            Fp2::<Asm>::random(&mut rng),
            Fp2::random(&mut rng),
            Fp2::random(&mut rng),
        );
        let run = || {
            (
                x.mul(&y),
                x.square(),
                x.mul_by_023(&a, &b, &c),
                Fp4::square_batch(&[x.c0, x.c1, x.c2]),
            )
        };
        override_ifma(None);
        let batched = run();
        override_ifma(Some(false));
        let direct = run();
        override_ifma(None);
        assert_eq!(batched, direct);
        // And both equal the portable backend.
        let xu = x.to_backend::<U64>();
        assert_eq!(direct.0.to_backend::<U64>(), xu.mul(&y.to_backend()));
        assert_eq!(direct.1.to_backend::<U64>(), xu.square());
        assert_eq!(direct.3[1].to_backend::<U64>(), xu.c1.square());
    }
}
