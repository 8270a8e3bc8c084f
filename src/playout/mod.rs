//! Playouts: from a position, play quick moves to the end of the game and say who won.
//!
//! `Playout<R>` owns a scratch position and every buffer it needs, so after the first playout on a
//! board size nothing is allocated: the start position is copied in with `clone_from` (a `memcpy` beats
//! undo), moves are chosen from the board's free-point list, and the final count reuses its arrays.
//! The loop is generic over the rules and over the policy (a const parameter), so each variant and
//! policy compiles to its own loop without dynamic dispatch.
//!
//! Policies:
//! - **light**: random among legal placements that do not fill an own eye nor commit suicide; the
//!   choice is O(1): a random index into the free-point list, then probing forward (libego's method)
//!   past the eye-shaped points, which are set aside once found (see `choose_light`).
//! - **heavy** (MoGo's and Pachi's "moggy" spirit): near the opponent's last move, with fixed
//!   probabilities, capture a chain in atari or save an own chain from atari (extend when that gains
//!   liberties, or capture a neighbour in atari), then play a 3x3 pattern move (hane, cut, ...); else a
//!   random move as in light, rejecting most self-ataris.
//!
//! Ends per variant (superko is never checked here, only the position's own rules: ko point, suicide,
//! Stoical's capture restriction):
//! - `go`: a player passes (or takes the button) when no non-eye legal placement is left; two passes
//!   end the playout and the final board is counted by area (Tromp-Taylor: stones plus empty regions
//!   that touch one colour only) with komi and the button. Territory scoring uses the same count, less
//!   the stones each side will have placed in the game (`Simulate::start_offset`): read at the
//!   playout's start, since a random playout's own placements fill territory that no player would.
//! - `stones`: no passes. A player with no good placement returns a prisoner, else stakes a group,
//!   else plays any legal placement (own eyes included), else loses; with a small probability a player
//!   ahead in prisoners returns one anyway. The game ends with a decisive capture (the rules' `apply`).
//! - `stoical`: like `go`; a repetition (a draw by the rules) cannot be seen without the history.
//! - Every playout stops after `3 * points + 16` moves (ko cycles, Stoical repetitions, Stones loops):
//!   go and Stoical are then counted by area, Stones by who is nearer to their threshold.

mod ladder;
mod pattern;
mod tactics;

pub use ladder::LadderReader;
pub use pattern::{symmetry, Pat3};
pub use tactics::{atari_escapes_near, captures_near, escapes, self_atari, PointSet};

use crate::board::{Cell, Color, Placement, Point, Topology};
use crate::rules::{BoardOf, Move, Outcome, Position, Rules, Scoring, Standard, Stoical, Stones, Variant};
use rand::{Rng as _, RngCore};
use rand_xoshiro::Xoroshiro128PlusPlus;
use std::fmt;
use std::str::FromStr;

/// The random generator every playout and search thread uses: xoroshiro128++ (Blackman and
/// Vigna's all-purpose 64-bit generator for a smaller state: two words, period 2^128 - 1). A
/// playout move draws 1.3 numbers on average and the generator lives in memory, so its size
/// counts: against xoshiro256++ (four words) it ran 2.0% fewer instructions a light 9x9 playout
/// move in the search, 1.4% heavy 9x9 and 0.7% light 19x19 (35163eb, 2026-11-27).
pub type Rng = Xoroshiro128PlusPlus;

/// What a variant adds to the playout loop: how a playout that ran out of moves is judged.
pub trait Simulate: Rules {
    /// Black's margin when a playout ends by two passes or by the move cap; `area` is Black's area
    /// minus White's on the final board. Positive: Black wins; zero: a draw.
    fn final_margin(&self, pos: &Position<Self>, area: i32) -> f64;

    /// Can the rules allow a suicide that the playout must still refuse itself? When not, the rules'
    /// own check already refused it and the playout need not test the point a second time.
    fn may_allow_suicide(&self) -> bool;

    /// Black's part of the margin that a playout's final count cannot see, read from the position
    /// the playout starts from and added to `final_margin`. Zero except under territory scoring.
    #[inline]
    fn start_offset(&self, _pos: &Position<Self>) -> f64 {
        0.0
    }

    /// Light playouts: might a placement the rules refuse `color` now be allowed on its next turn
    /// without a stone placed near it (a ko ban, a one-turn restriction)? When not, and `color`
    /// finds nothing to play, its next turn tests only what the opponent's move changed
    /// (`Playout::stuck_choice`). Stones never passes for want of a placement: always.
    #[inline]
    fn refusal_may_lapse(&self, _pos: &Position<Self>, _color: Color) -> bool {
        true
    }

    /// Stones: the group a playout stakes when nothing better is left (`Stones::first_stake`).
    /// The other variants have no stakes.
    fn playout_stake(&self, _pos: &Position<Self>, _color: Color) -> Option<Point> {
        None
    }
}

impl<T: Topology> Simulate for Standard<T> {
    #[inline]
    fn final_margin(&self, pos: &Position<Self>, area: i32) -> f64 {
        let button = match pos.extra.button {
            Some(Color::Black) => 0.5,
            Some(Color::White) => -0.5,
            None => 0.0,
        };
        area as f64 - self.komi + button
    }

