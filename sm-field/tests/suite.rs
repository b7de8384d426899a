//! The crate's integration tests, compiled and linked as one binary (one copy of the code they
//! share instead of one per file): each `tests/<name>.rs` below is a module with its own
//! documentation. Run one with a filter, e.g. `cargo test -p sm-field --test suite asm_inversion::`.

mod asm_inversion;
mod backend_conformance;
mod fp_reference;
mod lanes;
mod lanes_select;
mod lanes_tower;
mod tower_fp2;
mod tower_reference;
