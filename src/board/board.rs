//! The board: stones, chains, liberties, captures and the Zobrist hash. Physics only, no rule policy:
//! `play` assumes the point is empty and does whatever the stones do (captures first, then a possible
//! self-capture); the rules decide beforehand whether the move was allowed.

use super::cell_array::{CellArray, SINK, SLOTS};
use super::color::Color;
use super::point::{Geometry, Point, MAX_CELLS, MAX_SIZE};
use super::topology::{AnyTopology, Flat, Links, Topology, Torus, MIN_TORUS_SIZE};
use super::zobrist::KEYS;
use std::fmt;
use std::marker::PhantomData;

/// What occupies a cell of the padded array. Border cells and walls are both `Wall`: a wall is just a
/// border cell inside the board (RULES.md section 6).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Hash)]
#[repr(u8)]
pub enum Cell {
    Empty = 0,
    Black = 1,
    White = 2,
    Wall = 3,
}

impl Cell {
    #[inline]
    pub fn stone(c: Color) -> Cell {
        match c {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }

    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }
}

/// Statistics of a chain, kept at its head stone.
///
/// Liberties are *pseudo-liberties*: one per (stone, empty neighbour) pair, so they can be updated with
/// additions only. Keeping their count, sum and sum of squares tells in O(1) whether all of them are the
/// same point (`count * sumsq == sum * sum`): that is atari, and `sum / count` is the last liberty.
///
/// The three sums share one word (`libs`, see `lib_word`), so adding or removing a pseudo-liberty,
/// or joining two chains, is one 64-bit addition instead of three.
#[derive(Copy, Clone, Default, PartialEq, Eq)]
struct Chain {
    libs: u64,
    stones: u16,
    /// Stones variant: stakes attached to this group; they merge and are captured with it.
    stakes: u16,
}

/// Where the packed sums of `Chain::libs` sit: the count from bit 53, the sum from bit 32, the sum
/// of squares below. A chain of `n` stones has at most `2n + 2` pseudo-liberties (each of the
/// `n - 1` joints of a spanning tree hides two sides), so on the largest board at most 1,252, each
/// a cell below 703: the count fits 11 bits, the sum (under 879k) 21, the sum of squares (under
/// 618M) 32. No field carries into the next, for any real chain.
const COUNT_SHIFT: u32 = 53;
const SUM_SHIFT: u32 = 32;
const _: () = {
    let (libs, cell) = (2 * (MAX_SIZE * MAX_SIZE) as u64 + 2, MAX_CELLS as u64);
    assert!(libs < 1 << (64 - COUNT_SHIFT));
    assert!(libs * cell < 1 << (COUNT_SHIFT - SUM_SHIFT));
    assert!(libs * cell * cell < 1 << SUM_SHIFT);
};

// Room for a row and a cell past the largest board's cells, so that every neighbour of a point
// below `MAX_CELLS` (and a row inside the border) is a slot of the per-cell arrays: what lets the
// placement core index without the mask (`Slots::cell`).
const _: () = assert!(MAX_CELLS + MAX_SIZE + 2 <= SLOTS);

/// Distinct liberties the stack buffer of `liberties_up_to` and `liberties_after_up_to` holds.
const DISTINCT_BUFFER: usize = 8;

/// One pseudo-liberty at cell `p`, as `Chain::libs` counts it: one, `p` and `p²` in their fields.
#[inline(always)]
fn lib_word(p: usize) -> u64 {
    1 << COUNT_SHIFT | (p as u64) << SUM_SHIFT | (p * p) as u64
}

impl Chain {
    /// The number of pseudo-liberties.
    #[inline(always)]
    fn plibs(&self) -> u32 {
        (self.libs >> COUNT_SHIFT) as u32
    }

    #[inline(always)]
    fn lib_sum(&self) -> u32 {
        (self.libs >> SUM_SHIFT) as u32 & ((1 << (COUNT_SHIFT - SUM_SHIFT)) - 1)
    }

    #[inline(always)]
    fn lib_sumsq(&self) -> u32 {
        self.libs as u32
    }

    /// No pseudo-liberty left: the whole word is zero (every sum is), one test without unpacking.
    #[inline(always)]
    fn has_no_liberty(&self) -> bool {
        self.libs == 0
    }

    /// The statistics of the chain this one and `other` make together.
    #[inline(always)]
    fn joined(self, other: Chain) -> Chain {
        Chain {
            libs: self.libs.wrapping_add(other.libs),
            stones: self.stones + other.stones,
            stakes: self.stakes + other.stakes,
        }
    }

    /// `in_atari` for a chain known to have `p` among its liberties (`p` is an empty neighbour): it
    /// is in atari when every pseudo-liberty is `p`, i.e. its sums are `plibs` times `p`'s
    /// (the squares rule out liberties balanced around `p`). With the sums packed, that is the word
    /// against `plibs` times `p`'s word: one product and one comparison, no zero test. The suicide
    /// test asks it of every stone beside each surrounded point the playouts probe.
    #[inline(always)]
    fn in_atari_at(&self, p: usize) -> bool {
        self.libs == (self.libs >> COUNT_SHIFT).wrapping_mul(lib_word(p))
    }

    #[inline]
    fn in_atari(&self) -> bool {
        let (n, sum) = (self.plibs() as u64, self.lib_sum() as u64);
        n > 0 && n * self.lib_sumsq() as u64 == sum * sum
    }
}

impl fmt::Debug for Chain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Chain")
            .field("stones", &self.stones)
            .field("plibs", &self.plibs())
            .field("lib_sum", &self.lib_sum())
            .field("lib_sumsq", &self.lib_sumsq())
            .field("stakes", &self.stakes)
            .finish()
    }
}

/// A chain's stone and stake counts, kept apart from its pseudo-liberty word (`Slots::libs`).
#[derive(Copy, Clone, Default, PartialEq, Eq, Debug)]
struct ChainSize {
    stones: u16,
    stakes: u16,
}

/// What a placement did, for the rules to judge (prisoners, decisive moves, capture restrictions).
/// Counts in 16 bits (a board holds at most 625 stones, and a chain's stakes are 16-bit too): the
/// whole record is 10 bytes (-0.75% instructions per light 9x9 iteration against 32-bit counts,
/// when it came back in registers; with rustc 1.95 it comes back through memory, and returning it
/// in registers by the C calling convention ran more instructions: docs/performance.md, 2026-12-06).
#[derive(Copy, Clone, Default, Debug, PartialEq, Eq)]
pub struct Placement {
    /// Opponent stones removed by the placement.
    pub captured: u16,
    /// Stakes attached to the captured groups (Stones).
    pub captured_stakes: u16,
    /// The mover's own stones removed by self-capture (they become the opponent's prisoners).
    pub suicided: u16,
    pub suicided_stakes: u16,
    /// The point of the single stone captured, when exactly one was.
    pub single_capture: Point,
}

// What `is_suicide_surrounded` reads from a cell beside a surrounded point, against the mover's
// colour: a friend's cell gives 0, an enemy's 3, a wall's 1 or 2.
const _: () = {
    let (b, w, wall) = (Cell::Black as u8, Cell::White as u8, Cell::Wall as u8);
    // (A colour against itself gives 0 by xor; these are the other pairs.)
    assert!(b ^ w == 3 && wall ^ b != 0 && wall ^ b != 3 && wall ^ w != 0 && wall ^ w != 3);
};