    #[inline]
    fn may_allow_suicide(&self) -> bool {
        self.suicide_allowed
    }

    /// The ko ban lapses on the next turn.
    #[inline]
    fn refusal_may_lapse(&self, pos: &Position<Self>, color: Color) -> bool {
        pos.board.ko().is_some_and(|(_, c)| c == color)
    }

    /// Territory scoring: a territory count is the area count less each side's stones placed
    /// (handicap stones included). A stone on the board counts for its owner's area and not for
    /// territory, and a captured stone counts for the capturer's territory score and not for area,
    /// so the margins differ by Black's stones on the board and captured less White's. A random
    /// playout fills its own territory to the eyes, so its own placements say nothing about the
    /// game's; what the game's will be is read at the playout's start instead: the placements so
    /// far (`placed`), and then alternate play to the end, in which the side to move makes one more
    /// placement than the other in half the cases, half a point in expectation. So a placement
    /// costs its player one point, as in the game: filling one's own territory loses it, a pass
    /// does not, and a dame is worth nothing. (Counted by area instead, the search took a fill and
    /// a pass as equal, and once the opponent had passed it filled its territory point by point: a
    /// 9x9 match against GNU Go, territory scoring, komi 6.5, went 5-15 as Black.)
    #[inline]
    fn start_offset(&self, pos: &Position<Self>) -> f64 {
        if self.scoring != Scoring::Territory {
            return 0.0;
        }
        let placed = pos.board.stone_balance() + pos.prisoners[Color::White] as i32
            - pos.prisoners[Color::Black] as i32;
        let to_come = if pos.to_move == Color::Black { 0.5 } else { -0.5 };
        -(placed as f64 + to_come)
    }
}

impl<T: Topology> Simulate for Stoical<T> {
    #[inline]
    fn final_margin(&self, _pos: &Position<Self>, area: i32) -> f64 {
        area as f64 - self.komi
    }

    #[inline]
    fn may_allow_suicide(&self) -> bool {
        false
    }

    /// No capture right after the opponent's: a restriction of one turn.
    #[inline]
    fn refusal_may_lapse(&self, pos: &Position<Self>, color: Color) -> bool {
        pos.extra.last_capture == Some(color.opponent())
    }
}

impl<T: Topology> Simulate for Stones<T> {
    /// Only at the move cap: who is nearer to their threshold (Black's lead minus Black's threshold,
    /// against White's lead minus White's threshold).
    #[inline]
    fn final_margin(&self, pos: &Position<Self>, _area: i32) -> f64 {
        let black = pos.lead(Color::Black) - self.threshold_for(Color::Black);
        let white = pos.lead(Color::White) - self.threshold_for(Color::White);
        (black - white) as f64
    }

    /// Stones allows suicide of more than one stone (the prisoners go to the opponent).
    #[inline]
    fn may_allow_suicide(&self) -> bool {
        true
    }

    fn playout_stake(&self, pos: &Position<Self>, color: Color) -> Option<Point> {
        Stones::first_stake(&pos.board, color)
    }
}

/// The playout policy (`--policy light|heavy`).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Hash)]
pub enum Policy {
    Light,
    #[default]
    Heavy,
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::Light => "light",
            Policy::Heavy => "heavy",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A policy name that is neither `light` nor `heavy`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PolicyError(pub String);

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown playout policy '{}' (light or heavy)", self.0)
    }
}

impl std::error::Error for PolicyError {}

impl FromStr for Policy {
    type Err = PolicyError;
    fn from_str(s: &str) -> Result<Policy, PolicyError> {
        match s.to_ascii_lowercase().as_str() {
            "light" => Ok(Policy::Light),
            "heavy" => Ok(Policy::Heavy),
            _ => Err(PolicyError(s.to_string())),
        }
    }
}

/// Why a playout stopped.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum PlayoutEnd {
    /// The position was already over, or a move ended it (a Stones decisive capture).
    GameOver,
    TwoPasses,
    /// go, Stoical: one side led by the mercy threshold in stones on the board, also beyond komi
    /// (`Playout::mercy`), and won.
    Mercy,
    /// Stones: the player to move had no legal move and lost.
    NoLegalMove,
    MoveCap,
}

/// The terminal evaluation of one playout.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct PlayoutResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// Black's margin: area points minus komi (go, Stoical), the lead (a Stones decisive move) or the
    /// threshold distance (a capped Stones playout). Negative when White is ahead.
    pub black_margin: f32,
    /// Moves the playout played (pass-like moves included).
    pub moves: u32,
    pub end: PlayoutEnd,
}

impl PlayoutResult {
    /// The result for `color` in half points: 2 for a win, 1 for a draw, 0 for a loss. Integers make
    /// the search's atomic sums exact (a Stoical draw is one half-point).
    #[inline]
    pub fn half_points(&self, color: Color) -> u32 {
        match self.winner {
            None => 1,
            Some(w) if w == color => 2,
            Some(_) => 0,
        }
    }

