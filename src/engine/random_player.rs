//! The placeholder move chooser: a uniformly random legal move that does not fill an own eye.

use crate::board::Color;
use crate::rules::{Game, Move, Rules};
use rand::Rng;

/// A random legal placement that does not fill one of `color`'s eyes; failing that, the move a GTP
/// `pass` stands for (so a controller replaying our `pass` makes the same move); `None` if nothing is
/// legal at all.
pub fn random_move<R: Rules>(game: &Game<R>, color: Color, rng: &mut impl Rng) -> Option<Move> {
    let board = game.board();
    let candidates: Vec<Move> = board
        .empties()
        .iter()
        .filter(|&&p| !board.is_eye(color, p))
        .map(|&p| Move::Place(p))
        .filter(|&m| game.check(color, m).is_ok())
        .collect();
    if !candidates.is_empty() {
        return Some(candidates[rng.gen_range(0..candidates.len())]);
    }
    let pass = game.pass_move(color);
    if game.check(color, pass).is_ok() {
        return Some(pass);
    }
    // Stones has no pass: when only eye-filling placements are left, one of them must be played.
    let fill: Vec<Move> =
        board.empties().iter().map(|&p| Move::Place(p)).filter(|&m| game.check(color, m).is_ok()).collect();
    (!fill.is_empty()).then(|| fill[rng.gen_range(0..fill.len())])
}