/// `eye_diagonals`' verdicts, indexed by four diagonal cells (two bits each, `Cell as usize`): bit
/// `color.index()` is set when the diagonals hold at most one enemy stone, or none when one of them
/// is a wall or the border (the point is on the edge).
const EYE_DIAGONALS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut key = 0;
    while key < 256 {
        let mut verdicts = 0;
        let mut color = 0;
        while color < 2 {
            // Black is colour index 0 (its enemy is the White cell, 2), White index 1 (enemy Black, 1).
            let enemy = if color == 0 { Cell::White as usize } else { Cell::Black as usize };
            let (mut bad, mut edge) = (0, 0);
            let mut d = 0;
            while d < 4 {
                let cell = (key >> (2 * d)) & 3;
                if cell == enemy {
                    bad += 1;
                } else if cell == Cell::Wall as usize {
                    edge = 1;
                }
                d += 1;
            }
            if bad + edge < 2 {
                verdicts |= 1 << color;
            }
            color += 1;
        }
        table[key] = verdicts;
        key += 1;
    }
    table
};

/// Everything a placement changes, in one box: the per-cell arrays (held inline, `CellArray`), the
/// free-point list and the hash. The placement core (`Slots::play`) reaches all of it from the one
/// pointer it is given, which no store can move: with an array per box it kept six base pointers in
/// registers, and loading them cost a dozen instructions per placement (-5% instructions per light
/// playout iteration, -6.5% bare).
#[derive(Clone, Debug)]
struct Slots {
    /// The padded array's row length: a copy of the board's `Geometry::stride`, so that the core
    /// needs nothing outside the box. The board keeps its `Geometry` outside, where the queries
    /// read it without going through the box (the geometry moved in here cost 1% more
    /// instructions per light iteration).
    stride: usize,
    /// The board shape's neighbour table: read by the torus (`Topology`), never by the flat board.
    links: &'static Links,
    cells: CellArray<Cell>,
    /// Per point: how many neighbours are Empty, Black, White, Wall (indexed by `Cell as usize`).
    nbrs: CellArray<[u8; 4]>,
    /// Per point: the pseudo-liberty words (`lib_word`) of its empty neighbours, summed: the
    /// liberties a stone placed there starts with, read in one load. (Wrapping sums; a border
    /// cell's value means nothing.)
    elibs: CellArray<u64>,
    /// Chain head of each stone, and `SINK` at every other cell (see `chain_or_sink`).
    head: CellArray<u16>,
    /// Next stone of the same chain: each chain is a ring.
    next: CellArray<u16>,
    /// Chain statistics, valid at head points only, in two arrays: the pseudo-liberty words
    /// (`Chain::libs`), eight bytes a slot, which a placement updates at every side and an
    /// address scales to without a shift (`Chain`'s sixteen bytes took two instructions more a
    /// side), and the stone and stake counts.
    libs: CellArray<u64>,
    sizes: CellArray<ChainSize>,
    /// The empty points, for O(1) random choice (the first `empty_count` entries), and each empty
    /// point's index in that list. The first `set_aside` of them are eye-shaped points that a
    /// playout found and moved there (`set_aside_if_eye_shaped`); the rest are all the others,
    /// eye-shaped ones not found yet included.
    empties: CellArray<Point>,
    empty_count: usize,
    empty_at: CellArray<u16>,
    set_aside: usize,
    hash: u64,
}

/// The physical board. Cloning allocates and copies about 37 KB (every slot of the per-cell arrays);
/// use `clone_from` into a scratch board, which copies only the board's own cells and allocates
/// nothing (the playout loop does this).
///
/// The board's shape is its type parameter (`Topology`): `Flat`, the default, or `Torus`
/// (RULES.md 5.1). Why a type and not a flag: a flat board finds its neighbours by arithmetic on
/// the padded array (`i ± 1`, `i ± stride`), the border cells standing for the edges, and a torus
/// has no border to stand for anything, so its neighbours come from a table. A run-time flag would
/// put a test (or the table's loads) into every neighbour loop of the flat placement core and
/// playouts, which count their instructions by the percent (see the speed log); a type parameter,
/// carried by the rules (`Rules::Topology`) as the variant is, compiles each shape's own core and
/// playout loop, so the flat code is exactly what it was and the torus pays only its table's
/// loads. Every board still carries its shape's table (`Links`), so that the code serving every
/// board through one type (GTP, scoring, display) can read any board as `Board<AnyTopology>`
/// (`as_any`): the fields do not depend on the parameter, and `repr(C)` makes the layouts equal.
#[derive(Debug)]
#[repr(C)]
pub struct Board<T: Topology = Flat> {
    geo: Geometry,
    s: Box<Slots>,
    /// Set by `let_hash_go_stale`: `hash` is no longer kept (a playout's scratch board).
    hash_stale: bool,
    /// The point the given colour may not play because it would retake a single-stone ko at once.
    ko: Option<(Point, Color)>,
    walls: Vec<Point>,
    topology: PhantomData<T>,
}

impl<T: Topology> Clone for Board<T> {
    fn clone(&self) -> Self {
        Board {
            geo: self.geo,
            s: self.s.clone(),
            hash_stale: self.hash_stale,
            ko: self.ko,
            walls: self.walls.clone(),
            topology: PhantomData,
        }
    }

    /// Copies without allocating when `self` already has the capacity (same or larger board).
    fn clone_from(&mut self, src: &Self) {
        self.geo = src.geo;
        let n = src.geo.cells();
        self.s.cells.copy_prefix(&src.s.cells, n);
        self.s.nbrs.copy_prefix(&src.s.nbrs, n);
        self.s.elibs.copy_prefix(&src.s.elibs, n);
        self.s.head.copy_prefix(&src.s.head, n);
        self.s.next.copy_prefix(&src.s.next, n);
        self.s.libs.copy_prefix(&src.s.libs, n);
        self.s.sizes.copy_prefix(&src.s.sizes, n);
        self.s.empties.copy_prefix(&src.s.empties, src.s.empty_count);
        self.s.empty_at.copy_prefix(&src.s.empty_at, n);
        self.s.stride = src.s.stride;
        self.s.links = src.s.links;
        self.s.empty_count = src.s.empty_count;
        self.s.set_aside = src.s.set_aside;
        self.s.hash = src.s.hash;
        self.hash_stale = src.hash_stale;
        self.ko = src.ko;
        self.walls.clone_from(&src.walls);
    }
}

impl<T: Topology> PartialEq for Board<T> {
    /// Two boards are equal when they hold the same stones and walls (the board position).
    fn eq(&self, other: &Self) -> bool {
        self.geo == other.geo && self.cells() == other.cells()
    }
}

impl Board<Flat> {
    /// An empty flat board of side `size` (2..=25).
    pub fn new(size: usize) -> Board {
        Board::with_walls(size, &[])
    }

    /// An empty flat board whose `walls` points are blocked for good.
    pub fn with_walls(size: usize, walls: &[Point]) -> Board {
        Board::shaped(size, walls)
    }

    /// A flat board from a diagram (`from_diagram_shaped`).
    pub fn from_diagram(diagram: &str) -> Board {
        Board::from_diagram_shaped(diagram)
    }
}

impl Board<Torus> {
    /// An empty torus of side `size` (3..=25).
    pub fn torus(size: usize) -> Board<Torus> {
        Board::shaped(size, &[])
    }
}

