//! Phantom Go from one player's side (RULES.md 5.2, GTP.md "Phantom Go"): what the engine knows,
//! how the referee's messages change it, and the search that reasons about what it cannot see.
//!
//! The engine's game under `phantom` is its **view**: its own stones and the opponent stones it
//! knows of, rebuilt from [`View`] after every message (`Engine::sync_phantom`). Everything that
//! reads the game (showboard, GoGui's rules board, `captures`) so shows the view. The true board
//! is the referee's alone.
//!
//! The search (`ismcts`) is **information-set Monte Carlo tree search over the engine's own
//! moves**: every iteration starts from a new true board consistent with the view (the unseen
//! opponent stones put where they are legal and capture nothing of ours, none on a point proved
//! illegal this turn, one by one, each point drawn with a weight learnt from self-play's true
//! boards: its line, the own stones near it and the opponent stones already near it) and descends
//! a tree whose nodes are sequences of the engine's own moves, taking at each only moves legal on
//! that board, the opponent's answers drawn by the playout policy; then it plays the game out.
//! The root move with the most playouts is proposed; a point the engine knows to be occupied or
//! illegal in this position never is. Flat Monte Carlo over the same boards (Cazenave's player:
//! the root alone) gained less from ten times the playouts, and determinization before it (the
//! ordinary tree search on each of 16 sampled boards, root statistics added up) little: a tree
//! learns to answer the stones of its one board, and more playouts only learnt those few boards
//! better.

use super::{Decision, Engine, EngineError};
use crate::board::{Board, ByColor, Color, Point};
use crate::rules::{AnyGame, Game, Move, Position, Standard};
use crate::search::{mix_seed, SearchConfig, SearchReport, ThinkRequest};
use rand::Rng;
use std::time::Instant;

mod ismcts;

/// Own moves for which a refused point stays suspected of holding an opponent stone.
const SUSPECT_TURNS: u8 = 3;
/// One player's knowledge of a Phantom Go game.
#[derive(Clone, Debug)]
pub struct View {
    /// The colour this engine plays: set by the first `genmove` or `play` for it, or by the first
    /// message about the opponent (whose colour is then the side to move).
    pub me: Option<Color>,
    /// Whose turn it is in the true game.
    pub to_move: Color,
    /// Own stones, certain.
    pub own: Vec<Point>,
    /// Opponent stones known to stand (proved by an illegal proposal on an empty-looking point).
    pub known: Vec<Point>,
    /// Opponent stones on the true board that the engine cannot place: its legal placements minus
    /// its stones removed, minus those known.
    pub unseen: u32,
    /// Points where the engine's own proposals were refused in this position.
    pub illegal: Vec<Point>,
    /// Refused points that may hold an opponent stone (or have been a suicide), each with the
    /// number of the engine's own moves it is still believed for.
    pub suspects: Vec<(Point, u8)>,
    /// The placement proposed by the last `genmove`, until the referee's next message accepts it
    /// (anything but `phantom-illegal`).
    pub pending: Option<Point>,
    /// The colour whose legal placement was just made: `phantom-removed` may follow it, once.
    pub removal: Option<Color>,
    /// Did the opponent's last legal move pass?
    pub opponent_passed: bool,
    /// Stones each colour has captured, as the announcements told.
    pub captured: ByColor<u32>,
    /// Illegal attempts the opponent made in the game.
    pub opponent_attempts: u32,
    /// Legal moves and attempts so far: a new position for the search's seed.
    pub events: u32,
}

fn phantom_error(why: &str) -> EngineError {
    EngineError::Phantom(why.to_string())
}

impl Default for View {
    fn default() -> View {
        View::new()
    }
}

impl View {
    /// A new game's view: nothing known, Black to move, the engine's colour not yet known.
    pub fn new() -> View {
        View {
            me: None,
            to_move: Color::Black,
            own: Vec::new(),
            known: Vec::new(),
            unseen: 0,
            illegal: Vec::new(),
            suspects: Vec::new(),
            pending: None,
            removal: None,
            opponent_passed: false,
            captured: ByColor::new(0, 0),
            opponent_attempts: 0,
            events: 0,
        }
    }

