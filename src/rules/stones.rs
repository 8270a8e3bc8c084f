//! Stones (RULES.md section 3): no pass, suicide with prisoners to the opponent, positional superko,
//! decisive captures, compensation, prisoner return and group staking.

use super::{EndReason, Illegal, Move, Outcome, Position, Repetition, Rules, Variant};
use crate::board::{Board, Cell, Color, Flat, Placement, Point, Topology};
use std::marker::PhantomData;

/// The board's shape is a type parameter, as in `Standard`.
#[derive(Clone, PartialEq, Debug)]
pub struct Stones<T: Topology = Flat> {
    /// Lead threshold T (the seed's 7).
    pub threshold: u32,
    /// Compensation C: White's starting prisoners, and the shift of each player's threshold.
    pub compensation: u32,
    pub topology: PhantomData<T>,
}

impl Default for Stones {
    fn default() -> Self {
        Stones { threshold: 7, compensation: 6, topology: PhantomData }
    }
}

impl<T: Topology> Stones<T> {
    /// The same rules on a board of shape `U`.
    pub fn on<U: Topology>(self) -> Stones<U> {
        Stones { threshold: self.threshold, compensation: self.compensation, topology: PhantomData }
    }

    /// The lead a decisive move must reach: Black T − C, White T + C.
    pub fn threshold_for(&self, c: Color) -> i32 {
        match c {
            Color::Black => self.threshold as i32 - self.compensation as i32,
            Color::White => self.threshold as i32 + self.compensation as i32,
        }
    }

    /// The head stone of each group of `color`, once each, in the padded array's order.
    fn group_heads(board: &Board<T>, color: Color) -> impl Iterator<Item = Point> + '_ {
        let own = Cell::stone(color);
        (0..board.geometry().cells())
            .map(|i| Point(i as u16))
            .filter(move |&p| board.cell(p) == own && board.chain_head(p) == p)
    }

    /// May `color` stake at all: at least one group, and every group at two liberties or fewer?
    pub fn may_stake(board: &Board<T>, color: Color) -> bool {
        let mut heads = Self::group_heads(board, color).peekable();
        heads.peek().is_some() && heads.all(|h| board.liberties_up_to(h, 2) <= 2)
    }

    /// Can the group through `p` take one more stake ("once for each" liberty)?
    fn group_has_room(board: &Board<T>, p: Point) -> bool {
        (board.chain_stakes(p) as usize) < board.liberties_up_to(p, 2)
    }

    /// The stake a playout makes when it has no good placement and no return: on the eligible
    /// group whose head stone comes first in the padded array, `None` when no group may take one.
    /// `may_stake`, a scan of the board, is asked once for all the groups (asking `check` of each
    /// group asked it once per group).
    pub fn first_stake(board: &Board<T>, color: Color) -> Option<Point> {
        if !Self::may_stake(board, color) {
            return None;
        }
        Self::group_heads(board, color).find(|&h| Self::group_has_room(board, h))
    }

    /// The stake a GTP `pass` stands for: the eligible group with the most stones; ties go to the group
    /// holding the point first in A1, B1, ... order (RULES.md section 3).
    pub fn best_stake(board: &Board<T>, color: Color) -> Option<Point> {
        if !Self::may_stake(board, color) {
            return None;
        }
        let own = Cell::stone(color);
        let mut best: Option<(usize, Point)> = None;
        // Points are visited in GTP order, so the first point met of each group is its smallest.
        let mut seen_heads: Vec<Point> = Vec::new();
        for p in board.geometry().points() {
            if board.cell(p) != own {
                continue;
            }
            let h = board.chain_head(p);
            if seen_heads.contains(&h) {
                continue;
            }
            seen_heads.push(h);
            if Self::group_has_room(board, p) {
                let n = board.chain_len(p);
                if best.is_none_or(|(m, _)| n > m) {
                    best = Some((n, p));
                }
            }
        }
        best.map(|(_, p)| p)
    }
}

impl<T: Topology> Rules for Stones<T> {
    type Topology = T;
    type Extra = ();
    const VARIANT: Variant = Variant::Stones;

    fn init(&self, pos: &mut Position<Self>) {
        pos.prisoners.white = self.compensation;
    }

    #[inline]
    fn check(&self, pos: &Position<Self>, color: Color, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Place(p) => {
                // Both of these recreate an earlier position, which positional superko forbids; they are
                // caught here because they need no history.
                if pos.board.is_ko_retake(color, p) {
                    return Err(Illegal::Ko);
                }
                if pos.board.neighbour_count(p, Cell::stone(color)) == 0 && pos.board.is_suicide(color, p) {
                    return Err(Illegal::Superko);
                }
                Ok(())
            }
            Move::Return if pos.prisoners[color] > pos.prisoners[color.opponent()] => Ok(()),
            Move::Return => Err(Illegal::NoPrisonerLead),
            Move::Stake(p) => {
                if pos.board.cell(p) == Cell::stone(color)
                    && Self::may_stake(&pos.board, color)
                    && Self::group_has_room(&pos.board, p)
                {
                    Ok(())
                } else {
                    Err(Illegal::CannotStake)
                }
            }
            Move::Pass | Move::Button => Err(Illegal::NotInVariant),
        }
    }

    #[inline]
    fn apply<const GAME: bool>(&self, pos: &mut Position<Self>, color: Color, mv: Move) -> Placement {
        match mv {
            Move::Place(p) => {
                let placed = pos.board.place::<GAME>(color, p);
                let taken = u32::from(placed.captured) + u32::from(placed.captured_stakes);
                let given = u32::from(placed.suicided) + u32::from(placed.suicided_stakes);
                pos.prisoners.add_both(color, taken, given);
                if taken >= 2 && pos.lead(color) >= self.threshold_for(color) {
                    pos.outcome = Some(Outcome::win(color, pos.lead(color) as f64, EndReason::Decisive));
                }
                placed
            }
            // The returned stone goes back to its owner's bowl: only the returner's count changes.
            Move::Return => {
                pos.prisoners[color] -= 1;
                Placement::default()
            }
            Move::Stake(p) => {
                pos.board.add_stake(p);
                Placement::default()
            }
            Move::Pass | Move::Button => unreachable!("checked: not a move of Stones"),
        }
    }

    fn repetition(&self) -> Repetition {
        Repetition::Positional
    }

    fn pass_move(&self, pos: &Position<Self>, color: Color) -> Move {
        if pos.prisoners[color] > pos.prisoners[color.opponent()] {
            Move::Return
        } else if let Some(p) = Self::best_stake(&pos.board, color) {
            Move::Stake(p)
        } else {
            Move::Pass
        }
    }

    fn loses_without_moves(&self) -> bool {
        true
    }

    fn score(&self, pos: &Position<Self>, _dead: &[Point]) -> Option<Outcome> {
        pos.outcome
    }

    fn komi(&self) -> f64 {
        0.0
    }
}
