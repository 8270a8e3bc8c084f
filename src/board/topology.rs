//! How the board's points are joined: the flat board, whose edges are border cells, and the torus
//! (RULES.md section 5.1), whose edges wrap.
//!
//! The topology is a type parameter of `Board`, so that each compiles its own placement core and
//! queries, as each variant compiles its own playout loop (`Rules::Topology`): the flat board keeps
//! its neighbours as arithmetic on the padded array (`i ± 1`, `i ± stride`, the border cells
//! standing for the edge), unchanged, and pays nothing for the torus; the torus reads its
//! neighbours from a table (`Links`), built once per size. Code that serves every board through one
//! type (GTP, scoring, display: `AnyGame::board`) sees it as `Board<AnyTopology>`, which reads the
//! table too: every board carries one, the flat board's holding the arithmetic's answers.

use super::cell_array::CellArray;
use super::point::{Geometry, Point, MAX_SIZE};
use std::fmt::Debug;
use std::hash::Hash;
use std::sync::OnceLock;

/// Smallest torus (RULES.md 5.1): on 2x2 a point's left and right neighbour would be one point.
pub const MIN_TORUS_SIZE: usize = 3;

/// The neighbours and diagonals of every cell of one board shape, as cell indices in
/// `Board::neighbours` and `Board::diagonals` order (below, left, right, above; below-left,
/// below-right, above-left, above-right). A border cell's entries are cell 0, itself border.
#[derive(Debug)]
pub struct Links {
    torus: bool,
    nbrs: CellArray<[u16; 4]>,
    diags: CellArray<[u16; 4]>,
}

impl Links {
    /// The shared table of a board of side `size`, flat or wrapped, built the first time it is
    /// asked for.
    pub fn of(size: usize, torus: bool) -> &'static Links {
        static TABLES: [[OnceLock<Links>; MAX_SIZE + 1]; 2] =
            [[const { OnceLock::new() }; MAX_SIZE + 1], [const { OnceLock::new() }; MAX_SIZE + 1]];
        TABLES[torus as usize][size].get_or_init(|| Links::build(size, torus))
    }

    fn build(size: usize, torus: bool) -> Links {
        assert!(!torus || size >= MIN_TORUS_SIZE, "a torus of side {size}");
        let geo = Geometry::new(size);
        let mut links = Links { torus, nbrs: CellArray::new([0; 4]), diags: CellArray::new([0; 4]) };
        let n = size as isize;
        // Column and row `(x + dx, y + dy)`, wrapped on a torus; `None` off a flat board.
        let at = |x: usize, y: usize, dx: isize, dy: isize| -> Option<Point> {
            let (qx, qy) = (x as isize + dx, y as isize + dy);
            if torus {
                Some(geo.point(qx.rem_euclid(n) as usize, qy.rem_euclid(n) as usize))
            } else if (0..n).contains(&qx) && (0..n).contains(&qy) {
                Some(geo.point(qx as usize, qy as usize))
            } else {
                None
            }
        };
        for p in geo.points() {
            let (x, y) = geo.xy(p);
            let (i, s) = (p.idx() as isize, geo.stride as isize);
            // Off a flat board, the border cell the padded array has there.
            let cell = |dx: isize, dy: isize| match at(x, y, dx, dy) {
                Some(q) => q.0,
                None => (i + dy * s + dx) as u16,
            };
            links.nbrs[p.idx()] = [cell(0, -1), cell(-1, 0), cell(1, 0), cell(0, 1)];
            links.diags[p.idx()] = [cell(-1, -1), cell(1, -1), cell(-1, 1), cell(1, 1)];
        }
        links
    }

    #[inline(always)]
    fn neighbours(&self, i: usize) -> [usize; 4] {
        self.nbrs[i].map(usize::from)
    }

    #[inline(always)]
    fn diagonals(&self, i: usize) -> [usize; 4] {
        self.diags[i].map(usize::from)
    }

    /// Do the edges wrap?
    #[inline]
    pub fn torus(&self) -> bool {
        self.torus
    }
}

/// A board shape: where the four neighbours and four diagonals of a cell are.
pub trait Topology: Copy + Clone + Default + Debug + PartialEq + Eq + Hash + Send + Sync + 'static {
    /// Is a new board of this type a torus? (`AnyTopology` reads it from the board instead, and
    /// makes flat ones.)
    const TORUS: bool;

    /// The cell indices of cell `i`'s neighbours (below, left, right, above), on a board whose
    /// padded array has rows of `stride` cells and whose table is `links`.
    fn neighbours(i: usize, stride: usize, links: &Links) -> [usize; 4];

    /// `neighbours(i, ..)[k]` for `k` below 4.
    #[inline(always)]
    fn side(i: usize, stride: usize, links: &Links, k: usize) -> usize {
        Self::neighbours(i, stride, links)[k & 3]
    }

    /// The cell indices of cell `i`'s diagonals (below-left, below-right, above-left, above-right).
    fn diagonals(i: usize, stride: usize, links: &Links) -> [usize; 4];

    /// Do the edges wrap?
    fn wraps(links: &Links) -> bool;

    /// `neighbours` as points (what `Board::neighbours` answers).
    #[inline(always)]
    fn neighbour_points(p: Point, stride: u16, links: &Links) -> [Point; 4] {
        Self::neighbours(p.idx(), stride as usize, links).map(|q| Point(q as u16))
    }

    /// `diagonals` as points.
    #[inline(always)]
    fn diagonal_points(p: Point, stride: u16, links: &Links) -> [Point; 4] {
        Self::diagonals(p.idx(), stride as usize, links).map(|q| Point(q as u16))
    }
}

