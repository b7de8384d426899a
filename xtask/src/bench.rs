//! `cargo xtask bench`: same-process benchmarks. Variants of one operation (backends, revisions,
//! peers) run interleaved — A B C A B C … — so that machine noise hits all of them alike; each
//! variant's output is checked for agreement before it is timed.

mod against;
pub mod harness;
// Group modules are named `g_<group>` (the same names the `--against` binary uses), which keeps
// them apart from the crates they measure.
#[path = "bench/field.rs"]
mod g_field;
#[path = "bench/pairing.rs"]
mod g_pairing;
#[path = "bench/sm2.rs"]
mod g_sm2;
#[path = "bench/sm3.rs"]
mod g_sm3;
#[path = "bench/sm9.rs"]
mod g_sm9;

pub(crate) use ::sm2;
pub(crate) use ::sm3;
pub(crate) use ::sm9;
pub(crate) use ::sm_field;
pub(crate) use ::sm_pairing;
use harness::Case;

struct Opts {
    quick: bool,
    backends: Vec<String>,
    markdown: Option<String>,
    against: Option<String>,
    groups: Vec<String>,
}

/// Groups in the order they run.
pub const GROUPS: &[&str] = &["field", "sm3", "sm2", "pairing", "sm9"];

fn parse(args: &[String]) -> Result<Opts, String> {
    let default_backend = <sm_field::DefaultBackend as sm_field::Backend>::NAME.to_string();
    let mut o = Opts {
        quick: false,
        backends: vec![default_backend],
        markdown: None,
        against: None,
        groups: vec![],
    };
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--quick" => o.quick = true,
            "--backends" => {
                let list = it
                    .next()
                    .ok_or("--backends needs a list, e.g. u32,u64,asm")?;
                o.backends = list.split(',').map(str::to_string).collect();
                for b in &o.backends {
                    if !crate::check::BACKEND_NAMES.contains(&b.as_str()) {
                        return Err(format!("unknown backend {b}"));
                    }
                }
            }
            "--markdown" => o.markdown = Some(it.next().ok_or("--markdown needs a file")?.clone()),
            "--against" => {
                o.against = Some(it.next().ok_or("--against needs a git revision")?.clone())
            }
            g if GROUPS.contains(&g) => o.groups.push(g.to_string()),
            other => {
                return Err(format!(
                    "unknown argument {other} (groups: {})",
                    GROUPS.join(", ")
                ))
            }
        }
    }
    if o.groups.is_empty() {
        o.groups = GROUPS.iter().map(|s| s.to_string()).collect();
    }
    Ok(o)
}

/// The cases of one group for the given backends, labelled with `prefix`.
pub fn group_cases(group: &str, backends: &[String], prefix: &str) -> Vec<Case> {
    match group {
        "field" => g_field::cases(backends, prefix),
        "sm3" => g_sm3::cases(backends, prefix),
        "sm2" => g_sm2::cases(backends, prefix),
        "pairing" => g_pairing::cases(backends, prefix),
        "sm9" => g_sm9::cases(backends, prefix),
        _ => Vec::new(),
    }
}

pub fn run(args: &[String]) -> Result<(), String> {
    let o = parse(args)?;
    if let Some(rev) = &o.against {
        return against::run(rev, &o.groups, &o.backends, o.quick);
    }
    crate::sysinfo::print_header();
    println!(
        "mode:     {}; backends: {}",
        if o.quick { "quick" } else { "full" },
        o.backends.join(",")
    );
    let mut rows = Vec::new();
    for g in &o.groups {
        let cases = group_cases(g, &o.backends, "");
        eprintln!("[{g}] {} cases", cases.len());
        rows.extend(harness::run_group(cases, o.quick)?);
    }
    harness::print_table(&rows);
    if let Some(path) = &o.markdown {
        std::fs::write(path, harness::markdown(&rows)).map_err(|e| format!("{path}: {e}"))?;
        println!("markdown table written to {path}");
    }
    Ok(())
}