impl<T: Topology> Board<T> {
    /// An empty board of this shape whose `walls` points are blocked for good. A torus is at least
    /// 3x3 (`MIN_TORUS_SIZE`).
    pub fn shaped(size: usize, walls: &[Point]) -> Board<T> {
        let geo = Geometry::new(size);
        let n = geo.cells();
        assert!(!T::TORUS || size >= MIN_TORUS_SIZE, "a torus of side {size}");
        let links = Links::of(size, T::TORUS);
        let mut b = Board {
            geo,
            s: Box::new(Slots {
                stride: geo.stride,
                links,
                cells: CellArray::new(Cell::Wall),
                nbrs: CellArray::new([0; 4]),
                elibs: CellArray::new(0),
                head: CellArray::new(SINK as u16),
                next: CellArray::new(0),
                libs: CellArray::new(0),
                sizes: CellArray::new(ChainSize::default()),
                empties: CellArray::new(Point::NONE),
                empty_count: 0,
                empty_at: CellArray::new(0),
                set_aside: 0,
                hash: 0,
            }),
            hash_stale: false,
            ko: None,
            walls: Vec::new(),
            topology: PhantomData,
        };
        for p in geo.points() {
            b.s.cells[p.idx()] = Cell::Empty;
        }
        for &w in walls {
            if geo.on_board(w) && !b.walls.contains(&w) {
                b.s.cells[w.idx()] = Cell::Wall;
                b.walls.push(w);
            }
        }
        b.walls.sort();
        for p in geo.points() {
            if b.s.cells[p.idx()] == Cell::Empty {
                b.s.add_empty(p);
            }
        }
        for i in 0..n {
            // Border cells get counts too, never read, so that placing next to them needs no branch:
            // four "empty" neighbours absorb the decrements of up to four adjacent stones.
            b.s.nbrs[i] = [4, 0, 0, 0];
            if geo.on_board(Point(i as u16)) {
                let mut counts = [0u8; 4];
                let mut elibs = 0u64;
                for q in b.neighbours(Point(i as u16)) {
                    counts[b.s.cells[q.idx()] as usize] += 1;
                    if b.s.cells[q.idx()] == Cell::Empty {
                        elibs += lib_word(q.idx());
                    }
                }
                b.s.nbrs[i] = counts;
                b.s.elibs[i] = elibs;
            }
        }
        b
    }

    #[inline]
    pub fn size(&self) -> usize {
        self.geo.size
    }

    /// Do this board's edges wrap (a torus)?
    #[inline]
    pub fn is_torus(&self) -> bool {
        T::wraps(self.s.links)
    }

    /// This board as one of either shape, for the code that serves every board through one type.
    #[inline]
    pub fn as_any(&self) -> &Board<AnyTopology> {
        // SAFETY: `Board` is `repr(C)` and its fields do not depend on `T` (the `PhantomData` is
        // zero-sized with alignment 1 whatever `T` is), so `Board<T>` and `Board<AnyTopology>` have
        // one layout; `AnyTopology` reads the neighbours from the board's own table, right for
        // either shape.
        unsafe { &*(self as *const Board<T>).cast::<Board<AnyTopology>>() }
    }

    #[inline]
    pub fn geometry(&self) -> &Geometry {
        &self.geo
    }