    /// The side to move is `who`'s own colour (and the colour is learnt if it was not known).
    fn claim_turn(&mut self, who: Color) -> Result<(), EngineError> {
        match self.me {
            // GTP.md: the engine is never told where the opponent played.
            Some(me) if me != who => Err(EngineError::Illegal(crate::rules::Illegal::NotInVariant)),
            _ if self.to_move != who => Err(phantom_error("not this player's turn")),
            _ => Ok(()),
        }
    }

    /// The opponent is to move (learning the engine's colour if need be).
    fn opponent_turn(&self) -> Result<Color, EngineError> {
        match self.me {
            Some(me) if self.to_move == me => Err(phantom_error("it is not the opponent's turn")),
            _ => Ok(self.to_move),
        }
    }

    /// A proposal is taken as legal: the position is a new one.
    fn accept_pending(&mut self) {
        if self.pending.take().is_some() {
            self.own_move_made();
        }
    }

    /// After a legal move of the engine's own: nothing is illegal any more, suspicions age.
    fn own_move_made(&mut self) {
        self.illegal.clear();
        for s in &mut self.suspects {
            s.1 -= 1;
        }
        self.suspects.retain(|s| s.1 > 0);
    }

    /// Can the engine play `color`'s move `mv` here, by its view (a GTP `play` or `genmove`)?
    pub fn check_move(&self, color: Color, mv: Move) -> Result<(), EngineError> {
        let mut v = self.clone();
        v.accept_pending();
        v.claim_turn(color)?;
        match mv {
            Move::Pass => Ok(()),
            Move::Place(p) if v.own.contains(&p) || v.known.contains(&p) || v.illegal.contains(&p) => {
                Err(EngineError::Illegal(crate::rules::Illegal::Occupied))
            }
            Move::Place(_) => Ok(()),
            _ => Err(EngineError::Illegal(crate::rules::Illegal::NotInVariant)),
        }
    }

    /// `color` plays `mv` on its own board: proposed by `genmove` (`proposal`, which the referee
    /// may still refuse) or told by `play` (legal). `check_move` accepted it.
    pub fn play_own(&mut self, color: Color, mv: Move, proposal: bool) {
        self.accept_pending();
        self.me = Some(color);
        self.to_move = color.opponent();
        self.removal = None;
        self.events += 1;
        if let Move::Place(p) = mv {
            self.own.push(p);
            self.removal = Some(color);
            if proposal {
                self.pending = Some(p);
            } else {
                self.own_move_made();
            }
        } else {
            self.own_move_made();
        }
    }

    /// `phantom-illegal V`: the pending proposal `p` was refused. The point goes on the list of
    /// this turn's illegal points. It holds an opponent stone for certain (`known`) when the move
    /// cannot have been a suicide: a suicide needs an opponent stone on every point the view shows
    /// empty among `p`'s neighbours and the other liberties of the own chains beside it, and there
    /// are more of those than unseen stones. (A superko repetition without a capture cannot
    /// happen; with one, the view could not tell, and RULES.md's referee does not say.) Otherwise
    /// it is only suspected (`suspects`): the samples put a stone there first.
    pub fn illegal(&mut self, p: Point, empty: &Board) -> Result<(), EngineError> {
        if self.pending != Some(p) {
            return Err(phantom_error(match self.pending {
                Some(_) => "that is not the pending proposal",
                None => "no proposal is pending",
            }));
        }
        self.pending = None;
        self.own.retain(|&q| q != p);
        self.to_move = self.to_move.opponent();
        self.removal = None;
        self.illegal.push(p);
        self.events += 1;
        let board = self.board(empty);
        let me = self.me.expect("a proposal was made");
        let mut open: Vec<Point> = Vec::new();
        for q in board.neighbours(p) {
            if !board.geometry().on_board(q) {
                continue;
            }
            if board.is_empty_point(q) {
                open.push(q);
            } else if board.cell(q).color() == Some(me) {
                open.extend(board.liberties(q).into_iter().filter(|&l| l != p));
            }
        }
        open.sort_unstable();
        open.dedup();
        if self.unseen > 0 && open.len() as u32 > self.unseen {
            self.known.push(p);
            self.unseen -= 1;
            self.suspects.retain(|&(q, _)| q != p);
        } else if self.unseen > 0 && !self.suspects.iter().any(|&(q, _)| q == p) {
            self.suspects.push((p, SUSPECT_TURNS));
        }
        Ok(())
    }