    /// Redraws the winner of a playout that ended in a count (two passes, the move cap, the mercy
    /// rule): Black with probability `1/2 + margin / (2 * points)` (clamped), so that in
    /// expectation the result is linear in the score (`SearchConfig::score_utility`). Other ends
    /// (a decisive Stones capture, a position already over, a Stoical repetition) keep their result.
    pub fn redraw_by_score(&mut self, points: usize, rng: &mut Rng) {
        if matches!(self.end, PlayoutEnd::TwoPasses | PlayoutEnd::MoveCap | PlayoutEnd::Mercy) {
            let black = (0.5 + self.black_margin as f64 / (2.0 * points as f64)).clamp(0.0, 1.0);
            self.winner = Some(if rng.gen_bool(black) { Color::Black } else { Color::White });
        }
    }

    /// With probability `weight`, redraws the winner of a playout that ended in a count as
    /// Black with probability `1/2 + margin / (4 * size)` (clamped), so that in expectation a
    /// result is `(1 - weight) * win + weight * that score term`. The scale (a margin of twice
    /// the board's side saturates it) keeps the term steep enough to tell a won game's moves
    /// apart on every board size; it saturates only where the count no longer matters.
    #[inline]
    pub fn blend_score(&mut self, size: usize, weight: f64, rng: &mut Rng) {
        if matches!(self.end, PlayoutEnd::TwoPasses | PlayoutEnd::MoveCap | PlayoutEnd::Mercy)
            && rng.gen_bool(weight)
        {
            let black = (0.5 + self.black_margin as f64 / (4.0 * size as f64)).clamp(0.0, 1.0);
            self.winner = Some(if rng.gen_bool(black) { Color::Black } else { Color::White });
        }
    }

    fn from_margin(margin: f64, moves: u32, end: PlayoutEnd) -> PlayoutResult {
        let o = Outcome::from_margin(margin, crate::rules::EndReason::TwoPasses);
        PlayoutResult { winner: o.winner, black_margin: margin as f32, moves, end }
    }
}

/// Probability thresholds of the heavy policy, out of 2^32 (tuned like Pachi's moggy defaults).
const fn rate(percent: u64) -> u32 {
    let r = (percent << 32) / 100;
    if r > u32::MAX as u64 {
        u32::MAX
    } else {
        r as u32
    }
}
/// Answer the last move's ataris (capture, escape, counter-capture).
const ATARI_RATE: u32 = rate(90);
/// Play a 3x3 pattern move next to the last move.
const PATTERN_RATE: u32 = rate(90);
/// Reject a random move that puts a single stone in atari (two or more stones: always rejected).
const SINGLE_SELF_ATARI_REJECT: u32 = rate(50);
/// Stones: a player ahead in prisoners returns one instead of placing (a tempo move).
const STONES_RETURN_RATE: u32 = rate(2);
/// Eye-shaped points a move's probes set aside at most (more wait for a later move).
const SET_ASIDE_PER_MOVE: usize = 32;
/// Own chains longer than this are not walked for counter-captures.
const WALK_LIMIT: usize = 32;

/// A uniform index below `n` (Lemire's multiply-shift; the bias is negligible for board sizes).
#[inline]
fn below(rng: &mut Rng, n: usize) -> usize {
    ((rng.next_u32() as u64 * n as u64) >> 32) as usize
}

/// The first of `points` that passes `take`, probing forward from index `start` and wrapping round
/// to the beginning (libego's forward probing, shared by the random policies).
#[inline(always)]
fn first_from(points: &[Point], start: usize, mut take: impl FnMut(Point) -> bool) -> Option<Point> {
    let n = points.len();
    for i in 0..n {
        let j = if start + i >= n { start + i - n } else { start + i };
        if take(points[j]) {
            return Some(points[j]);
        }
    }
    None
}

#[inline]
fn chance(rng: &mut Rng, threshold: u32) -> bool {
    rng.next_u32() < threshold
}

/// A reusable playout runner for one variant: scratch position, move list and count buffers.
#[derive(Debug)]
pub struct Playout<R: Rules> {
    pos: Position<R>,
    /// Placements of the last playout, in order, with their colour (for AMAF / RAVE).
    moves: Vec<(Color, Point)>,
    /// Final area owner per cell after the last playout: 1 Black, -1 White, 0 neutral or off board.
    owner: Vec<i8>,
    /// The final count's flood fill: the cells reached, and the region being filled (a slot per
    /// cell, see `count_area`).
    mark: Vec<bool>,
    region: Vec<Point>,
    pat3: Pat3,
    /// The previous placement, for the heavy policy's local answers (`NONE` after a pass).
    last: Point,
    /// Heavy policy: never play a self-atari of two stones or more, not even as the last move left
    /// (see `keep_seki`).
    keep_seki: bool,
    /// The mercy rule's stone difference (see `mercy`); `None`: off.
    mercy: Option<u32>,
    /// Light policy: per colour, the move number of the playout at which that colour may take the
    /// stuck player's shortcut (`stuck_choice`): two after a move at which it found nothing to
    /// play while no refusal could lapse; 0 (no move) when it may not.
    stuck: [u32; 2],
    /// Tests: turn `stuck_choice` off, and count its uses and choices.
    #[cfg(test)]
    stuck_log: StuckLog,
}

