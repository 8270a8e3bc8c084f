//! Ladder reading: is a chain short of liberties captured when the attacker keeps giving atari?
//!
//! The read is a small minimax over the forcing moves of a ladder (shicho). The defender, with one
//! liberty, may extend at it or capture an attacking chain in atari that touches the chain; the
//! attacker, facing two liberties, may give atari at either of them. Three or more liberties is an
//! escape, none is a capture. Friendly stones on the ladder's path (ladder breakers) and chasing
//! stones left in atari need no special case: the extension gains their liberties, the capture is one
//! of the defender's moves.
//!
//! The read uses the board's plain physics (stones, liberties, captures), which every variant shares;
//! the ko point, Stoical Go's capture restriction (no capture right after an opponent's capture) and
//! Stones' decisive captures are not modelled: the tree search still plays by the real rules, and the
//! read only shapes priors.
//!
//! The board has no undo, so the reader keeps one scratch board per ply of the current line and copies
//! the parent into it before each move (`clone_from`, no allocation once the stack has grown). A budget
//! of plays bounds every read: a line that runs out of it, or deeper than a few board lengths, counts
//! as an escape, so the reader only ever claims a capture it has proved.

use crate::board::{Board, Cell, Color, Flat, Point, Topology};

use super::tactics::PointSet;

/// Plays one read may make across all its lines: a ladder across a 19x19 board is about 40 plies,
/// and the attacker's wrong atari usually fails within two.
const READ_BUDGET: u32 = 400;

/// Scratch boards and the budget of the read in progress. Make one per search thread and reuse it.
/// Of one board shape: on a torus a ladder never meets an edge, and runs on (around the board)
/// until it meets stones or the budget runs out.
#[derive(Debug)]
pub struct LadderReader<T: Topology = Flat> {
    /// `boards[d]` holds the position `d` plies into the current line.
    boards: Vec<Board<T>>,
    /// Plays left for the read in progress.
    budget: u32,
}

impl<T: Topology> Default for LadderReader<T> {
    fn default() -> Self {
        LadderReader { boards: Vec::new(), budget: 0 }
    }
}

impl<T: Topology> LadderReader<T> {
    pub fn new() -> LadderReader<T> {
        LadderReader::default()
    }

    /// With `to_move` to play on `board`, is the chain through `chain` captured by a ladder? True only
    /// when proved: for a chain with one liberty whose owner is to move, every escape fails; for a
    /// chain with two liberties and the attacker to move, some atari captures. Any other case (three or
    /// more liberties, a defender with two liberties to move) is not a ladder: false.
    pub fn captured(&mut self, board: &Board<T>, chain: Point, to_move: Color) -> bool {
        if board.cell(chain).color().is_none() {
            return false;
        }
        self.budget = READ_BUDGET;
        self.load(0, board);
        self.read(0, chain, to_move)
    }

    /// After `color` plays the empty point `p` on `board`, is the chain through `chain` captured by a
    /// ladder, the opponent to move? (`chain` may be `p` itself: does this extension run into a
    /// ladder?) A chain that the move itself removes counts as captured.
    pub fn captured_after(&mut self, board: &Board<T>, color: Color, p: Point, chain: Point) -> bool {
        self.budget = READ_BUDGET;
        self.load(0, board);
        self.boards[0].play(color, p);
        self.read(0, chain, color.opponent())
    }

    /// Copies `board` into the scratch board of `ply`, growing the stack by one when needed.
    fn load(&mut self, ply: usize, board: &Board<T>) {
        if ply == self.boards.len() {
            self.boards.push(board.clone());
        } else {
            self.boards[ply].clone_from(board);
        }
    }

    /// Is the chain through `chain` on `boards[ply]` captured, `to_move` to play?
    fn read(&mut self, ply: usize, chain: Point, to_move: Color) -> bool {
        let b = &self.boards[ply];
        let Some(defender) = b.cell(chain).color() else {
            return true;
        };
        let libs = b.liberties_up_to(chain, 2);
        let defending = to_move == defender;
        match (libs, defending) {
            (3.., _) => return false,
            (1, false) => return true,
            (2, true) => return false,
            _ => {}
        }
        // Bounded: a line longer than a few board lengths is no ladder we can trust.
        if self.budget == 0 || ply + 1 >= 3 * b.size() + 8 {
            return false;
        }
        let attacker = defender.opponent();
        let mut moves = PointSet::<8>::default();
        if defending {
            // Captures first: taking a chaser in atari is the usual way out of a ladder.
            let enemy = Cell::stone(attacker);
            for s in b.chain_stones(chain) {
                for q in b.neighbours(s) {
                    if b.cell(q) == enemy {
                        if let Some(l) = b.atari_liberty(q) {
                            moves.insert(l);
                        }
                    }
                }
            }
            moves.insert(b.atari_liberty(chain).expect("a chain with one liberty"));
        } else {
            for s in b.chain_stones(chain) {
                for q in b.neighbours(s) {
                    if b.is_empty_point(q) && !b.is_suicide(attacker, q) {
                        moves.insert(q);
                    }
                }
            }
        }
        for &m in moves.as_slice() {
            if self.budget == 0 {
                break;
            }
            self.budget -= 1;
            self.play(ply, to_move, m);
            let captured = self.read(ply + 1, chain, to_move.opponent());
            // The defender needs one escape; the attacker needs one capture.
            if captured != defending {
                return captured;
            }
        }
        // Every defence was captured, or no atari captured (a budget cut counts as an escape).
        defending && self.budget > 0
    }