    /// `phantom-opponent-moved [pass]`.
    pub fn opponent_moved(&mut self, pass: bool) -> Result<(), EngineError> {
        let opponent = self.opponent_turn()?;
        self.accept_pending();
        self.me = Some(opponent.opponent());
        self.to_move = opponent.opponent();
        self.illegal.clear();
        self.opponent_passed = pass;
        self.removal = if pass { None } else { Some(opponent) };
        self.unseen += u32::from(!pass);
        self.events += 1;
        Ok(())
    }

    /// `phantom-opponent-illegal`.
    pub fn opponent_illegal(&mut self) -> Result<(), EngineError> {
        let opponent = self.opponent_turn()?;
        self.accept_pending();
        self.me = Some(opponent.opponent());
        self.removal = None;
        self.opponent_attempts += 1;
        self.events += 1;
        Ok(())
    }

    /// `phantom-removed V...`: after the last legal placement these points were emptied; after
    /// the engine's own, opponent stones (known or unseen), after the opponent's, its own. A
    /// chain is captured only when an opponent stone stands on every point beside it: after the
    /// opponent's capture those points become known (`empty` is the empty board, for the
    /// neighbours).
    pub fn removed(&mut self, points: &[Point], empty: &Board) -> Result<(), EngineError> {
        let Some(mover) = self.removal else {
            return Err(phantom_error("no legal placement to remove stones after"));
        };
        if points.is_empty() {
            return Err(phantom_error("no points given"));
        }
        if points.iter().enumerate().any(|(i, p)| points[..i].contains(p)) {
            return Err(phantom_error("a point given twice"));
        }
        if Some(mover) == self.me {
            if points.iter().any(|p| self.own.contains(p)) {
                return Err(phantom_error("an own stone cannot be removed by an own move"));
            }
            let known = points.iter().filter(|p| self.known.contains(p)).count() as u32;
            if points.len() as u32 - known > self.unseen {
                return Err(phantom_error("more stones removed than the opponent has"));
            }
            self.accept_pending();
            self.unseen -= points.len() as u32 - known;
            self.known.retain(|p| !points.contains(p));
            self.suspects.retain(|(p, _)| !points.contains(p));
            self.captured[mover] += points.len() as u32;
        } else {
            if points.iter().any(|p| !self.own.contains(p)) {
                return Err(phantom_error("the opponent's move can only remove own stones"));
            }
            self.own.retain(|p| !points.contains(p));
            self.captured[mover] += points.len() as u32;
            // Every neighbour of a captured stone is another captured stone or an opponent stone
            // (an own stone beside it would have been in its chain): the capturer's stones, which
            // stand until the engine takes them, and then it is told. Messages that no true game
            // sends could make those stones take own ones on the view: then nothing is learnt.
            let before = (self.known.len(), self.unseen, self.suspects.clone());
            for &p in points {
                for q in empty.neighbours(p) {
                    if self.unseen == 0
                        || !empty.geometry().on_board(q)
                        || points.contains(&q)
                        || self.own.contains(&q)
                        || self.known.contains(&q)
                    {
                        continue;
                    }
                    self.known.push(q);
                    self.unseen -= 1;
                    self.suspects.retain(|&(s, _)| s != q);
                }
            }
            let view = self.board(empty);
            if view.stone_count(mover.opponent()) != self.own.len()
                || view.stone_count(mover) != self.known.len()
            {
                self.known.truncate(before.0);
                (self.unseen, self.suspects) = (before.1, before.2);
            }
        }
        self.removal = None;
        Ok(())
    }

    /// The view as a board: known opponent stones, then own stones (an own placement removes a
    /// known stone only if the view was wrong, and then the view drops it).
    pub fn board(&self, empty: &Board) -> Board {
        let mut b = empty.clone();
        let Some(me) = self.me else { return b };
        for &p in &self.known {
            if b.is_empty_point(p) {
                b.play(me.opponent(), p);
            }
        }
        for &p in &self.own {
            if b.is_empty_point(p) {
                b.play(me, p);
            }
        }
        b.clear_ko();
        b
    }

    /// A true board consistent with the view: `view` (the view's board) plus the unseen stones on
    /// random empty points where they are legal, capture nothing and were not proved illegal.
    #[cfg(test)]
    fn sample(&self, view: &Board, rng: &mut impl Rng) -> Board {
        let mut b = view.clone();
        self.place_unseen(&mut b, &mut SampleScratch::new(self, view.geometry()), rng);
        b
    }

