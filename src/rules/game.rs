//! A game: a position plus everything that needs the past: the history of board positions (superko and
//! Stoical repetition), the move list and undo.

use super::position::BoardOf;
use super::{EndReason, Illegal, Move, Outcome, Position, Repetition, Rules};
use crate::board::{Cell, Color, Placement, Point};

/// Everything `undo` must restore: the position before a move and the history length then.
#[derive(Debug, Clone)]
struct Snapshot<R: Rules> {
    pos: Position<R>,
    history_len: usize,
    moves_len: usize,
}

/// A game of one variant. Every public mutation either succeeds or leaves the game unchanged.
#[derive(Debug, Clone)]
pub struct Game<R: Rules> {
    rules: R,
    pos: Position<R>,
    /// Board hash of each position that arose (the start included), with the player to move then.
    /// A pass or a button take adds its (unchanged) position with the other player to move: that
    /// situation occurred, which situational superko must see (RULES.md section 2: "no earlier position
    /// with the same player to move"). Stones' returns and stakes add nothing (RULES.md section 3).
    history: Vec<(u64, Color)>,
    moves: Vec<(Color, Move)>,
    undo: Vec<Snapshot<R>>,
    setup: Setup,
}

/// Stones set on the empty board before the first move (handicap stones, or a position from a file),
/// and who moves first after them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Setup {
    pub black: Vec<Point>,
    pub white: Vec<Point>,
    pub to_move: Color,
    /// The black stones are a handicap (placed by the handicap commands, or `HA` in a file), not
    /// just a position: SGF writes `HA` for them.
    pub handicap: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup { black: Vec::new(), white: Vec::new(), to_move: Color::Black, handicap: false }
    }
}

impl Setup {
    /// Nothing set up, Black first: a game from the empty board.
    pub fn is_empty(&self) -> bool {
        *self == Setup::default()
    }

    /// How many handicap stones Black was given: 0 when the set-up is not a handicap.
    pub fn handicap_stones(&self) -> usize {
        if self.handicap {
            self.black.len()
        } else {
            0
        }
    }
}

impl<R: Rules> Game<R> {
    /// A new game on `board` (which may carry walls).
    pub fn new(rules: R, board: BoardOf<R>) -> Game<R> {
        Game::from_board(rules, board, Color::Black)
    }

    /// A game starting from a set-up `board` (stones already on it, e.g. `Board::from_diagram`) with
    /// `to_move` to play. The variant's start state applies (Stones: compensation prisoners).
    pub fn from_board(rules: R, board: BoardOf<R>, to_move: Color) -> Game<R> {
        let mut pos = Position::new(&rules, board);
        pos.to_move = to_move;
        Game::from_position(rules, pos)
    }

    /// A game starting from `pos` as it is (prisoners, side to move, variant state); `pos` is the first
    /// position of the history, and no move can be undone past it.
    pub fn from_position(rules: R, pos: Position<R>) -> Game<R> {
        let history = vec![(pos.board.hash(), pos.to_move)];
        let mut game =
            Game { rules, pos, history, moves: Vec::new(), undo: Vec::new(), setup: Setup::default() };
        // A walled board can leave the first player without any legal move (Stones): that player has lost.
        game.end_if_no_legal_move();
        game
    }

    pub fn rules(&self) -> &R {
        &self.rules
    }

    pub fn position(&self) -> &Position<R> {
        &self.pos
    }

    pub fn board(&self) -> &BoardOf<R> {
        &self.pos.board
    }

    pub fn to_move(&self) -> Color {
        self.pos.to_move
    }

    /// The moves played so far, each with its colour (handicap stones are set-up, not moves).
    pub fn moves(&self) -> &[(Color, Move)] {
        &self.moves
    }

    /// The stones set up before the first move, and who moved first.
    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    /// Hashes of the earlier board positions, with the player to move then (start first).
    pub fn history(&self) -> &[(u64, Color)] {
        &self.history
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.pos.outcome
    }

    pub fn is_over(&self) -> bool {
        self.pos.outcome.is_some()
    }