    /// The walls inside the board (not the border), sorted.
    pub fn walls(&self) -> &[Point] {
        &self.walls
    }

    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.s.cells[p.idx()]
    }

    /// Every cell of the padded array, indexed by `Point::idx`.
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        self.s.cells.prefix(self.geo.cells())
    }

    /// Black's stones on the board minus White's, counted over the cells (once per playout at
    /// most: for territory scoring and the mercy rule, at the playout's start).
    pub fn stone_balance(&self) -> i32 {
        self.cells().iter().map(|&c| (c == Cell::Black) as i32 - (c == Cell::White) as i32).sum()
    }

    #[inline]
    pub fn is_empty_point(&self, p: Point) -> bool {
        self.s.cells[p.idx()] == Cell::Empty
    }

    /// Hash of the board position (stones only; walls never change).
    #[inline]
    pub fn hash(&self) -> u64 {
        debug_assert!(!self.hash_stale, "the hash of a board that no longer keeps it");
        self.s.hash
    }

    /// The empty points, in no particular order.
    #[inline]
    pub fn empties(&self) -> &[Point] {
        self.s.empties.prefix(self.s.empty_count)
    }

    /// How many eye-shaped points a playout has set aside at the head of `empties()`: the list is
    /// `empties()[..k]`, eye-shaped points found by `set_aside_if_eye_shaped`, then every other empty
    /// point (eye-shaped or not).
    #[inline]
    pub fn set_aside_count(&self) -> usize {
        self.s.set_aside
    }

    /// Where `p` stands in the set-aside part of `empties()` (`set_aside_count`), if it is there.
    #[inline]
    pub fn set_aside_index(&self, p: Point) -> Option<usize> {
        let at = self.s.empty_at[p.idx()] as usize;
        (self.is_empty_point(p) && at < self.s.set_aside).then_some(at)
    }

    /// Is empty `p` eye-shaped (`is_eye_shaped`)?
    #[inline]
    pub fn is_eye_shaped_point(&self, p: Point) -> bool {
        is_eye_shaped(self.s.nbrs[p.idx()])
    }

    /// Moves empty `p` into the set-aside part of the free-point list when it is eye-shaped and not
    /// there yet. Once there it stays eye-shaped until it is played: its neighbours are stones or
    /// walls, and a stone beside it can only go by capture, which needs its chain to have no
    /// liberty, yet `p` is one. So the part needs no upkeep when other points are played.
    #[inline]
    pub fn set_aside_if_eye_shaped(&mut self, p: Point) {
        let at = self.s.empty_at[p.idx()] as usize;
        if at >= self.s.set_aside && self.is_eye_shaped_point(p) {
            self.s.set_aside_entry(at);
        }
    }

    pub fn stone_count(&self, c: Color) -> usize {
        self.geo.points().filter(|&p| self.s.cells[p.idx()] == Cell::stone(c)).count()
    }

    /// The four neighbours of a point: below, left, right, above (wrapped on a torus).
    #[inline]
    pub fn neighbours(&self, p: Point) -> [Point; 4] {
        T::neighbour_points(p, self.geo.stride as u16, self.s.links)
    }

    /// The four diagonals of a point: below-left, below-right, above-left, above-right.
    #[inline]
    pub fn diagonals(&self, p: Point) -> [Point; 4] {
        T::diagonal_points(p, self.geo.stride as u16, self.s.links)
    }

    /// The eight points around `p`, in the padded array's order on a flat board: below-left,
    /// below, below-right, left, right, above-left, above, above-right (wrapped on a torus).
    #[inline]
    pub fn around(&self, p: Point) -> [Point; 8] {
        let ([b, l, r, a], [bl, br, al, ar]) = (self.neighbours(p), self.diagonals(p));
        [bl, b, br, l, r, al, a, ar]
    }

    /// How many of `p`'s four neighbours hold `cell` (kept incrementally).
    #[inline]
    pub fn neighbour_count(&self, p: Point, cell: Cell) -> usize {
        self.s.nbrs[p.idx()][cell as usize] as usize
    }

    /// The head stone of the chain through `p` (a stone).
    #[inline]
    pub fn chain_head(&self, p: Point) -> Point {
        Point(self.s.head[p.idx()])
    }

    /// Number of stones in the chain through `p`.
    #[inline]
    pub fn chain_len(&self, p: Point) -> usize {
        self.s.masked_chain(self.s.head[p.idx()] as usize).stones as usize
    }

    /// Stakes attached to the chain through `p` (Stones).
    #[inline]
    pub fn chain_stakes(&self, p: Point) -> u32 {
        self.s.masked_chain(self.s.head[p.idx()] as usize).stakes as u32
    }

    /// Attaches one more stake to the chain through `p`.
    pub fn add_stake(&mut self, p: Point) {
        let h = self.s.head[p.idx()] as usize;
        self.s.sizes[h].stakes += 1;
    }

    /// The stones of the chain through `p`.
    pub fn chain_stones(&self, p: Point) -> ChainStones<'_, T> {
        let h = self.s.head[p.idx()];
        ChainStones { board: self, head: h, cur: h, done: false }
    }

    /// Is the chain through `p` down to exactly one liberty? O(1).
    #[inline]
    pub fn in_atari(&self, p: Point) -> bool {
        self.s.masked_chain(self.s.head[p.idx()] as usize).in_atari()
    }

    /// The last liberty of a chain in atari.
    #[inline]
    pub fn atari_liberty(&self, p: Point) -> Option<Point> {
        let ch = &self.s.masked_chain(self.s.head[p.idx()] as usize);
        ch.in_atari().then(|| Point((ch.lib_sum() / ch.plibs()) as u16))
    }

    /// Exact number of distinct liberties of the chain through `p`, counting at most `limit + 1`.
    pub fn liberties_up_to(&self, p: Point, limit: usize) -> usize {
        if limit + 1 > DISTINCT_BUFFER {
            // Beyond the stack buffer: count them all rather than stop early at the buffer's size.
            return self.liberties(p).len().min(limit + 1);
        }
        self.distinct_neighbours_up_to(self.chain_stones(p), limit, |q| self.s.cells[q.idx()] == Cell::Empty)
    }

    /// The distinct points beside `stones` that pass `counts`, counting at most `limit + 1` (below
    /// `DISTINCT_BUFFER`): the walk both liberty counts share, on a stack buffer.
    #[inline]
    fn distinct_neighbours_up_to(
        &self,
        stones: impl Iterator<Item = Point>,
        limit: usize,
        counts: impl Fn(Point) -> bool,
    ) -> usize {
        let mut found = [Point::NONE; DISTINCT_BUFFER];
        let mut n = 0;
        for s in stones {
            for q in self.neighbours(s) {
                if counts(q) && !found[..n].contains(&q) {
                    found[n] = q;
                    n += 1;
                    if n == limit + 1 {
                        return n;
                    }
                }
            }
        }
        n
    }

    /// The distinct liberties of the chain through `p`, in GTP order.
    pub fn liberties(&self, p: Point) -> Vec<Point> {
        let mut libs: Vec<Point> = Vec::new();
        for s in self.chain_stones(p) {
            for q in self.neighbours(s) {
                if self.s.cells[q.idx()] == Cell::Empty && !libs.contains(&q) {
                    libs.push(q);
                }
            }
        }
        libs.sort();
        libs
    }

    /// The ko restriction left by the last placement: `color` may not play at the point right now.
    #[inline]
    pub fn ko(&self) -> Option<(Point, Color)> {
        self.ko
    }

    #[inline]
    pub fn clear_ko(&mut self) {
        self.ko = None;
    }

    /// Would `color` at `p` retake a single-stone ko at once (recreating the position of one move ago)?
    #[inline]
    pub fn is_ko_retake(&self, color: Color, p: Point) -> bool {
        self.ko == Some((p, color))
    }

    /// Would a stone of `color` at empty `p` be left without liberties after its captures? O(1).
    #[inline(always)]
    pub fn is_suicide(&self, color: Color, p: Point) -> bool {
        // Inlined fast path: a point with an empty neighbour is never suicide (most points, most of
        // the time); the playouts ask this for nearly every point they consider.
        self.s.nbrs[p.idx()][Cell::Empty as usize] == 0 && self.is_suicide_surrounded(color, p)
    }

    /// `is_suicide` for a point without empty neighbours: decided by the chains around it. All four
    /// neighbours are judged, without a branch: half of the points it is asked about in light
    /// playouts are on the edge, where a branch skipping the walls went one way or the other at
    /// random. (With the atari test's two loads and three products of unpacked sums, judging all
    /// four cost more than those mispredictions.)
    #[inline(never)]
    fn is_suicide_surrounded(&self, color: Color, p: Point) -> bool {
        let own = Cell::stone(color);
        // Masked indices (`CellArray`): no bounds checks in a test asked several times a move.
        // (The placement core's unchecked reads, after a range check of their own, ran more
        // instructions: the check costs what the masks do.) The chains need no mask
        // (`chain_of_head`, -0.4%).
        let (i, s) = (p.idx(), self.geo.stride);
        debug_assert_eq!(self.s.nbrs[i][Cell::Empty as usize], 0, "a point with an empty neighbour");
        let mut lives = false;
        for q in T::neighbours(i, s, self.s.links) {
            // A wall's head is the sink, whose sums mean nothing: its verdict is masked out below.
            let atari = self.s.chain_of_head(self.s.head[q]).in_atari_at(i);
            // A friendly chain with another liberty keeps the new stone alive; an enemy chain whose
            // only liberty is `p` is captured, which frees a liberty. No neighbour is empty here,
            // so the cell xor `own` is 0 for a friend, 3 for an enemy and 1 or 2 for a wall
            // (asserted at compile time): one comparison with 0 or 3 (`atari`) judges all three
            // (-1.0% instructions a bare light 9x9 playout against the two comparisons it
            // replaced).
            lives |= (self.s.cells[q] as u8 ^ own as u8) == 3 * atari as u8;
        }
        !lives
    }

    /// Stones and stakes that `color` at empty `p` would capture. O(1).
    #[inline]
    pub fn capture_count(&self, color: Color, p: Point) -> (u32, u32) {
        let enemy = Cell::stone(color.opponent());
        let mut seen = [0u16; 4];
        let (mut stones, mut stakes) = (0, 0);
        for (i, q) in self.neighbours(p).into_iter().enumerate() {
            if self.s.cells[q.idx()] == enemy {
                let h = self.s.head[q.idx()];
                let ch = self.s.masked_chain(h as usize);
                if !seen[..i].contains(&h) && ch.in_atari() {
                    stones += ch.stones as u32;
                    stakes += ch.stakes as u32;
                }
                seen[i] = h;
            }
        }
        (stones, stakes)
    }

    /// Does `color` at empty `p` capture anything? O(1), and without a branch per neighbour, like
    /// `is_suicide_surrounded` (Stoical's capture restriction asks it of every point a playout
    /// probes after a capture): `p` is a liberty of every chain beside it, so the one-product
    /// atari test applies, and a cell without a stone reads the sink, masked out.
    #[inline]
    pub fn captures_any(&self, color: Color, p: Point) -> bool {
        let enemy = Cell::stone(color.opponent());
        let i = p.idx();
        let mut captures = false;
        for q in T::neighbours(i, self.geo.stride, self.s.links) {
            let atari = self.s.masked_chain(self.s.head[q] as usize).in_atari_at(i);
            captures |= (self.s.cells[q] == enemy) & atari;
        }
        captures
    }

    /// `liberties_up_to` for the chain a stone of `color` at empty `p` would make, after the
    /// enemy chains it captures are removed, read without playing it (Stoical's snapback test asks
    /// it inside playouts, where a copy of the board would allocate). Those liberties are the
    /// points beside `p` or beside a friendly chain it joins that are empty (`p` itself aside) or
    /// hold a stone the placement captures: one of an enemy chain whose last liberty is `p`.
    /// `limit` is below `DISTINCT_BUFFER`.
    pub fn liberties_after_up_to(&self, color: Color, p: Point, limit: usize) -> usize {
        let (own, enemy) = (Cell::stone(color), Cell::stone(color.opponent()));
        let freed = |q: Point| match self.s.cells[q.idx()] {
            Cell::Empty => q != p,
            c => c == enemy && self.atari_liberty(q) == Some(p),
        };
        assert!(limit < DISTINCT_BUFFER, "liberties_after_up_to takes a limit below {DISTINCT_BUFFER}");
        let mut heads = [Point::NONE; 4];
        for (i, q) in self.neighbours(p).into_iter().enumerate() {
            if self.s.cells[q.idx()] == own {
                heads[i] = self.chain_head(q);
            }
        }
        // The new stone, then each joined chain once.
        let joined = (0..4).filter(|&i| !heads[i].is_none() && !heads[..i].contains(&heads[i]));
        let stones = std::iter::once(p).chain(joined.flat_map(|i| self.chain_stones(heads[i])));
        self.distinct_neighbours_up_to(stones, limit, freed)
    }

    /// The hash of the position a stone of `color` at empty `p` would produce, without playing it:
    /// the new stone's key, the keys of the enemy chains it captures, and, for a self-capture, the
    /// keys of the mover's chain it would remove (the tree's superko checks use this).
    pub fn hash_after(&self, color: Color, p: Point) -> u64 {
        debug_assert!(!self.hash_stale, "the hash of a board that no longer keeps it");
        let mut h = self.s.hash ^ KEYS[color.index()][p.idx()];
        let enemy = Cell::stone(color.opponent());
        let own = Cell::stone(color);
        let nbrs = self.neighbours(p);
        let mut seen = [0u16; 4];
        let mut captured = false;
        for (i, q) in nbrs.into_iter().enumerate() {
            if self.s.cells[q.idx()] == enemy {
                let head = self.s.head[q.idx()];
                if !seen[..i].contains(&head) && self.s.masked_chain(head as usize).in_atari() {
                    captured = true;
                    for s in self.chain_stones(q) {
                        h ^= KEYS[color.opponent().index()][s.idx()];
                    }
                }
                seen[i] = head;
            }
        }
        if !captured && self.is_suicide(color, p) {
            // Suicide captures nothing: the new stone and every friendly chain it joins go.
            h ^= KEYS[color.index()][p.idx()];
            let mut done = [0u16; 4];
            for (i, q) in nbrs.into_iter().enumerate() {
                if self.s.cells[q.idx()] == own {
                    let head = self.s.head[q.idx()];
                    if !done[..i].contains(&head) {
                        for s in self.chain_stones(q) {
                            h ^= KEYS[color.index()][s.idx()];
                        }
                    }
                    done[i] = head;
                }
            }
        }
        h
    }

    /// Is `p` an eye of `color` for playout purposes: every neighbour is `color` or wall, and the
    /// diagonals hold at most one enemy stone (none at the edge). Filling it is almost always wrong.
    #[inline(always)]
    pub fn is_eye(&self, color: Color, p: Point) -> bool {
        // Inlined fast path on the neighbour counts; the diagonals only for a point it cannot reject.
        let n = &self.s.nbrs[p.idx()];
        n[Cell::stone(color) as usize] + n[Cell::Wall as usize] == 4 && self.eye_diagonals(color, p)
    }

    /// The diagonal test of `is_eye`, for a point whose neighbours are all `color` or wall: the four
    /// diagonal cells (two bits each) index a table of the verdicts for both colours. The playouts
    /// ask this for every own eye-shaped point they probe (most of the points left late in a
    /// playout); the lookup costs about 39 instructions a call where counting cost 69.
    #[inline(never)]
    fn eye_diagonals(&self, color: Color, p: Point) -> bool {
        let c = &self.s.cells;
        let key = self.diagonals(p).iter().fold(0, |key, d| key << 2 | c[d.idx()] as usize);
        EYE_DIAGONALS[key] >> color.index() & 1 != 0
    }

    /// Places a stone of `color` on the empty point `p` and resolves captures: opponent chains left
    /// without liberties first, then the mover's own chain if it has none (self-capture).
    #[inline]
    pub fn play(&mut self, color: Color, p: Point) -> Placement {
        self.place::<true>(color, p)
    }

    /// Stops keeping the Zobrist hash: from now on `place::<false>` may play, and `hash` and
    /// `hash_after` must not be asked (debug builds check both) until a `clone_from` of a board that
    /// keeps it. Playouts never look at the hash (superko is the tree's business), and its upkeep
    /// was about 1% of their instructions.
    #[inline]
    pub fn let_hash_go_stale(&mut self) {
        self.hash_stale = true;
    }

    /// `play`, updating the hash only when `HASHED` (`false` needs `let_hash_go_stale` first).
    pub fn place<const HASHED: bool>(&mut self, color: Color, p: Point) -> Placement {
        // What keeps the placement core's unchecked indices in range (`Slots::cell`), checked
        // always (two instructions): `Position::check` refuses points off the board before.
        self.s.assert_inside(p);
        debug_assert!(self.is_empty_point(p), "play on a non-empty point");
        debug_assert!(HASHED || self.hash_stale, "an unhashed placement on a board that keeps its hash");
        let placed = self.s.play::<HASHED, T>(color, p);
        // A lone stone that captured one stone and now has that point as its only liberty: the opponent
        // retaking at once would recreate the previous position.
        self.ko = None;
        if placed.captured == 1 && placed.suicided == 0 {
            let ch = &self.s.masked_chain(self.s.head[p.idx()] as usize);
            if ch.stones == 1 && ch.plibs() == 1 {
                self.ko = Some((placed.single_capture, color.opponent()));
            }
        }
        placed
    }

    /// Recomputes everything from the cells and compares it with the incremental state (the hash
    /// only while the board keeps it).
    pub fn check_consistency(&self) -> Result<(), String> {
        let geo = self.geo;
        let mut hash = 0u64;
        let mut empties = 0;
        for (i, &c) in self.cells().iter().enumerate() {
            let p = Point(i as u16);
            if !geo.on_board(p) {
                if c != Cell::Wall {
                    return Err(format!("border cell {i} is {c:?}"));
                }
                continue;
            }
            let mut counts = [0u8; 4];
            let mut elibs = 0u64;
            for q in self.neighbours(p) {
                counts[self.s.cells[q.idx()] as usize] += 1;
                if self.s.cells[q.idx()] == Cell::Empty {
                    elibs += lib_word(q.idx());
                }
            }
            if elibs != self.s.elibs[i] {
                return Err(format!("{}: empty neighbours' liberty words wrong", geo.vertex(p)));
            }
            if counts != self.s.nbrs[i] {
                return Err(format!(
                    "{}: neighbour counts {:?} != {:?}",
                    geo.vertex(p),
                    self.s.nbrs[i],
                    counts
                ));
            }
            match c {
                Cell::Empty => {
                    empties += 1;
                    if self.s.head[i] as usize != SINK {
                        return Err(format!("{}: an empty point with a chain head", geo.vertex(p)));
                    }
                    let at = self.s.empty_at[i] as usize;
                    if self.empties().get(at) != Some(&p) {
                        return Err(format!("{} missing from the empty list", geo.vertex(p)));
                    }
                    if at < self.s.set_aside && !is_eye_shaped(counts) {
                        return Err(format!("{} is set aside but not eye-shaped", geo.vertex(p)));
                    }
                }
                Cell::Black | Cell::White => hash ^= KEYS[c.color().unwrap().index()][i],
                Cell::Wall => {
                    if !self.walls.contains(&p) {
                        return Err(format!("{} is an unlisted wall", geo.vertex(p)));
                    }
                }
            }
        }
        if empties != self.s.empty_count {
            return Err(format!("{} empty points, list holds {}", empties, self.s.empty_count));
        }
        if self.s.set_aside > empties {
            return Err(format!("{} points set aside of {} empty ones", self.s.set_aside, empties));
        }
        if !self.hash_stale && hash != self.s.hash {
            return Err("hash differs from the recomputed one".into());
        }
        // Chains: flood fill from every stone and compare with the ring and the head's statistics.
        let mut seen = vec![false; geo.cells()];
        for p in geo.points() {
            let c = self.s.cells[p.idx()];
            if c.color().is_none() || seen[p.idx()] {
                continue;
            }
            let mut stack = vec![p];
            let mut members = Vec::new();
            seen[p.idx()] = true;
            while let Some(s) = stack.pop() {
                members.push(s);
                for q in self.neighbours(s) {
                    if self.s.cells[q.idx()] == c && !seen[q.idx()] {
                        seen[q.idx()] = true;
                        stack.push(q);
                    }
                }
            }
            let h = self.s.head[p.idx()];
            // The sums counted one by one, not packed: a field of the word that overflowed into
            // the next fails the comparison.
            let (mut count, mut sum, mut sumsq) = (0u64, 0u64, 0u64);
            for &s in &members {
                if self.s.head[s.idx()] != h {
                    return Err(format!("{} has a different head than {}", geo.vertex(s), geo.vertex(p)));
                }
                for q in self.neighbours(s) {
                    if self.s.cells[q.idx()] == Cell::Empty {
                        let i = q.idx() as u64;
                        (count, sum, sumsq) = (count + 1, sum + i, sumsq + i * i);
                    }
                }
            }
            let ring: Vec<Point> = self.chain_stones(p).collect();
            if ring.len() != members.len() || members.iter().any(|m| !ring.contains(m)) {
                return Err(format!("ring of {} differs from its flood fill", geo.vertex(p)));
            }
            let ch = &self.s.masked_chain(h as usize);
            let held = (ch.stones as u64, ch.plibs() as u64, ch.lib_sum() as u64, ch.lib_sumsq() as u64);
            if held != (members.len() as u64, count, sum, sumsq) {
                return Err(format!(
                    "chain at {}: {:?} != {} stones, {count} pseudo-liberties, sum {sum}, sum of squares {sumsq}",
                    geo.vertex(p),
                    ch,
                    members.len()
                ));
            }
            if count == 0 {
                return Err(format!("chain at {} has no liberties", geo.vertex(p)));
            }
        }
        Ok(())
    }

    /// Builds a board of this shape from a diagram, rows top first: `X` black, `O` white, `.`
    /// empty, `#` wall; spaces are ignored. Stones are placed in reading order (a diagram should
    /// hold no dead chains).
    pub fn from_diagram_shaped(diagram: &str) -> Board<T> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        let geo = Geometry::new(size);
        let mut walls = Vec::new();
        for (r, row) in rows.iter().enumerate() {
            assert_eq!(row.len(), size, "diagram row {r} has the wrong length");
            for (x, &ch) in row.iter().enumerate() {
                if ch == '#' {
                    walls.push(geo.point(x, size - 1 - r));
                }
            }
        }
        let mut b = Board::shaped(size, &walls);
        for (r, row) in rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate() {
                let p = geo.point(x, size - 1 - r);
                match ch {
                    'X' | 'x' => {
                        b.play(Color::Black, p);
                    }
                    'O' | 'o' => {
                        b.play(Color::White, p);
                    }
                    '.' | '#' | '+' => {}
                    other => panic!("unknown diagram character {other:?}"),
                }
            }
        }
        b.ko = None;
        b
    }

    /// The diagram `from_diagram` reads, rows top first.
    pub fn to_diagram(&self) -> String {
        let mut s = String::new();
        for y in (0..self.size()).rev() {
            for x in 0..self.size() {
                s.push(match self.s.cells[self.geo.point(x, y).idx()] {
                    Cell::Empty => '.',
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    Cell::Wall => '#',
                });
            }
            s.push('\n');
        }
        s
    }
}

