//! Throughput measurement behind `tengen bench`: playouts per second by variant, board size, policy
//! and threads, either as bare playouts from a position or inside the real tree search.
//!
//! A run is a list of [`BenchConfig`]s (one given on the command line, or the standard suite); each
//! yields a [`BenchResult`], printed as a table row or as one JSON object per line. Bare playouts run
//! one [`Playout`] per thread, each with its own seeded generator, for a fixed wall-clock time; the
//! count includes only playouts that finished inside it.

pub mod cli;
mod report;

pub use report::{json_line, table_header, table_row};

use crate::playout::{Playout, Policy, Rng, Simulate};
use crate::rules::{AnyGame, Position, RulesConfig};
use crate::with_game;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// What a benchmark measures.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum BenchMode {
    /// Bare playouts from the start position, no tree.
    Playout,
    /// The engine's tree search (selection, expansion, playout, backup) from the start position.
    Search,
}

impl BenchMode {
    pub fn name(self) -> &'static str {
        match self {
            BenchMode::Playout => "playout",
            BenchMode::Search => "search",
        }
    }
}

/// One measurement to take.
#[derive(Clone, Debug)]
pub struct BenchConfig {
    pub rules: RulesConfig,
    /// The position to start from (an empty board of some size, or a loaded SGF position).
    pub start: AnyGame,
    pub threads: usize,
    pub policy: Policy,
    pub mode: BenchMode,
    pub duration: Duration,
    pub seed: u64,
}

/// What one measurement found.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchResult {
    pub rules: String,
    pub size: usize,
    pub threads: usize,
    pub policy: Policy,
    pub mode: BenchMode,
    pub playouts: u64,
    /// Moves played inside the playouts (tree moves excluded).
    pub moves: u64,
    pub seconds: f64,
}

impl BenchResult {
    pub fn playouts_per_sec(&self) -> f64 {
        if self.seconds > 0.0 {
            self.playouts as f64 / self.seconds
        } else {
            0.0
        }
    }

    pub fn moves_per_playout(&self) -> f64 {
        if self.playouts > 0 {
            self.moves as f64 / self.playouts as f64
        } else {
            0.0
        }
    }
}

/// The standard suite `tengen bench` runs without options: every variant on 9x9 and 19x19, light and
/// heavy, one thread and all of them (once when the machine has a single core).
pub fn standard_suite(
    mode: BenchMode,
    duration: Duration,
    all_threads: usize,
    seed: u64,
) -> Vec<BenchConfig> {
    let mut threads = vec![1];
    if all_threads > 1 {
        threads.push(all_threads);
    }
    let mut suite = Vec::new();
    for variant in ["go", "stones", "stoical"] {
        let rules = RulesConfig::parse(variant).expect("variant names parse");
        for size in [9, 19] {
            for policy in [Policy::Light, Policy::Heavy] {
                for &t in &threads {
                    suite.push(BenchConfig {
                        rules: rules.clone(),
                        start: AnyGame::new(&rules, size),
                        threads: t,
                        policy,
                        mode,
                        duration,
                        seed,
                    });
                }
            }
        }
    }
    suite
}

/// Takes one measurement.
pub fn run(config: &BenchConfig) -> BenchResult {
    let (playouts, moves, elapsed) = match config.mode {
        BenchMode::Playout => with_game!(&config.start, g => {
            bare_playouts(g.rules(), g.position(), config)
        }),
        BenchMode::Search => search_playouts(config),
    };
    BenchResult {
        rules: config.rules.to_string(),
        size: config.start.board().size(),
        threads: config.threads,
        policy: config.policy,
        mode: config.mode,
        playouts,
        moves,
        seconds: elapsed.as_secs_f64(),
    }
}

/// Runs playouts from `start` on `config.threads` threads until `config.duration` has passed:
/// (playouts, playout moves, elapsed time).
fn bare_playouts<R: Simulate>(rules: &R, start: &Position<R>, config: &BenchConfig) -> (u64, u64, Duration) {
    let stop = AtomicBool::new(false);
    let playouts = AtomicU64::new(0);
    let moves = AtomicU64::new(0);
    let began = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..config.threads {
            let (stop, playouts, moves) = (&stop, &playouts, &moves);
            scope.spawn(move || {
                let mut playout = Playout::new(start);
                let mut rng =
                    Rng::seed_from_u64(config.seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let (mut n, mut m) = (0u64, 0u64);
                // Checking the flag every playout costs nothing next to a playout.
                while !stop.load(Ordering::Relaxed) {
                    m += playout.run(rules, start, config.policy, &mut rng).moves as u64;
                    n += 1;
                }
                playouts.fetch_add(n, Ordering::Relaxed);
                moves.fetch_add(m, Ordering::Relaxed);
            });
        }
        std::thread::sleep(config.duration);
        stop.store(true, Ordering::Relaxed);
    });
    // The playouts in flight when the flag was raised finish after the deadline; counting them with
    // the time they took keeps the rate honest.
    let elapsed = began.elapsed();
    (playouts.into_inner(), moves.into_inner(), elapsed)
}

/// The tree search from the start position for `config.duration` (a fresh tree, no early stop):
/// (playouts, playout moves, elapsed).
fn search_playouts(config: &BenchConfig) -> (u64, u64, Duration) {
    with_game!(&config.start, g => {
        let root = g.position();
        let input = crate::search::SearchInput {
            rules: g.rules(),
            root,
            history: g.history(),
            last_move: crate::board::Point::NONE,
            opponent_passed: false,
            started: Instant::now(),
        };
        let search_config = crate::search::SearchConfig {
            threads: config.threads,
            policy: config.policy,
            seed: config.seed,
            ..crate::search::SearchConfig::default()
        };
        let limits = crate::search::Limits {
            playouts: None,
            time: Some(crate::search::TimeLimit::fixed(config.duration)),
            early_stop: false,
        };
        let tree = crate::search::Tree::with_megabytes(SEARCH_TREE_MB);
        let report = crate::search::search(
            &input,
            &tree,
            &search_config,
            &crate::search::ThinkRequest::new(limits),
            &|| false,
            &mut |_| {},
        );
        (report.playouts, report.playout_moves, report.elapsed)
    })
}

/// Memory of the search benchmark's tree.
const SEARCH_TREE_MB: usize = 512;
