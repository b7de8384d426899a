//! Facts printed before benchmark and check output.

use std::process::Command;

fn cmd_output(cmd: &str, args: &[&str]) -> String {
    Command::new(cmd)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into())
}

/// CPU model from /proc/cpuinfo.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

/// Relevant CPU features: those compiled in (`+`) and those only detected at run time (`~`).
pub fn target_features() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let mut out = Vec::new();
        macro_rules! feat {
            ($($f:tt),*) => {$(
                let compiled = cfg!(target_feature = $f);
                let runtime = std::arch::is_x86_feature_detected!($f);
                if compiled { out.push(format!("+{}", $f)); }
                else if runtime { out.push(format!("~{}", $f)); }
            )*};
        }
        feat!(
            "bmi2",
            "adx",
            "avx2",
            "avx512f",
            "avx512bw",
            "avx512ifma",
            "sha"
        );
        format!("{} (+ compiled in, ~ detected at run time)", out.join(" "))
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        String::from("n/a")
    }
}

/// Current git revision (short) with a `-dirty` mark.
pub fn git_rev() -> String {
    let rev = cmd_output("git", &["rev-parse", "--short", "HEAD"]);
    let dirty = !cmd_output("git", &["status", "--porcelain", "--untracked-files=no"]).is_empty();
    if dirty {
        format!("{rev}-dirty")
    } else {
        rev
    }
}

/// `rustc -V`.
pub fn rustc_version() -> String {
    cmd_output("rustc", &["-V"])
}

/// Prints the header shared by bench and check.
pub fn print_header() {
    println!("cpu:      {}", cpu_model());
    println!("features: {}", target_features());
    println!(
        "backend:  default = {} (compiled: {})",
        <sm_field::DefaultBackend as sm_field::Backend>::NAME,
        crate::check::BACKEND_NAMES.join(", ")
    );
    println!("rustc:    {}", rustc_version());
    println!("git:      {}", git_rev());
}
