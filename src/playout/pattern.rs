//! 3x3 patterns around an empty point (MoGo's hand-written playout patterns, Gelly et al. 2006, in the
//! form michi and Pachi's "moggy" use them).
//!
//! The eight neighbours of a point, two bits each (`Cell as u16`: empty, black, white, wall), make a
//! 16-bit key; a 65,536-bit table says whether some pattern matches that neighbourhood. The table is
//! built at compile time by expanding every pattern over its wildcards, its eight symmetries and both
//! colour assignments, so a lookup is eight loads and one bit test.

use crate::board::{Board, Cell, Point, Topology};

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

/// Which neighbourhoods some pattern matches: bit `key` of the 65,536 (1,024 words), built at
/// compile time (`build`), so that no search or playout builds it: built at run time, it cost each
/// search's every worker about 4.1M instructions (about half a millisecond here), most of a short
/// search's fixed cost.
static TABLE: [u64; 1024] = build();

/// The pattern table: a copy of `TABLE` (8 KB) per playout runner, which costs a microsecond or
/// two. Not a reference to the static or a handle without data, although either is free to make:
/// with them LLVM compiled the inlined playout loop differently, +0.5% instructions a light and
/// +0.8% a heavy 9x9 iteration (`search_iters`, the same searches).
#[derive(Clone)]
pub struct Pat3 {
    bits: Box<[u64; 1024]>,
}

impl Default for Pat3 {
    fn default() -> Self {
        Pat3::new()
    }
}

impl std::fmt::Debug for Pat3 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n: u32 = self.bits.iter().map(|w| w.count_ones()).sum();
        write!(f, "Pat3({n} neighbourhoods)")
    }
}

/// The cells a pattern character allows, for a given colour of `X`, as a set of `Cell as u8` bits.
const fn allowed(ch: u8, x: Cell, o: Cell) -> u8 {
    const ALL: u8 = 0b1111;
    let (x, o) = (1 << x as u8, 1 << o as u8);
    match ch {
        b'X' => x,
        b'O' => o,
        b'.' => 1 << Cell::Empty as u8,
        b'#' | b' ' => 1 << Cell::Wall as u8,
        b'x' => ALL & !x,
        b'o' => ALL & !o,
        b'?' => ALL,
        _ => panic!("bad pattern character"),
    }
}

/// Where the offset `(dx, dy)` goes under symmetry `sym` (0..8) of the square: a transpose when
/// bit 2 is set, then a flip of x for bit 0 and of y for bit 1.
pub const fn symmetry((dx, dy): (i32, i32), sym: usize) -> (i32, i32) {
    let (mut x, mut y) = if sym & 4 != 0 { (dy, dx) } else { (dx, dy) };
    if sym & 1 != 0 {
        x = -x;
    }
    if sym & 2 != 0 {
        y = -y;
    }
    (x, y)
}

/// The table: every pattern expanded over its wildcards, its eight symmetries and both colour
/// assignments.
const fn build() -> [u64; 1024] {
    let mut bits = [0u64; 1024];
    let mut n = 0;
    while n < PATTERNS.len() {
        let pat = PATTERNS[n].as_bytes();
        let mut sym = 0;
        while sym < 8 {
            // The eight symmetries of the square: optional transpose, then optional flips.
            let mut chars = [b'?'; 8];
            let mut i = 0;
            while i < 8 {
                let (sx, sy) = symmetry(OFFSETS[i], sym);
                // Pattern cell (row r from the top, column k) sits at dx = k - 1, dy = 1 - r.
                let (k, r) = ((sx + 1) as usize, (1 - sy) as usize);
                chars[i] = pat[r * 3 + k];
                i += 1;
            }
            expand(&chars, 0, 0, Cell::Black, Cell::White, &mut bits);
            expand(&chars, 0, 0, Cell::White, Cell::Black, &mut bits);
            sym += 1;
        }
        n += 1;
    }
    bits
}

/// Sets the bit of every key the pattern `chars` (already in key order) allows, from neighbour `i`
/// on, the neighbours before it fixed in `key`.
const fn expand(chars: &[u8; 8], i: usize, key: u16, x: Cell, o: Cell, bits: &mut [u64; 1024]) {
    if i == 8 {
        bits[(key >> 6) as usize] |= 1 << (key & 63);
        return;
    }
    let cells = allowed(chars[i], x, o);
    let mut c = 0;
    while c < 4 {
        if cells & (1 << c) != 0 {
            expand(chars, i + 1, key | (c << (2 * i)), x, o, bits);
        }
        c += 1;
    }
}