#[cfg(test)]
#[derive(Debug, Default)]
struct StuckLog {
    off: bool,
    used: std::cell::Cell<u32>,
    chose: std::cell::Cell<u32>,
}

/// The mercy rule's threshold on a board of `points` points: 30% of them (Fuego's), e.g. 25 stones
/// on 9x9 and 109 on 19x19.
pub fn mercy_threshold(points: usize) -> u32 {
    (3 * points as u32).div_ceil(10)
}

impl<R: Simulate> Playout<R> {
    /// A runner whose buffers fit `start`'s board.
    pub fn new(start: &Position<R>) -> Playout<R> {
        let cells = start.board.geometry().cells();
        let points = start.board.size() * start.board.size();
        Playout {
            pos: start.clone(),
            moves: Vec::with_capacity(4 * points + 32),
            owner: vec![0; cells],
            mark: vec![false; cells],
            region: vec![Point::NONE; cells],
            pat3: Pat3::new(),
            last: Point::NONE,
            keep_seki: false,
            mercy: None,
            stuck: [0; 2],
            #[cfg(test)]
            stuck_log: StuckLog::default(),
        }
    }

    /// The mercy rule (go and Stoical; Fuego's, on by default there): a playout ends as soon as one
    /// side leads by `threshold` stones, both on the board and beyond komi, and that side wins,
    /// without playing out the last fills and passes. Stones on the board, not captures, so that
    /// dead stones already standing in the start position count as they would at the end; and
    /// never by komi alone, which the points not yet taken could make up (a handicap game's
    /// dynamic komi would otherwise end playouts at once). From the empty 9x9 board with komi 7.5,
    /// 30% of light playouts end by it at 25 stones, 26 moves early on average (7% of all moves),
    /// and not one of 15,116 verdicts differed from the same playout played out
    /// (`examples/mercy_agreement.rs`). The final owners and margin are then those of the board
    /// where it stopped. Off, every playout is played out (the end-of-game judgement).
    pub fn mercy(&mut self, on: bool) {
        let size = self.pos.board.size();
        self.mercy_at(on.then(|| mercy_threshold(size * size)));
    }

    /// The mercy rule at a threshold of `threshold` stones instead of 30% of the points; `None`:
    /// off.
    pub fn mercy_at(&mut self, threshold: Option<u32>) {
        self.mercy = threshold;
    }

    /// Heavy playouts that pass rather than fill a seki: when nothing but self-ataris is left, a
    /// self-atari of two stones or more is never played (a single stone still is). Filling a seki's
    /// shared liberty puts the filler's own group in atari, so otherwise whoever runs out of other
    /// moves first gives a group away, and the seki never survives to the count. The end-of-game
    /// judgement runs with it on. The move search does not: the same rule also keeps playouts from
    /// playing out a killing nakade (a sacrifice of two or three stones inside an eye space), and in
    /// the move search it lost 260-340 (two runs of 300 games: 9x9, 5,000 playouts a move, one
    /// thread) to the plain rule.
    pub fn keep_seki(&mut self, on: bool) {
        self.keep_seki = on;
    }

    /// The 3x3 pattern table (shared with the tree's priors).
    pub fn patterns(&self) -> &Pat3 {
        &self.pat3
    }

    /// Copies `start` into the scratch position without allocating (same board size as before).
    #[inline]
    pub fn load(&mut self, start: &Position<R>) {
        self.pos.clone_from(start);
        self.last = Point::NONE;
    }

    /// The scratch position: the search plays its tree moves here before `play_out`.
    #[inline]
    pub fn position(&self) -> &Position<R> {
        &self.pos
    }

    #[inline]
    pub fn position_mut(&mut self) -> &mut Position<R> {
        &mut self.pos
    }

    /// Tells the heavy policy which placement was played last (`Point::NONE` after a pass-like move).
    #[inline]
    pub fn set_last(&mut self, p: Point) {
        self.last = p;
    }

    /// Placements of the last playout, in order.
    #[inline]
    pub fn moves(&self) -> &[(Color, Point)] {
        &self.moves
    }

    /// Area owner of each cell (indexed by `Point::idx`) at the end of the last playout: 1 Black,
    /// -1 White, 0 neutral, wall or border.
    #[inline]
    pub fn owner(&self) -> &[i8] {
        &self.owner
    }

    /// Copies `start` in and plays it out.
    pub fn run(&mut self, rules: &R, start: &Position<R>, policy: Policy, rng: &mut Rng) -> PlayoutResult {
        self.load(start);
        self.play_out(rules, policy, rng)
    }

    /// One placement of the policy for the side to move on the scratch position, played and
    /// returned; `None` (nothing played) when the policy would pass. A search that keeps only some
    /// of the moves in its tree (Phantom Go's, which keeps its own) plays the others with it.
    pub fn step(&mut self, rules: &R, policy: Policy, rng: &mut Rng) -> Option<Point> {
        if self.pos.outcome.is_some() {
            return None;
        }
        self.stuck = [0; 2];
        let color = self.pos.to_move;
        let p = match policy {
            Policy::Heavy => self.choose_heavy(rules, color, rng),
            Policy::Light => self.choose_light(rules, color, rng, 1),
        }?;
        self.pos.play(rules, color, Move::Place(p));
        self.last = p;
        Some(p)
    }