    /// Puts the unseen opponent stones on `b` (the view's board): the suspected ones first, the
    /// rest one by one on random empty points where they are legal, capture nothing and were not
    /// proved illegal, each point drawn with its weight in `PLACEMENT_WEIGHTS` (by rejection: a
    /// drawn point is kept with probability weight / the largest weight of the stage). The weight
    /// reads the point's line, the own stones near it and the opponent stones already near it
    /// (known or placed before it), so the stones come in groups, as they do on the true boards,
    /// rather than scattered one by one over the engine's own area.
    fn place_unseen(&self, b: &mut Board, scratch: &mut SampleScratch, rng: &mut impl Rng) {
        let Some(me) = self.me else { return };
        let opponent = me.opponent();
        let fits = |b: &Board, p: Point| {
            b.is_empty_point(p) && !b.is_suicide(opponent, p) && !b.captures_any(opponent, p)
        };
        let geo = *b.geometry();
        let SampleScratch { free, own_near, known_near, opponent_near } = scratch;
        opponent_near.clone_from(known_near);
        let mark = |opponent_near: &mut Vec<u8>, p: Point| count_near(&geo, opponent_near, p);
        let mut placed = 0;
        // The suspected stones first: most refusals are an opponent stone.
        for &(p, _) in &self.suspects {
            if placed < self.unseen && fits(b, p) {
                b.play(opponent, p);
                mark(opponent_near, p);
                placed += 1;
            }
        }
        let weights = placement_weights(b.size(), self.own.len() + self.known.len() + self.unseen as usize);
        let top = weights.iter().flatten().flatten().copied().fold(0.0, f32::max);
        free.clear();
        free.extend(b.empties().iter().copied().filter(|p| !self.illegal.contains(p)));
        while placed < self.unseen && !free.is_empty() {
            let i = rng.gen_range(0..free.len());
            let p = free[i];
            let own = usize::from(own_near[p.idx()].min(3));
            let theirs = usize::from(opponent_near[p.idx()].min(3));
            if rng.gen::<f32>() * top >= weights[line(&geo, p)][own][theirs] {
                continue;
            }
            free.swap_remove(i);
            if !fits(b, p) {
                continue;
            }
            b.play(opponent, p);
            mark(opponent_near, p);
            placed += 1;
        }
        b.clear_ko();
    }
}

/// Scratch space of `View::place_unseen`, kept by each search thread for one search (one view),
/// so that sampling allocates nothing after the first board and counts the stones the view shows
/// once, not once a sample.
pub struct SampleScratch {
    free: Vec<Point>,
    /// Per cell, the own stones within two steps.
    own_near: Vec<u8>,
    /// Per cell, the known opponent stones within two steps.
    known_near: Vec<u8>,
    /// Per cell, the opponent stones within two steps: known or placed so far in this sample.
    opponent_near: Vec<u8>,
}

impl SampleScratch {
    /// The scratch space for samples of `view` on a board of geometry `geo`.
    pub fn new(view: &View, geo: &crate::board::Geometry) -> SampleScratch {
        let mut own_near = vec![0; geo.cells()];
        let mut known_near = vec![0; geo.cells()];
        for &p in &view.own {
            count_near(geo, &mut own_near, p);
        }
        for &p in &view.known {
            count_near(geo, &mut known_near, p);
        }
        SampleScratch { free: Vec::new(), own_near, known_near, opponent_near: Vec::new() }
    }
}

/// Counts a stone on `p` in `counts` at every point within two steps of it.
fn count_near(geo: &crate::board::Geometry, counts: &mut [u8], p: Point) {
    for q in near(geo, p) {
        counts[q.idx()] = counts[q.idx()].saturating_add(1);
    }
}

/// The points within two steps of `p` (Manhattan distance 1 or 2) on the board.
fn near(geo: &crate::board::Geometry, p: Point) -> impl Iterator<Item = Point> + '_ {
    let (x, y) = geo.xy(p);
    let n = geo.size as isize;
    (-2isize..=2).flat_map(move |dx| {
        (-2isize..=2).filter_map(move |dy| {
            let (qx, qy) = (x as isize + dx, y as isize + dy);
            let d = dx.abs() + dy.abs();
            ((1..=2).contains(&d) && (0..n).contains(&qx) && (0..n).contains(&qy))
                .then(|| geo.point(qx as usize, qy as usize))
        })
    })
}