impl<T: Topology> fmt::Display for Board<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_diagram())
    }
}

/// Iterator over the stones of one chain (its ring).
pub struct ChainStones<'a, T: Topology> {
    board: &'a Board<T>,
    head: u16,
    cur: u16,
    done: bool,
}

impl<T: Topology> Iterator for ChainStones<'_, T> {
    type Item = Point;
    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.done {
            return None;
        }
        let p = Point(self.cur);
        self.cur = self.board.s.next[self.cur as usize];
        self.done = self.cur == self.head;
        Some(p)
    }
}

/// Is an empty point with neighbour counts `nbrs` eye-shaped: no empty neighbour, and not stones of
/// both colours around it (only one colour's stones, or walls)? A playout can seldom play there: it
/// is an own eye, or an enemy eye where a stone is a suicide unless it captures.
#[inline(always)]
fn is_eye_shaped(nbrs: [u8; 4]) -> bool {
    nbrs[Cell::Empty as usize] == 0 && (nbrs[Cell::Black as usize] == 0 || nbrs[Cell::White as usize] == 0)
}

/// The placement core's view of the per-cell arrays: without the `CellArray` mask, which a
/// placement paid about thirty times (`get_unchecked`: -9% instructions per placement, 2 to 4%
/// more light playouts a second; 65c2ab4, 2026-11-27). Every index these are given is in range by
/// construction, `Board::place` being the only way in: it checks that the point it places is
/// past the array's first row and cell and below `MAX_CELLS` (`assert_inside`), so that its
/// neighbours are below `SLOTS` (asserted at compile time above `DISTINCT_BUFFER`). The core
/// otherwise indexes only with the neighbours of stones (points placed that way) and with values
/// read from `head` and `next`, which hold nothing but such points and `SINK`. Outside the core,
/// the one unmasked read is `chain_of_head`'s, with a value read from `head` too (the other
/// queries keep the mask). The free-point list keeps the mask: its positions are counts, which a
/// placement on an occupied point (a caller's error) could run below zero.
impl Slots {
    /// Panics unless `p`'s index is past the array's first row and cell and below `MAX_CELLS`:
    /// every neighbour of such a cell is a slot of the arrays. The check is for memory, not for the
    /// rules: every point of the board passes, and so do most border cells; a cell of the first
    /// row or past every board (garbage) panics.
    #[inline(always)]
    fn assert_inside(&self, p: Point) {
        let i = p.idx();
        assert!(
            i.wrapping_sub(self.stride + 1) < MAX_CELLS - (self.stride + 1),
            "cell {i} is not inside the board"
        );
    }

