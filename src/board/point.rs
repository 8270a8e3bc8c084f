//! Points of the padded board array and their GTP names.

use std::fmt;

/// Largest board side GTP can address (letters A..Z without I).
pub const MAX_SIZE: usize = 25;
/// Smallest board side we accept.
pub const MIN_SIZE: usize = 2;
/// Cells of the padded array for the largest board: `(N + 2) * (N + 1) + 1`.
pub const MAX_CELLS: usize = (MAX_SIZE + 2) * (MAX_SIZE + 1) + 1;

/// An index into the padded 1-D board array.
///
/// The array has `stride = size + 1` cells per row: one border column is shared by the right edge of one
/// row and the left edge of the next, and one border row lies below and above the board, so every
/// on-board point has four neighbours at `±1` and `±stride` without bounds checks.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Default)]
pub struct Point(pub u16);

impl Point {
    /// Never an on-board point (cell 0 is always border): used as "none".
    pub const NONE: Point = Point(0);

    #[inline]
    pub fn idx(self) -> usize {
        self.0 as usize
    }

    #[inline]
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

/// Converts between points and (column, row) coordinates for one board size; rows count from the bottom.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct Geometry {
    pub size: usize,
    pub stride: usize,
}

/// GTP column letters: A..Z without I.
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Geometry {
    pub fn new(size: usize) -> Geometry {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&size), "board size {size} out of range");
        Geometry { size, stride: size + 1 }
    }

    /// Number of cells in the padded array.
    pub fn cells(&self) -> usize {
        (self.size + 2) * self.stride + 1
    }

    /// The point at column `x`, row `y` (both 0-based, row 0 at the bottom).
    #[inline]
    pub fn point(&self, x: usize, y: usize) -> Point {
        debug_assert!(x < self.size && y < self.size);
        Point(((y + 1) * self.stride + x + 1) as u16)
    }

    /// Column and row of an on-board point.
    #[inline]
    pub fn xy(&self, p: Point) -> (usize, usize) {
        let i = p.idx();
        (i % self.stride - 1, i / self.stride - 1)
    }

    /// Is this cell index an on-board point (as opposed to the border)?
    #[inline]
    pub fn on_board(&self, p: Point) -> bool {
        let i = p.idx();
        let (col, row) = (i % self.stride, i / self.stride);
        col >= 1 && col <= self.size && row >= 1 && row <= self.size
    }

    /// Every on-board point, in GTP order A1, B1, ..., then A2, ...
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.size).flat_map(move |y| (0..self.size).map(move |x| self.point(x, y)))
    }

    /// The GTP name of a point, such as `D4` (upper case, no `I`).
    pub fn vertex(&self, p: Point) -> String {
        let (x, y) = self.xy(p);
        format!("{}{}", COLUMNS[x] as char, y + 1)
    }

    /// Parses a GTP vertex (any case). Does not accept `pass`; returns `None` when off this board.
    pub fn parse_vertex(&self, s: &str) -> Option<Point> {
        let s = s.as_bytes();
        if s.len() < 2 || s.len() > 3 {
            return None;
        }
        let letter = s[0].to_ascii_uppercase();
        let x = COLUMNS.iter().position(|&c| c == letter)?;
        if !s[1..].iter().all(u8::is_ascii_digit) || s[1] == b'0' {
            return None;
        }
        let y: usize = std::str::from_utf8(&s[1..]).ok()?.parse().ok()?;
        if x >= self.size || y == 0 || y > self.size {
            return None;
        }
        Some(self.point(x, y - 1))
    }
}

/// A point printed with its geometry, for messages.
pub struct Vertex<'a>(pub &'a Geometry, pub Point);

impl fmt::Display for Vertex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.vertex(self.1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip_and_skip_i() {
        let g = Geometry::new(19);
        for p in g.points() {
            assert_eq!(g.parse_vertex(&g.vertex(p)), Some(p));
        }
        assert_eq!(g.vertex(g.point(8, 0)), "J1");
        assert_eq!(g.parse_vertex("i5"), None);
        assert_eq!(g.parse_vertex("a0"), None);
        assert_eq!(g.parse_vertex("A20"), None);
        assert_eq!(g.parse_vertex("Z9"), None);
        assert_eq!(g.parse_vertex("a01"), None);
        assert_eq!(g.parse_vertex("t19"), Some(g.point(18, 18)));
    }

    #[test]
    fn border_cells_are_off_board() {
        for size in [2, 9, 25] {
            let g = Geometry::new(size);
            let on: usize = (0..g.cells()).filter(|&i| g.on_board(Point(i as u16))).count();
            assert_eq!(on, size * size);
            assert!(g.cells() <= MAX_CELLS);
        }
    }
}
