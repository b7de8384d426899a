//! Workspace automation (see README).
fn main() {}
