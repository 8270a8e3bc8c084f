//! The Phantom Go move search with depth: information-set Monte Carlo tree search over the
//! engine's own moves (single-observer ISMCTS, Cowling, Powley and Whitehouse, 2012).
//!
//! A node is a sequence of the engine's own moves from the view: what the engine will know, since
//! between two of its turns it does not see where the opponent played. Every iteration places the
//! unseen opponent stones afresh (as the flat search does), then descends: at each node it takes,
//! among the own moves legal on that sampled board, the one of highest value (the tree's RAVE
//! blend with priors, plus an exploration term over the number of times the move was available),
//! plays it, lets the playout policy answer for the opponent on the sampled board (the answer is
//! not kept in the tree: the engine will not see it), and goes on to the child. A move visited
//! `expand` times gets a child node, whose priors are computed on the view with the own moves of
//! its path; then the game is played out and the result goes to every own move of the path, with
//! the all-moves-as-first samples of the own moves played after each.
//!
//! The root's moves are the flat search's candidates (`Flat::new`'s rule): never a point known to
//! be occupied or refused. The most visited is proposed.

use super::{SampleScratch, View};
use crate::board::{Board, Color, Point};
use crate::playout::{LadderReader, Playout, Rng};
use crate::rules::{Move, Position, Standard};
use crate::search::priors::{Prior, PriorContext};
use crate::search::select::rave_blend;
use crate::search::{lower_bound, Candidate, SearchConfig, SearchReport};
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Iterations between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 32;

/// Own moves a descent plays at most.
const MAX_DEPTH: usize = 40;

const NO_NODE: u32 = u32::MAX;

/// The settings of the tree.
#[derive(Clone, Copy, Debug)]
pub struct TreeSettings {
    /// Visits of a move before it gets a child node.
    pub expand: u32,
    /// The exploration constant (over the move's availability count).
    pub explore: f64,
    /// No new node once the nodes take this many bytes.
    pub max_bytes: usize,
}

impl TreeSettings {
    /// The flat search (Cazenave's): no node below the root, no exploration term. Its candidates,
    /// choices and statistics are those of the flat search this one replaced, draw for draw.
    #[cfg(test)]
    pub const FLAT: TreeSettings = TreeSettings { expand: u32::MAX, explore: 0.0, max_bytes: 0 };
}

impl Default for TreeSettings {
    fn default() -> TreeSettings {
        TreeSettings { expand: 8, explore: 0.2, max_bytes: 1 << 30 }
    }
}

/// One own move of a node.
#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    /// Descents that took this move, and their half points for the engine.
    visits: u32,
    half: u32,
    /// Descents at this node on whose board the move was legal.
    avail: u32,
    /// Sum of the margins of the descents that took it.
    margin: f32,
    /// All-moves-as-first samples and their half points.
    amaf_visits: u32,
    amaf_half: u32,
    /// The prior as equivalent experience: visits and half points.
    prior_visits: u32,
    prior_half: u32,
    /// The node after this move, or `NO_NODE`.
    child: u32,
}

impl Edge {
    fn new(prior: Prior) -> Edge {
        Edge { prior_visits: prior.visits, prior_half: prior.wins, child: NO_NODE, ..Edge::default() }
    }

    fn value(&self, rave_equiv: f64, explore: f64) -> f64 {
        let pv = f64::from(self.prior_visits);
        let ph = f64::from(self.prior_half);
        let un = f64::from(self.visits) + pv;
        let v = rave_blend(
            un,
            (f64::from(self.half) + ph) * 0.5,
            f64::from(self.amaf_visits) + pv,
            (f64::from(self.amaf_half) + ph) * 0.5,
            rave_equiv,
        );
        if explore > 0.0 {
            v + explore * ((f64::from(self.avail.max(1))).ln() / (f64::from(self.visits) + 1.0)).sqrt()
        } else {
            v
        }
    }
}

