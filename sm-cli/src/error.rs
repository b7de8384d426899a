//! The tool's error type: every failure becomes one line on standard error and a documented
//! exit status.
//!
//! | status | meaning |
//! |---|---|
//! | 0 | success |
//! | 1 | the data did not authenticate: a signature that does not verify (or is not a signature at all: truncated, malformed), a ciphertext or encapsulation that does not decrypt, an SM3 `--check` mismatch |
//! | 2 | usage or input error: unknown option, unreadable file, malformed or wrong-type key, wrong password, missing environment variable, I/O failure |

use std::fmt;
use std::path::Path;

/// Exit status of a verification or decryption failure.
pub const EXIT_FAILED: u8 = 1;
/// Exit status of a usage or input error.
pub const EXIT_USAGE: u8 = 2;

/// An error of a `smtool` command.
#[derive(Debug)]
pub enum Error {
    /// Bad combination of options or arguments (exit 2).
    Usage(String),
    /// Unreadable, malformed or wrong-type input, wrong password, I/O error (exit 2).
    Input(String),
    /// The data did not authenticate: verification or decryption failed (exit 1).
    Failed(String),
}

impl Error {
    /// The process exit status for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) | Error::Input(_) => EXIT_USAGE,
            Error::Failed(_) => EXIT_FAILED,
        }
    }

    /// An I/O error on `path` (`-` is standard input / output).
    pub fn io(path: &Path, action: &str, e: &std::io::Error) -> Self {
        let name = if path.as_os_str() == "-" {
            "standard stream".to_string()
        } else {
            path.display().to_string()
        };
        // `io::Error`'s Display of an OS error is "No such file or directory (os error 2)": keep
        // the readable part only.
        let msg = e.to_string();
        let msg = msg.split(" (os error").next().unwrap_or(&msg).to_string();
        Error::Input(format!("cannot {action} {name}: {msg}"))
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Usage(m) | Error::Input(m) | Error::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for Error {}

/// Result alias of the tool.
pub type Result<T> = std::result::Result<T, Error>;
