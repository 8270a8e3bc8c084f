//! Phantom Go from one player's side (RULES.md 5.2, GTP.md "Phantom Go"): what the engine knows,
//! how the referee's messages change it, and the search that reasons about what it cannot see.
//!
//! The engine's game under `phantom` is its **view**: its own stones and the opponent stones it
//! knows of, rebuilt from [`View`] after every message (`Engine::sync_phantom`). Everything that
//! reads the game (showboard, GoGui's rules board, `captures`) so shows the view. The true board
//! is the referee's alone.
//!
//! The search is **determinization** (Cazenave's and Borsboom et al.'s Phantom Go players, and the
//! Computer Olympiad winners after them): sample many true boards consistent with the view (the
//! unseen opponent stones put on random points where they are legal and capture nothing of ours,
//! none on a point proved illegal this turn), run the ordinary tree search on each with a share of
//! the budget, and add up the root statistics (visits, and wins weighted by visits). The move with
//! the most visits over all samples is proposed; a point the engine knows to be occupied or
//! illegal in this position never is.

use super::{Decision, Engine, EngineError};
use crate::board::{Board, ByColor, Color, Point};
use crate::rules::{AnyGame, Game, Move, Position, Standard};
use crate::search::{
    mix_seed, Candidate, Limits, SearchConfig, SearchInput, SearchReport, ThinkRequest, Tree,
};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Boards sampled for one move search (each gets this share of the move's playouts or time).
pub const SAMPLES: u64 = 16;
/// Playouts per sampled board when nothing limits the search (analysis): it goes on sampling.
const OPEN_SAMPLE_PLAYOUTS: u64 = 1_000;
/// Own moves for which a refused point stays suspected of holding an opponent stone.
const SUSPECT_TURNS: u8 = 3;
/// Memory of one sampled board's tree (a share of a move's search is small).
const SAMPLE_TREE_MB: usize = 64;

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
    /// the engine's own, opponent stones (known or unseen), after the opponent's, its own.
    pub fn removed(&mut self, points: &[Point]) -> Result<(), EngineError> {
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
    fn sample(&self, view: &Board, rng: &mut Xoshiro256PlusPlus) -> Board {
        let mut b = view.clone();
        let Some(me) = self.me else { return b };
        let opponent = me.opponent();
        let fits = |b: &Board, p: Point| {
            b.is_empty_point(p) && !b.is_suicide(opponent, p) && !b.captures_any(opponent, p)
        };
        let mut placed = 0;
        // The suspected stones first: most refusals are an opponent stone.
        for &(p, _) in &self.suspects {
            if placed < self.unseen && fits(&b, p) {
                b.play(opponent, p);
                placed += 1;
            }
        }
        let mut free: Vec<Point> =
            b.empties().iter().copied().filter(|p| !self.illegal.contains(p)).collect();
        while placed < self.unseen && !free.is_empty() {
            let p = free.swap_remove(rng.gen_range(0..free.len()));
            if !fits(&b, p) {
                continue;
            }
            b.play(opponent, p);
            placed += 1;
        }
        b.clear_ko();
        b
    }
}

/// Root statistics added up over the sampled boards.
#[derive(Default)]
struct Merged {
    moves: HashMap<Move, (u64, f64, f64, f64)>,
    playouts: u64,
    playout_moves: u64,
    nodes: usize,
    tree_slots: usize,
    samples: u64,
}

impl Merged {
    fn add(&mut self, r: &SearchReport) {
        for c in &r.candidates {
            let e = self.moves.entry(c.mv).or_default();
            let v = f64::from(c.visits);
            e.0 += u64::from(c.visits);
            e.1 += c.winrate * v;
            e.2 += c.prior;
            e.3 += c.score_lead * v;
        }
        self.playouts += r.playouts;
        self.playout_moves += r.playout_moves;
        self.nodes = self.nodes.max(r.nodes);
        self.tree_slots = self.tree_slots.max(r.tree_slots);
        self.samples += 1;
    }

    /// The report over every sample so far, `excluded` moves left out, best first.
    fn report(&self, elapsed: Duration, excluded: impl Fn(Move) -> bool) -> SearchReport {
        let mut candidates: Vec<Candidate> = self
            .moves
            .iter()
            .filter(|&(&mv, &(visits, ..))| visits > 0 && !excluded(mv))
            .map(|(&mv, &(visits, wins, prior, score))| {
                let n = visits as f64;
                let winrate = wins / n;
                let lcb = (winrate - 1.96 * (winrate * (1.0 - winrate) / n).sqrt()).max(0.0);
                Candidate {
                    mv,
                    visits: visits.min(u64::from(u32::MAX)) as u32,
                    winrate,
                    prior: prior / self.samples.max(1) as f64,
                    lcb,
                    score_lead: score / n,
                    pv: vec![mv],
                }
            })
            .collect();
        let code = |m: Move| crate::search::tree::MoveCode::new(m).0;
        candidates.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(b.winrate.total_cmp(&a.winrate)).then(code(a.mv).cmp(&code(b.mv)))
        });
        let root_visits = candidates.iter().map(|c| u64::from(c.visits)).sum();
        SearchReport {
            playouts: self.playouts,
            playout_moves: self.playout_moves,
            root_visits,
            nodes: self.nodes,
            tree_slots: self.tree_slots,
            elapsed,
            winrate: candidates.first().map_or(0.5, |c| c.winrate),
            score_lead: candidates.first().map_or(0.0, |c| c.score_lead),
            candidates,
            ownership: None,
            neutral: None,
        }
    }
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
        self.with_view(|v, _| v.removed(points))
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

    /// The determinized search of `color`'s move: `SAMPLES` sampled boards, each searched with a
    /// share of the limits (open-ended analysis samples until `stop`), their root statistics added
    /// up. Reports the merged statistics every `req.report_every` and at the end.
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
        let limits = req.limits;
        let open_ended = limits.playouts.is_none() && limits.time.is_none();
        let sample_limits = Limits {
            // A clock alone limits a timed move's samples; only open-ended analysis needs a
            // playout count to end each sample.
            playouts: match limits.playouts {
                Some(p) => Some(p.div_ceil(SAMPLES).max(1)),
                None if open_ended => Some(OPEN_SAMPLE_PLAYOUTS),
                None => None,
            },
            time: None,
            early_stop: false,
        };
        let config = self.search_config(color, 0);
        let mut rng =
            Xoshiro256PlusPlus::seed_from_u64(mix_seed(self.options.seed, u64::from(view.events), 7));
        let mut merged = Merged::default();
        let excluded = |mv: Move| matches!(mv, Move::Place(p) if view.illegal.contains(&p));
        let mut next_report = req.report_every.map(|d| started + d);
        let deadline = limits.time.map(|t| started + t.limit);
        let mut tree = Tree::with_megabytes(SAMPLE_TREE_MB.min(self.options.max_tree_mb));
        for i in 0.. {
            if (!open_ended && i >= SAMPLES)
                || (i > 0 && (stop() || deadline.is_some_and(|d| Instant::now() >= d)))
            {
                break;
            }
            let board = view.sample(&view_board, &mut rng);
            let mut root = Position::new(&rules, board);
            root.to_move = color;
            let history = [(root.board.hash(), color)];
            let input = SearchInput {
                rules: &rules,
                root: &root,
                history: &history,
                last_move: Point::NONE,
                opponent_passed: view.opponent_passed,
                started: Instant::now(),
            };
            let config = SearchConfig { seed: mix_seed(config.seed, i, 1), ..config.clone() };
            if i > 0 {
                tree = Tree::with_megabytes(SAMPLE_TREE_MB.min(self.options.max_tree_mb));
            }
            // The samples still to come share what is left of the move's time, so that one that
            // ran over (or a slow start) never pushes the move past its limit.
            let time = limits.time.map(|t| {
                let now = Instant::now();
                let left = SAMPLES.saturating_sub(i).max(1) as u32;
                let until = |d: Duration| (started + d).saturating_duration_since(now) / left;
                crate::search::TimeLimit { target: until(t.target), limit: until(t.limit) }
            });
            let sample_req =
                ThinkRequest { limits: Limits { time, ..sample_limits }, ..ThinkRequest::default() };
            let r = crate::search::search(&input, &mut tree, &config, &sample_req, stop, &mut |_| {});
            merged.add(&r);
            if let (Some(at), Some(every)) = (next_report, req.report_every) {
                if Instant::now() >= at {
                    on_report(&merged.report(started.elapsed(), excluded));
                    next_report = Some(Instant::now() + every);
                }
            }
        }
        let report = merged.report(started.elapsed(), excluded);
        on_report(&report);
        Ok(report)
    }

    /// The proposal from a determinized search: the most visited candidate (never a point known
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

    #[test]
    fn samples_keep_the_view_and_place_every_unseen_stone_where_it_may_stand() {
        let empty = Board::new(7);
        let geo = *empty.geometry();
        let mut v = View::new();
        v.me = Some(Color::Black);
        v.own = ["C3", "D4", "E5", "C4"].iter().map(|s| geo.parse_vertex(s).unwrap()).collect();
        v.known = vec![geo.parse_vertex("D3").unwrap()];
        v.illegal = vec![geo.parse_vertex("D5").unwrap(), geo.parse_vertex("D3").unwrap()];
        v.suspects = vec![(geo.parse_vertex("B4").unwrap(), 2)];
        v.unseen = 6;
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
}
