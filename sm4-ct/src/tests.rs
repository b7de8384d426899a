//! Unit tests over the internals (the algebraic S-box, the derived matrices, every kernel).

extern crate std;

use super::*;
use crate::algebra::*;
use std::vec::Vec;

/// The S-box table of GB/T 32907-2016 §6.2.1 (Table 1), row by row.
const SBOX_HEX: [&str; 16] = [
    "d690e9fecce13db716b614c228fb2c05",
    "2b679a762abe04c3aa44132649860699",
    "9c4250f491ef987a33540b43edcfac62",
    "e4b31ca9c908e89580df94fa758f3fa6",
    "4707a7fcf37317ba83593c19e6854fa8",
    "686b81b27164da8bf8eb0f4b70569d35",
    "1e240e5e6358d1a225227c3b01217887",
    "d40046579fd327524c3602e7a0c4c89e",
    "eabf8ad240c738b5a3f7f2cef96115a1",
    "e0ae5da49b341a55ad933230f58cb1e3",
    "1df6e22e8266ca60c02923ab0d534e6f",
    "d5db3745defd8e2f03ff6a726d6c5b51",
    "8d1baf92bbddbc7f11d95c411f105ad8",
    "0ac13188a5cd7bbd2d74d012b8e5b4b0",
    "8969974a0c96777e65b9f109c56ec684",
    "18f07dec3adc4d2079ee5f3ed7cb3948",
];

fn standard_sbox() -> Vec<u8> {
    SBOX_HEX
        .iter()
        .flat_map(|r| hex::decode(r).unwrap())
        .collect()
}

fn h16(s: &str) -> [u8; 16] {
    hex::decode(s).unwrap().try_into().unwrap()
}

fn all_implementations() -> Vec<Implementation> {
    [
        Implementation::Portable,
        Implementation::GfniSse,
        Implementation::GfniAvx2,
        Implementation::GfniAvx512,
    ]
    .into_iter()
    .filter(|&i| Sm4::with_implementation(&[0; 16], i).is_some())
    .collect()
}

#[test]
fn sbox_algebraic_form_reproduces_the_standard_table() {
    let table = standard_sbox();
    for x in 0..=255u8 {
        let s = mat_apply(&A, gf_inv(mat_apply(&A, x) ^ C, SM4_POLY)) ^ C;
        assert_eq!(s, table[usize::from(x)], "x = {x:#04x}");
    }
}

#[test]
fn bitsliced_sbox_reproduces_the_standard_table() {
    let table = standard_sbox();
    for x in 0..=255u32 {
        let w = x | ((x ^ 0xFF) << 8) | (((x + 1) & 0xFF) << 16) | (((x + 7) & 0xFF) << 24);
        let want = u32::from_le_bytes([
            table[x as usize],
            table[(x ^ 0xFF) as usize],
            table[((x + 1) & 0xFF) as usize],
            table[((x + 7) & 0xFF) as usize],
        ]);
        assert_eq!(portable::tau(w), want, "x = {x:#04x}");
    }
}

#[test]
fn gfni_matrices_rebuild_the_standard_table() {
    // Software model of GF2P8AFFINEQB / GF2P8AFFINEINVQB (Intel SDM) with the derived constants.
    let table = standard_sbox();
    for x in 0..=255u8 {
        let y = gfni_affine(x, GFNI_IN, GFNI_IN_C);
        let s = gfni_affine(gf_inv(y, AES_POLY), GFNI_OUT, GFNI_OUT_C);
        assert_eq!(s, table[usize::from(x)], "x = {x:#04x}");
    }
}

#[test]
fn field_isomorphisms_are_multiplicative() {
    for a in 0..=255u8 {
        for b in [0u8, 1, 2, 0x53, 0xCA, 0xFF, a.wrapping_mul(7)] {
            let ab = gf_mul(a, b, SM4_POLY);
            assert_eq!(
                mat_apply(&M_AES, ab),
                gf_mul(mat_apply(&M_AES, a), mat_apply(&M_AES, b), AES_POLY)
            );
            assert_eq!(
                mat_apply(&PHI, ab),
                tower_mul(mat_apply(&PHI, a), mat_apply(&PHI, b))
            );
        }
    }
}

#[test]
fn round_constants_match_the_standard() {
    // GB/T 32907-2016 §7.3: CK0 = 00070e15, CK31 = 646b7279.
    assert_eq!(CK[0], 0x0007_0e15);
    assert_eq!(CK[1], 0x1c23_2a31);
    assert_eq!(CK[31], 0x646b_7279);
}

/// GB/T 32907-2016 Appendix A, example 1 (and its round keys rk0, rk31), on every kernel.
#[test]
fn standard_example_1_every_implementation() {
    let key = h16("0123456789abcdeffedcba9876543210");
    for imp in all_implementations() {
        let c = Sm4::with_implementation(&key, imp).unwrap();
        assert_eq!(c.rk[0], 0xf121_86f9, "{imp:?}");
        assert_eq!(c.rk[31], 0x9124_a012, "{imp:?}");
        let mut b = key;
        c.crypt1(false, &mut b);
        assert_eq!(b, h16("681edf34d206965e86b3e94f536e4246"), "{imp:?}");
        c.crypt1(true, &mut b);
        assert_eq!(b, key);
        // And through the 16-block kernel, the example in every lane.
        let mut blocks = [key; 16];
        c.crypt16(false, &mut blocks, 16);
        assert_eq!(
            blocks,
            [h16("681edf34d206965e86b3e94f536e4246"); 16],
            "{imp:?}"
        );
    }
}

/// GB/T 32907-2016 Appendix A, example 2: 1,000,000 encryptions of the plaintext under the
/// same key. Runs in a few seconds in the (optimised) test profile.
#[test]
fn standard_example_2_million_iterations() {
    let key = h16("0123456789abcdeffedcba9876543210");
    let c = Sm4::from_key(&key);
    let mut b = key;
    for _ in 0..1_000_000 {
        c.crypt1(false, &mut b);
    }
    assert_eq!(b, h16("595298c7c6fd271f0402f804c33d3f66"));
}

/// Example 2 on the portable single-block path too (under a second in the test profile).
#[test]
fn standard_example_2_million_iterations_portable() {
    let key = h16("0123456789abcdeffedcba9876543210");
    let c = Sm4::with_implementation(&key, Implementation::Portable).unwrap();
    let mut b = key;
    for _ in 0..1_000_000 {
        c.crypt1(false, &mut b);
    }
    assert_eq!(b, h16("595298c7c6fd271f0402f804c33d3f66"));
}

#[test]
fn debug_does_not_print_round_keys() {
    let c = Sm4::from_key(&[0xAB; 16]);
    let s = std::format!("{c:?}");
    assert!(s.starts_with("Sm4 {"), "{s}");
    let rk0 = std::format!("{:x}", c.rk[0]);
    assert!(!s.contains(&rk0), "{s}");
    assert!(!s.contains("rk"), "{s}");
}

#[test]
fn detected_implementation_is_the_widest() {
    let imp = Implementation::detected();
    assert_eq!(Sm4::from_key(&[1; 16]).implementation(), imp);
    if let Some(&widest) = all_implementations().last() {
        assert_eq!(imp, widest);
    }
    std::println!("detected: {}", imp.name());
}
