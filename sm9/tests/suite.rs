//! The crate's integration tests, compiled and linked as one binary (one copy of the code they
//! share instead of one per file): each `tests/<name>.rs` below is a module with its own
//! documentation. Run one with a filter, e.g. `cargo test -p shangmi-sm9 --test suite batch_lanes::`.

mod batch_lanes;
mod dispatch;
mod in_place;
mod interop_py;
mod kat_annex;
mod kat_gmssl;
mod pbes2_openssl;
mod pkcs8_traits;
mod reject;
mod serde;
mod signature_traits;
mod tamper_edge;
