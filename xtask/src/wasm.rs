//! `cargo xtask wasm [setup | build | test | bench [--quick] [--markdown FILE] | pack | env]`:
//! the WebAssembly/npm package (sm-wasm/). Writes the known-answer data of `sm-testvectors` as
//! one JSON file for the JavaScript tests (`target/wasm/vectors.json`: the GM/T annex vectors
//! and the GmSSL cases, exactly as the Rust tests read them), then runs `scripts/wasm.sh`, which
//! installs the toolchain, wasm-bindgen, npm dev dependencies and Chromium as needed (cached
//! under target/wasm) and builds, tests or benchmarks the package.

use std::path::Path;
use std::process::Command;

pub fn run(args: &[String]) -> Result<(), String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .ok_or("no workspace root")?;
    let cache = root.join("target").join("wasm");
    std::fs::create_dir_all(&cache).map_err(|e| format!("{}: {e}", cache.display()))?;
    let vectors = cache.join("vectors.json");
    let all = serde_json::json!({
        "sm2_sm3": sm_testvectors::sm2_sm3(),
        "sm9": sm_testvectors::sm9(),
        "gmssl": sm_testvectors::gmssl(),
    });
    let text = serde_json::to_string(&all).map_err(|e| e.to_string())?;
    if std::fs::read_to_string(&vectors).ok().as_deref() != Some(text.as_str()) {
        std::fs::write(&vectors, text).map_err(|e| format!("{}: {e}", vectors.display()))?;
    }
    let script = root.join("scripts").join("wasm.sh");
    let status = Command::new("bash")
        .arg(&script)
        .args(args)
        .current_dir(root)
        .env("SM_WASM_VECTORS", &vectors)
        // The script picks its own cargo/rustc (rustup's wasm32 target or Debian's); do not leak
        // this cargo's choices.
        .env_remove("CARGO_TARGET_DIR")
        .env_remove("RUSTUP_TOOLCHAIN")
        .env_remove("RUSTC")
        .env_remove("RUSTFLAGS")
        .status()
        .map_err(|e| format!("cannot run {}: {e}", script.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{} failed with {status}", script.display()))
    }
}