    #[inline(always)]
    fn cell(&self, i: usize) -> Cell {
        *at(&self.cells, i)
    }

    #[inline(always)]
    fn set_cell(&mut self, i: usize, c: Cell) {
        *at_mut(&mut self.cells, i) = c;
    }

    /// The head of the chain at `i`, `SINK` where there is no stone.
    #[inline(always)]
    fn head(&self, i: usize) -> usize {
        *at(&self.head, i) as usize
    }

    /// `h` is a stone's point or `SINK`.
    #[inline(always)]
    fn set_head(&mut self, i: usize, h: usize) {
        *at_mut(&mut self.head, i) = h as u16;
    }

    #[inline(always)]
    fn next(&self, i: usize) -> usize {
        *at(&self.next, i) as usize
    }

    /// `n` is a stone's point.
    #[inline(always)]
    fn set_next(&mut self, i: usize, n: usize) {
        *at_mut(&mut self.next, i) = n as u16;
    }

    #[inline(always)]
    fn chain(&self, h: usize) -> Chain {
        let size = *at(&self.sizes, h);
        Chain { libs: *at(&self.libs, h), stones: size.stones, stakes: size.stakes }
    }

    /// `chain` through the mask, for the board's queries.
    #[inline(always)]
    fn masked_chain(&self, h: usize) -> Chain {
        let size = self.sizes[h];
        Chain { libs: self.libs[h], stones: size.stones, stakes: size.stakes }
    }