/// How much likelier than a uniform draw the next unseen stone is to stand on a point, by the stage
/// of the game (up to 20, 40, 60 and more stones on the board, scaled to the board's points
/// elsewhere than 9x9), the point's line (first to fifth and farther), the own stones within two
/// steps (0 to 3 or more) and the opponent stones within two steps (the same). Fit by
/// `examples/phantom_placement_weights.py` on the true boards of 380 tengen Phantom Go games
/// against itself (2026-12-07 and 2026-12-08, 2,000 playouts to 1 s a move): at every third move,
/// the stones of the player who just moved were put back one by one in a random order, each counted
/// against the empty points it could have taken, with 20 uniform draws added to every cell so that
/// thin cells stay near 1, and none below 0.01 (a zero would let the draw by rejection spin forever
/// where only such points are open). The order is random, so a rerun on the same games reads its
/// table with other orders: on these games its weights differ from these by 0.07 on average, at
/// most 0.57 in a thin cell. Early stones take the third line, and a stone with others of its
/// colour near it is two to four times likelier than one alone; late ones spread out.
#[rustfmt::skip]
const PLACEMENT_WEIGHTS: [[[[f32; 4]; 4]; 5]; 4] = [
 [[[0.01, 0.04, 0.30, 0.89], [0.02, 0.18, 0.60, 0.94], [0.11, 0.51, 0.89, 1.00], [0.56, 0.89, 1.00, 1.00]],
  [[0.10, 0.34, 0.54, 1.07], [0.25, 0.56, 0.86, 0.92], [0.38, 0.82, 1.11, 1.24], [0.70, 1.28, 1.89, 1.30]],
  [[5.25, 3.87, 4.42, 3.87], [5.09, 4.20, 4.85, 4.53], [5.00, 5.39, 5.80, 5.03], [4.87, 6.49, 8.41, 5.87]],
  [[0.72, 0.73, 0.92, 1.17], [0.72, 0.85, 0.98, 1.17], [0.74, 1.08, 1.34, 1.77], [1.14, 1.22, 1.80, 2.31]],
  [[1.26, 1.58, 1.29, 1.15], [1.66, 1.84, 1.43, 1.54], [1.61, 1.56, 1.81, 1.61], [1.42, 1.63, 1.56, 1.45]]],
 [[[0.07, 0.20, 0.47, 1.12], [0.08, 0.27, 0.57, 0.85], [0.16, 0.50, 1.01, 1.71], [0.26, 0.75, 1.49, 1.89]],
  [[0.72, 0.93, 1.04, 1.32], [0.68, 1.14, 1.28, 1.41], [0.64, 1.43, 2.13, 2.53], [0.62, 1.49, 2.90, 4.47]],
  [[2.91, 3.16, 3.46, 3.83], [2.55, 3.02, 3.41, 3.42], [2.60, 3.07, 3.76, 4.06], [1.95, 2.70, 4.31, 6.39]],
  [[1.20, 1.19, 1.27, 1.47], [0.98, 1.15, 1.19, 1.37], [1.47, 1.49, 1.60, 1.83], [1.15, 1.39, 1.82, 2.89]],
  [[1.02, 1.02, 1.12, 1.57], [1.38, 1.70, 1.47, 1.66], [1.34, 1.11, 1.44, 2.08], [1.64, 1.74, 2.28, 3.21]]],
 [[[0.50, 0.70, 0.94, 1.38], [0.29, 0.69, 0.99, 1.44], [0.33, 0.98, 1.56, 2.55], [0.24, 0.79, 1.78, 3.28]],
  [[0.99, 1.01, 1.00, 1.14], [0.83, 0.95, 0.94, 1.00], [0.66, 1.07, 1.23, 1.45], [0.40, 0.79, 1.35, 2.09]],
  [[1.24, 1.24, 1.28, 1.21], [1.44, 1.56, 1.58, 1.46], [1.72, 1.66, 1.83, 1.88], [0.93, 1.30, 1.82, 3.30]],
  [[0.94, 0.95, 0.96, 0.96], [0.93, 0.95, 0.90, 0.88], [1.01, 1.20, 1.07, 1.26], [0.88, 1.00, 1.34, 2.30]],
  [[1.05, 0.97, 0.87, 1.11], [1.05, 1.06, 1.06, 1.29], [1.32, 1.10, 0.90, 1.75], [1.45, 1.37, 1.52, 2.48]]],
 [[[1.00, 1.01, 0.99, 1.13], [0.95, 0.94, 1.05, 1.24], [0.87, 1.16, 1.39, 1.85], [0.28, 0.70, 1.40, 2.21]],
  [[0.97, 1.02, 1.01, 0.98], [0.84, 0.96, 0.93, 0.83], [1.01, 0.97, 1.04, 1.18], [0.52, 0.76, 1.08, 1.52]],
  [[0.96, 0.89, 0.88, 0.85], [0.88, 0.94, 0.97, 0.82], [1.09, 1.14, 1.17, 1.10], [0.79, 0.96, 1.23, 1.84]],
  [[0.90, 0.92, 0.95, 0.93], [0.85, 0.81, 0.75, 0.74], [0.95, 1.00, 1.01, 0.99], [0.83, 0.84, 1.00, 1.50]],
  [[0.91, 1.07, 1.22, 1.07], [1.03, 0.88, 0.93, 1.09], [1.05, 1.00, 1.35, 1.23], [0.94, 1.18, 1.26, 1.88]]]
];

