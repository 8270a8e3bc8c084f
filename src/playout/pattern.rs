//! 3x3 patterns around an empty point (MoGo's hand-written playout patterns, Gelly et al. 2006, in the
//! form michi and Pachi's "moggy" use them).
//!
//! The eight neighbours of a point, two bits each (`Cell as u16`: empty, black, white, wall), make a
//! 16-bit key; a 65,536-bit table says whether some pattern matches that neighbourhood. The table is
//! built by expanding every pattern over its wildcards, its eight symmetries and both colour
//! assignments, so a lookup is eight loads and one bit test.

use crate::board::{Board, Cell, Point};

/// The patterns, rows top first, centre always the empty point to play. `X`: a stone of one colour,
/// `O`: the other colour, `.`: empty, `#`: edge or wall, `x`: not `X`, `o`: not `O`, `?`: anything.
/// Each holds for both colours (the player to move may be either `X` or `O`).
const PATTERNS: [&str; 13] = [
    "XOX...???", // hane: enclosing hane
    "XO....?.?", // hane: non-cutting hane
    "XO?X..x.?", // hane: magari
    ".O.X.....", // katatsuke or diagonal attachment
    "XO?O.o?o?", // cut 1 (kiri): unprotected cut
    "XO?O.X???", // cut 1 (kiri): peeped cut
    "?X?O.Oooo", // cut 2 (de)
    "OX?o.O???", // cut keima
    "X.?O.?##?", // edge: chase
    "OX?X.O###", // edge: block the side cut
    "?X?x.O###", // edge: block the side connection
    "?XOx.x###", // edge: sagari
    "?OXX.O###", // edge: cut
];

/// The (dx, dy) of the eight neighbours in key order: top row, middle row without the centre, bottom
/// row (dy = +1 is up, towards higher rows).
const OFFSETS: [(i32, i32); 8] = [(-1, 1), (0, 1), (1, 1), (-1, 0), (1, 0), (-1, -1), (0, -1), (1, -1)];

/// The table of matching neighbourhoods.
#[derive(Clone)]
pub struct Pat3 {
    bits: Box<[u64; 1024]>,
}

impl std::fmt::Debug for Pat3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n: u32 = self.bits.iter().map(|w| w.count_ones()).sum();
        write!(f, "Pat3({n} neighbourhoods)")
    }
}

impl Default for Pat3 {
    fn default() -> Self {
        Pat3::new()
    }
}

/// The cells a pattern character allows, for a given colour of `X`.
fn allowed(ch: u8, x: Cell, o: Cell) -> &'static [Cell] {
    const ALL: [Cell; 4] = [Cell::Empty, Cell::Black, Cell::White, Cell::Wall];
    const NOT_BLACK: [Cell; 3] = [Cell::Empty, Cell::White, Cell::Wall];
    const NOT_WHITE: [Cell; 3] = [Cell::Empty, Cell::Black, Cell::Wall];
    let single = |c: Cell| -> &'static [Cell] {
        match c {
            Cell::Empty => &ALL[0..1],
            Cell::Black => &ALL[1..2],
            Cell::White => &ALL[2..3],
            Cell::Wall => &ALL[3..4],
        }
    };
    let not = |c: Cell| -> &'static [Cell] {
        if c == Cell::Black {
            &NOT_BLACK
        } else {
            &NOT_WHITE
        }
    };
    match ch {
        b'X' => single(x),
        b'O' => single(o),
        b'.' => single(Cell::Empty),
        b'#' | b' ' => single(Cell::Wall),
        b'x' => not(x),
        b'o' => not(o),
        b'?' => &ALL,
        other => panic!("bad pattern character {:?}", other as char),
    }
}

impl Pat3 {
    /// Builds the table from `PATTERNS`.
    pub fn new() -> Pat3 {
        let mut bits = Box::new([0u64; 1024]);
        for pat in PATTERNS {
            let pat = pat.as_bytes();
            for sym in 0..8 {
                // The eight symmetries of the square: optional transpose, then optional flips.
                let mut chars = [b'?'; 8];
                for (i, &(dx, dy)) in OFFSETS.iter().enumerate() {
                    let (mut sx, mut sy) = if sym & 4 != 0 { (dy, dx) } else { (dx, dy) };
                    if sym & 1 != 0 {
                        sx = -sx;
                    }
                    if sym & 2 != 0 {
                        sy = -sy;
                    }
                    // Pattern cell (row r from the top, column k) sits at dx = k - 1, dy = 1 - r.
                    let (k, r) = ((sx + 1) as usize, (1 - sy) as usize);
                    chars[i] = pat[r * 3 + k];
                }
                for (x, o) in [(Cell::Black, Cell::White), (Cell::White, Cell::Black)] {
                    expand(&chars, 0, 0, x, o, &mut bits);
                }
            }
        }
        Pat3 { bits }
    }

    /// The neighbourhood key of `p`: two bits per neighbour in `OFFSETS` order.
    #[inline]
    pub fn key(board: &Board, p: Point) -> u16 {
        let s = board.geometry().stride as i32;
        let mut key = 0u16;
        for (i, &(dx, dy)) in OFFSETS.iter().enumerate() {
            let q = Point((p.0 as i32 + dy * s + dx) as u16);
            key |= (board.cell(q) as u16) << (2 * i);
        }
        key
    }

    /// Does some pattern match around the empty point `p`?
    #[inline]
    pub fn matches(&self, board: &Board, p: Point) -> bool {
        let k = Pat3::key(board, p) as usize;
        self.bits[k >> 6] & (1 << (k & 63)) != 0
    }
}

/// Sets the bit of every key the pattern `chars` (already in key order) allows.
fn expand(chars: &[u8; 8], i: usize, key: u16, x: Cell, o: Cell, bits: &mut [u64; 1024]) {
    if i == 8 {
        bits[(key >> 6) as usize] |= 1 << (key & 63);
        return;
    }
    for &c in allowed(chars[i], x, o) {
        expand(chars, i + 1, key | ((c as u16) << (2 * i)), x, o, bits);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches_at(diagram: &str, vertex: &str) -> bool {
        let b = Board::from_diagram(diagram);
        let p = b.geometry().parse_vertex(vertex).unwrap();
        Pat3::new().matches(&b, p)
    }

    #[test]
    fn hane_and_cut_match_in_every_orientation_and_colour() {
        // Enclosing hane: X O X on top, empty below: C3 under the D4..? shape.
        let hane = "
            . . . . .
            . X O X .
            . . . . .
            . . . . .
            . . . . .";
        assert!(matches_at(hane, "C3"));
        let rotated = "
            . . . . .
            . . X . .
            . . O . .
            . . X . .
            . . . . .";
        assert!(matches_at(rotated, "B3") && matches_at(rotated, "D3"));
        let swapped = "
            . . . . .
            . O X O .
            . . . . .
            . . . . .
            . . . . .";
        assert!(matches_at(swapped, "C3"));
        // Peeped cut: X O / O . X
        let cut = "
            . . . . .
            . X O . .
            . O . X .
            . . . . .
            . . . . .";
        assert!(matches_at(cut, "C3"));
        // An empty neighbourhood matches nothing.
        assert!(!matches_at(cut, "E1"));
    }

    #[test]
    fn edge_patterns_need_the_edge() {
        // Side block cut: O X ? / X . O / ### with the edge below.
        let edge = "
            . . . . .
            . . . . .
            . . . . .
            . O X . .
            . X . O .";
        assert!(matches_at(edge, "C1"));
    }
}
