//! Single-stream CF recompiled with BMI2, so rotations become `rorx` (no flags, non-destructive).

use crate::compress::portable::compress_block;

/// CF over consecutive blocks with BMI2 enabled.
///
/// # Safety
/// The CPU must support BMI2.
#[target_feature(enable = "bmi2")]
pub(super) unsafe fn compress_bmi2(state: &mut [u32; 8], blocks: &[[u8; 64]]) {
    for block in blocks {
        compress_block(state, block);
    }
}
