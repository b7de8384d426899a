//! `smtool`: SM3 digests and HMACs, SM2 keys / signatures / encryption and SM9 identity-based
//! keys / signatures / encryption / KEM, SM4 files and SM2 X.509 certificates on the command line,
//! interoperable with OpenSSL 3.0 (SM2, SM3, X.509) and GmSSL (SM2, SM9).
//!
//! Exit status: 0 success; 1 verification or decryption failure (including a malformed
//! signature or ciphertext, and an SM3 `--check` mismatch); 2 usage or input error (unknown
//! option, unreadable file, malformed or wrong-type key, wrong password). Every error is one
//! line on standard error.
#![forbid(unsafe_code)]

mod cli;
mod error;
mod exchange;
mod io;
mod keys;
mod show;
mod sm2_cmd;
mod sm3_cmd;
mod sm4_cmd;
mod sm9_cmd;
mod speed;
mod x509_cmd;

use std::io::Write as _;
use std::process::ExitCode;

use clap::Parser as _;

use crate::error::EXIT_USAGE;

fn main() -> ExitCode {
    // No input may panic; should a bug do so anyway, report one line and no backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        let msg = error::escape(msg.as_bytes());
        let _ = writeln!(std::io::stderr(), "smtool: internal error: {msg}");
    }));
    let args = match cli::Cli::try_parse() {
        Ok(a) => a,
        Err(e) => return clap_error(e),
    };
    match std::panic::catch_unwind(|| cli::run(args)) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(e)) => {
            let _ = writeln!(std::io::stderr(), "smtool: {e}");
            ExitCode::from(e.exit_code())
        }
        Err(_) => ExitCode::from(EXIT_USAGE),
    }
}

/// Help and version go to stdout with status 0; usage errors become one line and status 2.
fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand | ErrorKind::MissingSubcommand => {
            let _ = writeln!(std::io::stderr(), "smtool: {}", missing_subcommand());
            ExitCode::from(EXIT_USAGE)
        }
        _ => {
            // clap's message is the text before the "Usage:" block; fold it into one line.
            let rendered = e.render().to_string();
            let line = rendered
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.starts_with("For more information"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect::<Vec<_>>()
                .join(" ");
            let line = error::escape(line.trim_start_matches("error: ").as_bytes());
            let _ = writeln!(std::io::stderr(), "smtool: {line} (see 'smtool --help')");
            ExitCode::from(EXIT_USAGE)
        }
    }
}

/// "sm2 needs a subcommand: keygen, pubkey, … (see 'smtool sm2 --help')", for the deepest
/// command named on the command line.
fn missing_subcommand() -> String {
    let mut cmd = <cli::Cli as clap::CommandFactory>::command();
    let mut path = Vec::new();
    for arg in std::env::args().skip(1) {
        match cmd.find_subcommand(&arg) {
            Some(sub) => {
                path.push(arg);
                cmd = sub.clone();
            }
            None => break,
        }
    }
    let names: Vec<&str> = cmd
        .get_subcommands()
        .map(clap::Command::get_name)
        .filter(|n| *n != "help")
        .collect();
    let path = path.join(" ");
    let (what, see) = if path.is_empty() {
        ("smtool".to_string(), "smtool --help".to_string())
    } else {
        (format!("'{path}'"), format!("smtool {path} --help"))
    };
    format!(
        "{what} needs a subcommand: {} (see '{see}')",
        names.join(", ")
    )
}