/// The placement weights (`PLACEMENT_WEIGHTS`) of a board of side `size` holding about `stones`
/// stones.
fn placement_weights(size: usize, stones: usize) -> &'static [[[f32; 4]; 4]; 5] {
    let stage = stones * 81 / (20 * size * size).max(1);
    &PLACEMENT_WEIGHTS[stage.min(PLACEMENT_WEIGHTS.len() - 1)]
}

/// The line of `p` from the nearest edge, from 0 (the first line) to 4 (the fifth and farther).
fn line(geo: &crate::board::Geometry, p: Point) -> usize {
    let (x, y) = geo.xy(p);
    let n = geo.size;
    x.min(y).min(n - 1 - x).min(n - 1 - y).min(4)
}

impl Engine {
    /// Is this a Phantom Go game (the engine plays from its view)?
    pub fn is_phantom(&self) -> bool {
        self.phantom.is_some()
    }

    /// The engine's knowledge of the Phantom Go game, if it is one.
    pub fn phantom_view(&self) -> Option<&View> {
        self.phantom.as_ref()
    }

    /// Runs `f` on the view; on success the game shows the new view, on failure nothing changed.
    fn with_view(
        &mut self,
        f: impl FnOnce(&mut View, &Board) -> Result<(), EngineError>,
    ) -> Result<(), EngineError> {
        let Some(view) = self.phantom.as_ref() else { return Err(phantom_error("not a phantom game")) };
        let mut next = view.clone();
        f(&mut next, &self.rules.board(self.size))?;
        self.phantom = Some(next);
        self.sync_phantom();
        Ok(())
    }

    /// Rebuilds the game from the view (a position of its own: prisoners as announced, the side
    /// to move; no history, since the engine never saw the true one).
    pub(super) fn sync_phantom(&mut self) {
        let Some(view) = &self.phantom else { return };
        let rules = self.rules.standard();
        let board = view.board(&self.rules.board(self.size));
        let mut pos = Position::new(&rules, board);
        pos.to_move = view.to_move;
        pos.prisoners = view.captured;
        self.game = AnyGame::Go(Game::from_position(rules, pos));
    }

    /// `phantom-illegal V`.
    pub fn phantom_illegal(&mut self, p: Point) -> Result<(), EngineError> {
        self.with_view(|v, b| v.illegal(p, b))
    }

    /// `phantom-opponent-moved [pass]`.
    pub fn phantom_opponent_moved(&mut self, pass: bool) -> Result<(), EngineError> {
        self.with_view(|v, _| v.opponent_moved(pass))
    }

    /// `phantom-opponent-illegal`.
    pub fn phantom_opponent_illegal(&mut self) -> Result<(), EngineError> {
        self.with_view(|v, _| v.opponent_illegal())
    }

    /// `phantom-removed V...`.
    pub fn phantom_removed(&mut self, points: &[Point]) -> Result<(), EngineError> {
        self.with_view(|v, b| v.removed(points, b))
    }

