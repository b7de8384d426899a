//! Inputs (files or `-` for standard input), outputs (files or standard output) and the
//! text encodings of binary objects.
//!
//! Inputs: every reader of standard input (`-`, `/dev/stdin`, `/dev/fd/0`, `--pass-file -`) is
//! counted and two are refused; every input read whole has a documented bound, checked while
//! reading ([`MAX_SMALL_INPUT`], [`MAX_DATA`], [`MAX_PASSWORD`]).
//!
//! Outputs ([`Outputs`]): all outputs of a command are checked (distinct, writable directory,
//! standard output open) before anything is written; each file is written to a temporary file
//! in its directory, synced, given its final mode (0600 for secrets, else the mode of the file
//! it replaces) and renamed into place, so a failing command leaves every existing output as it
//! was and creates none. Devices and FIFOs (`/dev/null`, `/dev/stdout`) are written directly.

use std::fs::File;
use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

use base64::Engine as _;
use clap::ValueEnum;

use crate::error::{quote, Error, Result};

/// Chunk size of streamed inputs.
const CHUNK: usize = 64 * 1024;
/// Largest key, signature, encapsulation or ID file (read whole).
pub const MAX_SMALL_INPUT: u64 = 1024 * 1024;
/// Largest plaintext or ciphertext of `encrypt` / `decrypt` (read whole; after decoding hex or
/// base64). Larger data wants a KEM and a symmetric cipher.
pub const MAX_DATA: u64 = 256 * 1024 * 1024;
/// Longest password (the first line of `--pass-file`).
pub const MAX_PASSWORD: usize = 1024;

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
    /// Writes `data` encoded to `w`, chunk by chunk (no second copy of large data).
    pub fn write_to(self, w: &mut dyn Write, data: &[u8]) -> io::Result<()> {
        // A multiple of 3 bytes, so that base64 chunks concatenate without padding.
        const STEP: usize = 3 * 16 * 1024;
        match self {
            Encoding::Raw => w.write_all(data),
            Encoding::Hex => {
                for c in data.chunks(STEP) {
                    w.write_all(hex::encode(c).as_bytes())?;
                }
                w.write_all(b"\n")
            }
            Encoding::Base64 => {
                for c in data.chunks(STEP) {
                    w.write_all(
                        base64::engine::general_purpose::STANDARD
                            .encode(c)
                            .as_bytes(),
                    )?;
                }
                w.write_all(b"\n")
            }
        }
    }
}

/// Whether `path` names standard input.
pub fn is_stdin(path: &Path) -> bool {
    matches!(
        path.as_os_str().as_encoded_bytes(),
        b"-" | b"/dev/stdin" | b"/dev/fd/0" | b"/proc/self/fd/0"
    )
}

/// Whether `path` names standard output.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Whether standard stream `fd` (0 or 1) was closed when the process started: the Rust runtime
/// then opens `/dev/null` read-write in its place, which no shell redirection does (`>/dev/null`
/// is write-only, `</dev/null` read-only). Linux only (elsewhere: never).
fn std_stream_closed(fd: u8) -> bool {
    let null = std::fs::read_link(format!("/proc/self/fd/{fd}"))
        .is_ok_and(|t| t.as_os_str() == "/dev/null");
    null && std::fs::read_to_string(format!("/proc/self/fdinfo/{fd}")).is_ok_and(|info| {
        info.lines()
            .find_map(|l| l.strip_prefix("flags:"))
            .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
            .is_some_and(|f| f & 3 == 2)
    })
}

/// Checks that standard input is used by at most one of the named inputs (`None`: not given).
pub fn check_single_stdin(inputs: &[(&str, Option<&Path>)]) -> Result<()> {
    let users: Vec<&str> = inputs
        .iter()
        .filter(|(_, p)| p.is_some_and(is_stdin))
        .map(|(n, _)| *n)
        .collect();
    match users.as_slice() {
        [] | [_] => Ok(()),
        [a, b] => Err(Error::Usage(format!(
            "standard input can feed only one input, but {a} and {b} both read it"
        ))),
        [first @ .., last] => Err(Error::Usage(format!(
            "standard input can feed only one input, but {} and {last} all read it",
            first.join(", ")
        ))),
    }
}