    #[inline(always)]
    fn set_chain(&mut self, h: usize, c: Chain) {
        *at_mut(&mut self.libs, h) = c.libs;
        *at_mut(&mut self.sizes, h) = ChainSize { stones: c.stones, stakes: c.stakes };
    }

    /// The chain with head `h`, a value read from `head`, for the board's queries (which index
    /// the other arrays through the mask): a value of `head` is in range whatever point a caller
    /// asks about, as only the placement core writes them (a stone's point or `SINK`), so it
    /// needs no mask.
    #[inline(always)]
    fn chain_of_head(&self, h: u16) -> Chain {
        self.chain(h as usize)
    }

    /// The pseudo-liberty word of the chain with head `h` (`Chain::libs`).
    #[inline(always)]
    fn libs_mut(&mut self, h: usize) -> &mut u64 {
        at_mut(&mut self.libs, h)
    }

    #[inline(always)]
    fn nbrs_mut(&mut self, i: usize) -> &mut [u8; 4] {
        at_mut(&mut self.nbrs, i)
    }
}

/// Slot `i` of one of the placement core's arrays, without the mask: for the accessors above
/// alone, whose indices are in range by construction. The board's only `unsafe`.
#[inline(always)]
fn at<T>(array: &CellArray<T>, i: usize) -> &T {
    // SAFETY: the placement core's indices are below `SLOTS` (see the accessors above).
    unsafe { array.get_unchecked(i) }
}

/// `at`, mutable.
#[inline(always)]
fn at_mut<T>(array: &mut CellArray<T>, i: usize) -> &mut T {
    // SAFETY: the placement core's indices are below `SLOTS` (see the accessors above).
    unsafe { array.get_unchecked_mut(i) }
}

/// The mutating core of `Board::place`: the placement, merges, captures and the free-point list.
impl Slots {
    /// The array indices of cell `i`'s four neighbours (`Board::neighbours` as plain indices).
    #[inline(always)]
    fn neighbours<T: Topology>(&self, i: usize) -> [usize; 4] {
        T::neighbours(i, self.stride, self.links)
    }

    /// `neighbours(i)[k]` (`k` below 4), computed rather than read from the array: for the
    /// placement's rare paths, so that the common one need not keep the four cells in memory.
    /// (On a torus, one entry of the table.)
    #[inline(always)]
    fn side<T: Topology>(&self, i: usize, k: usize) -> usize {
        let j = T::side(i, self.stride, self.links, k);
        debug_assert_eq!(j, self.neighbours::<T>(i)[k], "side {k} of cell {i}");
        j
    }

    /// Places the stone; `i` is at least a row and a cell inside the array and below `MAX_CELLS`
    /// (`Board::place` checks it), so that the unchecked accessors above stay in range.
    #[inline(always)]
    fn play<const HASHED: bool, T: Topology>(&mut self, color: Color, p: Point) -> Placement {
        let own = Cell::stone(color);
        let enemy = Cell::stone(color.opponent());
        let i = p.idx();
        self.remove_empty(p);
        self.set_cell(i, own);
        if HASHED {
            self.hash ^= KEYS[color.index()][i];
        }
        // A ring of one until `join` (which sets the head).
        self.set_next(i, i);
        // The stone's liberties, summed ahead for it by its neighbours' changes (`elibs`): one
        // load, where building and masking a word for each empty neighbour took eight
        // instructions a side (-7% instructions a bare light 9x9 playout).
        let chain = Chain { libs: *at(&self.elibs, i), stones: 1, stakes: 0 };
        // Without a branch on what each neighbour holds (the neighbours of a random move are
        // random, so such a branch is mispredicted again and again): each neighbour's sum of
        // empty neighbours' words loses this point, and so does a stone's chain.
        let word = lib_word(i);
        let nbrs = self.neighbours::<T>(i);
        // Which neighbours' chains the stone captures, as bits, also found without a branch: most
        // placements capture nothing, and one well-predicted test of the bits then replaces four
        // random tests of what the neighbours hold. A chain beside the stone twice loses its last
        // liberty at the side met last, whose bit is set.
        let mut dead = 0u32;
        // The chain the stone joins, found without a branch too: the first friendly neighbour's
        // (`first`, the stone itself when it has none). The sides go backwards, so that the
        // first friendly side's head is the one left.
        let mut first = i;
        let (mut friends, mut heads) = ([false; 4], [0usize; 4]);
        for (k, &j) in nbrs.iter().enumerate().rev() {
            self.shift_neighbour(j, Cell::Empty, own);
            let e = at_mut(&mut self.elibs, j);
            *e = e.wrapping_sub(word);
            let c = self.cell(j);
            let h = self.head(j);
            let side = self.libs_mut(h);
            *side = side.wrapping_sub(word);
            dead |= (((c == enemy) & (*side == 0)) as u32) << k;
            (friends[k], heads[k]) = (c == own, h);
            first = if c == own { h } else { first };
        }
        // The friendly sides of other chains (rare: a fifth of the placements), as bits.
        let mut others = 0u32;
        for k in 0..4 {
            others |= ((friends[k] & (heads[k] != first)) as u32) << k;
        }
        self.join(i, first, chain);
        while others != 0 {
            let j = self.side::<T>(i, others.trailing_zeros() as usize);
            others &= others - 1;
            // Two sides of one other chain: the first merge joined the second.
            if self.head(j) != self.head(i) {
                self.merge(self.head(i), self.head(j));
            }
        }
        let mut placed = Placement::default();
        if dead & dead.wrapping_sub(1) != 0 {
            // Two chains or more (rare): every side of each, so that they go in the order of
            // their first sides. The free-point list's order, and so every playout after, depends
            // on the order of removal.
            dead = 0;
            for k in 0..4 {
                let j = self.side::<T>(i, k);
                let out = (self.cell(j) == enemy) & self.chain(self.head(j)).has_no_liberty();
                dead |= (out as u32) << k;
            }
        }
        while dead != 0 {
            let j = self.side::<T>(i, dead.trailing_zeros() as usize);
            dead &= dead - 1;
            // Two sides of one chain: the first removal emptied the second.
            if self.cell(j) == enemy {
                let (stones, stakes) = self.remove_chain::<HASHED, T>(self.head(j));
                placed.captured += stones;
                placed.captured_stakes += stakes;
                placed.single_capture = Point(j as u16);
            }
        }
        if placed.captured != 1 {
            placed.single_capture = Point::NONE;
        }
        let h = self.head(i);
        if self.chain(h).has_no_liberty() {
            let (stones, stakes) = self.remove_chain::<HASHED, T>(h);
            placed.suicided = stones;
            placed.suicided_stakes = stakes;
        }
        placed
    }

