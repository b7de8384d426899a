//! Argument conversion and error mapping shared by the SM2, SM3 and SM9 bindings.

use std::borrow::Cow;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString, PyType};
use zeroize::Zeroizing;

/// Inputs at or above this size are processed with the GIL released (below it, releasing and
/// re-acquiring the GIL costs more than the work).
pub const DETACH_THRESHOLD: usize = 4096;

/// Bytes-like input: `bytes` (borrowed, no copy) or anything PyO3 turns into bytes
/// (`bytearray`, `memoryview`, a sequence of ints). `str` is refused with `TypeError`.
pub struct Data<'a>(pub Cow<'a, [u8]>);

impl<'a, 'py> FromPyObject<'a, 'py> for Data<'a> {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if ob.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "expected a bytes-like object, not str (encode it first)",
            ));
        }
        Ok(Data(Cow::extract(ob)?))
    }
}

impl std::ops::Deref for Data<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

/// [`Data`] copied out: for the items of lists and tuples.
pub struct OwnedData(pub Vec<u8>);

impl<'a, 'py> FromPyObject<'a, 'py> for OwnedData {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(OwnedData(Data::extract(ob)?.0.into_owned()))
    }
}

impl std::ops::Deref for OwnedData {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

/// Text or bytes: identities, distinguishing IDs, passwords and PEM documents. `str` is taken
/// as UTF-8.
pub struct Text<'a>(pub Cow<'a, [u8]>);

impl<'a, 'py> FromPyObject<'a, 'py> for Text<'a> {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if let Ok(s) = ob.cast::<PyString>() {
            let owned = s.to_cow()?.into_owned();
            return Ok(Text(Cow::Owned(owned.into_bytes())));
        }
        Ok(Text(Cow::extract(ob)?))
    }
}

impl std::ops::Deref for Text<'_> {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

/// [`Text`] copied out: for the items of lists and tuples.
pub struct OwnedText(pub Vec<u8>);

impl<'a, 'py> FromPyObject<'a, 'py> for OwnedText {
    type Error = PyErr;

    fn extract(ob: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(OwnedText(Text::extract(ob)?.0.into_owned()))
    }
}

impl std::ops::Deref for OwnedText {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.0
    }
}

impl Text<'_> {
    /// As UTF-8 text (PEM documents); `EncodingError` if it is not.
    pub fn as_str(&self) -> PyResult<&str> {
        std::str::from_utf8(&self.0).map_err(|_| raise(Kind::Encoding, "PEM is not ASCII text"))
    }
}

/// A password copied into wiped memory.
pub fn password(p: Option<Text<'_>>) -> Option<Zeroizing<Vec<u8>>> {
    p.map(|t| Zeroizing::new(t.0.into_owned()))
}

/// The exception classes of `smcrypto.exceptions` (defined in Python so that they can also
/// derive from `ValueError` where pyca/cryptography's do).
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Encoding,
    InvalidKey,
    InvalidSignature,
    Decryption,
    KeyExchange,
    InvalidParameter,
    Base,
}

impl Kind {
    fn class_name(self) -> &'static str {
        match self {
            Kind::Encoding => "EncodingError",
            Kind::InvalidKey => "InvalidKey",
            Kind::InvalidSignature => "InvalidSignature",
            Kind::Decryption => "DecryptionError",
            Kind::KeyExchange => "KeyExchangeError",
            Kind::InvalidParameter => "InvalidParameter",
            Kind::Base => "Error",
        }
    }
}

/// An exception of `kind` with `msg`.
pub fn raise(kind: Kind, msg: impl Into<String>) -> PyErr {
    let msg = msg.into();
    Python::attach(|py| {
        let class = py
            .import("smcrypto.exceptions")
            .and_then(|m| m.getattr(kind.class_name()))
            .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
        match class {
            Ok(class) => PyErr::from_type(class, msg),
            Err(e) => e,
        }
    })
}

/// The SM2 crate's errors as Python exceptions.
pub fn sm2_err(e: sm2::Error) -> PyErr {
    use sm2::Error as E;
    let kind = match e {
        E::InvalidPublicKey | E::InvalidSecretKey => Kind::InvalidKey,
        E::InvalidSignature | E::Encoding => Kind::Encoding,
        E::IdTooLong | E::EmptyPlaintext => Kind::InvalidParameter,
        E::Verification => Kind::InvalidSignature,
        E::Decryption => Kind::Decryption,
        E::KeyExchange => Kind::KeyExchange,
        _ => Kind::Base,
    };
    raise(kind, e.to_string())
}

