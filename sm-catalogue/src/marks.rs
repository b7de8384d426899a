//! Secret marks: [`classify`] and [`declassify`] tell a checker which bytes are secret from now
//! on and which ones the algorithm publishes. They do nothing until a checker installs its
//! [`Marker`] (ct-check installs memcheck's client requests, which make the bytes undefined or
//! defined), so the benchmarks and the fuzz seeding run the same operations without them.

use std::sync::OnceLock;

/// A checker's marking functions, each taking the address and length of the bytes.
#[derive(Clone, Copy, Debug)]
pub struct Marker {
    /// Marks the bytes secret.
    pub classify: fn(usize, usize),
    /// Marks the bytes public.
    pub declassify: fn(usize, usize),
}

static MARKER: OnceLock<Marker> = OnceLock::new();

/// Installs `marker` for the rest of the process; `false` if one was installed already.
pub fn install(marker: Marker) -> bool {
    MARKER.set(marker).is_ok()
}

fn mark<T: ?Sized>(value: &T, f: fn(&Marker) -> fn(usize, usize)) {
    if let Some(m) = MARKER.get() {
        f(m)(
            core::ptr::from_ref(value).cast::<u8>() as usize,
            core::mem::size_of_val(value),
        );
    }
    core::hint::black_box(value);
}

/// Marks the bytes of `value` secret: every branch or address computed from them afterwards is
/// a finding.
pub fn classify<T: ?Sized>(value: &T) {
    mark(value, |m| m.classify);
}

/// Marks the bytes of `value` public: for values the algorithm publishes.
pub fn declassify<T: ?Sized>(value: &T) {
    mark(value, |m| m.declassify);
}
