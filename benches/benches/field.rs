//! Field benches.
fn main() {}