/// Opens `path` (or standard input) for reading; refuses directories.
pub fn open(path: &Path) -> Result<Box<dyn Read>> {
    if path.as_os_str() == "-" {
        if std_stream_closed(0) {
            return Err(Error::Input(
                "cannot read standard input: it is closed".into(),
            ));
        }
        return Ok(Box::new(io::stdin().lock()));
    }
    let f = File::open(path).map_err(|e| Error::io(path, "open", &e))?;
    if f.metadata().is_ok_and(|m| m.is_dir()) {
        return Err(Error::Input(format!(
            "cannot read {}: is a directory",
            quote(path)
        )));
    }
    Ok(Box::new(f))
}

fn read_some(r: &mut dyn Read, buf: &mut [u8], path: &Path) -> Result<usize> {
    loop {
        match r.read(buf) {
            Ok(n) => return Ok(n),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(Error::io(path, "read", &e)),
        }
    }
}

/// Feeds `path` to `f` in chunks without holding it in memory; returns the byte count.
pub fn stream(path: &Path, mut f: impl FnMut(&[u8])) -> Result<u64> {
    try_stream(path, |c| {
        f(c);
        Ok(())
    })
}

/// [`stream`] with a fallible `f` (its first error stops the stream).
pub fn try_stream(path: &Path, mut f: impl FnMut(&[u8]) -> Result<()>) -> Result<u64> {
    let mut r = open(path)?;
    let mut buf = vec![0u8; CHUNK];
    let mut total = 0u64;
    loop {
        let n = read_some(&mut r, &mut buf, path)?;
        if n == 0 {
            return Ok(total);
        }
        f(&buf[..n])?;
        total += n as u64;
    }
}

fn too_large(path: &Path, what: &str, max: u64) -> Error {
    let name = if path.as_os_str() == "-" {
        "standard input".to_string()
    } else {
        quote(path)
    };
    Error::Input(format!("{what} {name} is larger than {max} bytes"))
}

/// The size of `path` if it names a regular file (not `-`, a device or a FIFO).
fn regular_file_len(path: &Path) -> Option<u64> {
    if path.as_os_str() == "-" {
        return None;
    }
    std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

/// Reads all of `path`, at most `max` bytes (checked while reading: an endless input stops at
/// the bound).
pub fn read_bounded(path: &Path, max: u64, what: &str) -> Result<Vec<u8>> {
    read_with_room(path, max, what, 0)
}

/// [`read_bounded`] into a buffer with `room` spare bytes of capacity (for a regular file), so
/// that what an in-place encryption adds around the data (header, padding) needs no
/// reallocation and no second copy.
pub fn read_with_room(path: &Path, max: u64, what: &str, room: usize) -> Result<Vec<u8>> {
    let r = open(path)?;
    let mut out = Vec::new();
    if let Some(len) = regular_file_len(path) {
        if len > max {
            return Err(too_large(path, what, max));
        }
        out.reserve_exact(len as usize + 1 + room);
    }
    r.take(max + 1)
        .read_to_end(&mut out)
        .map_err(|e| Error::io(path, "read", &e))?;
    if out.len() as u64 > max {
        return Err(too_large(path, what, max));
    }
    Ok(out)
}

/// Reads `path` written in `encoding` and decodes it while reading: at most `max` decoded bytes
/// (and, for text, at most 3·`max` bytes of text including whitespace). A decoding error is
/// [`Error::Failed`] (the input is not what it claims to be).
pub fn read_decoded(path: &Path, encoding: Encoding, max: u64, what: &str) -> Result<Vec<u8>> {
    if encoding == Encoding::Raw {
        return read_bounded(path, max, what);
    }
    let mut r = open(path)?;
    let mut buf = vec![0u8; CHUNK];
    let mut pending: Vec<u8> = Vec::new();
    let mut out = Vec::new();
    // A regular file's size bounds the decoded length: reserving it up front means no
    // reallocation (with a copy of all decoded so far) while the output grows.
    if let Some(len) = regular_file_len(path) {
        let decoded = match encoding {
            Encoding::Hex => len / 2,
            _ => len / 4 * 3 + 3,
        };
        out.reserve_exact(decoded.min(max) as usize);
    }
    let (mut total, mut padded) = (0u64, false);
    let bad = |why: &str| {
        Error::Failed(format!(
            "{what} is not valid {}: {why}",
            if encoding == Encoding::Hex {
                "hex"
            } else {
                "base64"
            }
        ))
    };
    loop {
        let n = read_some(&mut r, &mut buf, path)?;
        total += n as u64;
        if total > max.saturating_mul(3) {
            return Err(too_large(path, what, max));
        }
        pending.extend(
            buf[..n]
                .iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace()),
        );
        let usable = match (encoding, n) {
            (Encoding::Hex, _) => pending.len() & !1,
            (_, 0) => pending.len(),
            _ => pending.len() / 4 * 4,
        };
        if usable > 0 {
            if padded {
                return Err(bad("data after the padding"));
            }
            match encoding {
                Encoding::Hex => {
                    let start = out.len();
                    out.resize(start + usable / 2, 0);
                    hex::decode_to_slice(&pending[..usable], &mut out[start..])
                        .map_err(|_| bad("a character that is not a hex digit"))?;
                }
                _ => {
                    padded = pending[usable - 1] == b'=';
                    base64::engine::general_purpose::STANDARD
                        .decode_vec(&pending[..usable], &mut out)
                        .map_err(|_| {
                            bad("a character, padding or length that base64 does not allow")
                        })?;
                }
            }
            pending.drain(..usable);
            if out.len() as u64 > max {
                return Err(too_large(path, what, max));
            }
        }
        if n == 0 {
            return match pending.is_empty() {
                true => Ok(out),
                false => Err(bad("an odd number of hex digits")),
            };
        }
    }
}