    /// The board hash a placement would produce (by playing it on a copy).
    fn hash_after(&self, color: Color, p: Point) -> u64 {
        let mut b = self.pos.board.clone();
        b.play(color, p);
        b.hash()
    }

    /// Is `mv` legal for `color` now, by every rule including superko?
    pub fn check(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        self.check_at(&self.pos, color, mv)
    }

    /// Would `play` accept `mv` for `color`? As `check`, except that a game ended by two passes
    /// counts as resumed, since `play` resumes it (GTP's `is_legal` answers this question, so that
    /// it never contradicts `play`).
    pub fn check_play(&self, color: Color, mv: Move) -> Result<(), Illegal> {
        if mv == Move::Pass && self.is_closed() {
            return Ok(());
        }
        // A copy of the position per question: `is_legal` is no hot path.
        let mut resumed = self.pos.clone();
        resumed.resume();
        self.check_at(&resumed, color, mv)
    }

    /// `check` in `pos`, this game's position or the same board with its end lifted.
    fn check_at(&self, pos: &Position<R>, color: Color, mv: Move) -> Result<(), Illegal> {
        match pos.check(&self.rules, color, mv) {
            // The position alone refuses every immediate single-stone ko recapture, which is exact for
            // simple ko and positional superko, and for situational superko when colours alternate. When
            // one colour moved twice (GTP allows it), the recapture may recreate a position that had the
            // other player to move: a new situation, legal. The history below decides.
            Err(Illegal::Ko) if self.rules.repetition() == Repetition::Situational => {}
            r => r?,
        }
        if let Move::Place(p) = mv {
            match self.rules.repetition() {
                Repetition::Positional => {
                    let h = self.hash_after(color, p);
                    if self.history.iter().any(|&(x, _)| x == h) {
                        return Err(Illegal::Superko);
                    }
                }
                Repetition::Situational => {
                    let h = self.hash_after(color, p);
                    if self.history.contains(&(h, color.opponent())) {
                        return Err(Illegal::Superko);
                    }
                }
                Repetition::SimpleKo => {
                    // When colours alternate, the board's ko point is exactly the set of placements that
                    // recreate the position of one move ago. When one colour moves twice in a row (GTP
                    // allows it), other placements can do it too (a stone on a point its own suicide just
                    // emptied, a suicide taking the stone just placed): compare with that position.
                    if let (Some(&(last, Move::Place(_))), Some(before)) =
                        (self.moves.last(), self.undo.last())
                    {
                        if last == color
                            && before.moves_len + 1 == self.moves.len()
                            && before.pos.board.hash() == self.hash_after(color, p)
                        {
                            return Err(Illegal::Ko);
                        }
                    }
                }
                Repetition::Draw => {}
            }
        }
        Ok(())
    }

