//! Rules: what is legal, what a move does beyond the board's physics, and when and how a game ends.
//!
//! `Rules` is implemented by plain data per variant (`Standard`, `Stones`, `Stoical`); `Position<R>` and
//! `Game<R>` are generic over it, so each variant gets its own monomorphized code and nothing in the hot
//! path dispatches dynamically. `AnyGame` is the one enum that picks the variant at the GTP boundary.

mod any;
mod config;
mod game;
pub mod handicap;
mod moves;
mod outcome;
mod position;
pub mod scoring;
mod standard;
mod stoical;
mod stones;
pub mod war;

pub use any::AnyGame;
pub use config::{checked_komi, Komi, RulesConfig, RulesError, VariantConfig};
pub use game::{Game, Setup};
pub use moves::{Illegal, Move};
pub use outcome::{format_margin, EndReason, Outcome};
pub use position::{BoardOf, Position};
pub use standard::{KoRule, Scoring, Standard};
pub use stoical::{Stoical, StoicalState};
pub use stones::Stones;

use crate::board::{Color, Placement, Point, Topology};
use std::fmt::Debug;

/// The variants tengen plays.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
pub enum Variant {
    Go,
    Stones,
    Stoical,
    /// Phantom Go (RULES.md 5.2): standard Go (area, positional superko, no suicide) in which each
    /// player sees only its own stones. Its games are `AnyGame::Go`; the hidden information is the
    /// engine's (`engine::phantom`) and the match referee's (`selfplay::phantom`).
    Phantom,
    /// War Go (RULES.md section 7): special pieces dropped and moved. Its games are
    /// `war::WarGame`, kept by the engine beside an unused `AnyGame::Go` (`engine::war`).
    War,
}

impl Variant {
    /// The name used in rules strings.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Go => "go",
            Variant::Stones => "stones",
            Variant::Stoical => "stoical",
            Variant::Phantom => "phantom",
            Variant::War => "war",
        }
    }

    /// The id GoGui's rules protocol shows (`gogui-rules_game_id`).
    pub fn game_id(self) -> &'static str {
        match self {
            Variant::Go => "Go",
            Variant::Stones => "Stones",
            Variant::Stoical => "Stoical",
            Variant::Phantom => "Phantom",
            Variant::War => "War",
        }
    }
}

/// How a repeated board position is treated, judged by `Game` against its history.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Repetition {
    /// Only the immediate single-stone ko recapture is illegal (checked by the position alone).
    SimpleKo,
    /// No placement may recreate any earlier board position.
    Positional,
    /// No placement may recreate an earlier board position with the same player to move.
    Situational,
    /// A placement that recreates an earlier position ends the game in a draw (Stoical Go).
    Draw,
}

/// One variant's rules. Implementations are plain data (options); their per-game state is `Extra`.
pub trait Rules: Clone + Debug + Send + Sync + 'static {
    /// State the variant keeps beside the board (button owner, last capture, ...).
    type Extra: Clone + Debug + Default + PartialEq + Send + Sync;

    /// The board's shape (`Flat` or `Torus`): part of the rules' type, so that each shape compiles
    /// its own loop, as each variant does.
    type Topology: Topology;

    const VARIANT: Variant;

    /// Sets up a new game's position (e.g. Stones' compensation prisoners).
    fn init(&self, _pos: &mut Position<Self>) {}

    /// Is `mv` legal for `color`, judged from the position alone? `Position::check` has already
    /// refused occupied points and finished games. Repetition against the history is `Game`'s job.
    fn check(&self, pos: &Position<Self>, color: Color, mv: Move) -> Result<(), Illegal>;

    /// Plays a move that `check` accepted: board, prisoners, passes, `extra`, and the outcome when the
    /// move itself ends the game (two passes, a decisive capture). Returns what the placement did.
    /// `GAME` is `false` only on a playout's scratch position, which keeps what the playout needs and
    /// no more: its placements go through `Board::place::<false>` (no hash), and go and Stoical do
    /// not count its prisoners (a playout's end is counted by area, its territory correction is
    /// read at its start, `Simulate::start_offset`, and the mercy rule counts the captures itself;
    /// the adds were about 1% of a light 9x9 iteration's instructions). Stones keeps them: its
    /// playouts play by them. Everything else passes `true`.
    fn apply<const GAME: bool>(&self, pos: &mut Position<Self>, color: Color, mv: Move) -> Placement;

    /// How repeated positions are judged.
    fn repetition(&self) -> Repetition;

    /// The move a GTP `pass` stands for when `color` sends it (button, return, stake or pass).
    fn pass_move(&self, pos: &Position<Self>, color: Color) -> Move;

    /// Does the player to move lose when no move at all is legal (Stones), rather than never being
    /// without one (a pass is always legal)?
    fn loses_without_moves(&self) -> bool {
        false
    }

    /// The score of the position with `dead` stones removed, as an outcome (area or territory).
    /// Stones has no score: it answers the outcome the game reached, if any.
    fn score(&self, pos: &Position<Self>, dead: &[Point]) -> Option<Outcome>;

    /// Komi, where the variant has one.
    fn komi(&self) -> f64;

    /// These rules with `extra` points more komi for White, where the variant has a komi (the
    /// engine's dynamic komi in handicap games); unchanged where it has none.
    fn with_extra_komi(&self, _extra: f64) -> Self {
        self.clone()
    }
}
