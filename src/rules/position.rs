//! A position: everything the rules need to judge the next move, except the history of earlier board
//! positions (kept by `Game`). Playouts copy and play positions directly.

use super::{EndReason, Move, Outcome, Rules};
use crate::board::{Board, ByColor, Color};

/// The board of a position under rules `R`: of their shape.
pub type BoardOf<R> = Board<<R as Rules>::Topology>;

/// Board, side to move, prisoners, the variant's own state and, once decided, the outcome.
#[derive(Debug)]
pub struct Position<R: Rules> {
    pub board: BoardOf<R>,
    pub to_move: Color,
    /// Prisoners held by each colour (Stones: White's include the compensation).
    pub prisoners: ByColor<u32>,
    /// Consecutive passes just played.
    pub passes: u8,
    /// The variant's own state (button owner, last capture, ...).
    pub extra: R::Extra,
    pub outcome: Option<Outcome>,
    /// Moves played since the start (for move caps and statistics).
    pub ply: u32,
}

impl<R: Rules> Clone for Position<R> {
    fn clone(&self) -> Self {
        Position {
            board: self.board.clone(),
            to_move: self.to_move,
            prisoners: self.prisoners,
            passes: self.passes,
            extra: self.extra.clone(),
            outcome: self.outcome,
            ply: self.ply,
        }
    }

    /// Copies without allocating (the playout loop relies on this).
    fn clone_from(&mut self, src: &Self) {
        self.board.clone_from(&src.board);
        self.to_move = src.to_move;
        self.prisoners = src.prisoners;
        self.passes = src.passes;
        self.extra.clone_from(&src.extra);
        self.outcome = src.outcome;
        self.ply = src.ply;
    }
}

impl<R: Rules> Position<R> {
    /// The start position of a game under `rules` on `board`.
    pub fn new(rules: &R, board: BoardOf<R>) -> Position<R> {
        let mut pos = Position {
            board,
            to_move: Color::Black,
            prisoners: ByColor::default(),
            passes: 0,
            extra: R::Extra::default(),
            outcome: None,
            ply: 0,
        };
        rules.init(&mut pos);
        pos
    }

    #[inline]
    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// Lifts the end of a game ended by two passes, so that a further move goes on from here (other
    /// endings stay): `Game::play` resumes such a game, and the search starts from it.
    pub fn resume(&mut self) {
        if self.outcome.is_some_and(|o| o.reason == EndReason::TwoPasses) {
            self.outcome = None;
            self.passes = 0;
        }
    }

    /// Own prisoners minus the opponent's (the Stones lead).
    #[inline]
    pub fn lead(&self, c: Color) -> i32 {
        self.prisoners[c] as i32 - self.prisoners[c.opponent()] as i32
    }

    /// Plays a move that `check` accepted and passes the turn.
    #[inline]
    pub fn play(&mut self, rules: &R, color: Color, mv: Move) -> crate::board::Placement {
        self.play_with::<true>(rules, color, mv)
    }

    /// `play` on a playout's scratch position, whose board has stopped keeping its hash
    /// (`Board::let_hash_go_stale`); in go and Stoical its prisoners stop being counted too
    /// (`Rules::apply`).
    #[inline]
    pub fn play_unhashed(&mut self, rules: &R, color: Color, mv: Move) -> crate::board::Placement {
        self.play_with::<false>(rules, color, mv)
    }

    #[inline(always)]
    fn play_with<const GAME: bool>(&mut self, rules: &R, color: Color, mv: Move) -> crate::board::Placement {
        let placed = rules.apply::<GAME>(self, color, mv);
        self.to_move = color.opponent();
        self.ply += 1;
        placed
    }

    /// Checks `mv` for `color` by every rule that needs no history (everything but superko).
    #[inline]
    pub fn check(&self, rules: &R, color: Color, mv: Move) -> Result<(), super::Illegal> {
        if self.outcome.is_some() {
            return Err(super::Illegal::GameOver);
        }
        if let Move::Place(p) | Move::Stake(p) = mv {
            // Refuse points outside this board's padded array (another board's points, garbage) before
            // any lookup; border cells and walls are both `Wall` cells.
            if p.idx() >= self.board.geometry().cells() || self.board.cell(p) == crate::board::Cell::Wall {
                return Err(super::Illegal::OffBoard);
            }
        }
        if let Move::Place(p) = mv {
            if !self.board.is_empty_point(p) {
                return Err(super::Illegal::Occupied);
            }
        }
        rules.check(self, color, mv)
    }
}
