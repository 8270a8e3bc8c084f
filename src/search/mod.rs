//! Monte Carlo tree search, generic over the rules (each variant compiles its own search).
//!
//! # How it works
//!
//! The tree ([`Tree`]) is an arena of nodes addressed by `u32`; the children of a node are
//! contiguous, and every statistic is an atomic integer: visits, wins counted in half points (a win is
//! 2, a Stoical draw 1), AMAF visits and wins, the prior, a score sum. Threads share it without locks.
//! What only some steps touch lives in arrays beside the nodes, indexed alike (one allocation,
//! `node_memory`): the AMAF pairs, packed densely because a backup writes them for half the children
//! of every node on its path; the score sums, which only reports read. Every line a thread writes is
//! a line the other threads must fetch again. Before each slice of children, a few slots hold the
//! slice's points as a bit set (`Tree::child_points`), from which a backup finds the children it
//! updates.
//!
//! - **Selection** ([`select`]): from the root, each step takes the child with the highest blend of
//!   its own win rate and its all-moves-as-first (RAVE) win rate, weighted by Gelly and Silver's
//!   minimum-error schedule; both start from the prior knowledge counted as equivalent experience.
//!   Visits are added on the way down, results on the way up, so a visit in flight counts as a loss
//!   for a moment (virtual loss) and threads spread over different lines. The children's counts
//!   are read several to a vector load, which other threads may be adding to (`vector_loads`).
//! - **Expansion**: a leaf with enough visits (`expand_threshold`; the root at once) is claimed by a
//!   compare-and-swap (leaf -> expanding -> expanded) and given one child per legal move. Legality
//!   in the tree is exact: the rules' checks plus superko against the game's history and the path
//!   (in Stoical Go a repeating placement is kept and marked: it ends the game in a draw). The only
//!   pass-like child is the move a GTP `pass` stands for. Priors come from the playout policy's
//!   tactics ([`priors`]) and, on 9x9 and larger boards, from a move model fitted on game
//!   records ([`move_model`], `tengen train`). When the arena is full, leaves stay leaves and the
//!   search goes on.
//! - **Simulation**: from the leaf, the playout policy (light or heavy) plays to the end of the game
//!   ([`crate::playout`]); a position already decided in the tree (two passes, a Stones decisive
//!   move, a Stoical repetition, a Stones player without moves) is evaluated as it is.
//! - **Backup**: every node on the path gets the visit's result from the view of the player who
//!   made its move, and the AMAF statistics of each path node's children are updated with every
//!   point its player to move played first later in the tree or the playout: the first plays, as
//!   one bit set per colour, against each node's set of its children's points. With several
//!   threads, the AMAF samples of the busiest nodes' children are gathered per worker and added in
//!   batches (`amaf_batch`): those lines are read by every thread's selection, and a store into them
//!   per playout kept them travelling between cores.
//! - **Threads**: `threads` workers run this loop on `std::thread::scope`, each with its own
//!   playout buffers and its own generator seeded from the search seed and its index; one thread with
//!   a fixed seed and a playout limit is exactly reproducible. The calling thread supervises: it polls
//!   the caller's `stop`, the time limits and the early stop (the most visited move cannot be
//!   overtaken in the time or playouts left), and calls the report callback at the requested interval.
//! - **Reuse**: the engine keeps the tree after a search; when the game has advanced by moves the
//!   tree holds, [`Tree::reroot`] copies the subtree under them into a fresh arena (breadth first, so
//!   the copy is also the garbage collection). A different position starts a new tree.

mod amaf_batch;
mod config;
mod driver;
pub mod early_stop;
pub mod move_model;
mod node_memory;
pub mod priors;
mod report;
mod request;
pub mod select;
pub mod status;
pub mod tree;
mod vector_loads;
pub mod war;
mod worker;

pub use config::{PriorWeights, SearchConfig};
pub use driver::search;
pub use report::{lower_bound, ownership_index, Candidate, SearchReport};
pub use request::{Limits, ThinkRequest, TimeLimit};
pub use status::{judge, FinalStatus};
pub use tree::Tree;
pub use worker::mix_seed;

use crate::board::{Color, Point};
use crate::rules::{Position, Repetition, Rules};
use std::time::Instant;

/// The position a search starts from, with what it needs of the game's past.
pub struct SearchInput<'a, R: Rules> {
    pub rules: &'a R,
    /// The position to search, with the player to move set and no outcome.
    pub root: &'a Position<R>,
    /// The game's board positions so far (board hash, player to move then), the root's included:
    /// superko and Stoical repetition are judged against them.
    pub history: &'a [(u64, Color)],
    /// The placement just before the root (`Point::NONE` after a pass-like move or at the start): the
    /// heavy policy and the priors answer it.
    pub last_move: Point,
    /// The player to move's own placement before that (`Point::NONE` if it passed or there is
    /// none): the move model's features measure from it too.
    pub own_last_move: Point,
    /// Did the opponent pass just before the root?
    pub opponent_passed: bool,
    /// When the clock started for this move: time limits count from here.
    pub started: Instant,
}

/// The key under which a position is remembered for repetition checks: the board hash, and under
/// situational superko also the player to move.
#[inline]
pub(crate) fn history_key(repetition: Repetition, hash: u64, to_move: Color) -> u64 {
    match (repetition, to_move) {
        (Repetition::Situational, Color::White) => hash ^ 0x5bd1_e995_9e37_79b9,
        _ => hash,
    }
}
