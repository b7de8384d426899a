//! `cargo xtask wasm [setup | build [--no-tables] | test | bench [--quick] [--markdown FILE] | pack
//! | env]`:
//! the WebAssembly/npm package (sm-wasm/). Writes the known-answer data of `sm-testvectors` as
//! one JSON file for the JavaScript tests (`target/wasm/vectors.json`: the GM/T annex vectors
//! and the GmSSL cases, exactly as the Rust tests read them), then runs `scripts/wasm.sh`, which
//! installs the toolchain, wasm-bindgen, npm dev dependencies and Chromium as needed (cached
//! under target/wasm) and builds, tests or benchmarks the package.

pub fn run(args: &[String]) -> Result<(), String> {
    let root = crate::workspace_root();
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
    crate::run_script("wasm.sh", args, &[("SM_WASM_VECTORS", vectors.as_os_str())])
}
