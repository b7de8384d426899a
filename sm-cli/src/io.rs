//! Inputs (files or `-` for standard input), outputs (files or standard output) and the
//! text encodings of binary objects.

use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use clap::ValueEnum;

use crate::error::{Error, Result};

/// Chunk size of streamed inputs.
const CHUNK: usize = 64 * 1024;
/// Largest key, signature or ciphertext file read whole (plaintexts are not limited).
pub const MAX_SMALL_INPUT: u64 = 16 * 1024 * 1024;

/// How a binary object (signature, ciphertext, encapsulation, shared key) is written and read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Encoding {
    /// The bytes themselves.
    #[default]
    Raw,
    /// Lower-case hexadecimal and a newline (whitespace is ignored when reading).
    Hex,
    /// Standard base64 with padding and a newline (whitespace is ignored when reading).
    Base64,
}

impl Encoding {
    /// Encodes `data` for output.
    pub fn encode(self, data: &[u8]) -> Vec<u8> {
        match self {
            Encoding::Raw => data.to_vec(),
            Encoding::Hex => {
                let mut s = hex::encode(data).into_bytes();
                s.push(b'\n');
                s
            }
            Encoding::Base64 => {
                let mut s = base64::engine::general_purpose::STANDARD
                    .encode(data)
                    .into_bytes();
                s.push(b'\n');
                s
            }
        }
    }

    /// Decodes input written in this encoding; `what` names the object in error messages.
    pub fn decode(self, data: &[u8], what: &str) -> std::result::Result<Vec<u8>, String> {
        let compact = || -> Vec<u8> {
            data.iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace())
                .collect()
        };
        match self {
            Encoding::Raw => Ok(data.to_vec()),
            Encoding::Hex => {
                hex::decode(compact()).map_err(|e| format!("{what} is not valid hex: {e}"))
            }
            Encoding::Base64 => base64::engine::general_purpose::STANDARD
                .decode(compact())
                .map_err(|e| format!("{what} is not valid base64: {e}")),
        }
    }
}

/// Whether `path` names standard input / output.
pub fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Opens `path` (or standard input for `-`) for reading.
pub fn open(path: &Path) -> Result<Box<dyn Read>> {
    if is_std(path) {
        Ok(Box::new(io::stdin().lock()))
    } else {
        let f = File::open(path).map_err(|e| Error::io(path, "open", &e))?;
        if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(Error::Input(format!(
                "cannot read {}: is a directory",
                path.display()
            )));
        }
        Ok(Box::new(f))
    }
}

/// Feeds `path` to `f` in chunks without holding it in memory; returns the byte count.
pub fn stream(path: &Path, mut f: impl FnMut(&[u8])) -> Result<u64> {
    let mut r = open(path)?;
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        match r.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => {
                f(&buf[..n]);
                total += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, "read", &e)),
        }
    }
}

/// Reads all of `path` (plaintexts: no size limit).
pub fn read_all(path: &Path) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    open(path)?
        .read_to_end(&mut out)
        .map_err(|e| Error::io(path, "read", &e))?;
    Ok(out)
}

/// Reads a small object (key, signature, ciphertext file) of at most [`MAX_SMALL_INPUT`] bytes.
pub fn read_small(path: &Path, what: &str) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    open(path)?
        .take(MAX_SMALL_INPUT + 1)
        .read_to_end(&mut out)
        .map_err(|e| Error::io(path, "read", &e))?;
    if out.len() as u64 > MAX_SMALL_INPUT {
        return Err(Error::Input(format!(
            "{what} {} is larger than {MAX_SMALL_INPUT} bytes",
            path.display()
        )));
    }
    Ok(out)
}

/// Writes `data` to `path` (standard output for `-`). Files holding secrets are created with
/// mode 0600 on Unix.
pub fn write(path: &Path, data: &[u8], secret: bool) -> Result<()> {
    if is_std(path) {
        let mut out = io::stdout().lock();
        return out
            .write_all(data)
            .and_then(|()| out.flush())
            .map_err(|e| Error::io(path, "write", &e));
    }
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = secret;
    let mut f = opts.open(path).map_err(|e| Error::io(path, "create", &e))?;
    f.write_all(data)
        .and_then(|()| f.flush())
        .map_err(|e| Error::io(path, "write", &e))
}

/// Checks that standard input is used by at most one of the named inputs.
pub fn check_single_stdin(inputs: &[(&str, &Path)]) -> Result<()> {
    let users: Vec<&str> = inputs
        .iter()
        .filter(|(_, p)| is_std(p))
        .map(|(n, _)| *n)
        .collect();
    if users.len() > 1 {
        return Err(Error::Usage(format!(
            "standard input can feed only one input, but {} all read '-'",
            users.join(" and ")
        )));
    }
    Ok(())
}

/// `-` as a default path argument.
pub fn stdio() -> PathBuf {
    PathBuf::from("-")
}

/// Prints a diagnostic line on standard error (ignoring a closed stderr).
pub fn warn(line: &str) {
    let _ = writeln!(io::stderr(), "{line}");
}