/// The first line of `path` (without `\n` or `\r\n`), at most `max` bytes; reads no further
/// than the first newline.
pub fn read_first_line(path: &Path, max: usize, what: &str) -> Result<Vec<u8>> {
    let mut r = io::BufReader::new(open(path)?);
    let mut line = Vec::new();
    r.by_ref()
        .take(max as u64 + 2)
        .read_until(b'\n', &mut line)
        .map_err(|e| Error::io(path, "read", &e))?;
    if line.last() == Some(&b'\n') {
        line.pop();
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if line.len() > max {
        line.iter_mut().for_each(|b| *b = 0);
        return Err(Error::Input(format!(
            "{what} in {} is longer than {max} bytes",
            quote(path)
        )));
    }
    Ok(line)
}

/// Writes `data` to standard output now (for line-by-line output); a closed or failing standard
/// output is an error.
pub fn print(data: &[u8]) -> Result<()> {
    if std_stream_closed(1) {
        return Err(stdout_closed());
    }
    let mut out = io::stdout().lock();
    out.write_all(data)
        .and_then(|()| out.flush())
        .map_err(|e| Error::io(Path::new("-"), "write", &e))
}

fn stdout_closed() -> Error {
    Error::Input("cannot write standard output: it is closed".into())
}

/// Where one planned output goes.
enum Target {
    /// Standard output.
    Stdout,
    /// An existing device or FIFO, written in place.
    Direct(PathBuf),
    /// A regular file: written to `tmp` (open), then renamed to `dest`.
    Atomic {
        dest: PathBuf,
        tmp: PathBuf,
        file: Option<File>,
        mode: Option<u32>,
    },
}

/// The outputs of one command, checked before anything is written and written all or nothing
/// (see the module documentation). Temporary files left by a failure are removed on drop.
pub struct Outputs {
    targets: Vec<Target>,
}

/// Identity of an existing file: (device, inode).
type FileId = (u64, u64);

/// Identity of an existing file.
#[cfg(unix)]
fn identity(m: &std::fs::Metadata) -> Option<FileId> {
    use std::os::unix::fs::MetadataExt;
    Some((m.dev(), m.ino()))
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> Option<FileId> {
    None
}

#[cfg(unix)]
fn mode_of(m: &std::fs::Metadata) -> Option<u32> {
    use std::os::unix::fs::PermissionsExt;
    Some(m.permissions().mode() & 0o7777)
}

#[cfg(not(unix))]
fn mode_of(_: &std::fs::Metadata) -> Option<u32> {
    None
}

fn cannot_write(path: &Path, why: &str) -> Error {
    Error::Input(format!("cannot write {}: {why}", quote(path)))
}

/// Creates a new temporary file next to `dest` (mode 0600 for secrets, else 0666 less umask).
fn create_temp(dest: &Path, secret: bool) -> Result<(PathBuf, File)> {
    let dir = dest.parent().unwrap_or(Path::new("."));
    let base = dest.file_name().unwrap_or_default().to_string_lossy();
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(if secret { 0o600 } else { 0o666 });
    }
    #[cfg(not(unix))]
    let _ = secret;
    for n in 0u32.. {
        let tmp = dir.join(format!(".{base}.{}.{n}.smtool-tmp", std::process::id()));
        match opts.open(&tmp) {
            Ok(f) => return Ok((tmp, f)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 100 => {}
            Err(e) => return Err(Error::io(dest, "write", &e)),
        }
    }
    unreachable!("the loop returns")
}

impl Outputs {
    /// Checks the outputs `(option, path, secret)` of a command and prepares them: at most one
    /// on standard output, no two on the same file, each directory writable (a temporary file
    /// is created there now), standard output open.
    pub fn plan(outputs: &[(&str, &Path, bool)]) -> Result<Self> {
        let mut plan = Outputs {
            targets: Vec::new(),
        };
        // (option, canonical destination of a regular file, identity of an existing one)
        let mut seen: Vec<(&str, Option<PathBuf>, Option<FileId>)> = Vec::new();
        let mut stdout_opt: Option<&str> = None;
        for &(opt, path, secret) in outputs {
            let clash = |seen: &[(&str, Option<PathBuf>, Option<FileId>)],
                         key: &Option<PathBuf>,
                         id: &Option<FileId>| {
                match seen
                    .iter()
                    .find(|(_, k, i)| (k.is_some() && k == key) || (id.is_some() && i == id))
                {
                    Some((other, ..)) => Err(Error::Usage(format!(
                        "{other} and {opt} name the same file ({}): each output needs its own",
                        quote(path)
                    ))),
                    None => Ok(()),
                }
            };
            if is_stdout(path) {
                if let Some(other) = stdout_opt {
                    return Err(Error::Usage(format!(
                        "{other} and {opt} cannot both be standard output"
                    )));
                }
                stdout_opt = Some(opt);
                if std_stream_closed(1) {
                    return Err(stdout_closed());
                }
                // Standard output redirected to a file is that file.
                let id = std::fs::metadata("/dev/stdout")
                    .ok()
                    .filter(|m| m.is_file())
                    .and_then(|m| identity(&m));
                clash(&seen, &None, &id)?;
                seen.push((opt, None, id));
                plan.targets.push(Target::Stdout);
                continue;
            }
            let (dest, id, meta) = match std::fs::metadata(path) {
                Ok(m) if m.is_dir() => return Err(cannot_write(path, "is a directory")),
                Ok(m) if m.is_file() => {
                    let dest =
                        std::fs::canonicalize(path).map_err(|e| Error::io(path, "write", &e))?;
                    (dest, identity(&m), Some(m))
                }
                // A device or FIFO (`/dev/null`, `/dev/stdout`): written in place; two outputs
                // to one terminal or to `/dev/null` are fine.
                Ok(m) => (path.to_path_buf(), None, Some(m)),
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    let name = path
                        .file_name()
                        .filter(|_| !path.as_os_str().as_encoded_bytes().ends_with(b"/"))
                        .ok_or_else(|| cannot_write(path, "not a file name"))?;
                    let parent = match path.parent() {
                        Some(p) if !p.as_os_str().is_empty() => p,
                        _ => Path::new("."),
                    };
                    let dir = std::fs::canonicalize(parent).map_err(|e| {
                        cannot_write(path, &format!("directory: {}", crate::error::io_reason(&e)))
                    })?;
                    if !dir.is_dir() {
                        return Err(cannot_write(path, "its parent is not a directory"));
                    }
                    (dir.join(name), None, None)
                }
                Err(e) => return Err(Error::io(path, "write", &e)),
            };
            let key = match &meta {
                Some(m) if !m.is_file() => None,
                _ => Some(dest.clone()),
            };
            clash(&seen, &key, &id)?;
            seen.push((opt, key, id));
            match meta {
                Some(m) if !m.is_file() => plan.targets.push(Target::Direct(dest)),
                _ => {
                    let (tmp, file) = create_temp(&dest, secret)?;
                    let mode = if secret {
                        Some(0o600)
                    } else {
                        meta.as_ref().and_then(mode_of)
                    };
                    plan.targets.push(Target::Atomic {
                        dest,
                        tmp,
                        file: Some(file),
                        mode,
                    });
                }
            }
        }
        Ok(plan)
    }

    /// Writes `data[i]` (encoded as given) to output `i` and renames the files into place.
    pub fn commit(mut self, data: &[(&[u8], Encoding)]) -> Result<()> {
        assert_eq!(data.len(), self.targets.len(), "one datum per output");
        // Files first: nothing is renamed before all are written and synced.
        for (t, &(d, enc)) in self.targets.iter_mut().zip(data) {
            if let Target::Atomic {
                dest, file, mode, ..
            } = t
            {
                let f = file.take().expect("not yet written");
                write_file(f, dest, *mode, |w| {
                    enc.write_to(w, d).map_err(|e| Error::io(dest, "write", &e))
                })?;
            }
        }
        for (t, &(d, enc)) in self.targets.iter().zip(data) {
            match t {
                Target::Stdout => {
                    let mut out = io::stdout().lock();
                    enc.write_to(&mut out, d)
                        .and_then(|()| out.flush())
                        .map_err(|e| Error::io(Path::new("-"), "write", &e))?;
                }
                Target::Direct(p) => {
                    let mut f = std::fs::OpenOptions::new()
                        .write(true)
                        .open(p)
                        .map_err(|e| Error::io(p, "open", &e))?;
                    enc.write_to(&mut f, d)
                        .and_then(|()| f.flush())
                        .map_err(|e| Error::io(p, "write", &e))?;
                }
                Target::Atomic { .. } => {}
            }
        }
        self.rename_all()
    }

    /// Renames every written temporary file into place.
    fn rename_all(&mut self) -> Result<()> {
        for t in &mut self.targets {
            if let Target::Atomic { dest, tmp, .. } = t {
                std::fs::rename(&*tmp, &*dest).map_err(|e| Error::io(dest, "write", &e))?;
                *tmp = PathBuf::new();
                if let Some(dir) = dest.parent().and_then(|d| File::open(d).ok()) {
                    let _ = dir.sync_all();
                }
            }
        }
        Ok(())
    }

    /// Streams the one planned output: `produce` writes it chunk by chunk. A file is written
    /// to its temporary file and renamed into place only if `produce` succeeds. With `hold`
    /// (authenticated decryption), standard output or a device gets nothing before `produce`
    /// succeeds: the output is kept in memory until then (at most [`MAX_DATA`] bytes).
    pub fn stream_one(
        mut self,
        hold: bool,
        produce: impl FnOnce(&mut dyn Write) -> Result<()>,
    ) -> Result<()> {
        assert_eq!(self.targets.len(), 1, "one output");
        let write_err = |p: &Path, e: io::Error| Error::io(p, "write", &e);
        match &mut self.targets[0] {
            Target::Atomic {
                dest, file, mode, ..
            } => {
                let f = file.take().expect("not yet written");
                write_file(f, dest, *mode, produce)?;
            }
            t => {
                let (mut sink, path): (Box<dyn Write>, PathBuf) = match t {
                    Target::Direct(p) => (
                        Box::new(
                            std::fs::OpenOptions::new()
                                .write(true)
                                .open(&*p)
                                .map_err(|e| Error::io(p, "open", &e))?,
                        ),
                        p.clone(),
                    ),
                    _ => (Box::new(io::stdout().lock()), PathBuf::from("-")),
                };
                if hold {
                    let mut held = Held(zeroize::Zeroizing::new(Vec::new()));
                    produce(&mut held)?;
                    sink.write_all(&held.0)
                        .and_then(|()| sink.flush())
                        .map_err(|e| write_err(&path, e))?;
                } else {
                    let mut w = io::BufWriter::with_capacity(CHUNK, sink);
                    produce(&mut w)?;
                    w.flush().map_err(|e| write_err(&path, e))?;
                }
            }
        }
        self.rename_all()
    }
}

/// Output kept in memory until it may be released (wiped on drop), at most [`MAX_DATA`] bytes.
struct Held(zeroize::Zeroizing<Vec<u8>>);

impl Write for Held {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if (self.0.len() + buf.len()) as u64 > MAX_DATA {
            return Err(io::Error::other(format!(
                "the output is larger than {MAX_DATA} bytes: write it to a file (--out)"
            )));
        }
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Writes a temporary file through `produce`, gives it its final `mode` and syncs it.
fn write_file(
    mut f: File,
    dest: &Path,
    mode: Option<u32>,
    produce: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    let mut w = io::BufWriter::with_capacity(CHUNK, &mut f);
    produce(&mut w)?;
    w.flush().map_err(|e| Error::io(dest, "write", &e))?;
    drop(w);
    #[cfg(unix)]
    if let Some(m) = mode {
        use std::os::unix::fs::PermissionsExt;
        f.set_permissions(std::fs::Permissions::from_mode(m))
            .map_err(|e| Error::io(dest, "write", &e))?;
    }
    #[cfg(not(unix))]
    let _ = mode;
    f.sync_all().map_err(|e| Error::io(dest, "write", &e))
}

impl Drop for Outputs {
    fn drop(&mut self) {
        for t in &mut self.targets {
            if let Target::Atomic { tmp, file, .. } = t {
                drop(file.take());
                if !tmp.as_os_str().is_empty() {
                    let _ = std::fs::remove_file(&*tmp);
                }
            }
        }
    }
}

/// `-` as a default path argument.
pub fn stdio() -> PathBuf {
    PathBuf::from("-")
}
