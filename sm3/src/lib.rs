//! SM3 hash: arrives with its issue.
#![no_std]
