//! What a search tells its caller, during the search and at its end: the candidate moves with their
//! statistics and principal variations, and the ownership of every point. This is the data GTP
//! analysis (lz-analyze, kata-analyze, gogui gfx) and the engine's own decisions read.

use super::request::ThinkRequest;
use super::tree::{Tree, ROOT};
use crate::board::{Color, Geometry, Point};
use crate::rules::Move;
use std::time::Duration;

/// Longest principal variation reported.
const MAX_PV: usize = 24;

/// One move the search considered at the root.
#[derive(Clone, PartialEq, Debug)]
pub struct Candidate {
    pub mv: Move,
    pub visits: u32,
    /// Win rate for the side to move (a draw counts half), 0..1.
    pub winrate: f64,
    /// The prior knowledge's share of this move among the root's moves, 0..1.
    pub prior: f64,
    /// A lower confidence bound of the win rate (normal approximation, about 95%), 0..1.
    pub lcb: f64,
    /// Mean final margin for the side to move (points, or the Stones lead).
    pub score_lead: f64,
    /// This move followed by the most visited line after it.
    pub pv: Vec<Move>,
}

/// A snapshot of a search.
#[derive(Clone, PartialEq, Debug)]
pub struct SearchReport {
    /// Playouts this search ran (a reused tree's earlier ones not included).
    pub playouts: u64,
    /// Moves those playouts played beyond the tree (pass-like moves included).
    pub playout_moves: u64,
    /// Visits of the root, earlier searches' included (what the candidates' visits add up to).
    pub root_visits: u64,
    /// Tree nodes in use.
    pub nodes: usize,
    /// Slots of the tree's arena in use: the nodes and their children's point sets
    /// (`Tree::child_points`). The tree is full when they reach its capacity.
    pub tree_slots: usize,
    pub elapsed: Duration,
    /// The best candidate's win rate for the side to move (0.5 before any visit).
    pub winrate: f64,
    /// The best candidate's mean margin for the side to move.
    pub score_lead: f64,
    /// Best first: most visits, then win rate.
    pub candidates: Vec<Candidate>,
    /// Per board point, row-major from the top-left (A19..T19, then row 18, ...): mean final owner,
    /// +1 Black, -1 White. Only when requested.
    pub ownership: Option<Vec<f32>>,
    /// Same layout: the share of playouts in which the point ended neutral (seki, dame).
    pub neutral: Option<Vec<f32>>,
}

impl SearchReport {
    /// The best candidate, if the search visited any move.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.first()
    }

    /// This report with `delta` points added to Black's margin in every score, for a search of
    /// `to_move`'s move that counted with `delta` more komi than the game has (dynamic komi): its
    /// margins are then given against the real komi. Win rates stay the search's own.
    pub fn with_black_margin_added(mut self, delta: f64, to_move: Color) -> SearchReport {
        let delta = if to_move == Color::Black { delta } else { -delta };
        self.score_lead += delta;
        for c in &mut self.candidates {
            c.score_lead += delta;
        }
        self
    }

    /// Playouts per second of this search.
    pub fn playouts_per_sec(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.playouts as f64 / s
        } else {
            0.0
        }
    }
}

/// Index of `p` in the top-left, row-major layout of `SearchReport::ownership`.
pub fn ownership_index(geo: &Geometry, p: Point) -> usize {
    let (x, y) = geo.xy(p);
    (geo.size - 1 - y) * geo.size + x
}

/// Ownership sums per cell, as the workers count them.
pub(super) struct OwnerCounts<'a> {
    pub sum: &'a [i64],
    pub neutral: &'a [u64],
    pub playouts: u64,
}

