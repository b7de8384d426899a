//! The native part of the `smcrypto` Python package: SM3, SM2 and SM9 from this workspace's
//! crates, with PyO3 (stable ABI, CPython ≥ 3.9). Every heavy call releases the GIL; key objects
//! are immutable (safe to share between threads) and pickle through their DER encodings. The
//! Python layer (`python/smcrypto/`) defines the exception classes and the public modules.

mod sm2;
mod sm3;
mod sm9;
mod util;

use pyo3::prelude::*;

#[pymodule]
#[pyo3(name = "_native")]
fn smcrypto_native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<sm3::Sm3Hash>()?;
    m.add_function(wrap_pyfunction!(sm3::hmac_sm3, m)?)?;
    m.add_function(wrap_pyfunction!(sm3::kdf, m)?)?;
    m.add_function(wrap_pyfunction!(sm3::sm3_many, m)?)?;
    m.add_function(wrap_pyfunction!(sm3::_native_sm3_loop, m)?)?;
    let sm2_mod = PyModule::new(py, "sm2")?;
    sm2::register(&sm2_mod)?;
    m.add_submodule(&sm2_mod)?;
    let sm9_mod = PyModule::new(py, "sm9")?;
    sm9::register(&sm9_mod)?;
    m.add_submodule(&sm9_mod)?;
    m.add("SIMD", ::sm3::backend_info::simd_kind())?;
    Ok(())
}
