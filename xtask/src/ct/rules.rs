//! The declassification list (`ct-check/declassified.txt`): the places where a value derived
//! from a secret may steer a branch or an address because the algorithm publishes it there, each
//! with its reason, and the open (known, unfixed) leaks. Everything else memcheck reports fails
//! the check.
//!
//! Line format: `status | file | pattern | via | reason`, where
//! * `status` is `declassified` or `open`;
//! * `file` is a path suffix of the frame's source file (`sm2/src/signature.rs`, or a
//!   dependency such as `sm4-0.5.1/src/lib.rs`);
//! * `pattern` is `*` (any line), `fn:NAME` (the frame's function name contains NAME) or a
//!   substring of the frame's source line (so entries survive edits that move lines);
//! * `via` is `-` or `FILE fn:NAME`: the rule applies only when the stack also passes through
//!   that function (for helpers that are fine in one caller and not in another).
//!
//! A rule is tried against the *innermost* frames of an error: the frames up to and including
//! the first one in the workspace's own crates. A line-pattern rule therefore covers only a
//! branch or address computed by that very line (or by library code it calls, such as
//! `subtle`'s `CtOption` to `Option` conversion), never anything deeper in our code.

use std::path::Path;

use super::vgxml::Frame;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Declassified,
    Open,
}

#[derive(Clone, Debug)]
pub struct Rule {
    pub status: Status,
    pub file: String,
    pub pattern: String,
    pub via: Option<(String, String)>,
    pub reason: String,
}

pub fn load(path: &Path) -> Result<Vec<Rule>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut rules = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let parts: Vec<&str> = line.splitn(5, '|').map(str::trim).collect();
        let [status, file, pattern, via, reason] = parts[..] else {
            return Err(format!("{}:{}: expected 5 fields", path.display(), n + 1));
        };
        let status = match status {
            "declassified" => Status::Declassified,
            "open" => Status::Open,
            s => return Err(format!("{}:{}: unknown status {s}", path.display(), n + 1)),
        };
        let via = if via == "-" {
            None
        } else {
            let (f, func) = via.split_once(" fn:").ok_or(format!(
                "{}:{}: via must be `FILE fn:NAME`",
                path.display(),
                n + 1
            ))?;
            Some((f.trim().to_string(), func.trim().to_string()))
        };
        if reason.len() < 10 {
            return Err(format!(
                "{}:{}: every rule needs its reason",
                path.display(),
                n + 1
            ));
        }
        rules.push(Rule {
            status,
            file: file.to_string(),
            pattern: pattern.to_string(),
            via,
            reason: reason.to_string(),
        });
    }
    Ok(rules)
}

/// The source line `line` of `path` (1-based), if readable.
fn source_line(path: &str, line: u32) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    text.lines()
        .nth(line.checked_sub(1)? as usize)
        .map(str::to_string)
}

/// Whether `path` ends with `pat`, where `*` in `pat` stands for any run of characters (so
/// `sm4-*/src/lib.rs` matches every version of the crate).
fn path_matches(path: &str, pat: &str) -> bool {
    let parts: Vec<&str> = pat.split('*').collect();
    let Some((last, init)) = parts.split_last() else {
        return false;
    };
    if !path.ends_with(last) {
        return false;
    }
    let mut rest = &path[..path.len() - last.len()];
    for p in init.iter().rev() {
        match rest.rfind(p) {
            Some(i) => rest = &rest[..i],
            None => return false,
        }
    }
    true
}

fn frame_matches(f: &Frame, file: &str, pattern: &str) -> bool {
    if !path_matches(&f.path(), file) {
        return false;
    }
    if pattern == "*" {
        return true;
    }
    if let Some(name) = pattern.strip_prefix("fn:") {
        return f.func.contains(name);
    }
    source_line(&f.path(), f.line).is_some_and(|l| l.contains(pattern))
}

/// The frames a rule may match: innermost first, up to and including the first frame in the
/// workspace (a dependency called directly by the harness has only its own frames).
pub fn candidates<'a>(stack: &'a [Frame], root: &str) -> &'a [Frame] {
    match stack.iter().position(|f| f.path().starts_with(root)) {
        Some(i) => &stack[..=i],
        None => stack,
    }
}

/// The first rule explaining an error with this stack.
pub fn explain<'r>(rules: &'r [Rule], stack: &[Frame], root: &str) -> Option<&'r Rule> {
    let cands = candidates(stack, root);
    rules.iter().find(|r| {
        cands.iter().any(|f| frame_matches(f, &r.file, &r.pattern))
            && r.via.as_ref().is_none_or(|(file, func)| {
                stack
                    .iter()
                    .any(|f| path_matches(&f.path(), file) && f.func.contains(func.as_str()))
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_patterns() {
        assert!(path_matches(
            "/r/x/sm4-0.5.1/src/lib.rs",
            "sm4-*/src/lib.rs"
        ));
        assert!(!path_matches(
            "/r/x/sm3-0.5.1/src/lib.rs",
            "sm4-*/src/lib.rs"
        ));
        assert!(path_matches("/w/sm2/src/keys.rs", "sm2/src/keys.rs"));
        assert!(!path_matches("/w/sm2/src/keys.rs", "sm9/src/keys.rs"));
    }

    #[test]
    fn the_shipped_rules_parse() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("root");
        let rules = load(&root.join("ct-check").join("declassified.txt")).expect("rules");
        assert!(rules.iter().any(|r| r.status == Status::Declassified));
    }
}
