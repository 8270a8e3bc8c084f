//! The `tengen` command line: `gtp` (talk GTP on stdin/stdout), plus the tools built on the engine.

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use tengen::engine::{Engine, EngineOptions};
use tengen::gtp::{self, Session};
use tengen::rules::RulesConfig;

#[derive(Parser)]
#[command(name = "tengen", version, about = "A Monte Carlo Go engine for standard Go, Stones and Stoical Go")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Speak the Go Text Protocol on standard input and output (for Sabaki, GoGui, KGS, match runners).
    Gtp(GtpArgs),
}

/// Options of the engine itself, shared by every subcommand that runs it.
#[derive(Args, Clone)]
struct EngineArgs {
    /// Rules string: VARIANT[:key=value,...], e.g. `go:scoring=territory,ko=positional`,
    /// `stones:threshold=7,compensation=6`, `stoical:snapback=on`; any of them with `walls=C3+G7`.
    #[arg(long, default_value = "go", value_parser = parse_rules)]
    rules: RulesConfig,
    /// Initial board size (a controller normally sends `boardsize`).
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    size: u8,
    /// Seed for the engine's random choices: the same seed gives the same moves.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

#[derive(Args)]
struct GtpArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

fn parse_rules(s: &str) -> Result<RulesConfig, String> {
    RulesConfig::parse(s).map_err(|e| format!("unknown rules: {e}"))
}

impl EngineArgs {
    fn options(&self) -> EngineOptions {
        EngineOptions { rules: self.rules.clone(), size: self.size as usize, seed: self.seed }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Gtp(args) => {
            let mut session = Session::new(Engine::new(args.engine.options()));
            let stdin = std::io::BufReader::new(std::io::stdin());
            let mut stdout = std::io::stdout();
            if let Err(e) = gtp::run(&mut session, stdin, &mut stdout) {
                let _ = writeln!(std::io::stderr(), "tengen: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
    }
}
