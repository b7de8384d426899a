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
            if action == "write" {
                "standard output".to_string()
            } else {
                "standard input".to_string()
            }
        } else {
            quote(path)
        };
        Error::Input(format!("cannot {action} {name}: {}", io_reason(e)))
    }
}

/// The readable part of an I/O error: `io::Error`'s Display of an OS error is "No such file or
/// directory (os error 2)".
pub fn io_reason(e: &std::io::Error) -> String {
    let msg = e.to_string();
    escape(msg.split(" (os error").next().unwrap_or(&msg).as_bytes())
}

/// Whether `c` must not reach a terminal raw: control characters (C0, DEL, C1) and the
/// Unicode bidirectional controls that reorder what follows.
fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// `bytes` as text safe for a terminal and for a one-line message: `\\`, `\n`, `\r`, `\t` and
/// `\xHH` / `\u{…}` for other control characters and for bytes that are not UTF-8.
pub fn escape(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for chunk in bytes.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if is_unsafe_char(c) && (c as u32) < 0x100 => {
                    out.push_str(&format!("\\x{:02x}", c as u32))
                }
                c if is_unsafe_char(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02x}"));
        }
    }
    out
}

/// Whether [`escape`] changes `bytes`.
pub fn needs_escape(bytes: &[u8]) -> bool {
    escape(bytes).as_bytes() != bytes
}

/// A path for a message: in single quotes, escaped ([`escape`]; a quote inside is `\'`).
pub fn quote(path: &Path) -> String {
    quote_bytes(path.as_os_str().as_encoded_bytes())
}

/// Text from an input (a PEM label, an environment variable name) for a message: quoted, escaped.
pub fn quote_bytes(bytes: &[u8]) -> String {
    format!("'{}'", escape(bytes).replace('\'', "\\'"))
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
