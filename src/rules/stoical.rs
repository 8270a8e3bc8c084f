//! Stoical Go (RULES.md section 4): area scoring, no ko rule, no capture right after the opponent's
//! capture (optionally except a snapback's second capture), and a repeated position ends in a draw.

use super::scoring::count;
use super::{EndReason, Illegal, Move, Outcome, Position, Repetition, Rules, Variant};
use crate::board::{Cell, Color, Flat, Placement, Point, Topology};
use std::marker::PhantomData;

/// The board's shape is a type parameter, as in `Standard`.
#[derive(Clone, PartialEq, Debug)]
pub struct Stoical<T: Topology = Flat> {
    pub snapback: bool,
    pub komi: f64,
    pub topology: PhantomData<T>,
}

impl Default for Stoical {
    fn default() -> Self {
        Stoical { snapback: false, komi: 7.5, topology: PhantomData }
    }
}

/// What the capture restriction needs to know about the previous move.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct StoicalState {
    /// The colour whose placement just captured, if the previous move was a capture.
    pub last_capture: Option<Color>,
    /// When that capture could be a snapback's first capture (one stone taken by a stone that joined an
    /// existing group): the point it vacated and the capturing stone.
    pub snapback_first: Option<(Point, Point)>,
}

impl<T: Topology> Stoical<T> {
    /// The same rules on a board of shape `U`.
    pub fn on<U: Topology>(self) -> Stoical<U> {
        Stoical { snapback: self.snapback, komi: self.komi, topology: PhantomData }
    }

    /// Is `color` at `p` the second capture of a snapback: on the point just vacated, capturing the
    /// capturing group, and keeping at least two liberties afterwards?
    fn is_snapback_reply(&self, pos: &Position<Self>, color: Color, p: Point) -> bool {
        let Some((vacated, capturer)) = pos.extra.snapback_first else { return false };
        // The capturing group's last liberty is `p`, so the placement takes it; the new chain's
        // liberties after that capture are read without playing it (a copy of the board would
        // allocate, and playouts ask this).
        p == vacated
            && pos.board.cell(capturer) == Cell::stone(color.opponent())
            && pos.board.atari_liberty(capturer) == Some(p)
            && pos.board.liberties_after_up_to(color, p, 2) >= 2
    }

    /// Does the capture restriction forbid `color` at `p`, the opponent's last placement having
    /// captured? Out of line, so that `check`, which playouts ask of every point they probe, is
    /// small enough to be inlined into the playout loop: with this inside it was not, and every
    /// probe paid for a call.
    #[inline(never)]
    fn capture_forbidden(&self, pos: &Position<Self>, color: Color, p: Point) -> bool {
        pos.board.captures_any(color, p) && !(self.snapback && self.is_snapback_reply(pos, color, p))
    }
}

impl<T: Topology> Rules for Stoical<T> {
    type Extra = StoicalState;
    type Topology = T;
    const VARIANT: Variant = Variant::Stoical;

    #[inline]
    fn check(&self, pos: &Position<Self>, color: Color, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Place(p) => {
                if pos.board.is_suicide(color, p) {
                    return Err(Illegal::Suicide);
                }
                if pos.extra.last_capture == Some(color.opponent()) && self.capture_forbidden(pos, color, p) {
                    return Err(Illegal::CaptureAfterCapture);
                }
                Ok(())
            }
            Move::Pass => Ok(()),
            Move::Button | Move::Return | Move::Stake(_) => Err(Illegal::NotInVariant),
        }
    }

    #[inline]
    fn apply<const GAME: bool>(&self, pos: &mut Position<Self>, color: Color, mv: Move) -> Placement {
        match mv {
            Move::Place(p) => {
                let joined = pos.board.neighbour_count(p, Cell::stone(color)) > 0;
                let placed = pos.board.place::<GAME>(color, p);
                // A playout's prisoners are never read (see `Rules::apply`).
                if GAME {
                    pos.prisoners.add_both(color, u32::from(placed.captured), 0);
                }
                pos.passes = 0;
                pos.extra = if placed.captured > 0 {
                    StoicalState {
                        last_capture: Some(color),
                        snapback_first: (placed.captured == 1 && joined)
                            .then_some((placed.single_capture, p)),
                    }
                } else {
                    StoicalState::default()
                };
                placed
            }
            Move::Pass => {
                pos.extra = StoicalState::default();
                pos.board.clear_ko();
                pos.passes += 1;
                if pos.passes >= 2 {
                    pos.outcome = self.score(pos, &[]);
                }
                Placement::default()
            }
            Move::Button | Move::Return | Move::Stake(_) => unreachable!("checked: not a move of Stoical Go"),
        }
    }

    fn repetition(&self) -> Repetition {
        Repetition::Draw
    }

    fn pass_move(&self, _pos: &Position<Self>, _color: Color) -> Move {
        Move::Pass
    }

    fn score(&self, pos: &Position<Self>, dead: &[Point]) -> Option<Outcome> {
        let c = count(&pos.board, dead);
        let margin = c.area(Color::Black) as f64 - c.area(Color::White) as f64 - self.komi;
        Some(Outcome::from_margin(margin, EndReason::TwoPasses))
    }

    fn komi(&self) -> f64 {
        self.komi
    }

    fn with_extra_komi(&self, extra: f64) -> Self {
        Self { komi: self.komi + extra, ..self.clone() }
    }
}