    /// A move of the engine's own colour on its view (`play`, or `genmove`'s proposal).
    pub(super) fn phantom_play(&mut self, color: Color, mv: Move, proposal: bool) -> Result<(), EngineError> {
        self.with_view(|v, empty| {
            v.check_move(color, mv)?;
            // A stone left without liberties on the view is one on the true board too (the
            // view's empty points are all that could be liberties).
            if let Move::Place(p) = mv {
                let mut after = v.clone();
                after.accept_pending();
                if after.board(empty).is_suicide(color, p) {
                    return Err(EngineError::Illegal(crate::rules::Illegal::Suicide));
                }
            }
            v.play_own(color, mv, proposal);
            Ok(())
        })
    }

    /// The search of `color`'s move (`ismcts`): a tree over the engine's own moves, a new
    /// sampled board for every iteration, until the playouts or the time (its target) run out, or
    /// until `stop` for open-ended analysis. Reports every `req.report_every` and at the end.
    pub(super) fn phantom_think(
        &mut self,
        color: Color,
        req: &ThinkRequest,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
        started: Instant,
    ) -> Result<SearchReport, EngineError> {
        let Some(view) = self.phantom.clone() else { return Err(phantom_error("not a phantom game")) };
        let mut check = view.clone();
        check.accept_pending();
        check.claim_turn(color)?;
        let mut view = check;
        view.me = Some(color);
        let rules: Standard = self.rules.standard();
        let view_board = view.board(&self.rules.board(self.size));
        let base = self.search_config(color, 0);
        // The view's game has no moves, so the search's seed takes the view's events for them.
        let config = SearchConfig { seed: mix_seed(base.seed, u64::from(view.events), 7), ..base };
        let deadline = req.limits.time.map(|t| started + t.target);
        let mut next_report = req.report_every.map(|d| started + d);
        let mut tick = |report: &dyn Fn() -> SearchReport| {
            if let (Some(at), Some(every)) = (next_report, req.report_every) {
                if Instant::now() >= at {
                    on_report(&report());
                    next_report = Some(Instant::now() + every);
                }
            }
            stop() || deadline.is_some_and(|d| Instant::now() >= d)
        };
        let settings =
            ismcts::TreeSettings { max_bytes: self.options.max_tree_mb << 20, ..Default::default() };
        let search = ismcts::Ismcts::new(&view, &rules, &view_board, color, &config, settings);
        search.run(req.limits.playouts, |s| tick(&|| s.report(started.elapsed())));
        let report = search.report(started.elapsed());
        on_report(&report);
        Ok(report)
    }

