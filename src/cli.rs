//! Command-line options shared by every front end that runs an engine (`tengen gtp`, and each side of
//! `tengen selfplay` / `tengen match`, whose `--black`/`--white` strings are parsed with the same flags).

use crate::engine::{duration_from_secs, DynamicKomi, EngineOptions, PolicyChoice};
use crate::rules::RulesConfig;
use clap::{Args, ValueEnum};

/// Playout policy as named on the command line.
#[derive(Copy, Clone, PartialEq, Eq, Debug, ValueEnum)]
pub enum PolicyArg {
    Light,
    Heavy,
}

/// The engine's flags.
#[derive(Args, Clone, Debug)]
pub struct EngineArgs {
    /// Rules string: VARIANT[:key=value,...], e.g. `go:scoring=territory,ko=positional`,
    /// `stones:threshold=7,compensation=6`, `stoical:snapback=on`; any of them with `walls=C3+G7`
    /// or `torus=on` (the edges wrap).
    /// Run `tengen gtp` and send `tengen-rules` to see every option with its default.
    #[arg(long, default_value = "go", value_parser = parse_rules)]
    pub rules: RulesConfig,
    /// Initial board size (a controller normally sends `boardsize`) [default: 19, 11 on a torus, 9
    /// under `--rules phantom`].
    #[arg(long, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub size: Option<u8>,
    /// Seed for every random choice: with one thread, the same seed and a playout limit give the
    /// same moves every time, in every game of the session. Default: a new seed from the system's
    /// entropy, and a new one for each later game, which `tengen gtp` prints on stderr so that any
    /// game can be replayed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Search threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: Option<u16>,
    /// Playouts per move (default: none when a clock or `--time` limits the search, otherwise 10000).
    #[arg(long, value_parser = parse_positive_count)]
    pub playouts: Option<u64>,
    /// Seconds per move when the controller sets no clock.
    #[arg(long, value_parser = parse_positive_seconds)]
    pub time: Option<f64>,
    /// Playout policy.
    #[arg(long, value_enum, default_value_t = PolicyArg::Heavy)]
    pub policy: PolicyArg,
    /// Memory bound of the search tree, in MiB: when full, the search goes on without growing.
    #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_tree_mb: u64,
    /// Resign below this win rate (0..1), or `off`.
    #[arg(long, default_value = "0.1", value_parser = parse_resign)]
    pub resign: ResignArg,
    /// Seconds kept in reserve on every clock reading, for network and process lag.
    #[arg(long, default_value_t = 0.3, value_parser = parse_seconds)]
    pub lag: f64,
    /// Think on the opponent's time.
    #[arg(long)]
    pub ponder: bool,
    /// Dynamic komi in handicap games: B or B,W points of extra komi per handicap stone that the
    /// engine's move searches start with when it plays Black (receives the handicap) and White,
    /// fading out by move 100 on 19x19; or `off`.
    #[arg(long, default_value = "7", value_parser = <DynamicKomi as std::str::FromStr>::from_str)]
    pub dynamic_komi: DynamicKomi,
    /// The playouts' mercy rule (go and Stoical): a playout ends as soon as one side leads by 30% of
    /// the board's points in stones on the board, also beyond komi; `on` or `off`. Faster on small
    /// boards; the scores reported shrink toward zero in one-sided positions.
    #[arg(long, default_value = "off", value_parser = parse_on_off, action = clap::ArgAction::Set)]
    pub mercy: bool,
}

/// `--resign`: a threshold or off.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct ResignArg(pub Option<f64>);

fn parse_rules(s: &str) -> Result<RulesConfig, String> {
    RulesConfig::parse(s).map_err(|e| format!("unknown rules: {e}"))
}

pub(crate) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if (0.0..=1e7).contains(&v) => Ok(v),
        _ => Err(format!("'{s}' is not a number of seconds")),
    }
}

/// A count of at least one (playouts, games): clap's own range check would answer
/// `0 is not in 1..18446744073709551615`.
pub(crate) fn parse_positive_count(s: &str) -> Result<u64, String> {
    match s.parse::<u64>() {
        Ok(n) if n >= 1 => Ok(n),
        Ok(_) => Err("must be at least 1".to_string()),
        Err(_) => Err(format!("'{s}' is not a whole number")),
    }
}

/// Seconds that must be more than zero: a time per move of nothing cannot be searched.
pub(crate) fn parse_positive_seconds(s: &str) -> Result<f64, String> {
    match parse_seconds(s)? {
        v if v > 0.0 => Ok(v),
        _ => Err("must be more than zero seconds".to_string()),
    }
}

pub(crate) fn parse_on_off(s: &str) -> Result<bool, String> {
    match s.to_ascii_lowercase().as_str() {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("'{s}' is neither on nor off")),
    }
}

fn parse_resign(s: &str) -> Result<ResignArg, String> {
    if s.eq_ignore_ascii_case("off") || s.eq_ignore_ascii_case("never") {
        return Ok(ResignArg(None));
    }
    match s.parse::<f64>() {
        Ok(v) if (0.0..1.0).contains(&v) => Ok(ResignArg(Some(v))),
        _ => Err(format!("'{s}' is not a win rate between 0 and 1, nor off")),
    }
}

/// A seed from the system's entropy (the operating system's random source), for a run that was
/// given none: two runs then play different games, and the seed, once printed, replays either.
pub fn entropy_seed() -> u64 {
    use rand::RngCore;
    rand::rngs::OsRng.next_u64()
}

impl EngineArgs {
    /// The board size to start on: `--size`, else the rules' own (`RulesConfig::default_size`).
    pub fn size(&self) -> usize {
        self.size.map_or_else(|| self.rules.default_size(), usize::from)
    }

    /// Does the size fit `--rules` (a torus is at least 3x3)? Walls off the board are left out of
    /// it, as `boardsize` leaves them.
    pub fn check(&self) -> Result<(), String> {
        match self.size() < self.rules.min_size() {
            true => Err(format!("--size {}: a torus is at least 3x3", self.size())),
            false => Ok(()),
        }
    }

    /// The engine options these flags describe; without `--seed`, a seed from the system's entropy
    /// (`EngineOptions::seed` says which).
    pub fn options(&self) -> EngineOptions {
        EngineOptions {
            rules: self.rules.clone(),
            size: self.size(),
            seed: self.seed.unwrap_or_else(entropy_seed),
            seed_each_game: self.seed.is_none(),
            threads: self.threads.map(usize::from),
            playouts: self.playouts,
            time_per_move: self.time.map(duration_from_secs),
            policy: match self.policy {
                PolicyArg::Light => PolicyChoice::Light,
                PolicyArg::Heavy => PolicyChoice::Heavy,
            },
            max_tree_mb: self.max_tree_mb as usize,
            resign_threshold: self.resign.0,
            lag: duration_from_secs(self.lag),
            ponder: self.ponder,
            dynamic_komi: self.dynamic_komi,
            mercy: self.mercy,
        }
    }
}
