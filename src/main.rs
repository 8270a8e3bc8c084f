//! The `tengen` command line: `gtp` (talk GTP on stdin/stdout), plus the tools built on the engine.

use clap::{Args, Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use tengen::cli::EngineArgs;
use tengen::engine::Engine;
use tengen::gtp::{self, Session};
use tengen::selfplay::cli::{MatchArgs, SelfplayArgs, SummaryArgs};
use tengen::selfplay::merge;
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
    /// Merge run directories (the shards of a run, runs from several machines) into one summary, or
    /// follow a sharded run's progress.
    Summary(SummaryArgs),
    /// Fit the move model (the tree's learned priors) on SGF game records and write its weights.
    Train(TrainArgs),
}

#[derive(Args)]
struct TrainArgs {
    /// SGF files or directories holding them (searched recursively); every tenth file is held out.
    #[arg(required = true)]
    records: Vec<std::path::PathBuf>,
    /// Where to write the weights (the engine compiles in `src/search/move_model.txt`).
    #[arg(long, default_value = "move_model.txt")]
    out: std::path::PathBuf,
    /// A 3x3 neighbourhood seen fewer times than this among the legal moves shares one weight.
    #[arg(long, default_value_t = 20)]
    min_pattern: usize,
    /// Minorization-maximization rounds.
    #[arg(long, default_value_t = 30)]
    rounds: usize,
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
            let options = args.engine.options();
            // Every game can be replayed: the seed it was played with, given or drawn, is on stderr
            // (one thread and a playout limit then give the same moves).
            let _ = writeln!(std::io::stderr(), "tengen: seed {} (replay with --seed {0})", options.seed);
            let mut session = Session::new(Engine::new(options));
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
        Command::Summary(args) => summary(&args),
        Command::Train(args) => train(&args),
    }
}

/// `tengen train`: progress on stderr, the weights to `--out`.
fn train(args: &TrainArgs) -> ExitCode {
    let options = tengen::train::TrainOptions {
        records: args.records.clone(),
        min_pattern: args.min_pattern,
        rounds: args.rounds,
    };
    let trained = match tengen::train::train(&options, &mut |line| eprintln!("tengen train: {line}")) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("tengen train: {e}");
            return ExitCode::FAILURE;
        }
    };
    let header = format!(
        "The move model of tengen (src/search/move_model.rs), written by `tengen train`.\n\
         Fitted on {} games ({} positions); {} held-out positions: first choice {:.1}%, \
         log-likelihood {:.3} a move.\nRecords: {}; --min-pattern {} --rounds {}.",
        trained.games,
        trained.positions,
        trained.held_out_positions,
        100.0 * trained.held_out_top1,
        trained.held_out_log_likelihood,
        args.records.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(" "),
        args.min_pattern,
        args.rounds
    );
    if let Err(e) = std::fs::write(&args.out, trained.model.to_text(&header)) {
        eprintln!("tengen train: {}: {e}", args.out.display());
        return ExitCode::FAILURE;
    }
    eprintln!("tengen train: wrote {}", args.out.display());
    ExitCode::SUCCESS
}

/// `tengen summary`: the merged summary on stdout, what is missing (and, with `--watch`, the
/// progress) on stderr.
fn summary(args: &SummaryArgs) -> ExitCode {
    let mut last_progress = String::new();
    let merged = loop {
        let merged = match merge::gather(&args.dirs, args.watch.is_some()) {
            Ok(m) => m,
            Err(e) => {
                eprintln!("tengen summary: {e}");
                return ExitCode::FAILURE;
            }
        };
        let Some(seconds) = args.watch else { break merged };
        // Runs written before tengen had shards do not say how many games they have: nothing to wait for.
        if merged.complete() || (merged.games.is_none() && !merged.dirs.is_empty()) {
            break merged;
        }
        let progress =
            if merged.dirs.is_empty() { merged.notices().join("; ") } else { merged.progress_line() };
        if progress != last_progress {
            eprintln!("tengen summary: {progress}");
            last_progress = progress;
        }
        std::thread::sleep(std::time::Duration::from_secs_f64(seconds));
    };
    for note in merged.notices() {
        eprintln!("tengen summary: {note}");
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = write!(out, "{}", merged.summary).and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("tengen summary: {e}");
            return ExitCode::FAILURE;
        }
    }
    if args.complete && !merged.complete() {
        eprintln!("tengen summary: --complete: the run is not complete");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
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
