//! Monte Carlo tree search for War Go (RULES.md section 7), on War Go's own position type.
//!
//! UCT on one thread; with several, root parallelism (`search_parallel`). Every kind of turn can
//! enter the tree: a node's candidates are its pseudo-legal turns, ordered by how urgent they look
//! (`urgency`: captures, escapes, spies and bombs that take stones first, then soldiers with a
//! piece turn every fourth place), and the node admits them one by one as its visits grow
//! (progressive widening: `4 + 2 * sqrt(visits)` children), checking each for legality, superko
//! against the game and the path included, and giving it a prior as equivalent experience
//! (`prior`) when it is admitted. Playouts answer the last turn (a capture or an escape), else
//! place soldiers at random (never in their own eyes) and now and then drop or move a piece
//! (spies and bombs only where they take something), until two passes or a move cap; their result
//! is the area count.

use super::priors::Prior;
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
    /// Where the last turn ended (`Point::NONE` after a pass or a step-less turn).
    last: Point,
    /// The final count's buffers.
    seen: Vec<bool>,
    stack: Vec<Point>,
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
            last: Point::NONE,
            seen: Vec::with_capacity(pos.geo.cells()),
            stack: Vec::with_capacity(pos.geo.cells()),
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
        self.attempt_if(pos, color, mv, |_| true)
    }

    /// `attempt`, keeping the result only if `keep` accepts the position it leaves.
    fn attempt_if(
        &mut self,
        pos: &mut WarPosition,
        color: Color,
        mv: WarMove,
        keep: impl Fn(&mut WarPosition) -> bool,
    ) -> bool {
        self.scratch.clone_from(pos);
        match self.scratch.apply(color, mv) {
            Ok(e) if !self.recent.contains(&self.scratch.hash()) && keep(&mut self.scratch) => {
                self.recent[self.next_recent] = pos.hash();
                self.next_recent = (self.next_recent + 1) % RECENT;
                std::mem::swap(pos, &mut self.scratch);
                self.last = mv.target().unwrap_or(Point::NONE);
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

    /// A spy or bomb drop on `p` only where it takes more from the opponent than from `color`:
    /// a spy where it turns more opponent soldiers than own ones, an immediate bomb where it
    /// destroys more opponent stones than own ones, a delayed bomb next to an opponent stone.
    /// Dropped at random, spies and bombs mostly do nothing or harm their owner, and the playouts
    /// then never show the threat they are to a group.
    fn aimed_drop(pos: &WarPosition, color: Color, kind: Kind, p: Point, rng: &mut Rng) -> Option<WarMove> {
        let (mut soldiers, mut stones, mut near) = (0i32, 0i32, false);
        for q in pos.neighbours(p) {
            if let Cell::Stone(c, k) = pos.cell(q) {
                let sign = if c == color { -1 } else { 1 };
                stones += sign;
                near |= c != color;
                if k == Kind::Soldier {
                    soldiers += sign;
                }
            }
        }
        match kind {
            Kind::Spy => (soldiers > 0).then_some(WarMove::Drop { kind, at: p, now: false }),
            _ => {
                let now = rng.gen_range(0..2) == 0;
                let worth = if now { stones > 0 } else { near };
                worth.then_some(WarMove::Drop { kind, at: p, now })
            }
        }
    }

    /// A random piece turn for `color`: a drop from the army on a random empty point (spies and
    /// bombs only where they gain, `aimed_drop`), or a step of a random movable piece.
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
                if matches!(kind, Kind::Spy | Kind::Bomb) {
                    return Self::aimed_drop(pos, color, kind, p, rng);
                }
                Some(WarMove::Drop { kind, at: p, now: false })
            }
            Cell::Stone(..) | Cell::Neutral(Kind::Mercenary) => {
                // Counted, then drawn: no list of the steps, so that a playout allocates nothing.
                let count = pos.steps_from(color, p).count();
                if count == 0 {
                    return None;
                }
                let to = pos.steps_from(color, p).nth(rng.gen_range(0..count))?;
                Some(WarMove::Step { from: p, to })
            }
            _ => None,
        }
    }

    /// The playouts' answer to the last turn, which ended on `last`: capture an opponent chain in
    /// atari on or next to it; else save an own chain next to it that is in atari by extending at
    /// its last liberty, when that leaves the chain at least two liberties. Random playouts
    /// leave groups in atari for dozens of turns and let either side take them at random; these
    /// answers make a capture or an escape as likely in a playout as in a game.
    fn answer(&mut self, pos: &mut WarPosition, color: Color, last: Point) -> bool {
        if last == Point::NONE {
            return false;
        }
        let opp = color.opponent();
        for q in std::iter::once(last).chain(pos.neighbours(last)) {
            if pos.cell(q).color() == Some(opp) {
                let (_, libs, lib) = pos.chain_liberties(q, 2);
                if libs == 1 && self.attempt(pos, color, WarMove::Soldier(lib)) {
                    return true;
                }
            }
        }
        for q in pos.neighbours(last) {
            if pos.cell(q).color() == Some(color) {
                let (_, libs, lib) = pos.chain_liberties(q, 2);
                if libs == 1
                    && self
                        .attempt_if(pos, color, WarMove::Soldier(lib), |s| s.chain_liberties(lib, 2).1 >= 2)
                {
                    return true;
                }
            }
        }
        false
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
        self.last = Point::NONE;
        while pos.passes < 2 && pos.ply < cap {
            let color = pos.to_move;
            if self.answer(pos, color, self.last) {
                continue;
            }
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
                self.last = Point::NONE;
            }
        }
        let area = pos.area_in(&mut self.seen, &mut self.stack);
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
    /// Imagined experience (`Prior`, MoGo's and Pachi's equivalent experience, as the tree of
    /// the other variants gives it), added to the real in selection.
    prior: Prior,
    children: Vec<u32>,
    /// Turns not yet admitted as children, the next one last.
    pending: Option<Vec<WarMove>>,
}