    /// The proposal from the search: the most visited candidate (never a point known
    /// to be occupied or illegal: the report leaves those out, and the samples never have them
    /// empty); when the search has none, a random point the view leaves open, else a pass.
    pub(super) fn phantom_decide(&self, color: Color, report: &SearchReport) -> Decision {
        let view = self.phantom.as_ref().expect("a phantom game");
        if let Some(best) = report.best() {
            if view.check_move(color, best.mv).is_ok() {
                return Decision::Play(best.mv);
            }
        }
        let board = self.game.board();
        let open = board
            .empties()
            .iter()
            .copied()
            .find(|&p| view.check_move(color, Move::Place(p)).is_ok() && !board.is_suicide(color, p));
        Decision::Play(open.map_or(Move::Pass, Move::Place))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand_xoshiro::Xoshiro256PlusPlus;

    /// Black's view on an empty board of `size`: its stones on `own`, `unseen` White stones.
    fn black_view(size: usize, own: &[&str], unseen: u32) -> (Board, View) {
        let empty = Board::new(size);
        let geo = *empty.geometry();
        let mut v = View::new();
        v.me = Some(Color::Black);
        v.own = own.iter().map(|s| geo.parse_vertex(s).unwrap()).collect();
        v.unseen = unseen;
        (empty, v)
    }

    #[test]
    fn samples_keep_the_view_and_place_every_unseen_stone_where_it_may_stand() {
        let (empty, mut v) = black_view(7, &["C3", "D4", "E5", "C4"], 6);
        let geo = *empty.geometry();
        v.known = vec![geo.parse_vertex("D3").unwrap()];
        v.illegal = vec![geo.parse_vertex("D5").unwrap(), geo.parse_vertex("D3").unwrap()];
        v.suspects = vec![(geo.parse_vertex("B4").unwrap(), 2)];
        let view = v.board(&empty);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let mut suspect_filled = 0;
        for _ in 0..200 {
            let b = v.sample(&view, &mut rng);
            b.check_consistency().unwrap();
            assert!(v.own.iter().all(|&p| b.cell(p) == crate::board::Cell::Black));
            assert!(v.known.iter().all(|&p| b.cell(p) == crate::board::Cell::White));
            assert_eq!(b.stone_count(Color::White), 1 + 6);
            assert!(b.is_empty_point(geo.parse_vertex("D5").unwrap()), "a refused point stays open");
            suspect_filled +=
                usize::from(b.cell(geo.parse_vertex("B4").unwrap()) == crate::board::Cell::White);
        }
        assert_eq!(suspect_filled, 200, "a suspected stone is in every sample");
    }

    #[test]
    fn early_unseen_stones_keep_off_the_edge() {
        // White has made four moves Black cannot see: they are drawn mostly on the third line
        // (24 points of 9x9's 81), rarely on the first (32 points).
        let (empty, v) = black_view(9, &["E5", "C3", "G7"], 4);
        let geo = *empty.geometry();
        let view = v.board(&empty);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(9);
        let mut on_line = [0u32; 5];
        for _ in 0..500 {
            let b = v.sample(&view, &mut rng);
            assert_eq!(b.stone_count(Color::White), 4);
            for p in geo.points().filter(|&p| b.cell(p) == crate::board::Cell::White) {
                on_line[line(&geo, p)] += 1;
            }
        }
        let per_point = |l: usize, points: u32| f64::from(on_line[l]) / f64::from(points);
        assert!(per_point(2, 24) > 20.0 * per_point(0, 32), "{on_line:?}");
        assert!(per_point(2, 24) > 3.0 * per_point(1, 24), "{on_line:?}");
    }

    #[test]
    fn sampling_ends_on_the_smallest_boards() {
        // Every weight is above zero, so the draw by rejection ends even where only first-line
        // points with nothing near them are open: on 3x3 with the centre refused, a White stone
        // Black cannot see must go on the edge.
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(4);
        let cases = [
            (2, &[][..], 1, None),
            (3, &[][..], 1, Some("B2")),
            (3, &[][..], 2, None),
            (4, &["B2"][..], 3, None),
        ];
        for (size, own, unseen, refused) in cases {
            let (empty, mut v) = black_view(size, own, unseen);
            v.illegal.extend(refused.map(|s| empty.geometry().parse_vertex(s).unwrap()));
            let view = v.board(&empty);
            for _ in 0..50 {
                let b = v.sample(&view, &mut rng);
                assert_eq!(b.stone_count(Color::White), unseen as usize, "{size}x{size}");
            }
        }
    }

    #[test]
    fn unseen_stones_come_in_groups() {
        // Mid-game (stage two of four), Black holds the left side; White's 16 unseen stones touch
        // one another far more often than uniform draws put them (about 54% of them).
        let own = ["B2", "B4", "B6", "B8", "C3", "C5", "C7", "D2", "D4", "D6", "D8", "C9", "E5"];
        let (empty, v) = black_view(9, &own, 16);
        let geo = *empty.geometry();
        let view = v.board(&empty);
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let count = |b: &Board, tally: &mut [u32; 2]| {
            for p in geo.points().filter(|&p| b.cell(p) == crate::board::Cell::White) {
                tally[0] += 1;
                tally[1] +=
                    u32::from(b.neighbours(p).iter().any(|&q| b.cell(q) == crate::board::Cell::White));
            }
        };
        let (mut weighted, mut uniform) = ([0u32; 2], [0u32; 2]);
        for _ in 0..400 {
            count(&v.sample(&view, &mut rng), &mut weighted);
            let mut b = view.clone();
            let mut open: Vec<Point> = b.empties().to_vec();
            while b.stone_count(Color::White) < 16 {
                let p = open.swap_remove(rng.gen_range(0..open.len()));
                if !b.is_suicide(Color::White, p) && !b.captures_any(Color::White, p) {
                    b.play(Color::White, p);
                }
            }
            count(&b, &mut uniform);
        }
        assert_eq!(weighted[0], 400 * 16);
        let rate = |t: &[u32; 2]| f64::from(t[1]) / f64::from(t[0]);
        let (w, u) = (rate(&weighted), rate(&uniform));
        assert!(w > u + 0.15, "touching another white stone: weighted {w}, uniform {u}");
    }
}
