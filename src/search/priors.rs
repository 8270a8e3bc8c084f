//! Prior knowledge for a new child: the playout policy's tactics turned into equivalent experience
//! (captures, atari escapes, 3x3 patterns, self-atari, own eyes, distance to the last move, edges).
//! A child starts with these imagined visits and wins, so the first real visits go to the moves the
//! knowledge likes, and real results outweigh it as they accumulate.

use super::config::PriorWeights;
use crate::board::{Board, Cell, Color, Point};
use crate::playout::{self_atari, Pat3};

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

/// What the priors of one expansion share.
pub struct PriorContext<'a> {
    pub board: &'a Board,
    pub color: Color,
    /// The opponent's last placement (`Point::NONE` after a pass-like move or at the start).
    pub last: Point,
    pub patterns: &'a Pat3,
    pub weights: &'a PriorWeights,
}

impl PriorContext<'_> {
    /// The prior of a placement at `p` (legal for `color`). `decisive`: the move wins at once.
    pub fn placement(&self, p: Point, decisive: bool) -> Prior {
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
        let (captured, _) = b.capture_count(c, p);
        match captured {
            0 => {}
            1 => prior.add(w.capture_one, true),
            _ => prior.add(w.capture_many, true),
        }
        if self.saves_own_chain(p) {
            prior.add(w.atari_escape, true);
        }
        match self_atari(b, c, p) {
            Some(1) => prior.add(w.self_atari_one, false),
            Some(_) => prior.add(w.self_atari_many, false),
            None => {}
        }
        if self.patterns.matches(b, p) {
            prior.add(w.pattern, true);
        }
        if !self.last.is_none() && chebyshev(b, p, self.last) <= 2 {
            prior.add(w.near_last, true);
        }
        if b.size() >= 9 && captured == 0 {
            match line(b, p) {
                1 if empty_area(b, p) => prior.add(w.first_line, false),
                3 if empty_area(b, p) => prior.add(w.third_line, true),
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

    /// Is `p` the last liberty of an own chain in atari, and does playing there gain liberties?
    fn saves_own_chain(&self, p: Point) -> bool {
        let (b, c) = (self.board, self.color);
        let own = Cell::stone(c);
        b.neighbours(p).into_iter().any(|q| b.cell(q) == own && b.atari_liberty(q) == Some(p))
            && self_atari(b, c, p).is_none()
    }
}

/// Chebyshev distance between two on-board points.
fn chebyshev(b: &Board, p: Point, q: Point) -> usize {
    let ((px, py), (qx, qy)) = (b.geometry().xy(p), b.geometry().xy(q));
    px.abs_diff(qx).max(py.abs_diff(qy))
}

/// The line a point is on, counted from the nearest edge (1 = first line).
fn line(b: &Board, p: Point) -> usize {
    let (x, y) = b.geometry().xy(p);
    let n = b.size();
    x.min(y).min(n - 1 - x).min(n - 1 - y) + 1
}

/// No stone within Manhattan distance 2 of `p`: an open area where edge lines matter.
fn empty_area(b: &Board, p: Point) -> bool {
    let geo = b.geometry();
    let (x, y) = geo.xy(p);
    let n = b.size() as isize;
    for dy in -2isize..=2 {
        for dx in -2isize..=2 {
            if dx.abs() + dy.abs() > 2 {
                continue;
            }
            let (qx, qy) = (x as isize + dx, y as isize + dy);
            if qx < 0 || qy < 0 || qx >= n || qy >= n {
                continue;
            }
            if b.cell(geo.point(qx as usize, qy as usize)).color().is_some() {
                return false;
            }
        }
    }
    true
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
        let ctx = PriorContext {
            board: &b,
            color: Color::White,
            last: at(&b, "C3"),
            patterns: &pat,
            weights: &weights,
        };
        // D2 captures C2: better than an empty first-line point far away.
        let capture = ctx.placement(at(&b, "D2"), false);
        let far = ctx.placement(at(&b, "J9"), false);
        assert!(capture.rate() > 0.7, "{capture:?}");
        assert!(far.rate() < 0.5, "{far:?}");
        // For Black, D2 saves the stone in atari; a pass is poor while White has not passed.
        let black = PriorContext { color: Color::Black, ..ctx };
        assert!(black.placement(at(&b, "D2"), false).rate() > 0.6);
        assert!(black.pass_like(false).rate() < black.pass_like(true).rate());
        // A decisive move dwarfs everything.
        assert!(black.placement(at(&b, "J9"), true).rate() > 0.95);
    }
}
