//! Portable compression function: message expansion on the fly over a 16-word window, rotated
//! round constants precomputed, all 64 rounds unrolled with the eight working variables renamed
//! instead of moved.

use crate::consts::T_ROT;

/// Permutation P0 (§4.4), used on TT2.
#[inline(always)]
pub(crate) fn p0(x: u32) -> u32 {
    x ^ x.rotate_left(9) ^ x.rotate_left(17)
}

/// Permutation P1 (§4.4), used by the message expansion.
#[inline(always)]
pub(crate) fn p1(x: u32) -> u32 {
    x ^ x.rotate_left(15) ^ x.rotate_left(23)
}

/// FF_j and GG_j for 0 ≤ j ≤ 15 (§4.3): X ⊕ Y ⊕ Z.
#[inline(always)]
fn xor3(x: u32, y: u32, z: u32) -> u32 {
    x ^ y ^ z
}

/// FF_j for 16 ≤ j ≤ 63 (§4.3): the majority (X∧Y)∨(X∧Z)∨(Y∧Z).
#[inline(always)]
fn maj(x: u32, y: u32, z: u32) -> u32 {
    (x & y) | ((x | y) & z)
}

/// GG_j for 16 ≤ j ≤ 63 (§4.3): the choice (X∧Y)∨(¬X∧Z), written as ((Y⊕Z)∧X)⊕Z.
#[inline(always)]
fn choose(x: u32, y: u32, z: u32) -> u32 {
    ((y ^ z) & x) ^ z
}

/// Message expansion step (§5.3.2) in place: `w[i mod 16]` holds W(i−16) and becomes
/// W(i) = P1(W(i−16) ⊕ W(i−9) ⊕ (W(i−3) <<< 15)) ⊕ (W(i−13) <<< 7) ⊕ W(i−6).
#[inline(always)]
fn expand(w: &mut [u32; 16], i: usize) {
    let x = w[i % 16] ^ w[(i - 9) % 16] ^ w[(i - 3) % 16].rotate_left(15);
    w[i % 16] = p1(x) ^ w[(i - 13) % 16].rotate_left(7) ^ w[(i - 6) % 16];
}

/// One round of §5.3.3. The caller renames the variables for the next round:
/// after it, A' = `$d`, B' = `$a`, C' = `$b`, D' = `$c`, E' = `$h`, F' = `$e`, G' = `$f`, H' = `$g`.
macro_rules! round {
    ($j:expr, $ff:ident, $gg:ident, $w:expr, $wp:expr,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {{
        // Additions are ordered so that the late operands (E, SS1, SS2: the critical path
        // E → SS1 → TT2 → P0 → E) enter last.
        let a12 = $a.rotate_left(12);
        let ss1 = a12.wrapping_add(T_ROT[$j]).wrapping_add($e).rotate_left(7);
        let ss2 = ss1 ^ a12;
        let tt1 = $ff($a, $b, $c)
            .wrapping_add($d.wrapping_add($wp))
            .wrapping_add(ss2);
        let tt2 = $gg($e, $f, $g)
            .wrapping_add($h.wrapping_add($w))
            .wrapping_add(ss1);
        $b = $b.rotate_left(9);
        $f = $f.rotate_left(19);
        $d = tt1;
        $h = p0(tt2);
    }};
}

/// Four rounds j..j+3; W(j+4..j+8) are expanded first when j ≥ 12 so that W'(j) = W(j) ⊕ W(j+4)
/// is available. After four renamings the variables are back in place.
macro_rules! four_rounds {
    ($j:expr, $ff:ident, $gg:ident, $w:ident,
     $a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident) => {{
        if $j >= 12 {
            expand(&mut $w, $j + 4);
            expand(&mut $w, $j + 5);
            expand(&mut $w, $j + 6);
            expand(&mut $w, $j + 7);
        }
        round!(
            $j,
            $ff,
            $gg,
            $w[$j % 16],
            $w[$j % 16] ^ $w[($j + 4) % 16],
            $a,
            $b,
            $c,
            $d,
            $e,
            $f,
            $g,
            $h
        );
        round!(
            $j + 1,
            $ff,
            $gg,
            $w[($j + 1) % 16],
            $w[($j + 1) % 16] ^ $w[($j + 5) % 16],
            $d,
            $a,
            $b,
            $c,
            $h,
            $e,
            $f,
            $g
        );
        round!(
            $j + 2,
            $ff,
            $gg,
            $w[($j + 2) % 16],
            $w[($j + 2) % 16] ^ $w[($j + 6) % 16],
            $c,
            $d,
            $a,
            $b,
            $g,
            $h,
            $e,
            $f
        );
        round!(
            $j + 3,
            $ff,
            $gg,
            $w[($j + 3) % 16],
            $w[($j + 3) % 16] ^ $w[($j + 7) % 16],
            $b,
            $c,
            $d,
            $a,
            $f,
            $g,
            $h,
            $e
        );
    }};
}

/// CF(V, B) for one block (§5.3.3), inlined into each caller so that target-feature wrappers
/// (BMI2 `rorx`) recompile it.
#[inline(always)]
pub(crate) fn compress_block(state: &mut [u32; 8], block: &[u8; 64]) {
    // §5.3.2 a): W0..W15 are the block's big-endian words.
    let mut w = [0u32; 16];
    for (word, bytes) in w.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;

    four_rounds!(0, xor3, xor3, w, a, b, c, d, e, f, g, h);
    four_rounds!(4, xor3, xor3, w, a, b, c, d, e, f, g, h);
    four_rounds!(8, xor3, xor3, w, a, b, c, d, e, f, g, h);
    four_rounds!(12, xor3, xor3, w, a, b, c, d, e, f, g, h);
    four_rounds!(16, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(20, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(24, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(28, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(32, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(36, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(40, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(44, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(48, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(52, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(56, maj, choose, w, a, b, c, d, e, f, g, h);
    four_rounds!(60, maj, choose, w, a, b, c, d, e, f, g, h);

    // §5.3.3: V(i+1) = ABCDEFGH ⊕ V(i).
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s ^= v;
    }
}

/// Portable CF over consecutive blocks; the reference for every SIMD path.
pub(crate) fn compress_portable(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    for block in blocks {
        compress_block(state, block);
    }
}
