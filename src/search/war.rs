//! Monte Carlo tree search for War Go (RULES.md section 7), on War Go's own position type.
//!
//! Plain UCT on one thread; with several, root parallelism (`search_parallel`). Every kind of turn can enter the tree: a node's candidates are its
//! pseudo-legal turns in an order that mixes piece turns (drops, bomb explosions, steps) among
//! the soldier placements, and the node admits them one by one as its visits grow (progressive
//! widening: `4 + 2 * sqrt(visits)` children), checking each for legality, superko against the
//! game and the path included, when it is admitted. Playouts mostly place soldiers (never in
//! their own eyes) and now and then drop or move a piece, until two passes or a move cap; their
//! result is the area count.

use crate::board::{Color, Point};
use crate::playout::Rng;
use crate::rules::war::{Cell, Kind, WarGame, WarMove, WarPosition};
use rand::{Rng as _, SeedableRng};
use std::time::{Duration, Instant};

/// How long a search runs: playouts, time, or both (whichever ends it first).
#[derive(Copy, Clone, Debug, Default)]
pub struct WarLimits {
    pub playouts: Option<u64>,
    pub time: Option<Duration>,
}

/// One root move with its statistics.
#[derive(Copy, Clone, Debug)]
pub struct WarCandidate {
    pub mv: WarMove,
    pub visits: u32,
    /// Win rate for the player to move.
    pub winrate: f64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct WarReport {
    /// The most visited root move (a pass when nothing else is legal).
    pub best: WarMove,
    pub winrate: f64,
    pub playouts: u64,
    /// Moves played inside the playouts (tree moves excluded).
    pub playout_moves: u64,
    pub elapsed: Duration,
    /// Root moves, most visited first.
    pub candidates: Vec<WarCandidate>,
}

/// One in so many playout turns tries a piece turn instead of a soldier.
const PIECE_RATE: u32 = 12;
/// How many earlier boards a playout turn may not bring back.
const RECENT: usize = 8;
/// Exploration constant of UCB1.
const EXPLORE: f64 = 0.7;

/// A playout's buffers; reusable, so that a playout allocates nothing once warm.
pub struct WarPlayout {
    scratch: WarPosition,
    empties: Vec<Point>,
    komi: f64,
    /// `empties` misses points a turn emptied (it still holds points since filled: those are
    /// dropped as they are met).
    stale: bool,
    /// The boards (hashes) before the last `RECENT` board-changing turns, a ring.
    recent: [u64; RECENT],
    next_recent: usize,
}

impl WarPlayout {
    pub fn new(pos: &WarPosition, komi: f64) -> WarPlayout {
        WarPlayout {
            scratch: pos.clone(),
            empties: Vec::with_capacity(pos.size() * pos.size()),
            komi,
            stale: true,
            recent: [0; RECENT],
            next_recent: 0,
        }
    }

    /// Is `p` an eye of `color`'s: every neighbour its stone, the edge or a neutral piece, at least
    /// one of them its stone?
    fn own_eye(pos: &WarPosition, p: Point, color: Color) -> bool {
        let mut own = false;
        for n in pos.neighbours(p) {
            match pos.cell(n) {
                Cell::Stone(c, _) if c == color => own = true,
                Cell::Edge | Cell::Neutral(_) => {}
                _ => return false,
            }
        }
        own
    }

    /// Tries `mv` on the scratch copy; on success the position becomes the result. A turn that
    /// brings back one of the last few boards (a ko retaken at once, or after a pass) is
    /// refused: without this short superko a playout can cycle until its move cap.
    fn attempt(&mut self, pos: &mut WarPosition, color: Color, mv: WarMove) -> bool {
        self.scratch.clone_from(pos);
        match self.scratch.apply(color, mv) {
            Ok(e) if !self.recent.contains(&self.scratch.hash()) => {
                self.recent[self.next_recent] = pos.hash();
                self.next_recent = (self.next_recent + 1) % RECENT;
                std::mem::swap(pos, &mut self.scratch);
                // A turn that emptied points leaves the list of empty points behind.
                if e.captured + e.destroyed + e.mercenaries_removed > 0 || matches!(mv, WarMove::Step { .. })
                {
                    self.stale = true;
                }
                true
            }
            _ => false,
        }
    }