impl Pat3 {
    /// The table, copied from `TABLE`.
    pub fn new() -> Pat3 {
        Pat3 { bits: Box::new(TABLE) }
    }

    /// The neighbourhood key of `p`: two bits per neighbour in `OFFSETS` order.
    #[inline]
    pub fn key<T: Topology>(board: &Board<T>, p: Point) -> u16 {
        if T::TORUS {
            // The same neighbours, wrapped: `Board::around` lists them bottom row first.
            let around = board.around(p);
            let mut key = 0u16;
            for (i, k) in [5, 6, 7, 3, 4, 0, 1, 2].into_iter().enumerate() {
                key |= (board.cell(around[k]) as u16) << (2 * i);
            }
            return key;
        }
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
    pub fn matches<T: Topology>(&self, board: &Board<T>, p: Point) -> bool {
        let k = Pat3::key(board, p) as usize;
        self.bits[k >> 6] & (1 << (k & 63)) != 0
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

    /// Every pattern has a stone beside its centre, so no neighbourhood without one matches: what
    /// lets the priors skip the lookup at such a point (`open_point` in `search::priors`).
    #[test]
    fn no_pattern_matches_without_a_stone_beside_the_point() {
        let beside: Vec<usize> = (0..8).filter(|&i| OFFSETS[i].0 == 0 || OFFSETS[i].1 == 0).collect();
        assert_eq!(beside.len(), 4);
        let mut checked = 0;
        for key in 0..=u16::MAX {
            let cell = |i: usize| (key >> (2 * i)) as u8 & 3;
            if beside.iter().any(|&i| cell(i) == Cell::Black as u8 || cell(i) == Cell::White as u8) {
                continue;
            }
            assert_eq!(TABLE[(key >> 6) as usize] & (1 << (key & 63)), 0, "key {key:#06x}");
            checked += 1;
        }
        // Beside: empty or wall (2^4); diagonals: anything (4^4).
        assert_eq!(checked, 16 * 256);
    }

    /// The table against the patterns' definition, key by key: a neighbourhood matches when some
    /// pattern, turned or mirrored (the grid itself rotated here, not `build`'s symmetry bits), with
    /// either colour as `X`, allows every one of its eight cells.
    #[test]
    fn the_table_holds_exactly_the_neighbourhoods_some_pattern_matches() {
        type Grid = [[u8; 3]; 3];
        let rotate = |g: Grid| -> Grid { std::array::from_fn(|r| std::array::from_fn(|k| g[2 - k][r])) };
        let mirror = |g: Grid| -> Grid { std::array::from_fn(|r| std::array::from_fn(|k| g[r][2 - k])) };
        let mut grids = Vec::new();
        for pat in PATTERNS {
            let b = pat.as_bytes();
            let mut g: Grid = std::array::from_fn(|r| std::array::from_fn(|k| b[3 * r + k]));
            for _ in 0..4 {
                grids.push(g);
                grids.push(mirror(g));
                g = rotate(g);
            }
        }
        let allows = |ch: u8, c: u8, x: u8, o: u8| match ch {
            b'X' => c == x,
            b'O' => c == o,
            b'.' => c == Cell::Empty as u8,
            b'#' => c == Cell::Wall as u8,
            b'x' => c != x,
            b'o' => c != o,
            b'?' => true,
            _ => panic!("bad pattern character"),
        };
        let (black, white) = (Cell::Black as u8, Cell::White as u8);
        let mut matching = 0;
        for key in 0..=u16::MAX {
            let cell = |i: usize| (key >> (2 * i)) as u8 & 3;
            let fits = |g: &Grid, x: u8, o: u8| {
                OFFSETS.iter().enumerate().all(|(i, &(dx, dy))| {
                    // Row from the top (dy = +1 is up), column from the left.
                    allows(g[(1 - dy) as usize][(dx + 1) as usize], cell(i), x, o)
                })
            };
            let expected = grids.iter().any(|g| fits(g, black, white) || fits(g, white, black));
            let in_table = TABLE[(key >> 6) as usize] & (1 << (key & 63)) != 0;
            assert_eq!(in_table, expected, "key {key:#06x}");
            matching += expected as u32;
        }
        // Not a vacuous agreement: some neighbourhoods match and most do not.
        assert!(matching > 1000 && matching < 30_000, "{matching} matching neighbourhoods");
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