/// The flat board: neighbours by arithmetic on the padded array, the border standing for the edge.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Flat;

/// The torus: neighbours from the table, every point has four.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct Torus;

/// Either shape, read from the board's table: for code that serves every board through one type
/// (`AnyGame::board`), off the hot paths.
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq, Hash)]
pub struct AnyTopology;

impl Topology for Flat {
    const TORUS: bool = false;

    #[inline(always)]
    fn neighbours(i: usize, stride: usize, _: &Links) -> [usize; 4] {
        [i - stride, i - 1, i + 1, i + stride]
    }

    /// Computed rather than read from an array: for the placement's rare paths, so that the
    /// common one need not keep the four cells in memory.
    #[inline(always)]
    fn side(i: usize, stride: usize, _: &Links, k: usize) -> usize {
        let step = if k == 0 || k == 3 { stride } else { 1 };
        if k < 2 {
            i - step
        } else {
            i + step
        }
    }

    #[inline(always)]
    fn diagonals(i: usize, stride: usize, _: &Links) -> [usize; 4] {
        [i - stride - 1, i - stride + 1, i + stride - 1, i + stride + 1]
    }

    #[inline(always)]
    fn wraps(_: &Links) -> bool {
        false
    }

    /// In the points' own 16-bit arithmetic, as the flat board did before it had a type
    /// parameter: through `usize` and back, the tactics that walk neighbours (`self_atari`,
    /// `atari_escapes_near`) kept the truncations, and a heavy 9x9 search ran about 1.7% more
    /// instructions (`examples/search_iters go 9 heavy 5000 mercy=off`).
    #[inline(always)]
    fn neighbour_points(p: Point, stride: u16, _: &Links) -> [Point; 4] {
        let i = p.0;
        [Point(i - stride), Point(i - 1), Point(i + 1), Point(i + stride)]
    }

    #[inline(always)]
    fn diagonal_points(p: Point, stride: u16, _: &Links) -> [Point; 4] {
        let i = p.0;
        [Point(i - stride - 1), Point(i - stride + 1), Point(i + stride - 1), Point(i + stride + 1)]
    }
}

impl Topology for Torus {
    const TORUS: bool = true;

    #[inline(always)]
    fn neighbours(i: usize, _: usize, links: &Links) -> [usize; 4] {
        debug_assert!(links.torus, "a torus board with a flat table");
        links.neighbours(i)
    }

    #[inline(always)]
    fn diagonals(i: usize, _: usize, links: &Links) -> [usize; 4] {
        links.diagonals(i)
    }

    #[inline(always)]
    fn wraps(_: &Links) -> bool {
        true
    }
}

impl Topology for AnyTopology {
    const TORUS: bool = false;

    #[inline(always)]
    fn neighbours(i: usize, _: usize, links: &Links) -> [usize; 4] {
        links.neighbours(i)
    }

    #[inline(always)]
    fn diagonals(i: usize, _: usize, links: &Links) -> [usize; 4] {
        links.diagonals(i)
    }

    #[inline(always)]
    fn wraps(links: &Links) -> bool {
        links.torus
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_table_agrees_with_the_arithmetic() {
        for size in [2, 3, 9, 25] {
            let geo = Geometry::new(size);
            let links = Links::of(size, false);
            for p in geo.points() {
                let i = p.idx();
                assert_eq!(Flat::neighbours(i, geo.stride, links), links.neighbours(i));
                assert_eq!(Flat::diagonals(i, geo.stride, links), links.diagonals(i));
            }
        }
    }

    #[test]
    fn torus_wraps_every_edge_and_corner() {
        let geo = Geometry::new(5);
        let links = Links::of(5, true);
        let names = |cells: [usize; 4]| cells.map(|c| geo.vertex(Point(c as u16)));
        let a1 = geo.parse_vertex("A1").unwrap();
        assert_eq!(names(Torus::neighbours(a1.idx(), 0, links)), ["A5", "E1", "B1", "A2"]);
        assert_eq!(names(Torus::diagonals(a1.idx(), 0, links)), ["E5", "B5", "E2", "B2"]);
        let e5 = geo.parse_vertex("E5").unwrap();
        assert_eq!(names(Torus::neighbours(e5.idx(), 0, links)), ["E4", "D5", "A5", "E1"]);
        // Every point is the neighbour of exactly four points.
        let mut seen = vec![0; geo.cells()];
        for p in geo.points() {
            for q in Torus::neighbours(p.idx(), 0, links) {
                assert!(geo.on_board(Point(q as u16)));
                seen[q] += 1;
            }
        }
        assert!(geo.points().all(|p| seen[p.idx()] == 4));
    }
}
