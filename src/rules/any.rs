//! `AnyGame`: the one place where the variant is chosen at run time, once per GTP command.

use super::{Game, Illegal, Move, Outcome, Position, RulesConfig, Setup, Standard, Stoical, Stones, Variant};
use crate::board::{Board, Color, Placement, Point};

/// A game of whichever variant the rules configuration selects.
#[derive(Debug, Clone)]
pub enum AnyGame {
    Go(Game<Standard>),
    Stones(Game<Stones>),
    Stoical(Game<Stoical>),
}

/// Runs `$body` with `$g` bound to the variant's `Game<R>` (monomorphized for each variant).
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::rules::AnyGame::Go($g) => $body,
            $crate::rules::AnyGame::Stones($g) => $body,
            $crate::rules::AnyGame::Stoical($g) => $body,
        }
    };
}

impl AnyGame {
    /// A new game of `config`'s variant on an empty `size` board with its walls.
    pub fn new(config: &RulesConfig, size: usize) -> AnyGame {
        let board = config.board(size);
        match config.variant() {
            // Phantom Go's true game is standard Go under fixed options (`RulesConfig::standard`).
            Variant::Go | Variant::Phantom => AnyGame::Go(Game::new(config.standard(), board)),
            Variant::Stones => AnyGame::Stones(Game::new(config.stones(), board)),
            Variant::Stoical => AnyGame::Stoical(Game::new(config.stoical(), board)),
        }
    }

    pub fn variant(&self) -> Variant {
        match self {
            AnyGame::Go(_) => Variant::Go,
            AnyGame::Stones(_) => Variant::Stones,
            AnyGame::Stoical(_) => Variant::Stoical,
        }
    }

    pub fn board(&self) -> &Board {
        with_game!(self, g => g.board())
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

    pub fn check(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        with_game!(self, g => g.check(color, mv))
    }

    pub fn check_play(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        with_game!(self, g => g.check_play(color, mv))
    }

    pub fn play(&mut self, color: Color, mv: Move) -> Result<Placement, Illegal> {
        with_game!(self, g => g.play(color, mv))
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
