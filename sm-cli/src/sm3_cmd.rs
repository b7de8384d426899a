//! `smtool sm3`: digests like `sha256sum` (streamed), HMAC-SM3, and `--check`.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use sm3::digest::Digest as _;
use sm3::hmac::Mac as _;
use zeroize::Zeroizing;

use crate::cli::Sm3Args;
use crate::error::{Error, Result};
use crate::io;

/// Hashes (or MACs) one input, streamed.
fn digest(path: &Path, key: Option<&[u8]>) -> Result<[u8; 32]> {
    match key {
        None => {
            let mut h = sm3::Sm3::new();
            io::stream(path, |c| h.update(c))?;
            Ok(h.finalize().into())
        }
        Some(k) => {
            let mut m = <sm3::HmacSm3 as sm3::hmac::Mac>::new_from_slice(k)
                .map_err(|_| Error::Usage("invalid HMAC key".into()))?;
            io::stream(path, |c| m.update(c))?;
            Ok(m.finalize().into_bytes().into())
        }
    }
}

fn out_line(line: &str) -> Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").map_err(|e| Error::io(Path::new("-"), "write", &e))
}

/// Runs `smtool sm3`.
pub fn run(a: &Sm3Args) -> Result<()> {
    let key = match &a.hmac_key {
        Some(h) => Some(Zeroizing::new(hex::decode(h.trim()).map_err(|e| {
            Error::Usage(format!("--hmac-key is not valid hex: {e}"))
        })?)),
        None => None,
    };
    let files: Vec<PathBuf> = if a.files.is_empty() {
        vec![io::stdio()]
    } else {
        a.files.clone()
    };
    let named: Vec<(&str, &Path)> = files.iter().map(|p| ("FILE", p.as_path())).collect();
    io::check_single_stdin(&named)?;
    if a.check {
        return check(&files, key.as_deref().map(|k| &k[..]), a.quiet);
    }
    for f in &files {
        let d = digest(f, key.as_deref().map(|k| &k[..]))?;
        out_line(&format!("{}  {}", hex::encode(d), f.display()))?;
    }
    Ok(())
}

/// `--check`: verifies `digest  name` lines (also `digest *name`), like `sha256sum -c`.
fn check(lists: &[PathBuf], key: Option<&[u8]>, quiet: bool) -> Result<()> {
    let (mut bad, mut unreadable, mut malformed, mut ok) = (0usize, 0usize, 0usize, 0usize);
    for list in lists {
        let data = io::read_all(list)?;
        let text = String::from_utf8_lossy(&data);
        for line in text.lines() {
            if line.trim().is_empty() {
                continue;
            }
            let parsed = line
                .split_once("  ")
                .or_else(|| line.split_once(" *"))
                .filter(|(d, n)| d.len() == 64 && !n.is_empty())
                .and_then(|(d, n)| Some((hex::decode(d).ok()?, n)));
            let Some((want, name)) = parsed else {
                malformed += 1;
                continue;
            };
            match digest(Path::new(name), key) {
                Ok(got) if got[..] == want[..] => {
                    ok += 1;
                    if !quiet {
                        out_line(&format!("{name}: OK"))?;
                    }
                }
                Ok(_) => {
                    bad += 1;
                    out_line(&format!("{name}: FAILED"))?;
                }
                Err(e) => {
                    unreadable += 1;
                    io::warn(&format!("smtool: {e}"));
                    out_line(&format!("{name}: FAILED open or read"))?;
                }
            }
        }
    }
    if ok + bad + unreadable == 0 {
        return Err(Error::Input(
            "no properly formatted SM3 checksum lines found".into(),
        ));
    }
    if malformed > 0 {
        io::warn(&format!(
            "smtool: WARNING: {malformed} line(s) are improperly formatted"
        ));
    }
    if unreadable > 0 {
        io::warn(&format!(
            "smtool: WARNING: {unreadable} listed file(s) could not be read"
        ));
    }
    if bad + unreadable > 0 {
        return Err(Error::Failed(format!(
            "{} computed checksum(s) did NOT match",
            bad + unreadable
        )));
    }
    Ok(())
}
