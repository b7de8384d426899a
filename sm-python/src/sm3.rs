//! SM3 as a `hashlib`-style object, HMAC-SM3 and the GM/T KDF.

use std::sync::Mutex;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use sm3::Digest;

use crate::util::{bytes, maybe_detach, Data, OwnedData};

/// SM3 hash object with the `hashlib` interface: ``sm3(data=b"")``, ``update``, ``digest``,
/// ``hexdigest``, ``copy``, ``name``, ``digest_size``, ``block_size``. Usable wherever a
/// `hashlib` constructor is accepted (e.g. ``hmac.new(key, msg, smcrypto.sm3)``).
#[pyclass(name = "sm3", module = "smcrypto", frozen)]
pub struct Sm3Hash {
    state: Mutex<sm3::Sm3>,
}

impl Sm3Hash {
    fn lock(&self) -> std::sync::MutexGuard<'_, sm3::Sm3> {
        // A panic while holding the lock cannot leave the hasher half-updated in a way that
        // matters more than the panic itself; keep the object usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Sm3Hash {
    #[new]
    #[pyo3(signature = (data = None, *, usedforsecurity = true))]
    fn new(py: Python<'_>, data: Option<Data<'_>>, usedforsecurity: bool) -> Self {
        let _ = usedforsecurity; // accepted for hashlib compatibility
        let h = Sm3Hash {
            state: Mutex::new(sm3::Sm3::new()),
        };
        if let Some(d) = data {
            h.update(py, d);
        }
        h
    }

    /// Feeds more data into the hash.
    fn update(&self, py: Python<'_>, data: Data<'_>) {
        let mut st = self.lock();
        let st = &mut *st;
        maybe_detach(py, data.len(), || st.update(&*data));
    }

    /// The 32-byte digest of the data so far (the object stays usable).
    fn digest<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let d = self.lock().clone().finalize();
        bytes(py, &d)
    }

    /// The digest as 64 lowercase hexadecimal digits.
    fn hexdigest(&self) -> String {
        let d = self.lock().clone().finalize();
        d.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// An independent copy of the hash state.
    fn copy(&self) -> Self {
        Sm3Hash {
            state: Mutex::new(self.lock().clone()),
        }
    }

    /// ``"sm3"``.
    #[getter]
    fn name(&self) -> &'static str {
        "sm3"
    }

    /// 32.
    #[getter]
    fn digest_size(&self) -> usize {
        sm3::DIGEST_SIZE
    }

    /// 64.
    #[getter]
    fn block_size(&self) -> usize {
        sm3::BLOCK_SIZE
    }

    fn __repr__(&self) -> &'static str {
        "<smcrypto.sm3 hash object>"
    }
}

/// HMAC-SM3 (RFC 2104 with SM3) of `data` under `key`: 32 bytes.
#[pyfunction]
pub fn hmac_sm3<'py>(py: Python<'py>, key: Data<'_>, data: Data<'_>) -> Bound<'py, PyBytes> {
    let mac = maybe_detach(py, data.len(), || sm3::hmac_sm3(&key, &data));
    bytes(py, &mac)
}

/// The GM/T 0003 / 0004 key derivation function: `length` bytes from the shared secret `z`.
#[pyfunction]
pub fn kdf<'py>(py: Python<'py>, z: Data<'_>, length: usize) -> PyResult<Bound<'py, PyBytes>> {
    // The counter is 32 bits: at most (2^32 - 1) blocks of 32 bytes; far more than fits in
    // memory, so bound it at 1 GiB.
    if length > 1 << 30 {
        return Err(PyValueError::new_err(
            "kdf length must be at most 2**30 bytes",
        ));
    }
    let out = maybe_detach(py, length, || {
        let mut out = vec![0u8; length];
        sm3::kdf(&z, &mut out);
        out
    });
    Ok(bytes(py, &out))
}

/// One-shot SM3 of several messages on all cores (multi-buffer SIMD where the CPU has it).
#[pyfunction]
pub fn sm3_many<'py>(py: Python<'py>, messages: Vec<OwnedData>) -> Vec<Bound<'py, PyBytes>> {
    let refs: Vec<&[u8]> = messages.iter().map(|m| &**m).collect();
    let total: usize = refs.iter().map(|m| m.len()).sum();
    let digests = maybe_detach(py, total, || {
        let mut out = vec![[0u8; sm3::DIGEST_SIZE]; refs.len()];
        sm3::hash_many(&refs, &mut out);
        out
    });
    digests.iter().map(|d| bytes(py, d)).collect()
}

/// Benchmark support: SM3 of `data`, `n` times in a Rust loop; seconds elapsed.
#[pyfunction]
pub fn _native_sm3_loop(data: Data<'_>, n: usize) -> f64 {
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(sm3::hash(std::hint::black_box(&data)));
    }
    t.elapsed().as_secs_f64()
}