    /// A random piece turn for `color`: a drop from the army on a random empty point (a bomb only
    /// next to an opponent stone), or a step of a random movable piece.
    fn piece_turn(&mut self, pos: &WarPosition, color: Color, rng: &mut Rng) -> Option<WarMove> {
        let n = pos.size();
        let p = pos.geo.point(rng.gen_range(0..n), rng.gen_range(0..n));
        match pos.cell(p) {
            Cell::Empty => {
                let army = pos.army[color];
                let total: u32 = army.0.iter().map(|&k| k as u32).sum();
                if total == 0 {
                    return None;
                }
                let mut r = rng.gen_range(0..total);
                let mut kind = Kind::Ambassador;
                for (i, &k) in army.0.iter().enumerate() {
                    if r < k as u32 {
                        kind = Kind::ARMY[i];
                        break;
                    }
                    r -= k as u32;
                }
                if kind == Kind::Bomb {
                    let near =
                        pos.neighbours(p).iter().any(|&q| pos.cell(q).color() == Some(color.opponent()));
                    if !near {
                        return None;
                    }
                    return Some(WarMove::Drop { kind, at: p, now: rng.gen_range(0..2) == 0 });
                }
                Some(WarMove::Drop { kind, at: p, now: false })
            }
            Cell::Stone(..) | Cell::Neutral(Kind::Mercenary) => {
                let steps: Vec<Point> = pos.steps_from(color, p).collect();
                (!steps.is_empty())
                    .then(|| WarMove::Step { from: p, to: steps[rng.gen_range(0..steps.len())] })
            }
            _ => None,
        }
    }

    /// Plays `pos` out to the end and answers Black's margin by area (komi included).
    pub fn run(&mut self, pos: &mut WarPosition, rng: &mut Rng) -> f64 {
        let area = (pos.size() * pos.size()) as u32;
        let cap = pos.ply + 3 * area + 20;
        // Piece turns only early in a playout: steps never run out, and a playout that keeps
        // stepping pieces about never ends by passes.
        let pieces_until = pos.ply + area / 2;
        self.recent = [pos.hash(); RECENT];
        self.stale = true;
        while pos.passes < 2 && pos.ply < cap {
            let color = pos.to_move;
            if pos.ply < pieces_until && rng.gen_range(0..PIECE_RATE) == 0 {
                if let Some(mv) = self.piece_turn(pos, color, rng) {
                    if self.attempt(pos, color, mv) {
                        continue;
                    }
                }
            }
            // A few random probes first (most of the board is playable most of the game), then
            // every empty point in random order.
            let mut played = false;
            let n = pos.size();
            for _ in 0..6 {
                let p = pos.geo.point(rng.gen_range(0..n), rng.gen_range(0..n));
                if pos.cell(p).is_empty()
                    && !Self::own_eye(pos, p, color)
                    && self.attempt(pos, color, WarMove::Soldier(p))
                {
                    played = true;
                    break;
                }
            }
            if played {
                continue;
            }
            if self.stale {
                self.empties.clear();
                self.empties.extend(pos.geo.points().filter(|&p| pos.cell(p).is_empty()));
                self.stale = false;
            }
            // The empty points in random order: each one met is moved out of the window
            // `..open`; a filled one is dropped from the list, an eye or an illegal point kept.
            let mut open = self.empties.len();
            while open > 0 {
                let i = rng.gen_range(0..open);
                open -= 1;
                self.empties.swap(i, open);
                let p = self.empties[open];
                if !pos.cell(p).is_empty() {
                    self.empties.swap_remove(open);
                    continue;
                }
                if !Self::own_eye(pos, p, color) && self.attempt(pos, color, WarMove::Soldier(p)) {
                    if let Some(j) = self.empties.iter().position(|&q| q == p) {
                        self.empties.swap_remove(j);
                    }
                    played = true;
                    break;
                }
            }
            if !played {
                let _ = pos.apply(color, WarMove::Pass);
            }
        }
        let area = pos.area(&[]);
        area[Color::Black] as f64 - area[Color::White] as f64 - self.komi
    }
}

struct Node {
    mv: WarMove,
    /// The player who made `mv`.
    color: Color,
    visits: u32,
    /// Wins for `color`.
    wins: f64,
    children: Vec<u32>,
    /// Turns not yet admitted as children, the next one last.
    pending: Option<Vec<WarMove>>,
}

/// The pseudo-legal turns of `color` in the order a node admits them (the first admitted last in
/// the vector): soldiers in random order with a piece turn every fourth place, pass after the
/// soldiers (first when the opponent just passed).
fn candidates(pos: &WarPosition, color: Color, rng: &mut Rng) -> Vec<WarMove> {
    let mut soldiers = Vec::new();
    let mut pieces = Vec::new();
    let army = pos.army[color];
    for p in pos.geo.points() {
        match pos.cell(p) {
            Cell::Empty => {
                if !WarPlayout::own_eye(pos, p, color) {
                    soldiers.push(WarMove::Soldier(p));
                }
                for kind in Kind::ARMY {
                    if army.count(kind) > 0 {
                        pieces.push(WarMove::Drop { kind, at: p, now: false });
                        if kind == Kind::Bomb {
                            pieces.push(WarMove::Drop { kind, at: p, now: true });
                        }
                    }
                }
            }
            Cell::Stone(..) | Cell::Neutral(Kind::Mercenary) => {
                pieces.extend(pos.steps_from(color, p).map(|to| WarMove::Step { from: p, to }));
            }
            _ => {}
        }
    }
    shuffle(&mut soldiers, rng);
    shuffle(&mut pieces, rng);
    let mut order = Vec::with_capacity(soldiers.len() + pieces.len() + 1);
    if pos.passes > 0 {
        order.push(WarMove::Pass);
    }
    let (mut s, mut q) = (soldiers.into_iter(), pieces.into_iter());
    loop {
        let before = order.len();
        order.extend(s.by_ref().take(3));
        order.extend(q.next());
        if order.len() == before {
            break;
        }
    }
    if pos.passes == 0 {
        // After the soldiers and the pieces that came with them, before the remaining pieces.
        let at = order.iter().rposition(|m| matches!(m, WarMove::Soldier(_))).map_or(0, |i| i + 1);
        order.insert(at, WarMove::Pass);
    }
    order.reverse();
    order
}

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.gen_range(0..=i));
    }
}

