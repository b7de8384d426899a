//! `smtool sm3`: digests like `sha256sum` (streamed), HMAC-SM3, and `--check`.
//!
//! Names are written as `sha256sum` writes them: a name with a backslash or a line break (here
//! also any control character or byte that is not UTF-8) is escaped and its line starts with
//! `\`. `--check` reads its list line by line (at most [`MAX_CHECK_LINE`] bytes a line), reads
//! only regular files, prints one status line per listed file and, when anything did not
//! verify, one summary line on standard error.

use std::io::BufRead as _;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use sm3::digest::Digest as _;
use sm3::hmac::Mac as _;
use zeroize::Zeroizing;

use crate::cli::Sm3Args;
use crate::error::{escape, io_reason, needs_escape, quote, Error, Result};
use crate::io;

/// Longest line of a `--check` list.
pub const MAX_CHECK_LINE: usize = 16 * 1024;

/// Hashes (or MACs) one input, streamed.
fn digest(path: &Path, key: Option<&[u8]>) -> Result<[u8; 32]> {
    match key {
        None => {
            let mut h = sm3::Sm3::new();
            io::stream(path, |c| h.update(c))?;
            Ok(h.finalize().into())
        }
        Some(k) => {
            let mut m = <sm3::HmacSm3 as sm3::hmac::KeyInit>::new_from_slice(k)
                .map_err(|_| Error::Usage("invalid HMAC key".into()))?;
            io::stream(path, |c| m.update(c))?;
            Ok(m.finalize().into_bytes().into())
        }
    }
}

/// `(prefix, name)`: the name escaped, and `\` when it had to be.
fn shown(name: &[u8]) -> (&'static str, String) {
    (if needs_escape(name) { "\\" } else { "" }, escape(name))
}

/// Undoes [`escape`] for a `--check` line that starts with `\`.
fn unescape(s: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] != b'\\' {
            out.push(s[i]);
            i += 1;
            continue;
        }
        match s.get(i + 1)? {
            b'\\' => out.push(b'\\'),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'x' => {
                let h = std::str::from_utf8(s.get(i + 2..i + 4)?).ok()?;
                out.push(u8::from_str_radix(h, 16).ok()?);
                i += 2;
            }
            b'u' => {
                let rest = s.get(i + 2..)?.strip_prefix(b"{")?;
                let end = rest.iter().position(|&b| b == b'}')?;
                let c = char::from_u32(
                    u32::from_str_radix(std::str::from_utf8(&rest[..end]).ok()?, 16).ok()?,
                )?;
                out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes());
                i += end + 2;
            }
            _ => return None,
        }
        i += 2;
    }
    Some(out)
}

#[cfg(unix)]
fn path_of(name: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(name))
}

#[cfg(not(unix))]
fn path_of(name: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(name).into_owned())
}

/// Runs `smtool sm3`.
pub fn run(a: &Sm3Args) -> Result<()> {
    let key = match &a.hmac_key {
        Some(h) => Some(Zeroizing::new(crate::cli::parse_hex(h, "--hmac-key")?)),
        None => None,
    };
    let files: Vec<PathBuf> = if a.files.is_empty() {
        vec![io::stdio()]
    } else {
        a.files.clone()
    };
    let named: Vec<(&str, Option<&Path>)> =
        files.iter().map(|p| ("FILE", Some(p.as_path()))).collect();
    io::check_single_stdin(&named)?;
    let key = key.as_deref().map(|k| &k[..]);
    if a.check {
        return check(&files, key, a.quiet);
    }
    for f in &files {
        let d = digest(f, key)?;
        let (pre, name) = shown(f.as_os_str().as_encoded_bytes());
        io::print(format!("{pre}{}  {name}\n", hex::encode(d)).as_bytes())?;
    }
    Ok(())
}