    /// Plays the scratch position out to the end (destroying it) and evaluates it.
    pub fn play_out(&mut self, rules: &R, policy: Policy, rng: &mut Rng) -> PlayoutResult {
        // One branch per playout picks the monomorphized loop.
        match policy {
            Policy::Light if self.mercy.is_some() => self.simulate::<false, true>(rules, rng),
            Policy::Light => self.simulate::<false, false>(rules, rng),
            Policy::Heavy if self.mercy.is_some() => self.simulate::<true, true>(rules, rng),
            Policy::Heavy => self.simulate::<true, false>(rules, rng),
        }
    }

    fn simulate<const HEAVY: bool, const MERCY: bool>(&mut self, rules: &R, rng: &mut Rng) -> PlayoutResult {
        self.moves.clear();
        self.stuck = [0; 2];
        // Nothing in a playout asks the hash (superko is the tree's business): stop keeping it.
        self.pos.board.let_hash_go_stale();
        let size = self.pos.board.size() as u32;
        let cap = 3 * size * size + 16;
        let stones = R::VARIANT == Variant::Stones;
        let mut n = 0u32;
        if let Some(o) = self.pos.outcome {
            return self.game_over(o, n);
        }
        // What the final count cannot see (territory scoring's placements), from the start.
        let offset = rules.start_offset(&self.pos);
        let final_margin = |pos: &Position<R>, area: i32| rules.final_margin(pos, area) + offset;
        // The mercy rule as two bounds on Black's stones minus White's, so that each placement
        // costs an addition and two comparisons. It has a loop of its own (`MERCY`): without the
        // rule, the loop is the one it was before the rule.
        let mercy = MERCY && !stones;
        let (mut balance, mercy_hi, mercy_lo) = match self.mercy {
            Some(t) if mercy => {
                // A lead of `t` stones both on the board and beyond komi: the komi alone never
                // decides, as the points not yet taken could still make it up (a large dynamic
                // komi would otherwise end a handicap game's playouts at once).
                let besides = final_margin(&self.pos, 0);
                let t = t as f64;
                let (hi, lo) = ((t - besides.min(0.0)).ceil() as i32, (-t - besides.max(0.0)).floor() as i32);
                (self.pos.board.stone_balance(), hi, lo)
            }
            _ => (0, i32::MAX, i32::MIN),
        };
        loop {
            // Only a Stones placement (a decisive capture) ends the game inside the loop: go and
            // Stoical end there by the second pass, counted below rather than by `apply`.
            if stones {
                if let Some(o) = self.pos.outcome {
                    return self.game_over(o, n);
                }
            }
            debug_assert!(stones || self.pos.outcome.is_none(), "a go or Stoical playout ended by a move");
            if n >= cap {
                // The move cap: no playout runs away (ko cycles, repetitions the playout cannot see).
                let area = self.count_area();
                return PlayoutResult::from_margin(final_margin(&self.pos, area), n, PlayoutEnd::MoveCap);
            }
            let color = self.pos.to_move;
            n += 1;
            // Stones: a player ahead in prisoners sometimes returns one as a tempo move.
            if stones
                && self.pos.prisoners[color] > self.pos.prisoners[color.opponent()]
                && chance(rng, STONES_RETURN_RATE)
            {
                self.pos.play_unhashed(rules, color, Move::Return);
                self.last = Point::NONE;
                continue;
            }
            let choice = if HEAVY {
                self.choose_heavy(rules, color, rng)
            } else {
                self.choose_light(rules, color, rng, n)
            };
            if let Some(p) = choice {
                let placed = self.place(rules, color, p);
                if mercy {
                    // Black's stones minus White's: the placed stone, less the stones it captured
                    // and its own self-captured (the playout's prisoners are not counted).
                    let change = 1 + placed.captured as i32 - placed.suicided as i32;
                    balance += if color == Color::Black { change } else { -change };
                    if balance >= mercy_hi || balance <= mercy_lo {
                        return self.mercy_end(rules, offset, balance >= mercy_hi, n);
                    }
                }
                continue;
            }
            if stones {
                match self.stones_fallback(rules, color) {
                    Some(Move::Place(p)) => {
                        self.place(rules, color, p);
                    }
                    Some(mv) => {
                        self.pos.play_unhashed(rules, color, mv);
                        self.last = Point::NONE;
                    }
                    None => {
                        // No legal move at all: the player to move loses (RULES.md section 3).
                        self.count_area();
                        let w = color.opponent();
                        let lead = self.pos.lead(w) as f64;
                        let margin = if w == Color::Black { lead } else { -lead };
                        return PlayoutResult {
                            winner: Some(w),
                            black_margin: margin as f32,
                            moves: n - 1,
                            end: PlayoutEnd::NoLegalMove,
                        };
                    }
                }
                continue;
            }
            // go / Stoical: no non-eye placement left, so pass (or take the button while it is free).
            let mv = rules.pass_move(&self.pos, color);
            if mv == Move::Pass && self.pos.passes >= 1 {
                // The second pass ends the game; it is counted here rather than by `apply`, whose
                // scoring allocates.
                let area = self.count_area();
                return PlayoutResult::from_margin(final_margin(&self.pos, area), n, PlayoutEnd::TwoPasses);
            }
            self.pos.play_unhashed(rules, color, mv);
            self.last = Point::NONE;
        }
    }