    /// Plays `mv` for `color` (either colour may move, as GTP allows). On error nothing changes.
    ///
    /// A game ended by two passes is resumed by a further move, as GNU Go and KataGo do, so that a
    /// controller can play on (KGS clean-up, a user continuing in Sabaki); other endings are final.
    ///
    /// A game ended otherwise (by the rules, resignation, time) takes a pass, which changes nothing
    /// and keeps the result: a controller that ends games only on two passes or a resignation
    /// (gogui-twogtp) closes a drawn Stoical game that way ([`Game::is_closed`]).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Placement, Illegal> {
        let snapshot = self.snapshot();
        if mv == Move::Pass && self.is_closed() {
            self.pos.to_move = color.opponent();
            self.pos.ply += 1;
            self.moves.push((color, mv));
            self.undo.push(snapshot);
            return Ok(Placement::default());
        }
        self.pos.resume();
        if let Err(e) = self.check(color, mv) {
            self.pos = snapshot.pos;
            return Err(e);
        }
        Ok(self.commit(snapshot, color, mv))
    }

    /// Plays `mv` for `color` as a game record has it: a recorded game is history, so a placement
    /// that the rules in force forbid (ko, superko, suicide, Stoical's capture after a capture) or
    /// that comes after the game has ended by them is played all the same, as GNU Go's `loadsgf`
    /// does: the stone is placed, what it leaves without liberties is removed (the opponent's
    /// chains first, then its own), and the game goes on from there, judged by the rules as usual
    /// from that move on. Answers `None` for a legal move, or the rule the move broke.
    ///
    /// Only what cannot be placed is refused, leaving the game unchanged: an occupied point, a
    /// point off the board or a wall, and a pass-like move the rules do not have (`play`'s errors).
    pub fn replay(&mut self, color: Color, mv: Move) -> Result<Option<Illegal>, Illegal> {
        let broken = match self.play(color, mv) {
            Ok(_) => return Ok(None),
            Err(e) => e,
        };
        let Move::Place(p) = mv else { return Err(broken) };
        let board = &self.pos.board;
        if p.idx() >= board.geometry().cells() || board.cell(p) == Cell::Wall {
            return Err(Illegal::OffBoard);
        }
        if !board.is_empty_point(p) {
            return Err(Illegal::Occupied);
        }
        let snapshot = self.snapshot();
        // Whatever ended the game (a Stoical repetition, a Stones decisive move) is history too.
        self.pos.outcome = None;
        self.pos.passes = 0;
        self.commit(snapshot, color, mv);
        Ok(Some(broken))
    }

    /// Plays a move already judged (legal, or replayed from a record) and records it: board,
    /// history, move list, undo, and the ends that need the history (a Stoical repetition, a Stones
    /// player left without moves).
    fn commit(&mut self, snapshot: Snapshot<R>, color: Color, mv: Move) -> Placement {
        let placed = self.pos.play(&self.rules, color, mv);
        if let Move::Place(_) = mv {
            let h = self.pos.board.hash();
            if self.rules.repetition() == Repetition::Draw
                && self.pos.outcome.is_none()
                && self.history.iter().any(|&(x, _)| x == h)
            {
                self.pos.outcome = Some(Outcome::draw(EndReason::Repetition));
            }
            self.history.push((h, self.pos.to_move));
        } else if let Move::Pass | Move::Button = mv {
            self.history.push((self.pos.board.hash(), self.pos.to_move));
        }
        self.moves.push((color, mv));
        self.undo.push(snapshot);
        self.end_if_no_legal_move();
        placed
    }

    /// Where the variant says so (Stones), the player to move loses when no move at all is legal
    /// (RULES.md section 3, "End"). Checked after every move and on every new start position.
    fn end_if_no_legal_move(&mut self) {
        if self.pos.outcome.is_none()
            && self.rules.loses_without_moves()
            && !self.has_legal_move(self.pos.to_move)
        {
            let winner = self.pos.to_move.opponent();
            self.pos.outcome =
                Some(Outcome::win(winner, self.pos.lead(winner) as f64, EndReason::NoLegalMove));
        }
    }

    /// Takes back the last move, restoring everything (prisoners, stakes, ko, a finished game).
    pub fn undo(&mut self) -> bool {
        match self.undo.pop() {
            Some(s) => {
                self.pos = s.pos;
                self.history.truncate(s.history_len);
                self.moves.truncate(s.moves_len);
                true
            }
            None => false,
        }
    }

    /// The move a GTP `pass` stands for (button, prisoner return, stake or pass; a pass in a
    /// closed game).
    pub fn pass_move(&self, color: Color) -> Move {
        if self.is_closed() {
            return Move::Pass;
        }
        self.rules.pass_move(&self.pos, color)
    }

    /// Is the game over for good: ended by the rules' verdict on a move (a Stones decisive move
    /// or a player without moves, a Stoical repetition), a resignation, time or a forfeit? Only
    /// a pass is still taken then (`play`). A game ended by two passes is not closed: a further
    /// move resumes it.
    pub fn is_closed(&self) -> bool {
        self.pos.outcome.is_some_and(|o| o.reason != EndReason::TwoPasses)
    }

    /// Every legal move for `color`: placements in GTP order, then the pass-like moves. Empty once the
    /// game is over.
    pub fn legal_moves(&self, color: Color) -> Vec<Move> {
        if self.is_over() {
            return Vec::new();
        }
        let mut moves: Vec<Move> = self
            .pos
            .board
            .geometry()
            .points()
            .map(Move::Place)
            .filter(|&m| self.check(color, m).is_ok())
            .collect();
        moves.extend(self.pass_like_moves(color));
        moves
    }

    /// The legal moves that are not placements: pass or button; return and one stake per eligible group.
    pub fn pass_like_moves(&self, color: Color) -> Vec<Move> {
        let mut moves = Vec::new();
        for m in [Move::Pass, Move::Button, Move::Return] {
            if self.check(color, m).is_ok() {
                moves.push(m);
            }
        }
        let own = Cell::stone(color);
        let mut heads: Vec<Point> = Vec::new();
        for p in self.pos.board.geometry().points() {
            if self.pos.board.cell(p) == own {
                let h = self.pos.board.chain_head(p);
                if !heads.contains(&h) {
                    heads.push(h);
                    if self.check(color, Move::Stake(p)).is_ok() {
                        moves.push(Move::Stake(p));
                    }
                }
            }
        }
        moves
    }

    /// Does `color` have any legal move at all?
    pub fn has_legal_move(&self, color: Color) -> bool {
        if [Move::Pass, Move::Button, Move::Return].into_iter().any(|m| self.check(color, m).is_ok()) {
            return true;
        }
        if self.pos.board.empties().iter().any(|&p| self.check(color, Move::Place(p)).is_ok()) {
            return true;
        }
        !self.pass_like_moves(color).is_empty()
    }

    /// Ends the game by resignation of `color`.
    pub fn resign(&mut self, color: Color) {
        self.set_outcome(Outcome::win(color.opponent(), 0.0, EndReason::Resignation));
    }

    /// Ends the game from outside the rules (time, forfeit); `undo` restores the game before it.
    pub fn set_outcome(&mut self, outcome: Outcome) {
        let snapshot = self.snapshot();
        self.undo.push(snapshot);
        self.pos.outcome = Some(outcome);
    }

    fn snapshot(&self) -> Snapshot<R> {
        Snapshot { pos: self.pos.clone(), history_len: self.history.len(), moves_len: self.moves.len() }
    }

    /// Places handicap stones for Black on an empty board before any move; White then moves.
    pub fn set_handicap(&mut self, stones: &[Point]) -> Result<(), Illegal> {
        self.set_up(&Setup {
            black: stones.to_vec(),
            white: Vec::new(),
            to_move: Color::White,
            handicap: true,
        })
    }

    /// Sets `setup`'s stones on the empty board before any move, and its player to move. Every
    /// stone must stay: a point twice, off the board or on a wall is `Occupied`, a chain left
    /// without liberties (which placing would capture) is `Suicide`.
    pub fn set_up(&mut self, setup: &Setup) -> Result<(), Illegal> {
        let b = &self.pos.board;
        if !self.moves.is_empty() || b.stone_count(Color::Black) + b.stone_count(Color::White) > 0 {
            return Err(Illegal::Occupied);
        }
        let mut board = self.pos.board.clone();
        for (color, stones) in [(Color::Black, &setup.black), (Color::White, &setup.white)] {
            for &p in stones {
                if !board.geometry().on_board(p) || !board.is_empty_point(p) {
                    return Err(Illegal::Occupied);
                }
                board.play(color, p);
            }
        }
        // Placing a stone removes what it leaves without liberties: any stone missing means a
        // chain without liberties somewhere.
        let kept = |c: Color, stones: &Vec<Point>| board.stone_count(c) == stones.len();
        if !kept(Color::Black, &setup.black) || !kept(Color::White, &setup.white) {
            return Err(Illegal::Suicide);
        }
        board.clear_ko();
        self.pos.board = board;
        self.pos.to_move = setup.to_move;
        self.setup = setup.clone();
        self.history = vec![(self.pos.board.hash(), setup.to_move)];
        self.end_if_no_legal_move();
        Ok(())
    }

    /// The score with `dead` stones removed (area or territory); Stones: the outcome, if reached.
    pub fn score(&self, dead: &[Point]) -> Option<Outcome> {
        self.rules.score(&self.pos, dead)
    }
}