/// One parsed `--check` line: digest and file name.
fn parse_line(line: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    let (escaped, line) = match line.strip_prefix(b"\\") {
        Some(rest) => (true, rest),
        None => (false, line),
    };
    if line.len() < 66 || !(line[64..66] == *b"  " || line[64..66] == *b" *") {
        return None;
    }
    let want = hex::decode(&line[..64]).ok()?;
    let name = &line[66..];
    let name = if escaped {
        unescape(name)?
    } else {
        name.to_vec()
    };
    (!name.is_empty()).then_some((want, name))
}

/// What became of one listed file.
enum Status {
    Ok,
    Mismatch,
    Unreadable(String),
    NotRegular,
}

fn check_one(name: &[u8], want: &[u8], key: Option<&[u8]>) -> Status {
    let path = path_of(name);
    // Only regular files: a device or FIFO could block or never end.
    match std::fs::metadata(&path) {
        Ok(m) if !m.is_file() => return Status::NotRegular,
        Ok(_) => {}
        Err(e) => return Status::Unreadable(io_reason(&e)),
    }
    // `-` in a list is the file named `-`, never standard input.
    let path = if path.as_os_str() == "-" {
        PathBuf::from("./-")
    } else {
        path
    };
    match digest(&path, key) {
        Ok(got) if got[..] == want[..] => Status::Ok,
        Ok(_) => Status::Mismatch,
        Err(e) => Status::Unreadable(match e {
            Error::Input(m) | Error::Usage(m) | Error::Failed(m) => {
                m.rsplit(": ").next().unwrap_or("read error").to_string()
            }
        }),
    }
}

/// `--check`: verifies `digest  name` lines (also `digest *name`), like `sha256sum -c`.
fn check(lists: &[PathBuf], key: Option<&[u8]>, quiet: bool) -> Result<()> {
    let (mut ok, mut bad, mut unreadable, mut irregular, mut malformed) = (0usize, 0, 0, 0, 0);
    for list in lists {
        let mut r = std::io::BufReader::new(io::open(list)?);
        let mut line = Vec::new();
        for n in 1usize.. {
            line.clear();
            r.by_ref()
                .take(MAX_CHECK_LINE as u64 + 1)
                .read_until(b'\n', &mut line)
                .map_err(|e| Error::io(list, "read", &e))?;
            if line.is_empty() {
                break;
            }
            if line.last() == Some(&b'\n') {
                line.pop();
            } else if line.len() > MAX_CHECK_LINE {
                return Err(Error::Input(format!(
                    "line {n} of {} is longer than {MAX_CHECK_LINE} bytes",
                    if io::is_stdin(list) {
                        "standard input".to_string()
                    } else {
                        quote(list)
                    }
                )));
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.trim_ascii().is_empty() {
                continue;
            }
            let Some((want, name)) = parse_line(&line) else {
                malformed += 1;
                continue;
            };
            let (pre, shown_name) = shown(&name);
            let status = match check_one(&name, &want, key) {
                Status::Ok => {
                    ok += 1;
                    if quiet {
                        continue;
                    }
                    "OK".to_string()
                }
                Status::Mismatch => {
                    bad += 1;
                    "FAILED".to_string()
                }
                Status::Unreadable(why) => {
                    unreadable += 1;
                    format!("FAILED open or read ({why})")
                }
                Status::NotRegular => {
                    irregular += 1;
                    "FAILED not a regular file".to_string()
                }
            };
            io::print(format!("{pre}{shown_name}: {status}\n").as_bytes())?;
        }
    }
    let listed = ok + bad + unreadable + irregular;
    if listed == 0 {
        return Err(Error::Input(
            "no properly formatted SM3 checksum lines found".into(),
        ));
    }
    let failed = bad + unreadable + irregular;
    if failed > 0 {
        return Err(Error::Failed(format!(
            "{failed} of {listed} listed files did NOT match ({bad} mismatched, {unreadable} unreadable, {irregular} not regular files); {malformed} improperly formatted lines"
        )));
    }
    if malformed > 0 {
        return Err(Error::Failed(format!(
            "all {listed} listed files OK, but {malformed} lines are improperly formatted"
        )));
    }
    Ok(())
}
