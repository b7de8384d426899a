//! The SM2 recommended curve (GB/T 32918.5-2017, GM/T 0003.5-2012):
//! `y² = x³ − 3x + b` over GF(p), p = 2^256 − 2^224 − 2^96 + 2^64 − 1, prime order n, cofactor 1.

use core::marker::PhantomData;

use sm_field::{Backend, DefaultBackend, Fp, Modulus, Sm2N, Sm2P};

use crate::comb::{select_raw, CombTable, COMB_ENTRIES};
use crate::{AKind, Affine, CurveParams, Jacobian};

include!(concat!(env!("OUT_DIR"), "/sm2_g_comb.rs"));

/// The SM2 curve over limb backend `B`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sm2Curve<B: Backend = DefaultBackend>(PhantomData<B>);

impl<B: Backend> CurveParams for Sm2Curve<B> {
    type Base = Fp<Sm2P, B>;
    type Scalar = Fp<Sm2N, B>;
    const NAME: &'static str = "sm2p256v1";
    const A_KIND: AKind = AKind::MinusThree;
    const A: Fp<Sm2P, B> =
        Fp::from_be_hex_const("FFFFFFFEFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF00000000FFFFFFFFFFFFFFFC");
    const B: Fp<Sm2P, B> =
        Fp::from_be_hex_const("28E9FA9E9D9F5E344D5A9E4BCF6509A7F39789F515AB8F92DDBCBD414D940E93");
    const GENERATOR: (Fp<Sm2P, B>, Fp<Sm2P, B>) = (
        Fp::from_be_hex_const("32C4AE2C1F1981195F9904466A39C9948FE30BBFF2660BE1715A4589334C74C7"),
        Fp::from_be_hex_const("BC3736A2F4F6779C59BDCEE36B692153D0A9877CC62A474002DF32E52139F0A0"),
    );
    const ORDER: [u64; 4] = Sm2N::P;

    fn mul_generator(k: &Self::Scalar) -> Jacobian<Self> {
        Sm2GeneratorTable.mul(k)
    }

    fn mul_generator_vartime(k: &Self::Scalar) -> Jacobian<Self> {
        Sm2GeneratorTable.mul_vartime(k)
    }
}

/// The comb table of the SM2 generator, computed at build time (`build.rs`) and stored as a
/// `static` of Montgomery limbs (identical for every backend).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sm2GeneratorTable;

fn raw_to_affine<B: Backend>(l: &[u64; 8]) -> Affine<Sm2Curve<B>> {
    // The table holds reduced Montgomery residues, so these never fail; `unwrap_or` selects
    // without the branch `unwrap` would take on the (secret) selected entry.
    let x = Fp::from_mont_limbs([l[0], l[1], l[2], l[3]]).unwrap_or(Fp::ZERO);
    let y = Fp::from_mont_limbs([l[4], l[5], l[6], l[7]]).unwrap_or(Fp::ZERO);
    Affine::from_coordinates_unchecked(x, y)
}

impl<B: Backend> CombTable<Sm2Curve<B>> for Sm2GeneratorTable {
    fn select(&self, window: usize, abs: u8) -> Affine<Sm2Curve<B>> {
        let row: &[[u64; 8]; COMB_ENTRIES] = &SM2_G_COMB[window];
        let raw = select_raw(row, abs);
        let mut p = raw_to_affine::<B>(&raw);
        p.infinity = subtle::ConstantTimeEq::ct_eq(&abs, &0).unwrap_u8();
        p
    }

    fn get_vartime(&self, window: usize, abs: u8) -> Affine<Sm2Curve<B>> {
        raw_to_affine::<B>(&SM2_G_COMB[window][abs as usize - 1])
    }
}