/// The statistics of one move's search, shared by the search threads.
pub(super) struct Stats {
    /// Per node, an edge per root move (the same index: `Ismcts::moves`).
    nodes: Vec<Vec<Edge>>,
    playouts: u64,
    playout_moves: u64,
}

impl Stats {
    /// The root's statistics as a search report: every move tried, most visited first.
    pub fn report(&self, moves: &[Move], elapsed: Duration) -> SearchReport {
        let root = &self.nodes[0];
        let rate = |e: &Edge| f64::from(e.prior_half) * 0.5 / f64::from(e.prior_visits.max(1));
        let total: f64 = root.iter().map(rate).sum::<f64>().max(f64::MIN_POSITIVE);
        let mut candidates: Vec<Candidate> = root
            .iter()
            .zip(moves)
            .filter(|(e, _)| e.visits > 0)
            .map(|(e, &mv)| {
                let n = f64::from(e.visits);
                let winrate = f64::from(e.half) * 0.5 / n;
                Candidate {
                    mv,
                    visits: e.visits,
                    winrate,
                    prior: rate(e) / total,
                    lcb: lower_bound(winrate, n),
                    score_lead: f64::from(e.margin) / n,
                    pv: self.pv(e, moves, mv),
                }
            })
            .collect();
        let code = |m: Move| crate::search::tree::MoveCode::new(m).0;
        candidates.sort_by(|a, b| {
            b.visits.cmp(&a.visits).then(b.winrate.total_cmp(&a.winrate)).then(code(a.mv).cmp(&code(b.mv)))
        });
        SearchReport {
            playouts: self.playouts,
            playout_moves: self.playout_moves,
            root_visits: candidates.iter().map(|c| u64::from(c.visits)).sum(),
            nodes: self.nodes.len(),
            tree_slots: self.nodes.len() * moves.len(),
            elapsed,
            winrate: candidates.first().map_or(0.5, |c| c.winrate),
            score_lead: candidates.first().map_or(0.0, |c| c.score_lead),
            candidates,
            ownership: None,
            neutral: None,
        }
    }

    /// The own moves most visited after `edge` (`mv`), `mv` first.
    fn pv(&self, edge: &Edge, moves: &[Move], mv: Move) -> Vec<Move> {
        let mut pv = vec![mv];
        let mut node = edge.child;
        while node != NO_NODE && pv.len() < 10 {
            let best = self.nodes[node as usize].iter().enumerate().max_by_key(|(_, e)| e.visits);
            match best {
                Some((i, e)) if e.visits > 0 => {
                    pv.push(moves[i]);
                    node = e.child;
                }
                _ => break,
            }
        }
        pv
    }
}

/// What one search thread owns: its playout runner, generator and scratch space.
struct Runner {
    playout: Playout<Standard>,
    rng: Rng,
    sample: SampleScratch,
    /// The descent: (node, move index) per own move.
    path: Vec<(u32, u32)>,
    /// Where each own move of the path stands in `trajectory`.
    at: Vec<usize>,
    /// Every placement of the iteration, in order: the descent's and the playout's.
    trajectory: Vec<(Color, Point)>,
    /// Per cell, the stamp that last saw a move there (AMAF counts first moves only).
    seen: Vec<u64>,
    stamp: u64,
    iterations: u64,
    /// Scratch for a new node's priors: the view with the path's own moves.
    board: Board,
    ladder: LadderReader,
}

/// One move's search.
pub(super) struct Ismcts<'a> {
    view: &'a View,
    rules: &'a Standard,
    config: &'a SearchConfig,
    settings: TreeSettings,
    color: Color,
    /// The view's position, `color` to move.
    root: Position<Standard>,
    /// The root's moves: every edge of every node is one of them, at the same index.
    moves: Vec<Move>,
    /// Per cell, the index of the move placing there, or `u32::MAX`.
    move_at: Vec<u32>,
    stats: Mutex<Stats>,
}

