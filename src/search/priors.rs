//! Prior knowledge for a new child: the playout policy's tactics turned into equivalent experience
//! (captures, atari escapes, ladders, 3x3 patterns, self-atari, own eyes, distance to the last move,
//! edges).
//! A child starts with these imagined visits and wins, so the first real visits go to the moves the
//! knowledge likes, and real results outweigh it as they accumulate.

use super::config::PriorWeights;
use super::move_model::{distance_bucket, pattern_key, Group, MoveFeatures};
use crate::board::{Board, Cell, Color, Flat, Point, Topology};
use crate::playout::{self_atari, LadderReader, Pat3};

/// Imagined visits and half-point wins (2 per win).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Prior {
    pub visits: u32,
    pub wins: u32,
}

impl Prior {
    /// `n` visits at 50%.
    pub fn even(n: u32) -> Prior {
        Prior { visits: n, wins: n }
    }

    /// Adds `n` visits all won (`won`) or all lost.
    #[inline]
    pub fn add(&mut self, n: u32, won: bool) {
        self.visits += n;
        if won {
            self.wins += 2 * n;
        }
    }

    /// The imagined win rate.
    pub fn rate(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.wins as f64 / (2.0 * self.visits as f64)
        }
    }
}

/// Adds the move model's opinion to a move's prior: `share` is the move's part of the strengths
/// of the placements the model was asked about; the move gets `model x sqrt(share)` visits won.
/// The square root (Pachi maps its pattern probabilities so too) keeps the second and third
/// choices in sight of the first. A point enclosed by the player's own stones
/// (`MoveFeatures::enclosed`) is not asked about; the pass has the model's own small strength.
pub fn add_model_prior(prior: &mut Prior, share: f64, weights: &PriorWeights) {
    prior.add((weights.model as f64 * share.max(0.0).sqrt()).round() as u32, true);
}

/// The tactical facts of one placement that the hand-set priors and the move model both read
/// (`PriorContext::tactics`).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Tactics {
    /// No stone beside the point (`open_point`): every other field is empty.
    pub open: bool,
    /// Opponent stones the placement captures.
    pub captured: u32,
    /// The stones of the placed stone's chain when it is left in atari.
    pub self_atari: Option<u32>,
    /// Stones of own chains in atari whose last liberty the point is.
    pub saved: u32,
    /// An escape (stones saved, no self-atari) that a ladder captures all the same.
    pub escape_into_ladder: bool,
    /// It puts an opponent chain in atari that a ladder captures (not read when no prior needs it).
    pub starts_ladder: bool,
}

/// What the priors of one expansion share.
pub struct PriorContext<'a, T: Topology = Flat> {
    pub board: &'a Board<T>,
    pub color: Color,
    /// The opponent's last placement (`Point::NONE` after a pass-like move or at the start).
    pub last: Point,
    /// The player's own placement before it (`Point::NONE` likewise): the move model's features
    /// measure from it too.
    pub own_last: Point,
    pub patterns: &'a Pat3,
    pub weights: &'a PriorWeights,
    /// Scratch boards for ladder reads, reused across expansions.
    pub ladder: &'a mut LadderReader<T>,
}

