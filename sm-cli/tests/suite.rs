//! The crate's integration tests, compiled and linked as one binary (one copy of the code they
//! share instead of one per file): each `tests/<name>.rs` below is a module with its own
//! documentation. Run one with a filter, e.g. `cargo test -p sm-cli --test suite cli::`.

mod cli;
mod common;
mod hostile;
mod mutation;
mod x509;