    #[cold]
    #[inline(never)]
    fn mercy_end(&mut self, rules: &R, offset: f64, black: bool, n: u32) -> PlayoutResult {
        let area = self.count_area();
        PlayoutResult {
            winner: Some(if black { Color::Black } else { Color::White }),
            black_margin: (rules.final_margin(&self.pos, area) + offset) as f32,
            moves: n,
            end: PlayoutEnd::Mercy,
        }
    }

    /// The result of a playout whose game is over after `n` moves (`outcome` is the position's).
    fn game_over(&mut self, o: Outcome, n: u32) -> PlayoutResult {
        self.count_area();
        PlayoutResult {
            winner: o.winner,
            black_margin: o.black_margin() as f32,
            moves: n,
            end: PlayoutEnd::GameOver,
        }
    }

    #[inline]
    fn place(&mut self, rules: &R, color: Color, p: Point) -> Placement {
        let placed = self.pos.play_unhashed(rules, color, Move::Place(p));
        self.moves.push((color, p));
        self.last = p;
        placed
    }

    /// A placement the playout may choose: legal without history, not an own eye, not a suicide.
    #[inline]
    fn playable(&self, rules: &R, color: Color, p: Point) -> bool {
        let b = &self.pos.board;
        !b.is_eye(color, p)
            && rules.check(&self.pos, color, Move::Place(p)).is_ok()
            && !(rules.may_allow_suicide() && b.is_suicide(color, p))
    }

    /// `playable` for the light policy's probes, the empty-neighbour test first: a point with an
    /// empty neighbour is neither an eye nor a suicide, so that one test settles the probe but for
    /// the ko. Asked first, the eye test's branch was a second random one on most probes. The heavy
    /// policy keeps `playable`: its candidates lie beside the last move, where this order read
    /// slower (0.982 and 0.989 by builds in turns).
    #[inline(always)]
    fn playable_light(&self, rules: &R, color: Color, p: Point) -> bool {
        if self.pos.board.neighbour_count(p, Cell::Empty) != 0 {
            return rules.check(&self.pos, color, Move::Place(p)).is_ok();
        }
        self.playable(rules, color, p)
    }

    /// Light policy: one uniform draw from the free-point list; when that point is unplayable, the
    /// first playable point among those not set aside, from a random start; when there is none, the
    /// first playable set-aside point. Eye-shaped points rejected on the way are set aside
    /// (`Board::set_aside_if_eye_shaped`) for the rest of the playout.
    ///
    /// Nearly every point a playout rejects is eye-shaped (97% of them in light 19x19 playouts): an
    /// own eye, or an enemy eye without a capture. Probing forward through the whole list from the
    /// first draw, as libego and Pachi do, met each of them again move after move: 1.7 rejections a
    /// move on 19x19, each a mispredicted branch and a diagonal or suicide test. Set aside, an eye
    /// costs at most one rejection a move (the first draw) until nothing else is left (the passing
    /// player's scan, and the captures that end a playout): 0.9 rejections a move on 19x19. A
    /// playable set-aside point (a capture, a false eye) is drawn with probability 1/n (n free
    /// points) while other moves are left, where forward probing also gave it the rejected points
    /// before it. Points are set aside when a probe finds them rather than by `Board::play`: a test
    /// on every neighbour of every stone placed cost the heavy policy more than it saved.
    // Always inlined: the loop has two copies per variant (with and without the mercy rule), and
    // LLVM left a policy called from two places out of line, which cost 3% (`tengen bench`).
    #[inline(always)]
    fn choose_light(&mut self, rules: &R, color: Color, rng: &mut Rng, ply: u32) -> Option<Point> {
        let empties = self.pos.board.empties();
        let n = empties.len();
        if n == 0 {
            return None;
        }
        let first = empties[below(rng, n)];
        if self.playable_light(rules, color, first) {
            return Some(first);
        }
        self.scan_light(rules, color, rng, ply)
    }