/// Searches `game`'s position for `color` within `limits`, with `seed`.
pub fn search(game: &WarGame, color: Color, limits: WarLimits, seed: u64) -> WarReport {
    let start = Instant::now();
    let mut rng = Rng::seed_from_u64(seed);
    let mut root_pos = game.position().clone();
    root_pos.to_move = color;
    let komi = game.config.komi;
    let mut playout = WarPlayout::new(&root_pos, komi);
    let mut nodes = vec![Node {
        mv: WarMove::Pass,
        color: color.opponent(),
        visits: 0,
        wins: 0.0,
        children: Vec::new(),
        pending: None,
    }];
    let max_playouts = limits.playouts.unwrap_or(if limits.time.is_some() { u64::MAX } else { 1000 });
    let mut pos = root_pos.clone();
    let mut trial = root_pos.clone();
    let mut path: Vec<u32> = Vec::new();
    let mut hashes: Vec<u64> = Vec::new();
    let mut done = 0u64;
    let mut playout_moves = 0u64;
    while done < max_playouts {
        if limits.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
        pos.clone_from(&root_pos);
        path.clear();
        hashes.clear();
        path.push(0);
        let mut node = 0usize;
        // Selection, admitting children as visits grow.
        loop {
            if pos.passes >= 2 {
                break;
            }
            let to_move = pos.to_move;
            if nodes[node].pending.is_none() {
                nodes[node].pending = Some(candidates(&pos, to_move, &mut rng));
            }
            let allowed = 4 + (2.0 * (nodes[node].visits as f64).sqrt()) as usize;
            while nodes[node].children.len() < allowed {
                let Some(mv) = nodes[node].pending.as_mut().and_then(Vec::pop) else { break };
                trial.clone_from(&pos);
                if trial.apply(to_move, mv).is_err() {
                    continue;
                }
                if mv != WarMove::Pass && (game.repeats(&trial) || hashes.contains(&trial.hash())) {
                    continue;
                }
                let id = nodes.len() as u32;
                nodes.push(Node {
                    mv,
                    color: to_move,
                    visits: 0,
                    wins: 0.0,
                    children: Vec::new(),
                    pending: None,
                });
                nodes[node].children.push(id);
            }
            if nodes[node].children.is_empty() {
                break;
            }
            let parent_visits = nodes[node].visits.max(1) as f64;
            let log_n = parent_visits.ln();
            let mut best = nodes[node].children[0];
            let mut best_value = f64::NEG_INFINITY;
            for &c in &nodes[node].children {
                let ch = &nodes[c as usize];
                let value = if ch.visits == 0 {
                    // Unvisited children first, in admission order.
                    1e9 - c as f64 * 1e-3
                } else {
                    ch.wins / ch.visits as f64 + EXPLORE * (log_n / ch.visits as f64).sqrt()
                };
                if value > best_value {
                    best_value = value;
                    best = c;
                }
            }
            let mv = nodes[best as usize].mv;
            pos.apply(to_move, mv).expect("admitted children are legal");
            hashes.push(pos.hash());
            path.push(best);
            node = best as usize;
            if nodes[node].visits == 0 {
                break;
            }
        }
        let leaf_ply = pos.ply;
        let margin = playout.run(&mut pos, &mut rng);
        playout_moves += (pos.ply - leaf_ply) as u64;
        let winner = if margin > 0.0 {
            Some(Color::Black)
        } else if margin < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        for &i in &path {
            let n = &mut nodes[i as usize];
            n.visits += 1;
            n.wins += match winner {
                None => 0.5,
                Some(w) if w == n.color => 1.0,
                Some(_) => 0.0,
            };
        }
        done += 1;
    }
    let candidates: Vec<WarCandidate> = nodes[0]
        .children
        .iter()
        .map(|&c| {
            let n = &nodes[c as usize];
            WarCandidate {
                mv: n.mv,
                visits: n.visits,
                winrate: if n.visits > 0 { n.wins / n.visits as f64 } else { 0.5 },
            }
        })
        .collect();
    report(candidates, done, playout_moves, start.elapsed())
}