/// The SM9 crate's errors as Python exceptions.
pub fn sm9_err(e: sm9::Error) -> PyErr {
    use sm9::Error as E;
    let kind = match e {
        E::Encoding | E::UnknownAlgorithm | E::InvalidPoint => Kind::Encoding,
        E::InvalidScalar | E::DegenerateIdentity | E::KeyMismatch => Kind::InvalidKey,
        E::InvalidLength => Kind::InvalidParameter,
        E::Verification => Kind::InvalidSignature,
        E::Decryption => Kind::Decryption,
        E::KeyConfirmation => Kind::KeyExchange,
        _ => Kind::Base,
    };
    raise(kind, e.to_string())
}

/// ``"der"`` or ``"raw"``: the two encodings of signatures, ciphertexts and encapsulations.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Der,
    Raw,
}

impl Encoding {
    pub fn parse(s: &str) -> PyResult<Self> {
        match s {
            "der" => Ok(Encoding::Der),
            "raw" => Ok(Encoding::Raw),
            _ => Err(bad_choice("encoding", s, &["der", "raw"])),
        }
    }
}

/// `ValueError` for a keyword argument outside its choices.
pub fn bad_choice(what: &str, got: &str, choices: &[&str]) -> PyErr {
    PyValueError::new_err(format!(
        "{what} must be one of {}, not {got:?}",
        choices
            .iter()
            .map(|c| format!("{c:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// A fixed-size array from `bytes`, or `EncodingError` naming what was expected.
pub fn array<const N: usize>(data: &[u8], what: &str) -> PyResult<[u8; N]> {
    data.try_into().map_err(|_| {
        raise(
            Kind::Encoding,
            format!("{what} must be {N} bytes, not {}", data.len()),
        )
    })
}

/// `bytes` from a Rust slice.
pub fn bytes<'py>(py: Python<'py>, data: &[u8]) -> Bound<'py, PyBytes> {
    PyBytes::new(py, data)
}

/// Runs `f` with the GIL released when `len` is large enough for that to pay off.
pub fn maybe_detach<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= DETACH_THRESHOLD {
        py.detach(f)
    } else {
        f()
    }
}

/// Runs `f` (which may use rayon's parallel iterators) in this process's own thread pool.
///
/// rayon's global pool does not survive `fork()`: a child process (multiprocessing's default
/// start method on Linux) inherits a pool whose threads do not exist and would wait for them
/// forever. So the pool is per process: a new one is built when the process id changes (the
/// stale one is leaked, never joined).
fn in_pool<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    type Pool = Option<(u32, std::sync::Arc<rayon::ThreadPool>)>;
    static POOL: std::sync::Mutex<Pool> = std::sync::Mutex::new(None);
    let pid = std::process::id();
    let pool = {
        let mut slot = POOL.lock().unwrap_or_else(|e| e.into_inner());
        match &*slot {
            Some((p, pool)) if *p == pid => Some(pool.clone()),
            _ => match rayon::ThreadPoolBuilder::new().build() {
                Ok(pool) => {
                    let pool = std::sync::Arc::new(pool);
                    if let Some(stale) = slot.replace((pid, pool.clone())) {
                        std::mem::forget(stale);
                    }
                    Some(pool)
                }
                Err(_) => None,
            },
        }
    };
    match pool {
        Some(pool) => pool.install(f),
        // No threads to be had: run on the calling thread.
        None => f(),
    }
}

/// [`in_pool`] with the GIL released: for the calls that spread work over all cores.
pub fn detach_parallel<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> T {
    py.detach(|| in_pool(f))
}

/// `__reduce__` value `(cls.from_der, (der,))`: key objects pickle through their DER.
pub fn reduce_from_der<'py>(
    slf: &Bound<'py, PyAny>,
    der: &[u8],
) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyBytes>,))> {
    let ctor = slf.get_type().getattr("from_der")?;
    Ok((ctor, (bytes(slf.py(), der),)))
}