    /// `choose_light` after its first draw failed: the scans, and the setting aside of the
    /// eye-shaped points they reject. Apart so that a move whose first draw is playable (most moves)
    /// does not even clear the list of points to set aside. A player who found nothing to play on
    /// their last turn tests only the set-aside points the opponent's move since can have changed
    /// (`stuck_choice`): the scans that end a playout, pass after pass, tried each of them again.
    #[inline(always)]
    fn scan_light(&mut self, rules: &R, color: Color, rng: &mut Rng, ply: u32) -> Option<Point> {
        let mut noted = [Point::NONE; SET_ASIDE_PER_MOVE];
        let mut count = 0;
        let mut note = |b: &BoardOf<R>, p: Point| {
            if count < SET_ASIDE_PER_MOVE && b.is_eye_shaped_point(p) {
                noted[count] = p;
                count += 1;
            }
        };
        let choice = 'choice: {
            let b = &self.pos.board;
            let (aside, rest) = b.empties().split_at(b.set_aside_count());
            if !rest.is_empty() {
                let hit = first_from(
                    rest,
                    below(rng, rest.len()),
                    // Inlined by force: LLVM left this closure out of line in Stoical's loop,
                    // which then ran 1.8% more instructions.
                    #[inline(always)]
                    |p| {
                        let ok = self.playable_light(rules, color, p);
                        if !ok {
                            note(b, p);
                        }
                        ok
                    },
                );
                if hit.is_some() {
                    break 'choice hit;
                }
            }
            if aside.is_empty() {
                break 'choice None;
            }
            let start = below(rng, aside.len());
            let playable = |p| self.playable_light(rules, color, p);
            if self.stuck[color.index()] == ply && self.stuck_shortcut_on() {
                let choice = self.stuck_choice(rules, color, start);
                debug_assert_eq!(
                    choice,
                    first_from(aside, start, playable),
                    "a stuck player's choice differs from the full scan's"
                );
                break 'choice choice;
            }
            first_from(aside, start, playable)
        };
        // Nothing to play: remembered for the player's next turn, unless what the rules refused
        // may be allowed then anyway (a ko ban).
        let stuck = choice.is_none() && !rules.refusal_may_lapse(&self.pos, color);
        self.stuck[color.index()] = if stuck { ply + 2 } else { 0 };
        // Set aside once the scan is over: moving entries during it would reorder what it scans.
        for &p in &noted[..count] {
            self.pos.board.set_aside_if_eye_shaped(p);
        }
        choice
    }

    /// Whether `scan_light` may take `stuck_choice`: always, but for the tests that switch it off to
    /// compare playouts with and without it.
    #[inline(always)]
    fn stuck_shortcut_on(&self) -> bool {
        #[cfg(test)]
        return !self.stuck_log.off;
        #[cfg(not(test))]
        true
    }

    /// `scan_light`'s scan of the set-aside points for a player who found nothing to play on their
    /// previous turn (`stuck`; go and Stoical) with one opponent move between: the choice the full
    /// scan from entry `start` would make, read from the few points that move can have made
    /// playable. On that turn every empty point was unplayable for the player (and no refusal
    /// could lapse, `Simulate::refusal_may_lapse`); since then only the opponent's move changed
    /// the board, and whatever restriction it brings, `playable_light` still applies. A set-aside
    /// point is an eye shape, and for the player it is one of two kinds.
    ///
    /// - An opponent's eye: playable only by a capture, of a chain whose last liberty it is. Only
    ///   the chain the opponent's new stone belongs to lost a liberty (the others kept theirs, or
    ///   gained some by the move's captures), so the one candidate is that chain's last liberty,
    ///   if it is in atari (as when the opponent filled a false eye of its own).
    /// - An own eye: playable only when `Board::is_eye` no longer holds and it is not a suicide.
    ///   No stone beside it can have gone (a chain with an empty neighbour is never captured) and
    ///   the player's chains only lost liberties, so it changed only if the new stone went on one
    ///   of its diagonals.
    ///
    /// Points the move's captures emptied join the other part of the list, scanned before this.
    /// After a pass-like opponent move nothing changed and nothing is playable. Of the candidates
    /// that are playable, the one the full scan meets first is chosen; debug builds run the full
    /// scan too and compare.
    #[inline(never)]
    fn stuck_choice(&self, rules: &R, color: Color, start: usize) -> Option<Point> {
        let b = &self.pos.board;
        let m = self.last;
        if m.is_none() {
            return None;
        }
        let len = b.set_aside_count();
        let mut best: Option<(usize, Point)> = None;
        let mut consider = |p: Point| {
            let Some(at) = b.set_aside_index(p) else { return };
            if self.playable_light(rules, color, p) {
                // The full scan meets entry `at` after `(at - start) mod len` others.
                let order = if at >= start { at - start } else { at + len - start };
                if best.is_none_or(|(o, _)| order < o) {
                    best = Some((order, p));
                }
            }
        };
        if let Some(l) = b.atari_liberty(m) {
            consider(l);
        }
        for d in b.diagonals(m) {
            consider(d);
        }
        #[cfg(test)]
        {
            let log = &self.stuck_log;
            log.used.set(log.used.get() + 1);
            log.chose.set(log.chose.get() + best.is_some() as u32);
        }
        best.map(|(_, p)| p)
    }

    /// Picks a random playable point of `cands` that also passes `ok`.
    #[inline(always)]
    fn pick<const N: usize>(
        &self,
        rules: &R,
        color: Color,
        cands: &mut PointSet<N>,
        rng: &mut Rng,
        ok: impl Fn(Point) -> bool,
    ) -> Option<Point> {
        while !cands.is_empty() {
            let p = cands.swap_remove(below(rng, cands.len()));
            if self.playable(rules, color, p) && ok(p) {
                return Some(p);
            }
        }
        None
    }

    /// Heavy policy: answer ataris near the last move, then 3x3 patterns, then random without
    /// self-atari.
    #[inline(always)]
    fn choose_heavy(&self, rules: &R, color: Color, rng: &mut Rng) -> Option<Point> {
        let b = &self.pos.board;
        let last = self.last;
        if !last.is_none() {
            if chance(rng, ATARI_RATE) {
                let mut cands = PointSet::<16>::default();
                captures_near(b, color, last, &mut cands);
                atari_escapes_near(b, color, last, WALK_LIMIT, &mut cands);
                if let Some(p) = self.pick(rules, color, &mut cands, rng, |_| true) {
                    return Some(p);
                }
            }
            if chance(rng, PATTERN_RATE) {
                let mut cands = PointSet::<8>::default();
                for q in b.around(last) {
                    if b.is_empty_point(q) && self.pat3.matches(b, q) {
                        cands.push_distinct(q);
                    }
                }
                if let Some(p) =
                    self.pick(rules, color, &mut cands, rng, |p| self_atari(b, color, p).is_none())
                {
                    return Some(p);
                }
            }
        }
        // Random, but a self-atari is rejected (always for two stones or more, often for one); when
        // nothing else is left the first rejected one is played, as light would (unless `keep_seki`).
        // Forward probing through the whole list, set-aside points included: setting eye-shaped
        // points aside, as light does, did not speed heavy playouts up (their time goes to the
        // tactics, and most rejections here are self-ataris).
        let empties = b.empties();
        let n = empties.len();
        if n == 0 {
            return None;
        }
        let start = below(rng, n);
        let mut rejected = None;
        let found = first_from(empties, start, |p| {
            if !self.playable(rules, color, p) {
                return false;
            }
            match self_atari(b, color, p) {
                Some(stones) if stones >= 2 && self.keep_seki => false,
                Some(stones) if stones >= 2 || chance(rng, SINGLE_SELF_ATARI_REJECT) => {
                    rejected.get_or_insert(p);
                    false
                }
                _ => true,
            }
        });
        found.or(rejected)
    }

    /// Stones, when no good placement is left: a prisoner return, else a stake, else any legal
    /// placement (own eyes, suicides); `None` when the player has no legal move at all.
    fn stones_fallback(&self, rules: &R, color: Color) -> Option<Move> {
        let pos = &self.pos;
        if pos.check(rules, color, Move::Return).is_ok() {
            return Some(Move::Return);
        }
        if let Some(p) = rules.playout_stake(pos, color) {
            debug_assert!(pos.check(rules, color, Move::Stake(p)).is_ok(), "an illegal stake");
            return Some(Move::Stake(p));
        }
        pos.board
            .empties()
            .iter()
            .copied()
            .find(|&p| rules.check(pos, color, Move::Place(p)).is_ok())
            .map(Move::Place)
    }

    /// Tromp-Taylor count of the scratch board into `owner`; returns Black's area minus White's.
    /// Stones are counted over the whole array in one branch-free pass (the compiler vectorizes
    /// it); then the empty regions, found from the free-point list (a played-out board has few
    /// empty points), each flooded once: a region belongs to a colour when it touches only that
    /// colour.
    fn count_area(&mut self) -> i32 {
        let b = &self.pos.board;
        let cells = b.cells();
        if self.owner.len() != cells.len() {
            self.owner.resize(cells.len(), 0);
            self.mark.resize(cells.len(), false);
            self.region.resize(cells.len(), Point::NONE);
        }
        let mut area = 0i32;
        for (o, &c) in self.owner.iter_mut().zip(cells) {
            let who = (c == Cell::Black) as i8 - (c == Cell::White) as i8;
            *o = who;
            area += who as i32;
        }
        self.mark.fill(false);
        for &p in b.empties() {
            if self.mark[p.idx()] {
                continue;
            }
            if b.neighbour_count(p, Cell::Empty) == 0 {
                // A point whose neighbours are all one colour's stones (or walls) is a region of
                // its own: the eyes that fill a played-out board, read from the neighbour counts
                // without a flood fill.
                let black = b.neighbour_count(p, Cell::Black);
                let white = b.neighbour_count(p, Cell::White);
                let who = (white == 0 && black > 0) as i8 - (black == 0 && white > 0) as i8;
                self.owner[p.idx()] = who;
                area += who as i32;
                continue;
            }
            // A flood fill without a branch on what each neighbour holds, which on a played-out
            // board goes either way at random: the colours come from the neighbour counts, and
            // every neighbour is written past the region's end, which moves on only for an empty
            // point not reached before. (The buffer has a slot per cell: more than any region and
            // the one write past it.)
            let region = &mut self.region;
            let mark = &mut self.mark;
            region[0] = p;
            mark[p.idx()] = true;
            let (mut black, mut white) = (false, false);
            let (mut k, mut len) = (0, 1);
            while k < len {
                let q = region[k];
                k += 1;
                black |= b.neighbour_count(q, Cell::Black) > 0;
                white |= b.neighbour_count(q, Cell::White) > 0;
                for r in b.neighbours(q) {
                    let reached = (b.cell(r) == Cell::Empty) & !mark[r.idx()];
                    region[len] = r;
                    len += reached as usize;
                    mark[r.idx()] |= reached;
                }
            }
            let who = (black && !white) as i8 - (white && !black) as i8;
            for &q in &region[..len] {
                self.owner[q.idx()] = who;
            }
            area += who as i32 * len as i32;
        }
        area
    }
}

#[cfg(test)]
mod tests;
