//! The crate's integration tests, compiled and linked as one binary (one copy of the code they
//! share instead of one per file): each `tests/<name>.rs` below is a module with its own
//! documentation. Run one with a filter, e.g. `cargo test -p shangmi-sm2 --test suite batch::`.

mod batch;
mod batch_encryption;
mod dispatch;
mod generic_traits;
mod in_place;
mod interop_py;
mod kat;
mod openssl_interop;
mod pbes2_openssl;
mod robustness;
mod rustcrypto;
mod serde;
mod tamper_edge;