/// A report of root moves `candidates` (in any order): most visited first, the best the first.
fn report(
    mut candidates: Vec<WarCandidate>,
    playouts: u64,
    playout_moves: u64,
    elapsed: Duration,
) -> WarReport {
    candidates.sort_by(|a, b| b.visits.cmp(&a.visits).then(b.winrate.total_cmp(&a.winrate)));
    let (best, winrate) = candidates.first().map_or((WarMove::Pass, 0.5), |c| (c.mv, c.winrate));
    WarReport { best, winrate, playouts, playout_moves, elapsed, candidates }
}

/// `search` on `threads` threads at once, each its own tree from its own seed (thread 0 from
/// `seed` itself, so one thread is `search`), the root statistics summed: root parallelism
/// (Cazenave and Jouandeau 2007; Chaslot, Winands and van den Herik 2008 found it as strong as a
/// shared tree at a few threads). War Go's trees admit children one by one and check each for
/// superko, so a shared tree would need locks on every node; separate trees need none, and their
/// different admission orders widen the root between them. A playout limit is split between the
/// threads; a time limit holds for each.
pub fn search_parallel(
    game: &WarGame,
    color: Color,
    limits: WarLimits,
    seed: u64,
    threads: usize,
) -> WarReport {
    if threads <= 1 {
        return search(game, color, limits, seed);
    }
    let start = Instant::now();
    let share = WarLimits { playouts: limits.playouts.map(|p| p.div_ceil(threads as u64)), ..limits };
    let reports: Vec<WarReport> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let seed = if t == 0 { seed } else { crate::search::mix_seed(seed, 0x7468_7264, t as u64) };
                scope.spawn(move || search(game, color, share, seed))
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a War Go search thread panicked")).collect()
    });
    merge(reports, start.elapsed())
}

/// The root statistics of several searches of one position, summed: each move's visits, and its
/// wins (visits times win rate).
fn merge(reports: Vec<WarReport>, elapsed: Duration) -> WarReport {
    let mut sums: Vec<(WarMove, u64, f64)> = Vec::new();
    let (mut playouts, mut playout_moves) = (0, 0);
    for r in &reports {
        playouts += r.playouts;
        playout_moves += r.playout_moves;
        for c in &r.candidates {
            match sums.iter_mut().find(|(mv, _, _)| *mv == c.mv) {
                Some(entry) => {
                    entry.1 += c.visits as u64;
                    entry.2 += c.visits as f64 * c.winrate;
                }
                None => sums.push((c.mv, c.visits as u64, c.visits as f64 * c.winrate)),
            }
        }
    }
    let candidates = sums
        .into_iter()
        .map(|(mv, visits, wins)| WarCandidate {
            mv,
            visits: visits.min(u32::MAX as u64) as u32,
            winrate: if visits > 0 { wins / visits as f64 } else { 0.5 },
        })
        .collect();
    report(candidates, playouts, playout_moves, elapsed)
}

