//! Only the tests matter (tests/generic.rs).