impl<T: Topology> PriorContext<'_, T> {
    /// The tactical facts of a placement at `p` (legal for `color`), for `placement_from` and, with
    /// `for_model`, for `features_from` as well. The ladder reads are the costly part of an
    /// expansion, so a point's are read once for both.
    pub fn tactics(&mut self, p: Point, for_model: bool) -> Tactics {
        let (b, c) = (self.board, self.color);
        // At an open point the tactical tests' walks of the neighbours and the pattern lookup find
        // nothing.
        if open_point(b, p) {
            return Tactics { open: true, ..Tactics::default() };
        }
        let captured = b.capture_count(c, p).0;
        let self_atari = self_atari(b, c, p);
        // An escape: `p` is the last liberty of own chains in atari, and playing there gains
        // liberties.
        let saved = self.saved_stones(p);
        let escape_into_ladder = saved > 0
            && self_atari.is_none()
            && saved <= self.weights.ladder_max_stones
            && self.ladder.captured_after(b, c, p, p);
        // The hand-set prior stops at an escape into a ladder; the model reads the ladder start of
        // every move that is not a self-atari (it was fitted so).
        let starts_ladder =
            (!escape_into_ladder || (for_model && self_atari.is_none())) && self.starts_working_ladder(p);
        Tactics { open: false, captured, self_atari, saved, escape_into_ladder, starts_ladder }
    }

    /// The prior of a placement at `p` (legal for `color`). `decisive`: the move wins at once.
    pub fn placement(&mut self, p: Point, decisive: bool) -> Prior {
        let t = if decisive || self.board.is_eye(self.color, p) {
            // `placement_from` reads no tactics for these.
            Tactics::default()
        } else {
            self.tactics(p, false)
        };
        self.placement_from(p, decisive, &t)
    }

    /// `placement` from the point's tactics (`tactics`).
    pub fn placement_from(&self, p: Point, decisive: bool, t: &Tactics) -> Prior {
        let (b, c, w) = (self.board, self.color, self.weights);
        let mut prior = Prior::even(w.even);
        if decisive {
            prior.add(w.decisive, true);
            return prior;
        }
        if b.is_eye(c, p) {
            // Filling an own eye is almost never right; it stays possible for the rare exception.
            prior.add(w.own_eye, false);
            return prior;
        }
        if !t.open {
            match t.captured {
                0 => {}
                1 => prior.add(w.capture_one, true),
                _ => prior.add(w.capture_many, true),
            }
            if t.saved > 0 && t.self_atari.is_none() {
                // Running out of a working ladder only feeds the opponent more stones; the
                // playouts rarely see it, since their chaser does not keep giving atari. Shape and
                // nearness do not redeem a proved loss, so they are not added.
                if t.escape_into_ladder {
                    prior.add(w.ladder_escape, false);
                    return prior;
                }
                prior.add(w.atari_escape, true);
            }
            if t.starts_ladder {
                prior.add(w.ladder_capture, true);
            }
            match t.self_atari {
                Some(1) => prior.add(w.self_atari_one, false),
                Some(_) => prior.add(w.self_atari_many, false),
                None => {}
            }
            if self.patterns.matches(b, p) {
                prior.add(w.pattern, true);
            }
        }
        // The column and row once (a division), for the distance and the edge tests below.
        let xy = b.geometry().xy(p);
        if !self.last.is_none() && chebyshev(b, xy, b.geometry().xy(self.last)) <= 2 {
            prior.add(w.near_last, true);
        }
        // A torus has no edge, so no edge lines.
        if b.size() >= 9 && t.captured == 0 && !T::TORUS {
            // In an empty area the edge lines decide: the first two lines make too little
            // territory and are easily enclosed, the third and fourth are where a game's first
            // stones go. The playouts barely tell them apart in an open position, and RAVE's
            // samples (about one a playout for every point) drown a light prior, so the first two
            // lines get a heavy one.
            match line(b, xy) {
                1 if empty_area(b, p, xy) => prior.add(w.first_line, false),
                2 if empty_area(b, p, xy) => prior.add(w.second_line, false),
                3 if empty_area(b, p, xy) => prior.add(w.third_line, true),
                4 if b.size() >= 13 && empty_area(b, p, xy) => prior.add(w.fourth_line, true),
                _ => {}
            }
        }
        prior
    }

    /// The prior of a pass (or the button, a return, a stake): poor unless the opponent just passed.
    pub fn pass_like(&self, opponent_passed: bool) -> Prior {
        let mut prior = Prior::even(self.weights.even);
        if !opponent_passed {
            prior.add(self.weights.pass, false);
        }
        prior
    }

    /// The learned move model's features of a placement at `p` (legal for `color`).
    pub fn features(&mut self, p: Point) -> MoveFeatures {
        let t = self.tactics(p, true);
        self.features_from(p, &t)
    }

    /// `features` from the point's tactics (`tactics` with `for_model`).
    pub fn features_from(&self, p: Point, t: &Tactics) -> MoveFeatures {
        let (b, c) = (self.board, self.color);
        let mut f = MoveFeatures { pattern: pattern_key(b, c, p), ..MoveFeatures::default() };
        // Enclosed by own stones: no opponent stone around and at most one empty point. The 3x3
        // neighbourhood cannot tell filling an own eye space from connecting inside own shape.
        let opponent = Cell::stone(c.opponent());
        let around = b.around(p).map(|q| b.cell(q));
        f.enclosed = !around.contains(&opponent) && around.iter().filter(|&&x| x == Cell::Empty).count() <= 1;
        if b.is_eye(c, p) {
            f.set(Group::OwnEye, 1);
        }
        let xy = b.geometry().xy(p);
        if !self.last.is_none() {
            f.set(Group::LastDistance, distance_bucket(xy, b.geometry().xy(self.last)));
        }
        if !self.own_last.is_none() {
            f.set(Group::OwnLastDistance, distance_bucket(xy, b.geometry().xy(self.own_last)));
        }
        if !T::TORUS {
            let l = line(b, xy).min(5) as u8;
            f.set(Group::Line, if empty_area(b, p, xy) { l + 5 } else { l });
        }
        if t.open {
            return f;
        }
        if t.captured > 0 {
            let frees_own = self.captures_beside_own_atari(p);
            f.set(
                Group::Capture,
                if frees_own {
                    3
                } else if t.captured == 1 {
                    1
                } else {
                    2
                },
            );
        }
        if t.saved > 0 && t.self_atari.is_none() {
            f.set(
                Group::Escape,
                if t.escape_into_ladder {
                    3
                } else if t.saved == 1 {
                    1
                } else {
                    2
                },
            );
        }
        match t.self_atari {
            Some(1) => f.set(Group::SelfAtari, 1),
            Some(_) => f.set(Group::SelfAtari, 2),
            None => {}
        }
        if t.self_atari.is_none() {
            if t.starts_ladder {
                f.set(Group::Atari, 2);
            } else if self.gives_atari(p) {
                f.set(Group::Atari, 1);
            }
        }
        f
    }

    /// Does a stone at `p` capture an opponent chain that touches an own chain in atari?
    fn captures_beside_own_atari(&self, p: Point) -> bool {
        let (b, c) = (self.board, self.color);
        let (own, enemy) = (Cell::stone(c), Cell::stone(c.opponent()));
        b.neighbours(p).into_iter().any(|q| {
            b.cell(q) == enemy
                && b.in_atari(q)
                && b.chain_stones(q)
                    .any(|s| b.neighbours(s).into_iter().any(|r| b.cell(r) == own && b.in_atari(r)))
        })
    }

    /// Does a stone at `p` leave an opponent chain beside it with a single liberty?
    fn gives_atari(&self, p: Point) -> bool {
        let (b, enemy) = (self.board, Cell::stone(self.color.opponent()));
        b.neighbours(p).into_iter().any(|q| b.cell(q) == enemy && b.liberties_up_to(q, 3) == 2)
    }

    /// Stones of the own chains in atari whose last liberty is `p`.
    fn saved_stones(&self, p: Point) -> u32 {
        let (b, own) = (self.board, Cell::stone(self.color));
        let mut heads = [Point::NONE; 4];
        let mut stones = 0;
        for (i, q) in b.neighbours(p).into_iter().enumerate() {
            if b.cell(q) == own && b.atari_liberty(q) == Some(p) && !heads[..i].contains(&b.chain_head(q)) {
                heads[i] = b.chain_head(q);
                stones += b.chain_len(q) as u32;
            }
        }
        stones
    }

    /// Does `p` put an opponent chain with two liberties in atari such that a ladder captures it?
    /// Reads only when such a chain touches `p` (a walk of its liberties, stopped at three).
    fn starts_working_ladder(&mut self, p: Point) -> bool {
        let (b, c) = (self.board, self.color);
        let enemy = Cell::stone(c.opponent());
        let nbrs = b.neighbours(p);
        for (i, q) in nbrs.into_iter().enumerate() {
            if b.cell(q) != enemy || b.in_atari(q) {
                continue;
            }
            let head = b.chain_head(q);
            if nbrs[..i].iter().any(|&r| b.cell(r) == enemy && b.chain_head(r) == head) {
                continue;
            }
            if b.chain_len(q) as u32 <= self.weights.ladder_max_stones
                && b.liberties_up_to(q, 2) == 2
                && self.ladder.captured_after(b, c, p, q)
            {
                return true;
            }
        }
        false
    }
}

