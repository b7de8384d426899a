//! Helpers the test modules share: the `smtool` binary and a scratch directory.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;

/// The path of the `smtool` binary Cargo built for these tests.
pub fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("smtool")
}

/// A scratch directory with short path helpers (removed when dropped).
pub struct Dir(pub tempfile::TempDir);

impl Dir {
    pub fn new() -> Self {
        Dir(tempfile::tempdir().unwrap())
    }
    /// The path of `name` in the directory.
    pub fn p(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }
    /// The path of `name` in the directory, as a string for command lines.
    pub fn s(&self, name: &str) -> String {
        self.p(name).to_str().unwrap().to_owned()
    }
    /// Writes `data` to `name`; returns its path.
    pub fn write(&self, name: &str, data: impl AsRef<[u8]>) -> String {
        std::fs::write(self.p(name), data).unwrap();
        self.s(name)
    }
    pub fn read(&self, name: &str) -> Vec<u8> {
        std::fs::read(self.p(name)).unwrap()
    }
    pub fn text(&self, name: &str) -> String {
        String::from_utf8(self.read(name)).unwrap()
    }
    pub fn exists(&self, name: &str) -> bool {
        self.p(name).exists()
    }
    /// The permission bits of `name`.
    pub fn mode(&self, name: &str) -> u32 {
        std::fs::metadata(self.p(name))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    }
    /// The names in the directory (to see that no temporary file is left behind).
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(self.0.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}
