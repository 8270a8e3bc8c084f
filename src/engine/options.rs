//! Settings fixed when an engine starts: rules, seed, and the search's limits and knobs.

use crate::rules::RulesConfig;
use std::time::Duration;

/// Points of dynamic komi per handicap stone (about half a stone's worth, the classic 7 points a
/// stone: Baudiš 2011).
pub const DEFAULT_DYNAMIC_KOMI: f64 = 7.0;

/// Which playout policy the search uses.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub enum PolicyChoice {
    /// Uniformly random moves that do not fill own eyes.
    Light,
    /// Captures, atari escapes, 3x3 patterns, self-atari avoidance.
    #[default]
    Heavy,
}

/// Everything an engine is started with (the command line of `tengen gtp`, or one side of a match).
#[derive(Clone, Debug)]
pub struct EngineOptions {
    pub rules: RulesConfig,
    pub size: usize,
    pub seed: u64,
    /// Search threads; `None`: all cores.
    pub threads: Option<usize>,
    /// Playouts per move; `None`: limited by time only.
    pub playouts: Option<u64>,
    /// Thinking time per move when the controller sets no clock.
    pub time_per_move: Option<Duration>,
    pub policy: PolicyChoice,
    /// Bound on the search tree's memory.
    pub max_tree_mb: usize,
    /// Resign when the win rate falls below this; `None`: never resign.
    pub resign_threshold: Option<f64>,
    /// Safety margin subtracted from every clock reading (network and process lag).
    pub lag: Duration,
    /// Search on the opponent's time.
    pub ponder: bool,
    /// Dynamic komi in handicap games: points of extra komi per handicap stone that the move
    /// searches start with, fading out over the opening (`Engine::komi_shift`); `None`: off.
    pub dynamic_komi: Option<f64>,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            rules: RulesConfig::default(),
            size: 19,
            seed: 0,
            threads: None,
            playouts: None,
            time_per_move: None,
            policy: PolicyChoice::default(),
            max_tree_mb: 1024,
            resign_threshold: Some(0.1),
            lag: Duration::from_millis(300),
            ponder: false,
            dynamic_komi: Some(DEFAULT_DYNAMIC_KOMI),
        }
    }
}
