//! `AnyGame`: the one place where the variant is chosen at run time, once per GTP command.

use super::{Game, Illegal, Move, Outcome, Position, RulesConfig, Setup, Standard, Stoical, Stones, Variant};
use crate::board::{AnyTopology, Board, Color, Placement, Point, Torus};

/// A game of whichever variant the rules configuration selects, on a flat board or a torus.
#[derive(Debug, Clone)]
pub enum AnyGame {
    Go(Game<Standard>),
    Stones(Game<Stones>),
    Stoical(Game<Stoical>),
    /// The same variants on a torus (`torus=on`, RULES.md 5.1).
    GoTorus(Game<Standard<Torus>>),
    StonesTorus(Game<Stones<Torus>>),
    StoicalTorus(Game<Stoical<Torus>>),
}

/// Runs `$body` with `$g` bound to the variant's `Game<R>` (monomorphized for each variant).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::rules::AnyGame::Go($g) => $body,
            $crate::rules::AnyGame::Stones($g) => $body,
            $crate::rules::AnyGame::Stoical($g) => $body,
            $crate::rules::AnyGame::GoTorus($g) => $body,
            $crate::rules::AnyGame::StonesTorus($g) => $body,
            $crate::rules::AnyGame::StoicalTorus($g) => $body,
        }
    };
}

impl AnyGame {
    /// A new game of `config`'s variant on an empty `size` board with its walls.
    /// (A torus is at least 3x3: `RulesConfig::min_size`.)
    pub fn new(config: &RulesConfig, size: usize) -> AnyGame {
        if config.torus {
            return match config.variant() {
                // Phantom Go takes no `torus` option (`RulesConfig::parse`).
                Variant::Go | Variant::Phantom | Variant::War => {
                    AnyGame::GoTorus(Game::new(config.standard().on(), config.board(size)))
                }
                Variant::Stones => AnyGame::StonesTorus(Game::new(config.stones().on(), config.board(size))),
                Variant::Stoical => {
                    AnyGame::StoicalTorus(Game::new(config.stoical().on(), config.board(size)))
                }
            };
        }
        match config.variant() {
            // Phantom Go's true game is standard Go under fixed options (`RulesConfig::standard`).
            // War Go's game is the engine's `WarGame`; this plain board only stands beside it.
            Variant::Go | Variant::Phantom | Variant::War => {
                AnyGame::Go(Game::new(config.standard(), config.board(size)))
            }
            Variant::Stones => AnyGame::Stones(Game::new(config.stones(), config.board(size))),
            Variant::Stoical => AnyGame::Stoical(Game::new(config.stoical(), config.board(size))),
        }
    }

    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Go(_) | AnyGame::GoTorus(_) => Variant::Go,
            AnyGame::Stones(_) | AnyGame::StonesTorus(_) => Variant::Stones,
            AnyGame::Stoical(_) | AnyGame::StoicalTorus(_) => Variant::Stoical,
        }
    }

    /// Is the game played on a torus?
    pub fn is_torus(&self) -> bool {
        self.board().is_torus()
    }

    /// The board, of either shape (`Board::as_any`).
    pub fn board(&self) -> &Board<AnyTopology> {
        with_game!(self, g => g.board().as_any())
    }

    pub fn to_move(&self) -> Color {
        with_game!(self, g => g.to_move())
    }

    pub fn prisoners(&self, c: Color) -> u32 {
        with_game!(self, g => g.position().prisoners[c])
    }

    pub fn moves(&self) -> &[(Color, Move)] {
        with_game!(self, g => g.moves())
    }

    pub fn setup(&self) -> &Setup {
        with_game!(self, g => g.setup())
    }

    pub fn outcome(&self) -> Option<Outcome> {
        with_game!(self, g => g.outcome())
    }

    pub fn is_over(&self) -> bool {
        with_game!(self, g => g.is_over())
    }

    pub fn is_closed(&self) -> bool {
        with_game!(self, g => g.is_closed())
    }

    pub fn check(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        with_game!(self, g => g.check(color, mv))
    }

    pub fn check_play(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        with_game!(self, g => g.check_play(color, mv))
    }

    pub fn play(&mut self, color: Color, mv: Move) -> Result<Placement, Illegal> {
        with_game!(self, g => g.play(color, mv))
    }

    pub fn replay(&mut self, color: Color, mv: Move) -> Result<Option<Illegal>, Illegal> {
        with_game!(self, g => g.replay(color, mv))
    }

    pub fn undo(&mut self) -> bool {
        with_game!(self, g => g.undo())
    }

    pub fn pass_move(&self, color: Color) -> Move {
        with_game!(self, g => g.pass_move(color))
    }

    pub fn legal_moves(&self, color: Color) -> Vec<Move> {
        with_game!(self, g => g.legal_moves(color))
    }

    pub fn resign(&mut self, color: Color) {
        with_game!(self, g => g.resign(color))
    }

    pub fn set_outcome(&mut self, outcome: Outcome) {
        with_game!(self, g => g.set_outcome(outcome))
    }

    pub fn set_handicap(&mut self, stones: &[Point]) -> Result<(), Illegal> {
        with_game!(self, g => g.set_handicap(stones))
    }

    pub fn set_up(&mut self, setup: &Setup) -> Result<(), Illegal> {
        with_game!(self, g => g.set_up(setup))
    }

    pub fn score(&self, dead: &[Point]) -> Option<Outcome> {
        with_game!(self, g => g.score(dead))
    }

    /// Stakes on the group through `p` (Stones; 0 elsewhere).
    pub fn stakes(&self, p: Point) -> u32 {
        self.board().chain_stakes(p)
    }

    /// The position, for code generic over the variant.
    pub fn ply(&self) -> u32 {
        with_game!(self, g => { let pos: &Position<_> = g.position(); pos.ply })
    }
}