    /// Sets `boards[ply + 1]` to `boards[ply]` with `color` played at `p`.
    fn play(&mut self, ply: usize, color: Color, p: Point) {
        if ply + 1 == self.boards.len() {
            let next = self.boards[ply].clone();
            self.boards.push(next);
        } else {
            let (done, rest) = self.boards.split_at_mut(ply + 1);
            rest[0].clone_from(&done[ply]);
        }
        self.boards[ply + 1].play(color, p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, v: &str) -> Point {
        b.geometry().parse_vertex(v).unwrap()
    }

    /// The textbook ladder: White's C3 has one liberty, and every extension leaves two liberties that
    /// Black ataris again, down to the edge.
    const LADDER: &str = "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X . . . . . .
        . X O X . . . . .
        . . . X . . . . .
        . . . . . . . . .";

    #[test]
    fn a_working_ladder_captures() {
        let b = Board::from_diagram(LADDER);
        let mut r = LadderReader::new();
        assert!(r.captured(&b, at(&b, "C3"), Color::White));
        // Running at C2 leaves two liberties; Black to move captures.
        assert!(r.captured_after(&b, Color::White, at(&b, "C2"), at(&b, "C2")));
        // With Black to move the stone is simply taken.
        assert!(r.captured(&b, at(&b, "C3"), Color::Black));
        // Reading leaves the board alone.
        assert_eq!(b, Board::from_diagram(LADDER));
    }

    /// White's E5 in atari in the open: the ladder runs down and to the left, to the edge, unless a
    /// white stone stands on its path.
    fn centre_ladder(breaker: &str) -> Board {
        let mut b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . X O X . . .
            . . . . . X . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        if !breaker.is_empty() {
            let p = at(&b, breaker);
            b.play(Color::White, p);
        }
        b
    }

    #[test]
    fn a_ladder_across_the_board() {
        let b = centre_ladder("");
        let mut r = LadderReader::new();
        assert!(r.captured(&b, at(&b, "E5"), Color::White));
        assert!(r.captured_after(&b, Color::White, at(&b, "E4"), at(&b, "E4")));
    }

    #[test]
    fn a_ladder_breaker_on_the_path_saves_the_chain() {
        for breaker in ["B2", "C3", "B3"] {
            let b = centre_ladder(breaker);
            let mut r = LadderReader::new();
            assert!(!r.captured(&b, at(&b, "E5"), Color::White), "breaker at {breaker}\n{b}");
        }
        // A white stone off the path changes nothing.
        let b = centre_ladder("H8");
        assert!(LadderReader::new().captured(&b, at(&b, "E5"), Color::White));
    }

    #[test]
    fn a_long_ladder_on_19x19_is_read_to_the_end() {
        // The centre shape on a 19x19 board: some forty plies to the lower left corner.
        let mut b = Board::new(19);
        for v in ["J10", "K11", "L10", "L9"] {
            let p = at(&b, v);
            b.play(Color::Black, p);
        }
        let k10 = at(&b, "K10");
        b.play(Color::White, k10);
        let mut r = LadderReader::new();
        assert!(r.captured(&b, k10, Color::White));
        // A breaker far away on the diagonal, near the corner.
        let c3 = at(&b, "C3");
        b.play(Color::White, c3);
        assert!(!r.captured(&b, k10, Color::White));
    }

    #[test]
    fn capturing_a_chaser_in_atari_escapes() {
        // The chasing stone D3 is itself in atari (White E3, D4 around it): White takes it.
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . O . . . . .
            . . X . O . . . .
            . X O X O . . . .
            . . . O . . . . .
            . . . . . . . . .",
        );
        let mut r = LadderReader::new();
        assert!(b.in_atari(at(&b, "C3")));
        assert!(!r.captured(&b, at(&b, "C3"), Color::White));
    }

    #[test]
    fn a_ladder_along_the_edge() {
        // White's A3 on the first column: every extension down the edge keeps two liberties at most.
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X . . . . . . . .
            O X . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let mut r = LadderReader::new();
        assert!(r.captured(&b, at(&b, "A3"), Color::White));
    }

    #[test]
    fn the_attacker_picks_the_right_atari() {
        // White's C3-C2 has two liberties, B2 and C1... Black to move: atari from either side.
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X . . . . . .
            . X O X . . . . .
            . . O X . . . . .
            . . . . . . . . .",
        );
        let mut r = LadderReader::new();
        assert!(r.captured(&b, at(&b, "C3"), Color::Black));
        // With White to move and two liberties it is no ladder yet.
        assert!(!r.captured(&b, at(&b, "C3"), Color::White));
    }
}
