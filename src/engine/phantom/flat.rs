//! The Phantom Go move search: flat Monte Carlo over the engine's candidate moves, a new sampled
//! board for every playout (Cazenave's Phantom Go player, "A Phantom-Go program", 2006).
//!
//! Every iteration places the unseen opponent stones afresh on the view's board, picks one of
//! the candidates that is legal on that board (a point holding a sampled stone is not: on the
//! true board the referee would refuse it and the engine would propose again), plays it and
//! plays the game out. The statistics of a candidate are so an average over thousands of boards
//! rather than the answer of a perfect-information search on a few: more playouts buy estimates
//! over more boards, where a search of a few fixed boards only learns those boards better. There
//! is no tree below the candidates: a tree would learn to answer stones that only one board has
//! (strategy fusion), and the opponent cannot see the engine's stones either.
//!
//! The choice among the candidates is the tree's (`search::select::value`): the win rate blended
//! with the all-moves-as-first (AMAF) rate by the minimum-error schedule, the priors (computed
//! once, on the view's board) counted as equivalent experience in both.

use super::View;
use crate::board::{Board, Color, Point};
use crate::playout::{LadderReader, Playout, Rng};
use crate::rules::{Move, Position, Standard};
use crate::search::priors::PriorContext;

use crate::search::select::rave_blend;
use crate::search::{lower_bound, Candidate, SearchConfig, SearchReport};
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Iterations between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 32;

/// One candidate move: its playouts and its AMAF samples, each with the prior's equivalent
/// experience.
#[derive(Clone, Debug)]
struct Arm {
    mv: Move,
    /// Playouts that started with this move, and their results (1 a win, 1/2 a draw).
    visits: u64,
    wins: f64,
    /// Sum of those playouts' margins for the engine.
    margin: f64,
    /// Playouts in which the engine played this point first after a different first move, and
    /// their results.
    amaf_visits: u64,
    amaf_wins: f64,
    /// The prior as equivalent experience: visits and wins.
    prior_visits: f64,
    prior_wins: f64,
}

impl Arm {
    /// The selection value (`search::select::value` without the exploration term).
    fn value(&self, rave_equiv: f64) -> f64 {
        rave_blend(
            self.visits as f64 + self.prior_visits,
            self.wins + self.prior_wins,
            self.amaf_visits as f64 + self.prior_visits,
            self.amaf_wins + self.prior_wins,
            rave_equiv,
        )
    }
}

const NO_ARM: u32 = u32::MAX;

/// The statistics of one move's search: its candidates, shared by the search threads.
pub(super) struct Stats {
    arms: Vec<Arm>,
    playouts: u64,
    playout_moves: u64,
}

impl Stats {
    /// The candidate of highest value among those legal on `pos` (a pass always is).
    fn choose(&self, pos: &Position<Standard>, rules: &Standard, color: Color, rave_equiv: f64) -> usize {
        let mut best: Option<(f64, usize)> = None;
        for (i, arm) in self.arms.iter().enumerate() {
            if let Move::Place(p) = arm.mv {
                if !pos.board.is_empty_point(p) || pos.check(rules, color, arm.mv).is_err() {
                    continue;
                }
            }
            let v = arm.value(rave_equiv);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, i));
            }
        }
        best.expect("a pass is always legal").1
    }

    /// The statistics so far as a search report: every candidate tried, most visited first.
    pub fn report(&self, elapsed: Duration) -> SearchReport {
        let rate = |a: &Arm| a.prior_wins / a.prior_visits.max(1.0);
        let total: f64 = self.arms.iter().map(rate).sum::<f64>().max(f64::MIN_POSITIVE);
        let mut candidates: Vec<Candidate> = self
            .arms
            .iter()
            .filter(|a| a.visits > 0)
            .map(|a| {
                let n = a.visits as f64;
                let winrate = a.wins / n;
                Candidate {
                    mv: a.mv,
                    visits: a.visits.min(u64::from(u32::MAX)) as u32,
                    winrate,
                    prior: rate(a) / total,
                    lcb: lower_bound(winrate, n),
                    score_lead: a.margin / n,
                    pv: vec![a.mv],
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
            nodes: self.arms.len(),
            tree_slots: self.arms.len(),
            elapsed,
            winrate: candidates.first().map_or(0.5, |c| c.winrate),
            score_lead: candidates.first().map_or(0.0, |c| c.score_lead),
            candidates,
            ownership: None,
            neutral: None,
        }
    }
}

/// What one search thread owns: its playout runner, generator and scratch space.
struct Runner {
    playout: Playout<Standard>,
    rng: Rng,
    free: Vec<Point>,
    /// Per cell, the iteration that last saw a move there (AMAF counts first moves only).
    seen: Vec<u64>,
    iterations: u64,
    /// The candidates the engine played first in the last playout, after its first move.
    amaf: Vec<u32>,
}

/// One move's flat search: the view, the position it shows, the candidates.
pub(super) struct Flat<'a> {
    view: &'a View,
    rules: &'a Standard,
    config: &'a SearchConfig,
    color: Color,
    /// The view's position, `color` to move.
    root: Position<Standard>,
    /// Per cell, the index of the candidate placing there, or `NO_ARM`.
    arm_at: Vec<u32>,
    stats: Mutex<Stats>,
}