impl<'a> Ismcts<'a> {
    /// The root's moves are the flat search's candidates: every empty point of the view not refused
    /// in this position and not a suicide on it, and the pass, with the tree's priors.
    pub fn new(
        view: &'a View,
        rules: &'a Standard,
        view_board: &Board,
        color: Color,
        config: &'a SearchConfig,
        settings: TreeSettings,
    ) -> Ismcts<'a> {
        let mut root = Position::new(rules, view_board.clone());
        root.to_move = color;
        root.prisoners = view.captured;
        root.passes = u8::from(view.opponent_passed);
        let playout = Playout::new(&root);
        let mut ladder = LadderReader::new();
        let mut ctx = PriorContext {
            board: &root.board,
            color,
            last: Point::NONE,
            own_last: Point::NONE,
            patterns: playout.patterns(),
            weights: &config.priors,
            ladder: &mut ladder,
        };
        let mut moves = Vec::new();
        let mut edges = Vec::new();
        let mut move_at = vec![u32::MAX; view_board.geometry().cells()];
        for p in view_board.geometry().points() {
            if !view_board.is_empty_point(p) || view.illegal.contains(&p) || view_board.is_suicide(color, p) {
                continue;
            }
            move_at[p.idx()] = moves.len() as u32;
            moves.push(Move::Place(p));
            edges.push(Edge::new(ctx.placement(p, false)));
        }
        moves.push(Move::Pass);
        edges.push(Edge::new(ctx.pass_like(view.opponent_passed)));
        let stats = Mutex::new(Stats { nodes: vec![edges], playouts: 0, playout_moves: 0 });
        Ismcts { view, rules, config, settings, color, root, moves, move_at, stats }
    }

    /// The statistics so far.
    pub fn stats(&self) -> MutexGuard<'_, Stats> {
        self.stats.lock().expect("no search thread panicked")
    }

    /// The report of the statistics so far.
    pub fn report(&self, elapsed: Duration) -> SearchReport {
        self.stats().report(&self.moves, elapsed)
    }

    /// Runs `playouts` iterations (none: until `done` says so), on `config.threads` threads.
    pub fn run(&self, playouts: Option<u64>, mut done: impl FnMut(&Ismcts) -> bool) {
        let claimed = AtomicU64::new(0);
        let stop = AtomicBool::new(false);
        let claim = || !stop.load(Relaxed) && playouts.is_none_or(|n| claimed.fetch_add(1, Relaxed) < n);
        std::thread::scope(|scope| {
            for t in 1..self.config.threads.max(1) {
                let mut runner = self.runner(t);
                let claim = &claim;
                scope.spawn(move || {
                    while claim() {
                        self.iterate(&mut runner);
                    }
                });
            }
            let mut runner = self.runner(0);
            while claim() {
                self.iterate(&mut runner);
                if runner.iterations.is_multiple_of(CHECK_EVERY) && done(self) {
                    stop.store(true, Relaxed);
                }
            }
            stop.store(true, Relaxed);
        });
    }

    fn runner(&self, t: usize) -> Runner {
        let mut playout = Playout::new(&self.root);
        playout.keep_seki(self.config.keep_seki);
        playout.mercy(self.config.mercy);
        let seed = self.config.seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let cells = self.root.board.geometry().cells();
        Runner {
            playout,
            rng: Rng::seed_from_u64(seed),
            sample: SampleScratch::new(self.view, self.root.board.geometry()),
            path: Vec::with_capacity(MAX_DEPTH),
            at: Vec::with_capacity(MAX_DEPTH),
            trajectory: Vec::with_capacity(4 * cells),
            seen: vec![0; cells],
            stamp: 0,
            iterations: 0,
            board: self.root.board.clone(),
            ladder: LadderReader::new(),
        }
    }

    /// The move of highest value at `node` among those legal on `pos`, counting the availability
    /// of each legal one.
    fn choose(&self, stats: &mut Stats, node: u32, pos: &Position<Standard>) -> u32 {
        let (rules, color) = (self.rules, self.color);
        let (k, explore) = (self.config.rave_equiv, self.settings.explore);
        let edges = &mut stats.nodes[node as usize];
        let mut best: Option<(f64, usize)> = None;
        for (i, (e, &mv)) in edges.iter_mut().zip(&self.moves).enumerate() {
            if let Move::Place(p) = mv {
                if !pos.board.is_empty_point(p) || pos.check(rules, color, mv).is_err() {
                    continue;
                }
            }
            e.avail += 1;
            let v = e.value(k, explore);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, i));
            }
        }
        best.expect("a pass is always legal").1 as u32
    }

    /// A new node after the path's own moves: priors on the view with those moves.
    fn expand(&self, r: &mut Runner, stats: &mut Stats) -> u32 {
        r.board.clone_from(&self.root.board);
        for &(_, i) in &r.path {
            if let Move::Place(p) = self.moves[i as usize] {
                if r.board.is_empty_point(p) && !r.board.is_suicide(self.color, p) {
                    r.board.play(self.color, p);
                }
            }
        }
        let mut ctx = PriorContext {
            board: &r.board,
            color: self.color,
            last: Point::NONE,
            own_last: Point::NONE,
            patterns: r.playout.patterns(),
            weights: &self.config.priors,
            ladder: &mut r.ladder,
        };
        let edges: Vec<Edge> = self
            .moves
            .iter()
            .map(|&mv| match mv {
                Move::Place(p) if ctx.board.is_empty_point(p) && !ctx.board.is_suicide(self.color, p) => {
                    Edge::new(ctx.placement(p, false))
                }
                Move::Place(_) => Edge::new(Prior::even(self.config.priors.even)),
                _ => Edge::new(ctx.pass_like(false)),
            })
            .collect();
        stats.nodes.push(edges);
        (stats.nodes.len() - 1) as u32
    }

    /// One sampled board, one descent, one playout.
    fn iterate(&self, r: &mut Runner) {
        let (rules, color, policy) = (self.rules, self.color, self.config.policy);
        r.playout.load(&self.root);
        self.view.place_unseen(&mut r.playout.position_mut().board, &mut r.sample, &mut r.rng);
        r.path.clear();
        r.at.clear();
        r.trajectory.clear();
        let mut node = 0u32;
        loop {
            let (i, child, visits) = {
                let mut stats = self.stats();
                let i = self.choose(&mut stats, node, r.playout.position());
                let e = stats.nodes[node as usize][i as usize];
                (i, e.child, e.visits)
            };
            r.path.push((node, i));
            r.at.push(r.trajectory.len());
            let mv = self.moves[i as usize];
            r.playout.position_mut().play(rules, color, mv);
            let Move::Place(p) = mv else {
                r.playout.set_last(Point::NONE);
                break;
            };
            r.trajectory.push((color, p));
            r.playout.set_last(p);
            if child == NO_NODE {
                if visits.saturating_add(1) >= self.settings.expand && r.path.len() < MAX_DEPTH {
                    let mut stats = self.stats();
                    let bytes = stats.nodes.len() * self.moves.len() * std::mem::size_of::<Edge>();
                    if stats.nodes[node as usize][i as usize].child == NO_NODE
                        && bytes < self.settings.max_bytes
                    {
                        let new = self.expand(r, &mut stats);
                        stats.nodes[node as usize][i as usize].child = new;
                    }
                }
                break;
            }
            // The opponent's answer, which the engine will not see: the policy's, on this board.
            match r.playout.step(rules, policy, &mut r.rng) {
                Some(q) => r.trajectory.push((color.opponent(), q)),
                None => break,
            }
            node = child;
        }
        let mut result = r.playout.play_out(rules, policy, &mut r.rng);
        if self.config.score_weight > 0.0 {
            result.blend_score(self.root.board.size(), self.config.score_weight, &mut r.rng);
        }
        r.iterations += 1;
        r.trajectory.extend_from_slice(r.playout.moves());
        let half = result.half_points(color);
        let margin = match color {
            Color::Black => result.black_margin,
            Color::White => -result.black_margin,
        };
        let mut stats = self.stats();
        stats.playouts += 1;
        stats.playout_moves += u64::from(result.moves);
        for (d, &(node, i)) in r.path.iter().enumerate() {
            let edges = &mut stats.nodes[node as usize];
            let e = &mut edges[i as usize];
            e.visits += 1;
            e.half += half;
            e.margin += margin;
            // AMAF: the own moves played first on their point after this one.
            r.stamp += 1;
            let stamp = r.stamp;
            let from = r.at[d];
            if let Some(&(_, p)) = r.trajectory.get(from) {
                if matches!(self.moves[i as usize], Move::Place(_)) {
                    r.seen[p.idx()] = stamp;
                }
            }
            let start = if matches!(self.moves[i as usize], Move::Place(_)) { from + 1 } else { from };
            for &(c, p) in &r.trajectory[start.min(r.trajectory.len())..] {
                if r.seen[p.idx()] == stamp {
                    continue;
                }
                r.seen[p.idx()] = stamp;
                let a = self.move_at[p.idx()];
                if c == color && a != u32::MAX {
                    let e = &mut edges[a as usize];
                    e.amaf_visits += 1;
                    e.amaf_half += half;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Black's view on 7x7: its stones on `own`, `known` White stones, `unseen` more, `illegal`
    /// refused this turn.
    fn view(own: &[&str], known: &[&str], illegal: &[&str], unseen: u32) -> (Board, View) {
        let empty = Board::new(7);
        let geo = *empty.geometry();
        let points = |v: &[&str]| v.iter().map(|s| geo.parse_vertex(s).unwrap()).collect::<Vec<_>>();
        let mut v = View::new();
        v.me = Some(Color::Black);
        v.own = points(own);
        v.known = points(known);
        v.illegal = points(illegal);
        v.unseen = unseen;
        let board = v.board(&empty);
        (board, v)
    }

    #[test]
    fn the_tree_grows_below_the_root_and_never_offers_a_point_known_closed() {
        let (board, v) = view(&["C3", "D4", "E5"], &["D3"], &["C5"], 4);
        let rules = Standard::default();
        let config = SearchConfig { seed: 3, ..SearchConfig::default() };
        let search = Ismcts::new(&v, &rules, &board, Color::Black, &config, TreeSettings::default());
        search.run(Some(2_000), |_| false);
        let report = search.report(Duration::ZERO);
        assert_eq!(report.playouts, 2_000);
        assert_eq!(report.root_visits, 2_000);
        assert!(report.nodes > 10, "{} nodes", report.nodes);
        let geo = *board.geometry();
        for c in &report.candidates {
            if let Move::Place(p) = c.mv {
                let s = geo.vertex(p);
                assert!(board.is_empty_point(p) && s != "C5", "{s} offered");
            }
        }
        assert!(report.candidates[0].pv.len() > 1, "a line of own moves below the best");
        let visits: Vec<u32> = report.candidates.iter().map(|c| c.visits).collect();
        assert!(visits.windows(2).all(|w| w[0] >= w[1]), "most visited first");
    }

    #[test]
    fn the_flat_settings_keep_the_root_alone() {
        let (board, v) = view(&["C3", "D4"], &[], &[], 2);
        let rules = Standard::default();
        let config = SearchConfig { seed: 5, ..SearchConfig::default() };
        let search = Ismcts::new(&v, &rules, &board, Color::Black, &config, TreeSettings::FLAT);
        search.run(Some(500), |_| false);
        let report = search.report(Duration::ZERO);
        assert_eq!((report.nodes, report.root_visits), (1, 500));
        assert!(report.candidates.iter().all(|c| c.pv.len() == 1));
    }
}