    /// The pseudo-liberty word of the chain of the stone at `j`, or, when `j` holds no stone, of
    /// the sink slot (`SINK`, past every board's cells), whose sums mean nothing (updates to it
    /// wrap, in any number). A liberty update of every neighbour then needs no branch on what the
    /// neighbour holds: on random positions such a branch was the placement's most mispredicted,
    /// and without it light playouts ran 5 to 10% faster although they run 8% more instructions. Every cell without a stone has `SINK` for its
    /// head (from the board's creation, and from a removal for the stones it takes), so the slot
    /// is the head, whatever the cell holds.
    #[inline(always)]
    fn chain_or_sink(&mut self, j: usize) -> &mut u64 {
        let h = self.head(j);
        self.libs_mut(h)
    }

    /// One neighbour of cell `j` changes from `from` to `to`: both byte counters in one 32-bit
    /// addition (the `from` count is at least one, so no borrow crosses a byte).
    #[inline(always)]
    fn shift_neighbour(&mut self, j: usize, from: Cell, to: Cell) {
        let n = self.nbrs_mut(j);
        let packed =
            u32::from_le_bytes(*n).wrapping_add(1 << (8 * to as u32)).wrapping_sub(1 << (8 * from as u32));
        *n = packed.to_le_bytes();
    }

    /// Adds the new stone `i` (statistics `stone`) to the chain with head `h`, or makes it a chain
    /// of its own when `h` is `i`, without a branch: whether a random placement joins a chain is
    /// random, and once the liberty updates were branch-free (`chain_or_sink`) that test was the
    /// placement's most mispredicted branch. The result is exactly
    /// `merge`'s (the same head and ring order, on which the order of later removals and so the
    /// free-point list depend): a chain of one stone is relabelled to the new stone, a longer one
    /// keeps its head.
    #[inline(always)]
    fn join(&mut self, i: usize, h: usize, stone: Chain) {
        // When `h` is `i`, the chain starts from nothing (its slot held a removed chain's).
        self.set_chain(i, Chain::default());
        let joined = self.chain(h);
        let lone = (joined.stones == 1) & (h != i);
        let head = if lone { i } else { h };
        self.set_head(i, head);
        self.set_head(h, head);
        // Into the ring right after `h` (`next[i]` is `i` until now).
        self.set_next(i, self.next(h));
        self.set_next(h, i);
        self.set_chain(head, joined.joined(stone));
    }

    /// Merges chain `b` into chain `a` (both heads), relabelling the smaller one.
    #[inline]
    fn merge(&mut self, a: usize, b: usize) {
        let (big, small) = if self.chain(a).stones >= self.chain(b).stones { (a, b) } else { (b, a) };
        let mut s = small;
        loop {
            self.set_head(s, big);
            s = self.next(s);
            if s == small {
                break;
            }
        }
        let (after_big, after_small) = (self.next(big), self.next(small));
        self.set_next(big, after_small);
        self.set_next(small, after_big);
        self.set_chain(big, self.chain(big).joined(self.chain(small)));
    }

    /// Removes the chain with head `h`; returns its stones and stakes.
    #[inline(never)]
    fn remove_chain<const HASHED: bool, T: Topology>(&mut self, h: usize) -> (u16, u16) {
        let cell = self.cell(h);
        let color = cell.color().expect("removing a chain of stones");
        let chain = self.chain(h);
        let mut s = h;
        loop {
            self.set_cell(s, Cell::Empty);
            self.set_head(s, SINK);
            if HASHED {
                self.hash ^= KEYS[color.index()][s];
            }
            self.add_empty(Point(s as u16));
            // Each neighbouring stone gains a pseudo-liberty. In one pass with the removal: a
            // neighbour of the chain itself adds to the sink (removed already) or to the chain's
            // own slot (not yet), whose statistics are read above and never again.
            let word = lib_word(s);
            for j in self.neighbours::<T>(s) {
                // Every neighbour, the chain's own stones included, has one more empty neighbour.
                self.shift_neighbour(j, cell, Cell::Empty);
                let e = at_mut(&mut self.elibs, j);
                *e = e.wrapping_add(word);
                let l = self.chain_or_sink(j);
                *l = l.wrapping_add(word);
            }
            s = self.next(s);
            if s == h {
                break;
            }
        }
        (chain.stones, chain.stakes)
    }

    #[inline(always)]
    fn remove_empty(&mut self, p: Point) {
        // Unmasked, like the accessors above: `p` is a point of the board (`Board::place` checks
        // it), and entries are numbered below the number of points.
        let mut entry = *at(&self.empty_at, p.idx()) as usize;
        if entry < self.set_aside {
            // A set-aside point (a capture or a false eye): the last set-aside entry fills its
            // place, and the hole moves to the end of that part.
            self.set_aside -= 1;
            let q = self.empties[self.set_aside];
            self.put_empty(entry, q);
            entry = self.set_aside;
            // `p` moves with the hole, which the last entry fills below.
            self.empties[entry] = p;
        }
        debug_assert!(self.empty_count > 0, "an empty point to fill");
        self.empty_count -= 1;
        // The last entry fills the hole; when that entry is `p` itself, this rewrites it where it
        // is, past the list's end (no branch: which entry a random move takes is random).
        let last = *at(&self.empties, self.empty_count);
        self.put_empty(entry, last);
    }

    /// Moves entry `at` of the free-point list (past the set-aside part) to the end of that part,
    /// which grows by one; the entry there takes its place.
    #[inline(always)]
    fn set_aside_entry(&mut self, at: usize) {
        let (p, q) = (self.empties[at], self.empties[self.set_aside]);
        self.put_empty(at, q);
        self.put_empty(self.set_aside, p);
        self.set_aside += 1;
    }

    #[inline(always)]
    fn add_empty(&mut self, p: Point) {
        let at = self.empty_count;
        self.put_empty(at, p);
        self.empty_count += 1;
    }

    /// Puts `p` at entry `at` of the free-point list and records where it is.
    #[inline(always)]
    fn put_empty(&mut self, entry: usize, p: Point) {
        // Unmasked: `p` is a point of the board and `entry` an entry of the list.
        *at_mut(&mut self.empties, entry) = p;
        *at_mut(&mut self.empty_at, p.idx()) = entry as u16;
    }
}
