//! The `tengen` command line: `gtp` (talk GTP on stdin/stdout), plus the tools built on the engine.

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use tengen::cli::EngineArgs;
use tengen::engine::Engine;
use tengen::gtp::{self, Session};
use tengen::selfplay::cli::{MatchArgs, SelfplayArgs};
use tengen::selfplay::runner::{self, RunConfig};

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
    /// Measure playout throughput (playouts per second by variant, size, policy and threads).
    Bench(tengen::bench::cli::BenchArgs),
    /// Play tengen against tengen, each side with its own settings, colours alternating.
    Selfplay(SelfplayArgs),
    /// Play tengen against a GTP program (GNU Go, another tengen build), tengen refereeing.
    Match(MatchArgs),
}

#[derive(Args)]
struct GtpArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Gtp(args) => {
            if let Err(e) = args.engine.check() {
                let _ = writeln!(std::io::stderr(), "tengen gtp: {e}");
                return ExitCode::FAILURE;
            }
            let mut session = Session::new(Engine::new(args.engine.options()));
            let stdin = std::io::BufReader::new(std::io::stdin());
            let mut stdout = std::io::stdout();
            if let Err(e) = gtp::run(&mut session, stdin, &mut stdout) {
                let _ = writeln!(std::io::stderr(), "tengen: {e}");
                return ExitCode::FAILURE;
            }
            ExitCode::SUCCESS
        }
        Command::Bench(args) => match tengen::bench::cli::main(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                let _ = writeln!(std::io::stderr(), "tengen bench: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Selfplay(args) => run_games(args.config()),
        Command::Match(args) => run_games(args.config()),
    }
}

/// Runs `selfplay` or `match`: the summary on stdout, progress and errors on stderr.
fn run_games(config: Result<RunConfig, String>) -> ExitCode {
    let config = match config {
        Ok(c) => c,
        Err(e) => {
            eprintln!("tengen: {e}");
            return ExitCode::from(2);
        }
    };
    match runner::run(&config) {
        Ok(summary) => {
            // `print!` would panic on a closed pipe (`| head -3`); a reader that has seen enough is
            // no error, and the run's files are written by now.
            let mut out = std::io::stdout().lock();
            match write!(out, "{summary}").and_then(|()| out.flush()) {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    eprintln!("tengen: {e}");
                    ExitCode::FAILURE
                }
                _ => ExitCode::SUCCESS,
            }
        }
        Err(e) => {
            eprintln!("tengen: {e}");
            ExitCode::FAILURE
        }
    }
}