/// For each point, the share of `n` playouts from the game's position that end
/// with it owned by Black minus the share owned by White, indexed by `Point::idx`.
pub fn ownership(game: &WarGame, n: u32, seed: u64) -> Vec<f64> {
    let mut rng = Rng::seed_from_u64(seed);
    let root = game.position();
    let mut playout = WarPlayout::new(root, game.config.komi);
    let mut own = vec![0.0; root.geo.cells()];
    let mut pos = root.clone();
    for _ in 0..n {
        pos.clone_from(root);
        playout.run(&mut pos, &mut rng);
        for (i, o) in pos.owners().iter().enumerate() {
            match o {
                Some(Color::Black) => own[i] += 1.0,
                Some(Color::White) => own[i] -= 1.0,
                None => {}
            }
        }
    }
    own.iter_mut().for_each(|v| *v /= n.max(1) as f64);
    own
}

/// The stones the engine judges dead: those on points that the playouts give to the opponent more
/// often than to their owner.
pub fn dead_stones(game: &WarGame, n: u32, seed: u64) -> Vec<Point> {
    let own = ownership(game, n, seed);
    let pos = game.position();
    pos.geo
        .points()
        .filter(|&p| match pos.cell(p).color() {
            Some(Color::Black) => own[p.idx()] < 0.0,
            Some(Color::White) => own[p.idx()] > 0.0,
            None => false,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesConfig;

    fn game() -> WarGame {
        let rules = RulesConfig::parse("war:army=spy1+samurai1+bomb1").unwrap();
        WarGame::new(rules.war(), 5, &rules.walls)
    }

    /// Root parallelism: the threads' playouts add up to the limit, and each root move's visits
    /// and wins are the sums of the separate searches from the same seeds.
    #[test]
    fn a_parallel_search_sums_its_threads_searches() {
        let game = game();
        let limits = WarLimits { playouts: Some(600), time: None };
        let merged = search_parallel(&game, Color::Black, limits, 9, 3);
        assert_eq!(merged.playouts, 600);
        let share = WarLimits { playouts: Some(200), time: None };
        let parts: Vec<WarReport> = (0..3)
            .map(|t| {
                let seed = if t == 0 { 9 } else { crate::search::mix_seed(9, 0x7468_7264, t) };
                search(&game, Color::Black, share, seed)
            })
            .collect();
        let mut moves: Vec<WarMove> = parts.iter().flat_map(|r| r.candidates.iter().map(|c| c.mv)).collect();
        moves.sort_by_key(|m| format!("{m:?}"));
        moves.dedup();
        assert_eq!(merged.candidates.len(), moves.len());
        for mv in moves {
            let visits: u32 =
                parts.iter().flat_map(|r| &r.candidates).filter(|c| c.mv == mv).map(|c| c.visits).sum();
            let wins: f64 = parts
                .iter()
                .flat_map(|r| &r.candidates)
                .filter(|c| c.mv == mv)
                .map(|c| c.visits as f64 * c.winrate)
                .sum();
            let m = merged.candidates.iter().find(|c| c.mv == mv).unwrap();
            assert_eq!(m.visits, visits, "{mv:?}");
            assert!((m.visits as f64 * m.winrate - wins).abs() < 1e-6, "{mv:?}");
        }
        assert_eq!(merged.best, merged.candidates[0].mv);
        assert!(merged.candidates.windows(2).all(|w| w[0].visits >= w[1].visits));
    }

    /// One thread is the plain search, and a parallel search repeats itself for a seed.
    #[test]
    fn one_thread_is_the_plain_search_and_threads_repeat_for_a_seed() {
        let game = game();
        let limits = WarLimits { playouts: Some(300), time: None };
        let plain = search(&game, Color::White, limits, 4);
        let one = search_parallel(&game, Color::White, limits, 4, 1);
        assert_eq!(format!("{:?}", plain.candidates), format!("{:?}", one.candidates));
        let a = search_parallel(&game, Color::White, limits, 4, 2);
        let b = search_parallel(&game, Color::White, limits, 4, 2);
        assert_eq!(format!("{:?}", a.candidates), format!("{:?}", b.candidates));
    }
}