impl<'a> Flat<'a> {
    /// The candidates of `color` on the view (`view_board`): every empty point of the view not
    /// refused in this position and not a suicide on it, and the pass; each with the tree's
    /// priors as equivalent experience.
    pub fn new(
        view: &'a View,
        rules: &'a Standard,
        view_board: &Board,
        color: Color,
        config: &'a SearchConfig,
    ) -> Flat<'a> {
        let mut root = Position::new(rules, view_board.clone());
        root.to_move = color;
        root.prisoners = view.captured;
        // The opponent's pass stands: a pass now ends the game.
        root.passes = u8::from(view.opponent_passed);
        let playout = Playout::new(&root);
        let mut ladder = LadderReader::new();
        let mut ctx = PriorContext {
            board: &root.board,
            color,
            // The engine never sees the opponent's last move.
            last: Point::NONE,
            patterns: playout.patterns(),
            weights: &config.priors,
            ladder: &mut ladder,
        };
        let mut arms = Vec::new();
        let mut arm_at = vec![NO_ARM; view_board.geometry().cells()];
        let arm = |mv, prior: crate::search::priors::Prior| Arm {
            mv,
            visits: 0,
            wins: 0.0,
            margin: 0.0,
            amaf_visits: 0,
            amaf_wins: 0.0,
            prior_visits: f64::from(prior.visits),
            prior_wins: f64::from(prior.wins) * 0.5,
        };
        for p in view_board.geometry().points() {
            if !view_board.is_empty_point(p) || view.illegal.contains(&p) || view_board.is_suicide(color, p) {
                continue;
            }
            arm_at[p.idx()] = arms.len() as u32;
            arms.push(arm(Move::Place(p), ctx.placement(p, false)));
        }
        arms.push(arm(Move::Pass, ctx.pass_like(view.opponent_passed)));
        let stats = Mutex::new(Stats { arms, playouts: 0, playout_moves: 0 });
        Flat { view, rules, config, color, root, arm_at, stats }
    }

    /// The statistics so far.
    pub fn stats(&self) -> MutexGuard<'_, Stats> {
        self.stats.lock().expect("no search thread panicked")
    }

    /// Runs `playouts` iterations (none: until `done` says so), on `config.threads` threads.
    /// The calling thread asks `done` every few of its iterations.
    pub fn run(&self, playouts: Option<u64>, mut done: impl FnMut(&Flat) -> bool) {
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

    /// Thread `t`'s runner, its generator seeded from the search's seed and `t`.
    fn runner(&self, t: usize) -> Runner {
        let mut playout = Playout::new(&self.root);
        playout.keep_seki(self.config.keep_seki);
        playout.mercy(self.config.mercy);
        let seed = self.config.seed ^ (t as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Runner {
            playout,
            rng: Rng::seed_from_u64(seed),
            free: Vec::new(),
            seen: vec![0; self.root.board.geometry().cells()],
            iterations: 0,
            amaf: Vec::new(),
        }
    }

    /// One sampled board, one candidate, one playout.
    fn iterate(&self, r: &mut Runner) {
        let (rules, color) = (self.rules, self.color);
        r.playout.load(&self.root);
        let pos = r.playout.position_mut();
        self.view.place_unseen(&mut pos.board, &mut r.free, &mut r.rng);
        let (chosen, mv) = {
            let stats = self.stats();
            let i = stats.choose(pos, rules, color, self.config.rave_equiv);
            (i, stats.arms[i].mv)
        };
        pos.play(rules, color, mv);
        let last = match mv {
            Move::Place(p) => p,
            _ => Point::NONE,
        };
        // The heavy policy answers this move as it answers any last move, though the opponent
        // cannot see it: playouts without that answer lost 7 - 10 at 2,000 playouts a move.
        r.playout.set_last(last);
        let mut result = r.playout.play_out(rules, self.config.policy, &mut r.rng);
        if self.config.score_weight > 0.0 {
            result.blend_score(self.root.board.size(), self.config.score_weight, &mut r.rng);
        }
        r.iterations += 1;
        let won = f64::from(result.half_points(color)) * 0.5;
        let margin = match color {
            Color::Black => f64::from(result.black_margin),
            Color::White => -f64::from(result.black_margin),
        };
        // AMAF: the candidates the engine played first in the playout, after its first move.
        let stamp = r.iterations;
        if last != Point::NONE {
            r.seen[last.idx()] = stamp;
        }
        r.amaf.clear();
        for &(c, p) in r.playout.moves() {
            if r.seen[p.idx()] == stamp {
                continue;
            }
            r.seen[p.idx()] = stamp;
            if c == color && self.arm_at[p.idx()] != NO_ARM {
                r.amaf.push(self.arm_at[p.idx()]);
            }
        }
        let mut stats = self.stats();
        stats.playouts += 1;
        stats.playout_moves += u64::from(result.moves);
        let arm = &mut stats.arms[chosen];
        arm.visits += 1;
        arm.wins += won;
        arm.margin += margin;
        for &a in &r.amaf {
            let arm = &mut stats.arms[a as usize];
            arm.amaf_visits += 1;
            arm.amaf_wins += won;
        }
    }
}
