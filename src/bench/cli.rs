//! `tengen bench`: its flags and the loop that runs and prints the measurements.

use super::{json_line, measure, run, standard_suite, table_header, table_row, BenchConfig, BenchMode};
use crate::engine::{Engine, EngineOptions};
use crate::playout::Policy;
use crate::rules::{AnyGame, RulesConfig};
use crate::sgf::GameRecord;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::time::Duration;

#[derive(Copy, Clone, PartialEq, Eq, Debug, ValueEnum)]
pub enum ModeArg {
    Playout,
    Search,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug, ValueEnum)]
pub enum PolicyArg {
    Light,
    Heavy,
}

/// The flags of `tengen bench`. Every dimension left out takes the standard suite's values (all three
/// variants, 9x9 and 19x19, light and heavy, one thread and all cores), so with no flags at all the
/// whole suite runs, and `--size 9 --threads 1` runs the one-thread 9x9 part of it.
#[derive(Args, Clone, Debug)]
pub struct BenchArgs {
    /// Rules string (default: go, stones, stoical and war in turn).
    #[arg(long, value_parser = parse_rules)]
    pub rules: Option<RulesConfig>,
    /// Board size (default: 9 and 19; with `--sgf`, the file's).
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=25), conflicts_with = "sgf")]
    pub size: Option<u8>,
    /// Threads, or a comma-separated list of thread counts, e.g. `1,2` (default: 1 and all cores).
    /// With one thread among them, each row shows its speed-up over one thread.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: Vec<u16>,
    /// Playout policy (default: light and heavy).
    #[arg(long, value_enum)]
    pub policy: Option<PolicyArg>,
    /// `playout`: bare playouts, no tree; `search`: the real tree search.
    #[arg(long, value_enum, default_value_t = ModeArg::Playout)]
    pub mode: ModeArg,
    /// Seconds per measurement.
    #[arg(long, default_value_t = 2.0, value_parser = parse_seconds)]
    pub seconds: f64,
    /// Measurements per configuration: rows then show the median run's rate, and the thread counts
    /// of one configuration take turns (1, 2, 1, 2, ...) so that a noisy machine's drift hits them
    /// alike.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub repeat: u16,
    /// Start from the final position of this SGF game instead of an empty board (its size and, when
    /// `--rules` is absent, its rules).
    #[arg(long, value_name = "FILE")]
    pub sgf: Option<std::path::PathBuf>,
    /// One JSON object per configuration on stdout instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Seed of the playout generators.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The playouts' mercy rule (go and Stoical, `tengen gtp --mercy`): `off`, the engine's
    /// default (every playout played to the end, as Pachi's are by default), or `on`.
    #[arg(long, default_value = "off", value_parser = crate::cli::parse_on_off, action = clap::ArgAction::Set)]
    pub mercy: bool,
}

fn parse_rules(s: &str) -> Result<RulesConfig, String> {
    RulesConfig::parse(s).map_err(|e| format!("unknown rules: {e}"))
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err(format!("'{s}' is not a positive number of seconds")),
    }
}

/// The measurements `args` ask for, or why they cannot be taken.
pub fn configs(args: &BenchArgs) -> Result<Vec<BenchConfig>, String> {
    let mode = match args.mode {
        ModeArg::Playout => BenchMode::Playout,
        ModeArg::Search => BenchMode::Search,
    };
    let all_threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let duration = Duration::from_secs_f64(args.seconds);
    let mut suite = standard_suite(mode, duration, all_threads, args.seed);
    // Each dimension the flags fix replaces the suite's values for it.
    if let Some(path) = &args.sgf {
        let start = load_sgf(path, args.rules.as_ref())?;
        let rules = start.0;
        suite.retain(|c| c.rules.variant() == rules.variant() && c.start.board().size() == 9);
        for c in &mut suite {
            c.rules = rules.clone();
            c.start = start.1.clone();
        }
    } else {
        if let Some(rules) = &args.rules {
            suite.retain(|c| c.rules.variant() == rules.variant());
            for c in &mut suite {
                c.rules = rules.clone();
                c.start = AnyGame::new(rules, c.start.board().size());
            }
        }
        if let Some(size) = args.size {
            suite.retain(|c| c.start.board().size() == 9);
            for c in &mut suite {
                c.rules.check_walls_fit(usize::from(size)).map_err(|e| format!("--rules: {e}"))?;
                c.start = AnyGame::new(&c.rules, usize::from(size));
            }
        }
    }
    if !args.threads.is_empty() {
        // Each configuration once per listed thread count, next to each other (see `measure`).
        let mut counts = args.threads.clone();
        counts.dedup();
        suite = suite
            .into_iter()
            .filter(|c| c.threads == 1)
            .flat_map(|c| counts.iter().map(move |&t| BenchConfig { threads: usize::from(t), ..c.clone() }))
            .collect();
    }
    for c in &mut suite {
        c.mercy = args.mercy;
    }
    if let Some(p) = args.policy {
        let policy = match p {
            PolicyArg::Light => Policy::Light,
            PolicyArg::Heavy => Policy::Heavy,
        };
        suite.retain(|c| c.policy == policy);
    }
    for c in &suite {
        c.rules.check_walls_fit(c.start.board().size()).map_err(|e| format!("--rules: {e}"))?;
    }
    Ok(suite)
}

