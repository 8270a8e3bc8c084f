//! Throughput measurement behind `tengen bench`: playouts per second by variant, board size, policy
//! and threads, either as bare playouts from a position or inside the real tree search.
//!
//! A run is a list of [`BenchConfig`]s (one given on the command line, or the standard suite); each
//! yields a [`BenchResult`] per measurement, and [`measure`] gathers repeated measurements into a
//! [`BenchSummary`], printed as a table row or as one JSON object per line. Bare playouts run one
//! [`Playout`] per thread, each with its own seeded generator, for a fixed wall-clock time; the count
//! includes only playouts that finished inside it.

pub mod cli;
mod report;

pub use report::{json_line, table_header, table_row};

use crate::playout::{Playout, Policy, Rng, Simulate};
use crate::rules::{AnyGame, Position, RulesConfig, Variant};
use crate::with_game;
use rand::SeedableRng;
use std::ops::ControlFlow;
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
    /// Playouts end by the mercy rule (`Playout::mercy`; `tengen gtp --mercy`).
    pub mercy: bool,
}

/// What one measurement found.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchResult {
    pub rules: String,
    pub size: usize,
    pub threads: usize,
    pub policy: Policy,
    pub mode: BenchMode,
    /// The mercy rule was on (never in Stones, which has none).
    pub mercy: bool,
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

/// The measurements of one configuration: their sum and each one's rate.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchSummary {
    /// Playouts, moves and seconds summed over the runs.
    pub total: BenchResult,
    /// Playouts per second of each run, in the order they ran.
    pub rates: Vec<f64>,
    /// The median rate over the median rate of the same measurement with one thread, when that was
    /// measured in the same group.
    pub vs_one_thread: Option<f64>,
}

impl BenchSummary {
    /// The summary of one configuration's runs (at least one).
    fn of(runs: Vec<BenchResult>) -> BenchSummary {
        let rates = runs.iter().map(BenchResult::playouts_per_sec).collect();
        let mut runs = runs.into_iter();
        let mut total = runs.next().expect("at least one run");
        for r in runs {
            total.playouts += r.playouts;
            total.moves += r.moves;
            total.seconds += r.seconds;
        }
        BenchSummary { total, rates, vs_one_thread: None }
    }

    /// The median of the runs' rates (the mean of the middle two for an even count): one slow run
    /// of a noisy machine does not move it.
    pub fn median_rate(&self) -> f64 {
        let mut r = self.rates.clone();
        r.sort_by(f64::total_cmp);
        match r.len() {
            0 => 0.0,
            n if n % 2 == 1 => r[n / 2],
            n => (r[n / 2 - 1] + r[n / 2]) / 2.0,
        }
    }
}

/// Do two configurations measure the same thing but for the thread count?
fn same_but_threads(a: &BenchConfig, b: &BenchConfig) -> bool {
    a.rules == b.rules
        && a.start.board() == b.start.board()
        && a.start.to_move() == b.start.to_move()
        && a.policy == b.policy
        && a.mode == b.mode
        && a.mercy == b.mercy
}