/// Builds the report of the tree's root for `to_move`.
pub(super) fn build(
    tree: &Tree,
    geo: &Geometry,
    to_move: Color,
    request: &ThinkRequest,
    (playouts, playout_moves): (u64, u64),
    elapsed: Duration,
    owners: Option<OwnerCounts<'_>>,
) -> SearchReport {
    let sign = if to_move == Color::Black { 1.0 } else { -1.0 };
    let kids: Vec<u32> = tree.children(ROOT).collect();
    // Prior shares: a softmax of the prior win rates, sharp enough that tactics stand out.
    let rates: Vec<f64> = kids
        .iter()
        .map(|&c| {
            let n = tree.node(c);
            let (v, w) = n.prior();
            if v > 0 {
                w as f64 / (2.0 * v as f64)
            } else {
                0.5
            }
        })
        .collect();
    let top = rates.iter().cloned().fold(0.0, f64::max);
    let weights: Vec<f64> = rates.iter().map(|r| ((r - top) / 0.1).exp()).collect();
    let total: f64 = weights.iter().sum::<f64>().max(f64::MIN_POSITIVE);
    let mut candidates: Vec<Candidate> = kids
        .iter()
        .zip(&weights)
        .map(|(&c, &w)| {
            let n = tree.node(c);
            let visits = tree.visits(c);
            let winrate = tree.winrate(c);
            let lcb = if visits >= 2 { lower_bound(winrate, visits as f64) } else { 0.0 };
            Candidate {
                mv: n.mv().decode(),
                visits,
                winrate,
                prior: w / total,
                lcb,
                score_lead: sign * tree.mean_black_margin(c),
                pv: principal_variation(tree, c),
            }
        })
        .collect();
    candidates.sort_by(|a, b| {
        b.visits.cmp(&a.visits).then(b.winrate.total_cmp(&a.winrate)).then(b.prior.total_cmp(&a.prior))
    });
    // Every visited move, then unvisited ones by prior up to `min_moves`, at most `max_moves`.
    let visited = candidates.iter().take_while(|c| c.visits > 0).count();
    let mut shown = candidates[..visited].to_vec();
    if shown.len() < request.min_moves {
        let mut unvisited = candidates[visited..].to_vec();
        unvisited.sort_by(|a, b| b.prior.total_cmp(&a.prior));
        shown.extend(unvisited.into_iter().take(request.min_moves - visited));
    }
    if let Some(max) = request.max_moves {
        shown.truncate(max.max(1));
    }
    let ownership = owners.as_ref().filter(|o| o.playouts > 0 && request.want_ownership).map(|o| {
        let mut v = vec![0f32; geo.size * geo.size];
        for p in geo.points() {
            v[ownership_index(geo, p)] = (o.sum[p.idx()] as f64 / o.playouts as f64) as f32;
        }
        v
    });
    let neutral = owners.as_ref().filter(|o| o.playouts > 0 && request.want_ownership).map(|o| {
        let mut v = vec![0f32; geo.size * geo.size];
        for p in geo.points() {
            v[ownership_index(geo, p)] = (o.neutral[p.idx()] as f64 / o.playouts as f64) as f32;
        }
        v
    });
    let (winrate, score_lead) = shown
        .first()
        .filter(|c| c.visits > 0)
        .map(|c| (c.winrate, c.score_lead))
        .unwrap_or((0.5, sign * tree.mean_black_margin(ROOT)));
    SearchReport {
        playouts,
        playout_moves,
        root_visits: tree.visits(ROOT) as u64,
        nodes: tree.node_count(),
        tree_slots: tree.len(),
        elapsed,
        winrate,
        score_lead,
        candidates: shown,
        ownership,
        neutral,
    }
}

/// `child`'s move followed by the most visited line below it.
fn principal_variation(tree: &Tree, child: u32) -> Vec<Move> {
    let mut pv = vec![tree.node(child).mv().decode()];
    let mut node = child;
    while pv.len() < MAX_PV {
        match tree.best_child(node) {
            Some(c) => {
                pv.push(tree.node(c).mv().decode());
                node = c;
            }
            None => break,
        }
    }
    pv
}

/// The lower end of a win rate's 95% normal interval over `visits` playouts (0 at least).
pub fn lower_bound(winrate: f64, visits: f64) -> f64 {
    (winrate - 1.96 * (winrate * (1.0 - winrate) / visits).sqrt()).max(0.0)
}