/// No stone beside `p`, and at least two empty neighbours: a stone there captures nothing, saves
/// nothing, starts no ladder and is not in atari, and no 3x3 pattern matches there (each has a
/// stone beside its centre), so `placement` skips those tests (about 1.3% of a light search's
/// instructions on 9x9 and 19x19). Walls count for neither: beside them a point without stones can
/// have a single empty neighbour, and a stone there is in atari.
fn open_point<T: Topology>(b: &Board<T>, p: Point) -> bool {
    b.neighbour_count(p, Cell::Black) + b.neighbour_count(p, Cell::White) == 0
        && b.neighbour_count(p, Cell::Empty) >= 2
}

/// Chebyshev distance between two on-board points, given by column and row (the shorter way round
/// on a torus).
fn chebyshev<T: Topology>(b: &Board<T>, (px, py): (usize, usize), (qx, qy): (usize, usize)) -> usize {
    let (dx, dy) = (px.abs_diff(qx), py.abs_diff(qy));
    if T::TORUS {
        let n = b.size();
        return dx.min(n - dx).max(dy.min(n - dy));
    }
    dx.max(dy)
}

/// The line a point (column and row) is on, counted from the nearest edge (1 = first line).
fn line<T: Topology>(b: &Board<T>, (x, y): (usize, usize)) -> usize {
    let n = b.size();
    x.min(y).min(n - 1 - x).min(n - 1 - y) + 1
}