/// Takes `repeat` measurements of every configuration with `run` and hands each configuration's
/// summary to `report` as soon as its group is done; stops when `report` breaks (its reader has
/// gone: `tengen bench | head` should not measure the rest of the suite for nobody).
///
/// A group is a run of consecutive configurations that differ only in their thread count; its
/// measurements alternate (1 thread, 2 threads, 1 thread, 2 threads, ...), so that a machine whose
/// speed drifts over seconds or minutes slows each thread count alike and the speed-up over one
/// thread stays fair.
pub fn measure(
    configs: &[BenchConfig],
    repeat: usize,
    mut run: impl FnMut(&BenchConfig) -> BenchResult,
    mut report: impl FnMut(&BenchSummary) -> ControlFlow<()>,
) {
    let mut start = 0;
    while start < configs.len() {
        let mut end = start + 1;
        while end < configs.len() && same_but_threads(&configs[start], &configs[end]) {
            end += 1;
        }
        let group = &configs[start..end];
        let mut runs: Vec<Vec<BenchResult>> = vec![Vec::new(); group.len()];
        for _ in 0..repeat.max(1) {
            for (config, runs) in group.iter().zip(&mut runs) {
                runs.push(run(config));
            }
        }
        let summaries: Vec<BenchSummary> = runs.into_iter().map(BenchSummary::of).collect();
        let one_thread = summaries.iter().find(|s| s.total.threads == 1).map(BenchSummary::median_rate);
        for mut s in summaries {
            s.vs_one_thread = one_thread.filter(|&r| r > 0.0).map(|r| s.median_rate() / r);
            if report(&s).is_break() {
                return;
            }
        }
        start = end;
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
    for variant in ["go", "stones", "stoical", "war"] {
        let rules = RulesConfig::parse(variant).expect("variant names parse");
        let war = rules.variant() == Variant::War;
        for size in [9, 19] {
            for policy in [Policy::Light, Policy::Heavy] {
                // War Go has one playout policy (`search::war`): one row per size, shown as light.
                if war && policy == Policy::Heavy {
                    continue;
                }
                for &t in &threads {
                    suite.push(BenchConfig {
                        rules: rules.clone(),
                        start: AnyGame::new(&rules, size),
                        threads: t,
                        policy,
                        mode,
                        duration,
                        seed,
                        mercy: false,
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
        _ if config.rules.variant() == Variant::War => war_playouts(config),
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
        // Stones has no mercy rule (its games end by decisive captures).
        mercy: config.mercy && config.rules.variant() != crate::rules::Variant::Stones,
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
                playout.mercy(config.mercy);
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
            own_last_move: crate::board::Point::NONE,
            opponent_passed: false,
            started: Instant::now(),
        };
        let search_config = crate::search::SearchConfig {
            threads: config.threads,
            policy: config.policy,
            seed: config.seed,
            mercy: config.mercy,
            ..crate::search::SearchConfig::default()
        };
        let limits = crate::search::Limits {
            playouts: None,
            time: Some(crate::search::TimeLimit::fixed(config.duration)),
            early_stop: false,
        };
        let mut tree = crate::search::Tree::with_megabytes(SEARCH_TREE_MB);
        let report = crate::search::search(
            &input,
            &mut tree,
            &search_config,
            &crate::search::ThinkRequest::new(limits),
            &|| false,
            &mut |_| {},
        );
        (report.playouts, report.playout_moves, report.elapsed)
    })
}

/// War Go (RULES.md 7) from its start position: bare playouts or its search (root-parallel) on
/// `config.threads` threads, for `config.duration`: (playouts, playout moves, elapsed).
fn war_playouts(config: &BenchConfig) -> (u64, u64, Duration) {
    use crate::rules::war::WarGame;
    use crate::search::war::{search_parallel, WarLimits, WarPlayout};
    let game = WarGame::new(config.rules.war(), config.start.board().size(), &config.rules.walls);
    if config.mode == BenchMode::Search {
        let limits = WarLimits { playouts: None, time: Some(config.duration) };
        let report = search_parallel(&game, crate::board::Color::Black, limits, config.seed, config.threads);
        return (report.playouts, report.playout_moves, report.elapsed);
    }
    let stop = AtomicBool::new(false);
    let playouts = AtomicU64::new(0);
    let moves = AtomicU64::new(0);
    let began = Instant::now();
    let start = game.position();
    std::thread::scope(|scope| {
        for t in 0..config.threads {
            let (stop, playouts, moves) = (&stop, &playouts, &moves);
            scope.spawn(move || {
                let mut playout = WarPlayout::new(start, game.config.komi);
                let mut pos = start.clone();
                let mut rng =
                    Rng::seed_from_u64(config.seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let (mut n, mut m) = (0u64, 0u64);
                while !stop.load(Ordering::Relaxed) {
                    pos.clone_from(start);
                    playout.run(&mut pos, &mut rng);
                    m += (pos.ply - start.ply) as u64;
                    n += 1;
                }
                playouts.fetch_add(n, Ordering::Relaxed);
                moves.fetch_add(m, Ordering::Relaxed);
            });
        }
        std::thread::sleep(config.duration);
        stop.store(true, Ordering::Relaxed);
    });
    (playouts.into_inner(), moves.into_inner(), began.elapsed())
}

/// Memory of the search benchmark's tree.
const SEARCH_TREE_MB: usize = 512;

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for `run`: as many playouts per second as 1000 times the thread count, slower on
    /// every second call (a noisy machine), with the calls recorded.
    fn fake(calls: &mut Vec<(usize, Policy)>) -> impl FnMut(&BenchConfig) -> BenchResult + '_ {
        move |c: &BenchConfig| {
            calls.push((c.threads, c.policy));
            let slow = calls.len().is_multiple_of(2);
            BenchResult {
                rules: c.rules.to_string(),
                size: c.start.board().size(),
                threads: c.threads,
                policy: c.policy,
                mode: c.mode,
                mercy: c.mercy,
                playouts: 1000 * c.threads as u64 / if slow { 2 } else { 1 },
                moves: 50_000,
                seconds: 1.0,
            }
        }
    }

    fn suite(threads: &[usize]) -> Vec<BenchConfig> {
        standard_suite(BenchMode::Playout, Duration::ZERO, 1, 0)
            .into_iter()
            .filter(|c| c.rules.variant() == crate::rules::Variant::Go && c.start.board().size() == 9)
            .flat_map(|c| threads.iter().map(move |&t| BenchConfig { threads: t, ..c.clone() }))
            .collect()
    }

    #[test]
    fn thread_counts_of_a_configuration_take_turns() {
        let mut calls = Vec::new();
        let mut reported = Vec::new();
        measure(&suite(&[1, 2]), 3, fake(&mut calls), |s| {
            reported.push(s.clone());
            ControlFlow::Continue(())
        });
        let (l, h) = (Policy::Light, Policy::Heavy);
        assert_eq!(
            calls,
            [(1, l), (2, l), (1, l), (2, l), (1, l), (2, l), (1, h), (2, h), (1, h), (2, h), (1, h), (2, h)]
        );
        assert_eq!(reported.len(), 4);
        // Light, one thread: calls 1, 3, 5 (all fast); two threads: calls 2, 4, 6 (all slow).
        let (one, two) = (&reported[0], &reported[1]);
        assert_eq!(one.rates, [1000.0, 1000.0, 1000.0]);
        assert_eq!(two.rates, [1000.0, 1000.0, 1000.0]);
        assert_eq!((one.total.playouts, one.total.seconds, one.total.moves), (3000, 3.0, 150_000));
        assert_eq!((one.vs_one_thread, two.vs_one_thread), (Some(1.0), Some(1.0)));
    }

    #[test]
    fn a_report_that_breaks_stops_the_measuring() {
        let mut calls = Vec::new();
        let mut reported = 0;
        measure(&suite(&[1, 2]), 1, fake(&mut calls), |_| {
            reported += 1;
            ControlFlow::Break(())
        });
        // The light group's two runs, one report, and nothing of the heavy group.
        assert_eq!((calls.len(), reported), (2, 1));
    }

    #[test]
    fn the_median_ignores_one_bad_run_and_the_speed_up_needs_one_thread() {
        let mut calls = Vec::new();
        let mut reported = Vec::new();
        // One configuration per group: every call alternates fast and slow.
        measure(&suite(&[2]), 3, fake(&mut calls), |s| {
            reported.push(s.clone());
            ControlFlow::Continue(())
        });
        let light = &reported[0];
        assert_eq!(light.rates, [2000.0, 1000.0, 2000.0]);
        assert_eq!(light.median_rate(), 2000.0);
        assert_eq!(light.vs_one_thread, None, "no one-thread measurement to compare with");
        let even = BenchSummary { rates: vec![1.0, 4.0, 2.0, 3.0], ..light.clone() };
        assert_eq!(even.median_rate(), 2.5);
    }
}