/// How urgent a turn looks before it is tried, from the board alone (no trial move): captures,
/// escapes and the piece turns that take opponent stones first, lone edge moves last. Orders a
/// node's admissions; the tried turn's `prior` then gives its equivalent experience.
///
/// `place` is the part that depends on the point alone (`place_urgency`), computed once per point.
fn urgency(pos: &mut WarPosition, color: Color, mv: WarMove, place: i32) -> i32 {
    let Some(p) = mv.target() else { return 0 };
    let opp = color.opponent();
    let mut score = 0;
    match mv {
        WarMove::Soldier(_) => {
            for n in pos.neighbours(p) {
                match pos.cell(n).color() {
                    Some(c) if c == opp => {
                        let (stones, libs, _) = pos.chain_liberties(n, 2);
                        if libs == 1 {
                            score += 4 + stones.min(4) as i32;
                        }
                    }
                    // An own chain in atari: the point may save it.
                    Some(_) if pos.chain_liberties(n, 2).1 == 1 => score += 3,
                    _ => {}
                }
            }
        }
        WarMove::Drop { kind: Kind::Spy, .. } => {
            // The spy turns the soldiers around it: each opponent soldier is worth two points.
            for n in pos.neighbours(p) {
                match pos.cell(n) {
                    Cell::Stone(c, Kind::Soldier) if c == opp => score += 3,
                    Cell::Stone(_, Kind::Soldier) => score -= 3,
                    _ => {}
                }
            }
            score -= 1;
        }
        WarMove::Drop { kind: Kind::Bomb, now: true, .. } => {
            for n in pos.neighbours(p) {
                match pos.cell(n).color() {
                    Some(c) if c == opp => score += 2,
                    Some(_) => score -= 3,
                    None => {}
                }
            }
            score -= 2;
        }
        _ => {}
    }
    score + place
}