/// No stone within Manhattan distance 2 of the empty point `p` (column and row `xy`): an open area
/// where edge lines matter. Read from the kept neighbour counts: no stone beside `p`, and none
/// beside its neighbours on the board, as every point of the board at distance 2 lies beside one of
/// them (the board is a rectangle; an inner wall's counts are kept like an empty point's, the
/// border's are not). Reading the twelve points one by one cost about 140 instructions a call,
/// 0.6% of a light 9x9 search iteration's.
fn empty_area<T: Topology>(b: &Board<T>, p: Point, (x, y): (usize, usize)) -> bool {
    let n = b.size();
    let bare = |q: Point| b.neighbour_count(q, Cell::Black) + b.neighbour_count(q, Cell::White) == 0;
    // `Board::neighbours` order: below, left, right, above.
    let on_board = [y > 0, x > 0, x + 1 < n, y + 1 < n];
    bare(p) && b.neighbours(p).into_iter().zip(on_board).all(|(q, on)| !on || bare(q))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, v: &str) -> Point {
        b.geometry().parse_vertex(v).unwrap()
    }

    #[test]
    fn tactics_shape_the_priors() {
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O . . . . . .
            . O X . . . . . .
            . . O . . . . . .",
        );
        let pat = Pat3::new();
        let weights = PriorWeights::default();
        let mut ladder = LadderReader::new();
        let mut ctx = PriorContext {
            board: &b,
            color: Color::White,
            last: at(&b, "C3"),
            patterns: &pat,
            weights: &weights,
            ladder: &mut ladder,
            own_last: Point::NONE,
        };
        // D2 captures C2: better than an empty first-line point far away.
        let capture = ctx.placement(at(&b, "D2"), false);
        let far = ctx.placement(at(&b, "J9"), false);
        assert!(capture.rate() > 0.7, "{capture:?}");
        assert!(far.rate() < 0.5, "{far:?}");
        // For Black, D2 saves the stone in atari; a pass is poor while White has not passed.
        let mut black = PriorContext { color: Color::Black, ..ctx };
        assert!(black.placement(at(&b, "D2"), false).rate() > 0.6);
        assert!(black.pass_like(false).rate() < black.pass_like(true).rate());
        // A decisive move dwarfs everything.
        assert!(black.placement(at(&b, "J9"), true).rate() > 0.95);
    }

    #[test]
    fn ladders_shape_the_priors() {
        // White's E5-E6 cut; Black F5 and E4 both give atari. Diagram rows top first.
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . O . .
            . . . X O X . . .
            . . . X O X . . .
            . . . . . X . . .
            . . . . . . O . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let pat = Pat3::new();
        let weights = PriorWeights::default();
        let mut ladder = LadderReader::new();
        let mut white = PriorContext {
            board: &b,
            color: Color::White,
            last: at(&b, "F5"),
            patterns: &pat,
            weights: &weights,
            ladder: &mut ladder,
            own_last: Point::NONE,
        };
        // E4 extends the chain in atari into a ladder that runs to the lower left: a losing run.
        let run = white.placement(at(&b, "E4"), false);
        assert!(run.rate() < 0.3, "{run:?}");
        // With a white stone on the ladder's path the same extension escapes and keeps its bonus.
        let mut broken = b.clone();
        broken.play(Color::White, at(&b, "C3"));
        let mut white = PriorContext { board: &broken, ..white };
        let escape = white.placement(at(&b, "E4"), false);
        assert!(escape.rate() > 0.6, "{escape:?}");
        // Before F5, Black's atari there starts the ladder; a quiet move far away gets far less.
        let before = Board::from_diagram(
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . O . .
            . . . X O X . . .
            . . . X O . . . .
            . . . . . X . . .
            . . . . . . O . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let mut black = PriorContext { board: &before, color: Color::Black, ..white };
        let ladder_atari = black.placement(at(&b, "F5"), false);
        let quiet = black.placement(at(&b, "B8"), false);
        assert!(ladder_atari.rate() > quiet.rate() + 0.1, "{ladder_atari:?} vs {quiet:?}");
    }

    #[test]
    fn empty_area_sees_every_stone_within_two_and_no_further() {
        // Stones by the edges and in the middle, so that the area is clipped on every side; on the
        // second board, inner walls stand between points and stones two away (a wall is nothing,
        // but what lies behind it counts).
        let boards = [
            "
            X . . . . . . . .
            . . . . . . . . O
            . . . . . . . . .
            . . . . . . . . .
            . . . . X . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . O . . . . . .
            . . . . . . . X .",
            "
            . . . . . . . . .
            . . # X . . . . .
            . . . # . . . . .
            . . . . . . . # O
            . . . . . . . . #
            . . . . . . . . .
            . # # . . . . . .
            . # X . . . . . .
            . . . . . . . . .",
        ];
        for diagram in boards {
            let b = Board::from_diagram(diagram);
            let geo = b.geometry();
            let mut open = 0;
            for p in geo.points().filter(|&p| b.is_empty_point(p)) {
                let (x, y) = geo.xy(p);
                let near = geo.points().any(|q| {
                    let (qx, qy) = geo.xy(q);
                    b.cell(q).color().is_some() && x.abs_diff(qx) + y.abs_diff(qy) <= 2
                });
                assert_eq!(empty_area(&b, p, (x, y)), !near, "{}\n{diagram}", geo.vertex(p));
                open += !near as usize;
            }
            // Both answers occur (the board is neither crowded nor empty).
            assert!(open > 10 && open < 70, "{open} open points");
        }
    }

    #[test]
    fn an_open_point_has_no_tactics_and_no_pattern() {
        // What `placement` skips at an open point finds nothing there, for either colour, on
        // random positions: without walls, and with walls that leave points a single empty
        // neighbour (C7 and H2 below), where a stone without stones beside it is in atari.
        use rand::{Rng, SeedableRng};
        let walled = "
            . . . . . . . . .
            . # # # . . . . .
            . # . # . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . # .
            . . . . . . # . #
            . . . . . . . . .";
        let pat = Pat3::new();
        let weights = PriorWeights::default();
        let mut ladder = LadderReader::new();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(7);
        let (mut open, mut closed) = (0, 0);
        for round in 0..60 {
            let mut b = if round % 2 == 0 { Board::new(9) } else { Board::from_diagram(walled) };
            let mut color = Color::Black;
            for _ in 0..rng.gen_range(5..80) {
                let p = b.empties()[rng.gen_range(0..b.empties().len())];
                if !b.is_suicide(color, p) && !b.is_ko_retake(color, p) {
                    b.play(color, p);
                    color = color.opponent();
                }
            }
            for p in b.geometry().points().filter(|&p| b.is_empty_point(p)) {
                if !open_point(&b, p) {
                    closed += 1;
                    continue;
                }
                open += 1;
                for c in [Color::Black, Color::White] {
                    let mut ctx = PriorContext {
                        board: &b,
                        color: c,
                        last: Point::NONE,
                        patterns: &pat,
                        weights: &weights,
                        ladder: &mut ladder,
                        own_last: Point::NONE,
                    };
                    let at = b.geometry().vertex(p);
                    assert_eq!(b.capture_count(c, p), (0, 0), "{at}\n{b}");
                    assert_eq!(self_atari(&b, c, p), None, "{at}\n{b}");
                    assert_eq!(ctx.saved_stones(p), 0, "{at}\n{b}");
                    assert!(!ctx.starts_working_ladder(p), "{at}\n{b}");
                    assert!(!pat.matches(&b, p), "{at}\n{b}");
                }
            }
        }
        assert!(open > 500 && closed > 500, "{open} open and {closed} other points");
    }
}
