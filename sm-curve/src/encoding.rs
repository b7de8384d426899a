//! SEC1 point encodings (SEC 1 v2, §2.3.3 and §2.3.4): `04‖x‖y` uncompressed and `02|03‖x`
//! compressed, where the tag's low bit is `is_odd(y)` ([`sm_field::Field::is_odd`]); the
//! identity is the single byte `00`.

use core::fmt;

use sm_field::Field;
use subtle::ConditionallySelectable;

use crate::affine::curve_rhs;
use crate::{Affine, CurveParams};

/// Errors decoding or validating points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The encoding has the wrong length for its tag, or the output buffer is too short.
    Length,
    /// Unknown tag byte (hybrid `06`/`07` encodings are not accepted).
    Tag,
    /// A coordinate is not a canonical field element (not below p).
    FieldRange,
    /// The point does not satisfy the curve equation (or a compressed x has no y).
    NotOnCurve,
    /// The point at infinity where a finite point is required.
    Identity,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Error::Length => "invalid point encoding length",
            Error::Tag => "invalid point encoding tag",
            Error::FieldRange => "point coordinate out of range",
            Error::NotOnCurve => "point not on the curve",
            Error::Identity => "point at infinity",
        })
    }
}

impl core::error::Error for Error {}

impl<C: CurveParams> Affine<C> {
    /// Length of the uncompressed encoding `04‖x‖y`.
    pub const UNCOMPRESSED_LEN: usize = 1 + 2 * C::Base::ENCODED_LEN;
    /// Length of the compressed encoding `02|03‖x`.
    pub const COMPRESSED_LEN: usize = 1 + C::Base::ENCODED_LEN;

    /// Writes the SEC1 encoding into the front of `out`, returning its length
    /// (1 for the identity, else `COMPRESSED_LEN` or `UNCOMPRESSED_LEN`).
    pub fn write_sec1(&self, compress: bool, out: &mut [u8]) -> Result<usize, Error> {
        let l = C::Base::ENCODED_LEN;
        if bool::from(self.is_identity()) {
            let b = out.first_mut().ok_or(Error::Length)?;
            *b = 0;
            return Ok(1);
        }
        let len = if compress { 1 + l } else { 1 + 2 * l };
        if out.len() < len {
            return Err(Error::Length);
        }
        self.x.write_bytes(&mut out[1..1 + l]);
        if compress {
            out[0] = 2 | self.y.is_odd().unwrap_u8();
        } else {
            out[0] = 4;
            self.y.write_bytes(&mut out[1 + l..1 + 2 * l]);
        }
        Ok(len)
    }

    /// The SEC1 encoding as a vector.
    #[cfg(feature = "alloc")]
    pub fn to_sec1_vec(&self, compress: bool) -> alloc::vec::Vec<u8> {
        let mut v = alloc::vec![0u8; Self::UNCOMPRESSED_LEN];
        let n = self
            .write_sec1(compress, &mut v)
            .expect("buffer long enough");
        v.truncate(n);
        v
    }

    /// Decodes `04‖x‖y` or `02|03‖x` and validates the point: coordinates canonical, on the
    /// curve, not the identity (the `00` encoding is rejected with [`Error::Identity`]).
    ///
    /// For curves with a cofactor (SM9 G2), subgroup membership is the caller's check.
    pub fn from_sec1(bytes: &[u8]) -> Result<Self, Error> {
        let l = C::Base::ENCODED_LEN;
        let (&tag, rest) = bytes.split_first().ok_or(Error::Length)?;
        match tag {
            0 => {
                if rest.is_empty() {
                    Err(Error::Identity)
                } else {
                    Err(Error::Length)
                }
            }
            4 => {
                if rest.len() != 2 * l {
                    return Err(Error::Length);
                }
                let x = Option::<C::Base>::from(C::Base::read_bytes(&rest[..l]))
                    .ok_or(Error::FieldRange)?;
                let y = Option::<C::Base>::from(C::Base::read_bytes(&rest[l..]))
                    .ok_or(Error::FieldRange)?;
                Option::from(Affine::from_coordinates(x, y)).ok_or(Error::NotOnCurve)
            }
            2 | 3 => {
                if rest.len() != l {
                    return Err(Error::Length);
                }
                let x =
                    Option::<C::Base>::from(C::Base::read_bytes(rest)).ok_or(Error::FieldRange)?;
                Self::decompress(&x, tag & 1 == 1).ok_or(Error::NotOnCurve)
            }
            _ => Err(Error::Tag),
        }
    }

    /// The point with x-coordinate `x` and `is_odd(y) = odd`, if any.
    pub fn decompress(x: &C::Base, odd: bool) -> Option<Self> {
        let rhs = curve_rhs::<C>(x);
        let y = Option::<C::Base>::from(rhs.sqrt())?;
        let flip = y.is_odd() ^ subtle::Choice::from(odd as u8);
        let y = C::Base::conditional_select(&y, &-y, flip);
        if bool::from(y.is_odd()) != odd {
            // y = 0 has no odd root.
            return None;
        }
        Some(Affine::from_coordinates_unchecked(*x, y))
    }
}