/// The urgency of any turn ending on `p`: near the opponent's last turn, or a lone edge point.
fn place_urgency(pos: &WarPosition, p: Point, last: Option<Point>) -> i32 {
    let near = last.is_some_and(|l| manhattan(pos, p, l) <= 2);
    i32::from(near) - 2 * i32::from(edge_line(pos, p).is_some())
}

fn manhattan(pos: &WarPosition, a: Point, b: Point) -> usize {
    let ((ax, ay), (bx, by)) = (pos.geo.xy(a), pos.geo.xy(b));
    ax.abs_diff(bx) + ay.abs_diff(by)
}

/// The line of `p` counted from the edge (0: the first line), if `p` is on the first or second
/// line with nothing within Manhattan distance 2 of it: the empty-area edge moves that are almost
/// never right while the board is open.
fn edge_line(pos: &WarPosition, p: Point) -> Option<usize> {
    let (x, y) = pos.geo.xy(p);
    let n = pos.size();
    let line = x.min(y).min(n - 1 - x).min(n - 1 - y);
    if line > 1 {
        return None;
    }
    let empty = pos.within_two(p).all(|q| pos.cell(q).is_empty());
    empty.then_some(line)
}

/// The pseudo-legal turns of `color` in the order a node admits them (the first admitted last in
/// the vector): the urgent ones (`urgency` 3 or more: captures, escapes, spies and bombs that take
/// stones) first, most urgent first; then soldiers by urgency (random among equals) with a piece
/// turn every fourth place; pass after the soldiers (first when the opponent just passed). Drops
/// into one's own eye are left out, as soldiers there are: a stone fills the eye, a spy turns the
/// stones around it over to the opponent, a bomb destroys them.
fn candidates(
    pos: &WarPosition,
    scratch: &mut WarPosition,
    color: Color,
    last: Option<Point>,
    rng: &mut Rng,
) -> Vec<WarMove> {
    let mut soldiers = Vec::new();
    let mut pieces = Vec::new();
    let army = pos.army[color];
    let mut place = vec![0; pos.geo.cells()];
    for p in pos.geo.points() {
        match pos.cell(p) {
            Cell::Empty => {
                if WarPlayout::own_eye(pos, p, color) {
                    continue;
                }
                place[p.idx()] = place_urgency(pos, p, last);
                soldiers.push(WarMove::Soldier(p));
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
    scratch.clone_from(pos);
    let mut score = |v: Vec<WarMove>| -> Vec<(i32, WarMove)> {
        let mut v: Vec<(i32, WarMove)> = v
            .into_iter()
            .map(|m| (urgency(scratch, color, m, m.target().map_or(0, |p| place[p.idx()])), m))
            .collect();
        // Stable: equals keep their random order.
        v.sort_by_key(|&(u, _)| std::cmp::Reverse(u));
        v
    };
    let (soldiers, pieces) = (score(soldiers), score(pieces));
    const URGENT: i32 = 3;
    let mut urgent: Vec<(i32, WarMove)> =
        soldiers.iter().chain(&pieces).filter(|&&(u, _)| u >= URGENT).copied().collect();
    urgent.sort_by_key(|&(u, _)| std::cmp::Reverse(u));
    let mut order: Vec<WarMove> = urgent.iter().map(|&(_, m)| m).collect();
    if pos.passes > 0 {
        order.push(WarMove::Pass);
    }
    let (mut s, mut q) = (
        soldiers.into_iter().filter(|&(u, _)| u < URGENT).map(|(_, m)| m),
        pieces.into_iter().filter(|&(u, _)| u < URGENT).map(|(_, m)| m),
    );
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

/// Every turn starts with this many visits at 50%: how much real experience it takes to overrule
/// the rest of the prior.
const PRIOR_EVEN: u32 = 10;
/// Wins for a turn that gains one point of material (stones of the mover's minus the
/// opponent's, the turn's own piece aside) / two or more: a capture, a spy turning soldiers, a
/// bomb destroying more of the opponent's stones than of the mover's.
const PRIOR_GAIN_ONE: u32 = 15;
const PRIOR_GAIN_MANY: u32 = 30;
/// Losses for a turn that loses material (a bomb destroying the mover's own stones).
const PRIOR_LOSS: u32 = 20;
/// Losses for a self-atari (the turn's chain left with one liberty) of one stone / of more.
const PRIOR_SELF_ATARI_ONE: u32 = 10;
const PRIOR_SELF_ATARI_MANY: u32 = 30;
/// Losses for a first- / second-line turn in an empty area (`edge_line`).
const PRIOR_FIRST_LINE: u32 = 30;
const PRIOR_SECOND_LINE: u32 = 15;
/// Wins for a turn within Manhattan distance 2 of the opponent's last one.
const PRIOR_NEAR_LAST: u32 = 6;
/// Losses for a pass while the opponent has not just passed.
const PRIOR_PASS: u32 = 20;

/// The mover's stones minus the opponent's.
fn material(pos: &WarPosition, color: Color) -> i32 {
    pos.geo
        .points()
        .map(|p| match pos.cell(p).color() {
            Some(c) if c == color => 1,
            Some(_) => -1,
            None => 0,
        })
        .sum()
}

/// The prior of `mv` by `color`, which turned `before` into `after`; `last` is where the
/// opponent's last turn ended.
fn prior(
    before: &WarPosition,
    after: &mut WarPosition,
    color: Color,
    mv: WarMove,
    last: Option<Point>,
) -> Prior {
    let mut prior = Prior::even(PRIOR_EVEN);
    let Some(dest) = mv.target() else {
        if before.passes == 0 {
            prior.add(PRIOR_PASS, false);
        }
        return prior;
    };
    let placed = match mv {
        WarMove::Soldier(_) => 1,
        WarMove::Drop { kind, now, .. } => i32::from(!now && !kind.is_neutral()),
        _ => 0,
    };
    let gain = material(after, color) - material(before, color) - placed;
    match gain {
        1 => prior.add(PRIOR_GAIN_ONE, true),
        2.. => prior.add(PRIOR_GAIN_MANY, true),
        ..=-1 => prior.add(PRIOR_LOSS, false),
        0 => {}
    }
    if gain <= 0 && after.cell(dest).color() == Some(color) {
        match after.chain_liberties(dest, 2) {
            (1, 1, _) => prior.add(PRIOR_SELF_ATARI_ONE, false),
            (_, 1, _) => prior.add(PRIOR_SELF_ATARI_MANY, false),
            _ => {}
        }
    }
    if !matches!(mv, WarMove::Step { .. }) {
        match edge_line(before, dest) {
            Some(0) => prior.add(PRIOR_FIRST_LINE, false),
            Some(_) => prior.add(PRIOR_SECOND_LINE, false),
            None => {}
        }
    }
    if last.is_some_and(|l| manhattan(before, dest, l) <= 2) {
        prior.add(PRIOR_NEAR_LAST, true);
    }
    prior
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
        prior: Prior::default(),
        children: Vec::new(),
        pending: None,
    }];
    // Where the opponent's last turn before the root ended (the priors' "near the last move").
    let root_last = game.moves().last().and_then(|(c, m)| if c == color { None } else { m.target() });
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
            let last = if node == 0 { root_last } else { nodes[node].mv.target() };
            if nodes[node].pending.is_none() {
                nodes[node].pending = Some(candidates(&pos, &mut trial, to_move, last, &mut rng));
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
                let prior = prior(&pos, &mut trial, to_move, mv, last);
                nodes.push(Node {
                    mv,
                    color: to_move,
                    visits: 0,
                    wins: 0.0,
                    prior,
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
                // UCB1 on the real and the imagined experience together: every child has a
                // prior, so a new one is valued by its knowledge instead of being tried first.
                let n = ch.visits as f64 + ch.prior.visits as f64;
                let value = (ch.wins + ch.prior.wins as f64 / 2.0) / n + EXPLORE * (log_n / n).sqrt();
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
    use crate::rules::war::Army;
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

    /// A 9x9 diagram position under `army`, `color` to move.
    fn diagram_game(diagram: &str, army: &str, color: Color) -> WarGame {
        let rules = RulesConfig::parse(&format!("war:army={army},komi=0.5")).unwrap();
        let config = rules.war();
        let pos = WarPosition::from_diagram(diagram, config.army, color).unwrap();
        WarGame::from_position(config, pos)
    }

    /// White's four stones in the middle have one liberty (H6); capturing them decides the game,
    /// leaving them lets White connect out. At 40 playouts the root admits a dozen of its sixty
    /// turns: the capture is among them, and chosen, only if the search's knowledge puts it first.
    #[test]
    fn a_capture_that_wins_a_group_is_found_at_a_few_playouts() {
        let game = diagram_game(
            ". . . . . . . . .
             . . . . . . . . .
             . . . X X X X . .
             . . X O O O O . .
             . . . X X X X . .
             . . . . . . . . .
             O O O O O O O O O
             . . . . . . . . .
             . . . . . . . . .",
            "none",
            Color::Black,
        );
        for seed in 1..=4 {
            let r = search(&game, Color::Black, WarLimits { playouts: Some(40), time: None }, seed);
            let (after, effect) = game.try_move(Color::Black, r.best).unwrap();
            assert_eq!(effect.captured, 4, "seed {seed}: {:?}", r.best);
            assert_eq!(after.prisoners[Color::Black], 4);
        }
    }

    /// The playouts' answer to the last turn: White's stone on D4 (just played) is in atari and
    /// is taken; with nothing in atari near the last turn there is no answer.
    #[test]
    fn a_playout_takes_the_stone_the_last_turn_left_in_atari() {
        let mut pos = WarPosition::from_diagram(
            ". . . . .
             . . X . .
             . X O X .
             . . . . .
             . . . . .",
            Army::NONE,
            Color::Black,
        )
        .unwrap();
        let mut playout = WarPlayout::new(&pos, 0.5);
        let white = pos.geo.point(2, 2);
        assert!(playout.answer(&mut pos, Color::Black, white));
        assert_eq!(pos.cell(pos.geo.point(2, 1)), Cell::Stone(Color::Black, Kind::Soldier));
        assert!(pos.cell(white).is_empty());
        let black = pos.geo.point(2, 1);
        assert!(!playout.answer(&mut pos, Color::White, black));
    }

    /// Aimed playout drops: a spy only beside an opponent soldier, an immediate bomb only where it
    /// destroys more opponent stones than own ones.
    #[test]
    fn playout_spies_and_bombs_are_aimed_at_the_opponent() {
        let pos = WarPosition::from_diagram(
            ". . . . .
             . . O . .
             . X . O .
             . . . . .
             . . . . .",
            Army::FULL,
            Color::Black,
        )
        .unwrap();
        let mut rng = Rng::seed_from_u64(1);
        let (near, far) = (pos.geo.point(2, 2), pos.geo.point(0, 0));
        for _ in 0..20 {
            let spy = WarPlayout::aimed_drop(&pos, Color::Black, Kind::Spy, near, &mut rng);
            assert_eq!(spy, Some(WarMove::Drop { kind: Kind::Spy, at: near, now: false }));
            assert_eq!(WarPlayout::aimed_drop(&pos, Color::Black, Kind::Spy, far, &mut rng), None);
            assert_eq!(WarPlayout::aimed_drop(&pos, Color::Black, Kind::Bomb, far, &mut rng), None);
            // Beside two White stones and one Black one: worth a bomb in either mode.
            assert!(WarPlayout::aimed_drop(&pos, Color::Black, Kind::Bomb, near, &mut rng).is_some());
            // For White the same point holds one opponent stone against two own: no immediate bomb.
            let white = WarPlayout::aimed_drop(&pos, Color::White, Kind::Bomb, near, &mut rng);
            assert!(matches!(white, None | Some(WarMove::Drop { now: false, .. })));
        }
    }
}
