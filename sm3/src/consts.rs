//! Constants of GB/T 32905-2016 §4.

/// Initial value IV (§4.1).
pub(crate) const IV: [u32; 8] = [
    0x7380_166f,
    0x4914_b2b9,
    0x1724_42d7,
    0xda8a_0600,
    0xa96f_30bc,
    0x1631_38aa,
    0xe38d_ee4d,
    0xb0fb_0e4e,
];

/// Round constant T_j (§4.2): 0x79cc4519 for 0 ≤ j ≤ 15, 0x7a879d8a for 16 ≤ j ≤ 63.
const fn t(j: usize) -> u32 {
    if j < 16 {
        0x79cc_4519
    } else {
        0x7a87_9d8a
    }
}

/// `T_ROT[j] = T_j <<< (j mod 32)`, the rotated constant added in SS1 (§5.3.3).
pub(crate) const T_ROT: [u32; 64] = {
    let mut out = [0u32; 64];
    let mut j = 0;
    while j < 64 {
        out[j] = t(j).rotate_left((j % 32) as u32);
        j += 1;
    }
    out
};

/// Length of one message block in bytes (§5.2: 512 bits).
pub(crate) const BLOCK_LEN: usize = 64;

/// Length of the digest in bytes (§5.4: 256 bits).
pub(crate) const DIGEST_LEN: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rotated_constants_spot_check() {
        assert_eq!(T_ROT[0], 0x79cc_4519);
        assert_eq!(T_ROT[1], 0xf398_8a32);
        assert_eq!(T_ROT[16], 0x9d8a_7a87);
        assert_eq!(T_ROT[32], 0x7a87_9d8a);
        assert_eq!(T_ROT[63], 0x3d43_cec5);
    }
}
