//! Settings fixed when an engine starts: rules, seed, and the search's limits and knobs.

use crate::board::Color;
use crate::rules::RulesConfig;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// Dynamic komi in handicap games (`Engine::komi_shift`): the points of extra komi per handicap
/// stone that the engine's move searches start with, by the colour the engine plays. Written `B`,
/// `B,W` or `off`, e.g. `7` (Black 7, White 0) or `7,1`.
///
/// The defaults are close to Pachi's (8 points a stone for Black, 1 for White) and follow what could
/// be measured (docs/strength.md): on 13x13 with 7 stones, a tengen of 300 playouts a move as Black
/// won 30% of 50 games against one of 3,000 that never resigned with 7 points a stone, 18% without;
/// the stronger one as White won 70 to 78% of 50 to 100 games whether it gave itself 0, 2 or 7
/// points a stone, so White gets none.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct DynamicKomi {
    pub black: f64,
    pub white: f64,
}

impl DynamicKomi {
    pub const OFF: DynamicKomi = DynamicKomi { black: 0.0, white: 0.0 };

    /// Points per handicap stone when the engine plays `color`.
    pub fn per_stone(&self, color: Color) -> f64 {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }
}

impl Default for DynamicKomi {
    fn default() -> Self {
        DynamicKomi { black: 7.0, white: 0.0 }
    }
}

impl fmt::Display for DynamicKomi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == DynamicKomi::OFF {
            f.write_str("off")
        } else if self.white == 0.0 {
            write!(f, "{}", self.black)
        } else {
            write!(f, "{},{}", self.black, self.white)
        }
    }
}

impl FromStr for DynamicKomi {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        if s.eq_ignore_ascii_case("off") {
            return Ok(DynamicKomi::OFF);
        }
        let bad = || format!("'{s}' is not B or B,W (points per handicap stone from 0 to 100), nor off");
        let points =
            |v: &str| v.trim().parse::<f64>().ok().filter(|x| (0.0..=100.0).contains(x)).ok_or_else(bad);
        match s.split_once(',') {
            None => Ok(DynamicKomi { black: points(s)?, white: 0.0 }),
            Some((b, w)) => Ok(DynamicKomi { black: points(b)?, white: points(w)? }),
        }
    }
}

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
    /// Each later game of the session draws a seed of its own from `seed` (`Engine::clear_board`):
    /// for a seed drawn from the system's entropy, so that a controller keeping one process for
    /// many games (gogui-twogtp) does not get the same game again. With a seed given (`--seed`) it
    /// is off: every game is played with that seed, whatever the process played before, so a game
    /// replays alone and a sharded match's opponent plays each game as the whole run would.
    pub seed_each_game: bool,
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
    /// Dynamic komi in handicap games.
    pub dynamic_komi: DynamicKomi,
    /// Move searches end playouts by the mercy rule (`SearchConfig::mercy`).
    pub mercy: bool,
}

impl EngineOptions {
    /// The search threads: `threads`, or all cores.
    pub fn search_threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            rules: RulesConfig::default(),
            size: 19,
            seed: 0,
            seed_each_game: false,
            threads: None,
            playouts: None,
            time_per_move: None,
            policy: PolicyChoice::default(),
            max_tree_mb: 1024,
            resign_threshold: Some(0.1),
            lag: Duration::from_millis(300),
            ponder: false,
            dynamic_komi: DynamicKomi::default(),
            mercy: false,
        }
    }
}
