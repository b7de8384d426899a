//! `sm-curve`: not yet implemented; see the workspace issues.
#![no_std]
