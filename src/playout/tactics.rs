//! Cheap local tactics shared by the heavy playout policy and the tree's priors: self-atari, atari
//! escapes and captures near a move. All O(1) or a walk of the chains next to one point; no allocation.

use crate::board::{Board, Cell, Color, Point, Topology};

/// A small fixed-capacity list of points (duplicates skipped), so the hot loop never allocates.
#[derive(Clone, Copy, Debug)]
pub struct PointSet<const N: usize> {
    pts: [Point; N],
    len: usize,
}

impl<const N: usize> Default for PointSet<N> {
    fn default() -> Self {
        PointSet { pts: [Point::NONE; N], len: 0 }
    }
}

impl<const N: usize> PointSet<N> {
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Adds `p` unless present or full; returns the new length.
    #[inline]
    pub fn insert(&mut self, p: Point) -> usize {
        if self.len < N && !self.pts[..self.len].contains(&p) {
            self.pts[self.len] = p;
            self.len += 1;
        }
        self.len
    }

    /// Adds `p`, known not to be in the set, unless the set is full.
    #[inline]
    pub fn push_distinct(&mut self, p: Point) {
        debug_assert!(!self.as_slice().contains(&p), "{p:?} is in the set already");
        if self.len < N {
            self.pts[self.len] = p;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn as_slice(&self) -> &[Point] {
        &self.pts[..self.len]
    }

    /// Adds `p`; true when it was not there yet (and there was room).
    #[inline]
    pub fn add(&mut self, p: Point) -> bool {
        let before = self.len;
        self.insert(p) > before
    }

    /// Removes the element at `i` by swapping the last one in.
    #[inline]
    pub fn swap_remove(&mut self, i: usize) -> Point {
        let p = self.pts[i];
        self.len -= 1;
        self.pts[i] = self.pts[self.len];
        p
    }
}

/// If a stone of `color` at empty `p` would leave its group with at most one liberty (counting the
/// liberties its captures open as one each), the number of stones in that group; `None` otherwise.
/// A capture of two or more stones is never called a self-atari.
pub fn self_atari<T: Topology>(board: &Board<T>, color: Color, p: Point) -> Option<u32> {
    // Two empty neighbours: two liberties at once (the common case, O(1)).
    if board.neighbour_count(p, Cell::Empty) >= 2 {
        return None;
    }
    let own = Cell::stone(color);
    let enemy = Cell::stone(color.opponent());
    let mut libs = PointSet::<3>::default();
    let nbrs = board.neighbours(p);
    for q in nbrs {
        match board.cell(q) {
            Cell::Empty => {
                libs.insert(q);
            }
            // A captured neighbour frees its point next to the new stone.
            c if c == enemy && board.in_atari(q) => {
                if board.chain_len(q) >= 2 {
                    return None;
                }
                libs.insert(q);
            }
            _ => {}
        }
    }
    if libs.len() >= 2 {
        return None;
    }
    // Friendly chains merge: their liberties other than `p` join the group's.
    let mut size = 1u32;
    let mut heads = PointSet::<4>::default();
    for q in nbrs {
        if board.cell(q) != own {
            continue;
        }
        if !heads.add(board.chain_head(q)) {
            continue;
        }
        size += board.chain_len(q) as u32;
        for s in board.chain_stones(q) {
            for r in board.neighbours(s) {
                if r != p && board.is_empty_point(r) && libs.insert(r) >= 2 {
                    return None;
                }
            }
        }
    }
    Some(size)
}

/// Would `color` playing at the last liberty `lib` of its chain in atari get out of atari (two or more
/// liberties afterwards)?
#[inline]
pub fn escapes<T: Topology>(board: &Board<T>, color: Color, lib: Point) -> bool {
    self_atari(board, color, lib).is_none()
}

/// Adds to `out` the moves near `last` that capture: the liberty of `last`'s chain if it is in atari,
/// and of enemy chains next to it in atari.
pub fn captures_near<const N: usize, T: Topology>(
    board: &Board<T>,
    color: Color,
    last: Point,
    out: &mut PointSet<N>,
) {
    let enemy = Cell::stone(color.opponent());
    if board.cell(last) == enemy {
        if let Some(l) = board.atari_liberty(last) {
            out.insert(l);
        }
    }
    for q in board.neighbours(last) {
        if board.cell(q) == enemy {
            if let Some(l) = board.atari_liberty(q) {
                out.insert(l);
            }
        }
    }
}

/// Adds to `out` the answers to own chains next to `last` that are in atari: extending at the last
/// liberty when that gains liberties, and capturing an enemy chain in atari that touches ours
/// (the counter-capture that saves it). Chains longer than `walk_limit` are not walked for captures.
pub fn atari_escapes_near<const N: usize, T: Topology>(
    board: &Board<T>,
    color: Color,
    last: Point,
    walk_limit: usize,
    out: &mut PointSet<N>,
) {
    let own = Cell::stone(color);
    let enemy = Cell::stone(color.opponent());
    let mut seen = PointSet::<4>::default();
    for q in board.neighbours(last) {
        if board.cell(q) != own {
            continue;
        }
        let Some(lib) = board.atari_liberty(q) else { continue };
        if !seen.add(board.chain_head(q)) {
            continue;
        }
        if escapes(board, color, lib) {
            out.insert(lib);
        }
        if board.chain_len(q) <= walk_limit {
            for s in board.chain_stones(q) {
                for r in board.neighbours(s) {
                    if board.cell(r) == enemy {
                        if let Some(l) = board.atari_liberty(r) {
                            out.insert(l);
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, v: &str) -> Point {
        b.geometry().parse_vertex(v).unwrap()
    }

    #[test]
    fn self_atari_counts_merged_groups() {
        let b = Board::from_diagram(
            "
            . . . . .
            . . . . .
            O O . . .
            X X O . .
            . . X O .",
        );
        // A1 for Black joins A2-B2, whose only other liberty is B1.
        assert_eq!(self_atari(&b, Color::Black, at(&b, "A1")), Some(3));
        // B1 for Black: libs A1 only, after merging A2-B2 and C1: self-atari of 4 stones.
        assert_eq!(self_atari(&b, Color::Black, at(&b, "B1")), Some(4));
        // Open points are never self-atari.
        assert_eq!(self_atari(&b, Color::Black, at(&b, "D4")), None);
        // White at B1 captures C1: liberties A1 and C1.
        assert_eq!(self_atari(&b, Color::White, at(&b, "B1")), None);
        // White at A1: one liberty (B1), nothing captured.
        assert_eq!(self_atari(&b, Color::White, at(&b, "A1")), Some(1));
    }

    #[test]
    fn escapes_and_captures_near_the_last_move() {
        let b = Board::from_diagram(
            "
            . . . . .
            . . O . .
            . O X O .
            . . . . .
            . . . . .",
        );
        // White's last move D3 put C3 in atari; Black extends at C2, which gains liberties.
        let mut out = PointSet::<8>::default();
        atari_escapes_near(&b, Color::Black, at(&b, "D3"), 16, &mut out);
        assert_eq!(out.as_slice(), &[at(&b, "C2")]);
        // White captures C3 at C2.
        out.clear();
        captures_near(&b, Color::White, at(&b, "C3"), &mut out);
        assert_eq!(out.as_slice(), &[at(&b, "C2")]);
    }
}
