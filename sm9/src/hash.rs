//! The SM9 hash functions H1 and H2 (GM/T 0044.2 §5.3.2.2 and §5.3.2.3).
//!
//! Both map a bit string Z into `[1, n − 1]`:
//!
//! 1. `ct = 0x00000001`, `hlen = 8 · ⌈5 · log2(n) / 32⌉ = 320` bits;
//! 2. `Ha_i = SM3(prefix ‖ Z ‖ ct)` for `i = 1, 2` (prefix `0x01` for H1, `0x02` for H2);
//! 3. `Ha` = the leftmost 320 bits of `Ha_1 ‖ Ha_2`;
//! 4. `h = (Ha mod (n − 1)) + 1`.
//!
//! The inputs (identities, messages, public pairing values) are public, so the reduction
//! modulo `n − 1` (not a field modulus, hence done here with plain limb arithmetic) need not
//! be constant time; it is branch-light anyway.

use sm3::{Digest, Sm3};
use sm_field::{Backend, Job};

use crate::generic::Scalar;

/// `n − 1` as little-endian 64-bit limbs (n is the order of G1, G2 and GT, GM/T 0044.5 §A.1).
const N_MINUS_1: [u64; 4] = [
    0xE56E_E19C_D69E_CF24,
    0x49F2_934B_18EA_8BEE,
    0xD603_AB4F_F58E_C744,
    0xB640_0000_02A3_A6F1,
];

/// Prefix byte of H1 (GM/T 0044.2 §5.3.2.2).
pub(crate) const H1_PREFIX: u8 = 0x01;
/// Prefix byte of H2 (GM/T 0044.2 §5.3.2.3).
pub(crate) const H2_PREFIX: u8 = 0x02;

/// Streaming state of H1/H2: `SM3(prefix ‖ Z …)` with Z fed in pieces.
#[derive(Clone)]
pub(crate) struct HashToRange {
    state: Sm3,
}

impl HashToRange {
    /// Starts `H_prefix(Z, n)`.
    pub(crate) fn new(prefix: u8) -> Self {
        let mut state = Sm3::new();
        state.update([prefix]);
        Self { state }
    }

    /// Appends bytes of Z.
    pub(crate) fn update(&mut self, data: &[u8]) {
        self.state.update(data);
    }

    /// [`finalize`](Self::finalize) as one dispatched job ([`Backend::dispatch`]).
    pub(crate) fn finalize_dispatched<B: Backend>(self) -> Scalar<B> {
        struct Finalize<B>(HashToRange, core::marker::PhantomData<B>);
        impl<B: Backend> Job for Finalize<B> {
            type Output = Scalar<B>;
            fn run<B2: Backend>(self) -> Scalar<B> {
                self.0.finalize::<B2>().to_backend()
            }
        }
        B::dispatch(Finalize(self, core::marker::PhantomData))
    }