/// The rules and the final position of the game in an SGF file; `rules` (from the command line)
/// replace the file's `RU`.
fn load_sgf(path: &std::path::Path, rules: Option<&RulesConfig>) -> Result<(RulesConfig, AnyGame), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut record = GameRecord::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if let Some(r) = rules {
        record.rules = Some(r.to_string());
    }
    // A game that ended by passes still has its final position to play out from: the closing
    // passes go (plain ones only: a Stones return or stake is a commented pass and a move).
    while record.moves.last().is_some_and(|m| crate::engine::is_plain_pass(m, record.size)) {
        record.moves.pop();
    }
    let mut engine = Engine::new(EngineOptions::default());
    for note in engine.load_record(&record, None).map_err(|e| format!("{}: {e}", path.display()))? {
        eprintln!("tengen bench: {}: {note}", path.display());
    }
    if let Some(o) = engine.game().outcome() {
        return Err(format!("{}: the game is over ({o}): there is nothing left to play out", path.display()));
    }
    Ok((engine.rules().clone(), engine.game().clone()))
}

/// Runs `tengen bench`: the table (or JSON lines) on stdout, nothing else.
pub fn main(args: &BenchArgs) -> Result<(), String> {
    let configs = configs(args)?;
    let mut out = std::io::stdout().lock();
    let io = |e: std::io::Error| e.to_string();
    if !args.json {
        writeln!(out, "{}", table_header()).map_err(io)?;
    }
    let mut written = Ok(());
    measure(&configs, usize::from(args.repeat), run, |summary| {
        let line = if args.json { json_line(summary) } else { table_row(summary) };
        written = writeln!(out, "{line}").and_then(|()| out.flush());
        if written.is_ok() {
            std::ops::ControlFlow::Continue(())
        } else {
            std::ops::ControlFlow::Break(())
        }
    });
    match written {
        // A reader that has seen enough (`| head -3`) is no error.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(io),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Wrapper {
        #[command(flatten)]
        bench: BenchArgs,
    }

    fn configs_for(flags: &[&str]) -> Vec<BenchConfig> {
        let args = Wrapper::try_parse_from(std::iter::once("bench").chain(flags.iter().copied())).unwrap();
        configs(&args.bench).unwrap()
    }

    #[test]
    fn no_flags_is_the_whole_suite() {
        let all = configs_for(&[]);
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let thread_counts = if cores > 1 { 2 } else { 1 };
        // War Go: one policy, so one row per size and thread count.
        assert_eq!(all.len(), 3 * 2 * 2 * thread_counts + 2 * thread_counts);
        assert_eq!(
            all.iter().filter(|c| c.rules.variant() == crate::rules::Variant::War).count(),
            2 * thread_counts
        );
    }

    #[test]
    fn each_flag_fixes_one_dimension() {
        let c = configs_for(&["--size", "13", "--threads", "3", "--policy", "light"]);
        assert_eq!(c.len(), 4, "one per variant");
        assert!(c
            .iter()
            .all(|c| c.start.board().size() == 13 && c.threads == 3 && c.policy == Policy::Light));
        let c = configs_for(&["--rules", "stoical:snapback=on", "--mode", "playout"]);
        assert!(c.iter().all(|c| c.rules.to_string().contains("snapback=on")));
        let sizes: Vec<_> = c.iter().map(|c| c.start.board().size()).collect();
        assert!(sizes.contains(&9) && sizes.contains(&19));
    }

    #[test]
    fn a_torus_is_benched_like_any_rules() {
        let c = configs_for(&["--rules", "stones:torus=on", "--threads", "1"]);
        assert_eq!(c.len(), 4, "9x9 and 19x19, light and heavy");
        assert!(c.iter().all(|c| c.start.is_torus() && c.rules.to_string().ends_with("torus=on")));
        let args = Wrapper::try_parse_from(["bench", "--rules", "go:torus=on", "--size", "2"]).unwrap();
        assert!(configs(&args.bench).unwrap_err().contains("a torus is at least 3x3"));
    }

    #[test]
    fn a_thread_list_puts_each_configurations_counts_side_by_side() {
        let c = configs_for(&["--size", "9", "--rules", "go", "--threads", "1,2,4"]);
        let threads: Vec<usize> = c.iter().map(|c| c.threads).collect();
        assert_eq!(threads, [1, 2, 4, 1, 2, 4], "light then heavy");
        assert!(c[..3].iter().all(|c| c.policy == Policy::Light));
        assert!(c[3..].iter().all(|c| c.policy == Policy::Heavy));
    }

    #[test]
    fn bad_flags_are_refused() {
        for flags in [
            &["--size", "26"][..],
            &["--rules", "chess"],
            &["--seconds", "0"],
            &["--policy", "medium"],
            &["--threads", "1,0"],
            &["--threads", "two"],
            &["--repeat", "0"],
        ] {
            assert!(Wrapper::try_parse_from(std::iter::once("bench").chain(flags.iter().copied())).is_err());
        }
    }
}