    /// Finishes: `(Ha mod (n − 1)) + 1` (no dispatch: for code inside a job).
    pub(crate) fn finalize<B: Backend>(self) -> Scalar<B> {
        let mut second = self.state.clone();
        let mut first = self.state;
        first.update(1u32.to_be_bytes());
        second.update(2u32.to_be_bytes());
        let mut ha = [0u8; 40];
        ha[..32].copy_from_slice(&first.finalize());
        ha[32..].copy_from_slice(&second.finalize()[..8]);
        let mut r = reduce_mod_n_minus_1(&ha);
        // r < n − 1, so r + 1 < n and never overflows 256 bits.
        let mut carry = 1u64;
        for limb in r.iter_mut() {
            let (s, c) = limb.overflowing_add(carry);
            *limb = s;
            carry = u64::from(c);
        }
        let mut bytes = [0u8; 32];
        for (i, limb) in r.iter().enumerate() {
            bytes[24 - 8 * i..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        Scalar::from_bytes_reduced(&bytes)
    }
}

/// `H1(Z, n)` with `Z = ID ‖ hid` (GM/T 0044.2 §5.3.2.2), used for user keys.
pub fn h1(id: &[u8], hid: u8) -> crate::Scalar {
    h1_hasher(id, hid).finalize_dispatched()
}

/// The hash of [`h1`] before its output is reduced.
fn h1_hasher(id: &[u8], hid: u8) -> HashToRange {
    let mut h = HashToRange::new(H1_PREFIX);
    h.update(id);
    h.update(&[hid]);
    h
}

/// [`h1`] as a scalar over the backend `B` (no dispatch: for code inside a job).
pub(crate) fn h1_in<B: Backend>(id: &[u8], hid: u8) -> Scalar<B> {
    h1_hasher(id, hid).finalize()
}

/// [`h1`] as a scalar over the backend `B`, as one dispatched job (for callers outside a job).
pub(crate) fn h1_dispatched<B: Backend>(id: &[u8], hid: u8) -> Scalar<B> {
    h1_hasher(id, hid).finalize_dispatched()
}

/// `H2(Z, n)` with `Z = M ‖ w` (GM/T 0044.2 §5.3.2.3), used for signatures; `w` is the
/// 384-byte encoding of an element of GT.
pub fn h2(message: &[u8], w: &[u8]) -> crate::Scalar {
    let mut h = HashToRange::new(H2_PREFIX);
    h.update(message);
    h.update(w);
    h.finalize_dispatched()
}

/// `Ha mod (n − 1)` for a 320-bit big-endian `Ha`.
///
/// Knuth, TAOCP vol. 2, §4.3.1 Algorithm D with one 64-bit quotient digit: the divisor
/// `v = n − 1` is normalised (top bit set). First `u ≥ 2^64 · v` is removed by one
/// subtraction (`u < 2^320 < 2 · 2^64 · v`), then `q̂ = ⌊(u4 · 2^64 + u3) / v3⌋` overestimates
/// the quotient digit by at most 2 (Theorem B), so at most two corrective additions follow.
pub(crate) fn reduce_mod_n_minus_1(ha: &[u8; 40]) -> [u64; 4] {
    let v = N_MINUS_1;
    // u as 5 little-endian limbs.
    let mut u = [0u64; 5];
    for (i, limb) in u.iter_mut().enumerate() {
        let start = 32 - 8 * i;
        let mut b = [0u8; 8];
        b.copy_from_slice(&ha[start..start + 8]);
        *limb = u64::from_be_bytes(b);
    }
    // Step 0: if (u4..u1) ≥ v, subtract v · 2^64.
    if !lt4(&[u[1], u[2], u[3], u[4]], &v) {
        let mut borrow = 0u64;
        for i in 0..4 {
            let (d, b) = sbb(u[i + 1], v[i], borrow);
            u[i + 1] = d;
            borrow = b;
        }
    }
    // Now u4 ≤ v3; the quotient digit fits 64 bits (clamped as in step D3).
    let q_hat = if u[4] >= v[3] {
        u64::MAX
    } else {
        let num = (u128::from(u[4]) << 64) | u128::from(u[3]);
        // u4 < v3 makes the quotient < 2^64.
        (num / u128::from(v[3])) as u64
    };
    // r = u − q̂ · v in 6 limbs two's complement.
    let mut prod = [0u64; 5];
    let mut carry = 0u128;
    for i in 0..4 {
        let t = u128::from(q_hat) * u128::from(v[i]) + carry;
        prod[i] = t as u64;
        carry = t >> 64;
    }
    prod[4] = carry as u64;
    let mut r = [0u64; 6];
    let mut borrow = 0u64;
    for i in 0..5 {
        let (d, b) = sbb(u[i], prod[i], borrow);
        r[i] = d;
        borrow = b;
    }
    r[5] = 0u64.wrapping_sub(borrow);
    // At most two corrections (r negative ⇔ top limb all ones).
    for _ in 0..2 {
        let negative = r[5] >> 63;
        let mask = 0u64.wrapping_sub(negative);
        let mut c = 0u64;
        for i in 0..6 {
            let addend = if i < 4 { v[i] & mask } else { 0 };
            let (s1, c1) = r[i].overflowing_add(addend);
            let (s2, c2) = s1.overflowing_add(c);
            r[i] = s2;
            c = u64::from(c1) + u64::from(c2);
        }
    }
    debug_assert!(r[4] == 0 && r[5] == 0);
    debug_assert!(lt4(&[r[0], r[1], r[2], r[3]], &v));
    [r[0], r[1], r[2], r[3]]
}

/// `a < b` for little-endian 4-limb values.
fn lt4(a: &[u64; 4], b: &[u64; 4]) -> bool {
    for i in (0..4).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// Subtract with borrow.
#[inline(always)]
fn sbb(a: u64, b: u64, borrow: u64) -> (u64, u64) {
    let t = u128::from(a).wrapping_sub(u128::from(b) + u128::from(borrow));
    (t as u64, (t >> 127) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;
    use proptest::prelude::*;

    fn n_minus_1() -> BigUint {
        BigUint::parse_bytes(
            b"B640000002A3A6F1D603AB4FF58EC74449F2934B18EA8BEEE56EE19CD69ECF24",
            16,
        )
        .unwrap()
    }

    fn limbs_to_big(l: &[u64; 4]) -> BigUint {
        let mut bytes = [0u8; 32];
        for (i, limb) in l.iter().enumerate() {
            bytes[24 - 8 * i..32 - 8 * i].copy_from_slice(&limb.to_be_bytes());
        }
        BigUint::from_bytes_be(&bytes)
    }

    fn check(ha: [u8; 40]) {
        let got = limbs_to_big(&reduce_mod_n_minus_1(&ha));
        let want = BigUint::from_bytes_be(&ha) % n_minus_1();
        assert_eq!(got, want, "Ha = {}", hex::encode(ha));
    }

    #[test]
    fn reduction_edges() {
        check([0u8; 40]);
        check([0xff; 40]);
        // Ha = k·(n−1) + small for a few k, and values around 2^64·(n−1).
        let m = n_minus_1();
        for k in [1u64, 2, 3, u64::MAX / 2, u64::MAX, 1 << 63] {
            for delta in [0u32, 1, 2] {
                for sub in [false, true] {
                    let base = &m * BigUint::from(k);
                    let x = if sub {
                        if base < BigUint::from(delta) {
                            continue;
                        }
                        base - BigUint::from(delta)
                    } else {
                        base + BigUint::from(delta)
                    };
                    let b = x.to_bytes_be();
                    if b.len() > 40 {
                        continue;
                    }
                    let mut ha = [0u8; 40];
                    ha[40 - b.len()..].copy_from_slice(&b);
                    check(ha);
                }
            }
        }
    }

    proptest! {
        #[test]
        fn reduction_matches_bigint(ha in proptest::array::uniform32(any::<u8>()), tail in any::<u64>()) {
            let mut full = [0u8; 40];
            full[..32].copy_from_slice(&ha);
            full[32..].copy_from_slice(&tail.to_be_bytes());
            check(full);
            // Also shifted so the top limb is small.
            let mut low = [0u8; 40];
            low[8..].copy_from_slice(&ha);
            check(low);
        }
    }

    #[test]
    fn h1_annex_examples() {
        let v = sm_testvectors::sm9();
        let h = |p: &str| sm_testvectors::hex_at(&v, p);
        assert_eq!(
            h1(b"Alice", 0x01).to_bytes().to_vec(),
            h("/sign_annexA/h1_H1(IDA||hid)")
        );
        assert_eq!(
            h1(b"Alice", 0x02).to_bytes().to_vec(),
            h("/key_exchange_annexB/H1(Alice||02)")
        );
        assert_eq!(
            h1(b"Bob", 0x02).to_bytes().to_vec(),
            h("/key_exchange_annexB/derived/H1(Bob||02)")
        );
        assert_eq!(
            h1(b"Bob", 0x03).to_bytes().to_vec(),
            h("/kem_annexC/derived/H1(Bob||03)")
        );
    }

    #[test]
    fn h2_annex_a() {
        let v = sm_testvectors::sm9();
        let w = sm_testvectors::hex_at(&v, "/sign_annexA/w_g^r");
        let m = sm_testvectors::hex_at(&v, "/sign_annexA/M_hex");
        assert_eq!(
            h2(&m, &w).to_bytes().to_vec(),
            sm_testvectors::hex_at(&v, "/sign_annexA/h")
        );
    }
}
