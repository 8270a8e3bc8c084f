//! The search tree: an arena of nodes addressed by `u32`, the children of a node contiguous, every
//! statistic an atomic integer so that threads share the tree without locks.

use super::node_memory::NodeMemory;
use crate::board::{Point, MAX_CELLS};
use crate::rules::Move;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::*};
use std::time::Instant;

/// The root is always the first node of the arena.
pub const ROOT: u32 = 0;

/// The root's visits at which a search stops, however long it may run: every count and half-point
/// sum in the tree then stays below 2^31 (half points are at most twice the visits, priors add at
/// most 2^16, and each thread can add one visit in flight past the check), so nothing overflows
/// and the counts convert as signed 32-bit integers (selection's keys rely on it). At 150,000
/// playouts a second this is two hours of analysis.
pub const MAX_VISITS: u32 = (1 << 30) - (1 << 17);

/// Expansion states, claimed by compare-and-swap: leaf -> expanding -> expanded.
pub const LEAF: u32 = 0;
pub const EXPANDING: u32 = 1;
pub const EXPANDED: u32 = 2;

/// Node flag (top byte of the move word): this placement repeats an earlier position, which ends a
/// Stoical game in a draw at once.
pub const FLAG_DRAW: u32 = 1 << 24;

/// The one body of `Writers`' additions, for each width of atomic (the std atomics share no trait).
macro_rules! writers_add {
    ($writers:expr, $atomic:expr, $v:expr) => {
        match $writers {
            Writers::One => {
                let old = $atomic.load(Relaxed);
                $atomic.store(old.wrapping_add($v), Relaxed);
                old
            }
            Writers::Many => $atomic.fetch_add($v, Relaxed),
        }
    };
}

/// Who adds to the counts of a search's tree (visits, wins, score sums), which decides how.
///
/// With several workers an addition must be a locked read-modify-write (`fetch_add`), or two
/// workers adding at once would lose one of the additions. The only worker of a search needs no
/// lock: a plain load and store is exact when no one else writes, and other threads (the reports)
/// only read. A locked instruction waits for every store before it to leave the core, and a
/// playout leaves many (the board's writes), so the dozen locked additions of an iteration cost
/// 5% of a one-thread light search's rate.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Writers {
    /// The search's only worker.
    One,
    /// One of several workers.
    Many,
}

impl Writers {
    /// The writers of a search with `threads` workers.
    pub fn of(threads: usize) -> Writers {
        if threads > 1 {
            Writers::Many
        } else {
            Writers::One
        }
    }

    /// Adds `v` to `a` (wrapping) and returns the value before, like `fetch_add`: the nodes' packed
    /// counts, the claim and done counters.
    #[inline]
    pub fn add_u64(self, a: &AtomicU64, v: u64) -> u64 {
        writers_add!(self, a, v)
    }

    /// `add_u64` for the score sums.
    #[inline]
    pub fn add_i64(self, a: &AtomicI64, v: i64) -> i64 {
        writers_add!(self, a, v)
    }
}

/// A move packed into a `u32`: the kind in bits 16..24, the point in the low half. The top byte is
/// left for node flags.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct MoveCode(pub u32);

impl MoveCode {
    pub fn new(mv: Move) -> MoveCode {
        MoveCode(match mv {
            Move::Place(p) => p.0 as u32,
            Move::Pass => 1 << 16,
            Move::Button => 2 << 16,
            Move::Return => 3 << 16,
            Move::Stake(p) => (4 << 16) | p.0 as u32,
        })
    }

    pub fn decode(self) -> Move {
        let p = Point(self.0 as u16);
        match (self.0 >> 16) & 0xff {
            0 => Move::Place(p),
            1 => Move::Pass,
            2 => Move::Button,
            3 => Move::Return,
            _ => Move::Stake(p),
        }
    }

    /// The point of a placement, for AMAF.
    #[inline]
    pub fn placement(self) -> Option<Point> {
        ((self.0 >> 16) & 0xff == 0).then_some(Point(self.0 as u16))
    }
}

/// One node: the move that leads to it, its children and its prior. Its visits and wins live in
/// an array of their own (`Counts`, `Tree::child_counts`), as do its AMAF pair and score sum.
///
/// 16 bytes. Selection reads the counts and AMAF pairs of every child of every node on its path and
/// nothing else of them: with the counts in the node (24 bytes), 81 children spanned 31 lines of
/// nodes besides 11 of AMAF pairs, where two arrays of 8-byte pairs span 11 each. A light 9x9
/// search then misses the first-level data cache half as often (cachegrind), though this
/// machine's rates show no difference: the misses hit the second level, and overlap.
///
/// All-zero is a valid node (a leaf): the arena is allocated zeroed. No `align(32)`: the allocator
/// zeroes an over-aligned allocation by writing every page at once, where a plain one gets
/// untouched zero pages from the system, paid for only as the tree grows.
#[derive(Default, Debug)]
#[repr(C)]
pub struct Node {
    /// Prior knowledge as equivalent experience, fixed at expansion: visits in the low 16 bits,
    /// half-point wins in the high 16 (see `prior`).
    prior: AtomicU32,
    pub first_child: AtomicU32,
    /// Expansion state (`LEAF`, `EXPANDING`, `EXPANDED`) in the low 2 bits, the number of children
    /// above them: one release store publishes both.
    kids: AtomicU32,
    /// The move (`MoveCode`) in the low 24 bits, flags (`FLAG_DRAW`) in the top byte.
    pub mv: AtomicU32,
}

/// A node's visits and wins, counted in half points (win 2, draw 1, loss 0) for the player who
/// made its move, so `fetch_add` keeps them exact.
///
/// Visits in the low half, including the visits still in flight: visits are added on the way down
/// and the result only on the way up, so an unfinished visit counts as a loss for a moment
/// (virtual loss). Half-point wins in the high half. One word, so that selection reads a child's
/// pair with one load (the low half never carries into the high: visits stay below 2^31, see
/// `MAX_VISITS`).
///
/// The counts hold the prior's equivalent experience too (they start at the prior's visits and
/// wins, `Tree::set_prior`): selection, which reads every child of every node on its path, then
/// takes them as they are, where adding the prior to each was a fifth of its instructions per
/// child. The real visits and wins (`Tree::visits`, `Tree::wins`) are the counts less the prior,
/// which is fixed once the node is published.
#[derive(Default, Debug)]
#[repr(transparent)]
pub struct Counts(pub(super) AtomicU64);

impl Counts {
    /// Visits and half-point wins with the prior's equivalent experience added: what selection
    /// weighs.
    #[inline]
    pub fn experience(&self) -> (u32, u32) {
        split_pair(self.0.load(Relaxed))
    }
}

/// The visits (low half) and half-point wins (high half) of a packed pair's word (`Counts`,
/// `Amaf`, `PackedWord`).
#[inline(always)]
pub(super) fn split_pair(word: u64) -> (u32, u32) {
    (word as u32, (word >> 32) as u32)
}

/// A pair of counts packed in one atomic word, `repr(transparent)`: `Counts` and `Amaf`, which
/// selection reads for every child on its path, several words to a vector load (`packed_words`).
///
/// # Safety
/// Implementors are `repr(transparent)` over `AtomicU64`, so a slice of them is a slice of words.
pub(super) unsafe trait PackedWord {}
// SAFETY: `Counts` is `repr(transparent)` over `AtomicU64`.
unsafe impl PackedWord for Counts {}
// SAFETY: `Amaf` is `repr(transparent)` over `AtomicU64`.
unsafe impl PackedWord for Amaf {}

/// The words of a slice of packed pairs, for loads of several at once (`vector_loads`).
#[inline(always)]
pub(super) fn packed_words<T: PackedWord>(pairs: &[T]) -> &[AtomicU64] {
    // SAFETY: `T` is `repr(transparent)` over `AtomicU64` (`PackedWord`): the same memory, length
    // and alignment, shared the same way.
    unsafe { std::slice::from_raw_parts(pairs.as_ptr().cast::<AtomicU64>(), pairs.len()) }
}

/// A node's all-moves-as-first statistics (RAVE): visits in the low half, half-point wins in the high
/// half, so one load reads a consistent pair and one store writes it (see `add`). Like the node's
/// counts they start at the prior's equivalent experience (`Tree::set_prior`), which only selection
/// reads.
#[derive(Default, Debug)]
#[repr(transparent)]
pub struct Amaf(AtomicU64);

impl Amaf {
    /// AMAF visits and half-point wins.
    #[inline]
    pub fn get(&self) -> (u32, u32) {
        split_pair(self.0.load(Relaxed))
    }

    /// Sets the visits and half-point wins.
    #[inline]
    pub fn set(&self, visits: u32, wins: u32) {
        self.0.store(visits as u64 | (wins as u64) << 32, Relaxed);
    }

    /// Adds one AMAF visit worth `half` half points.
    ///
    /// A plain load and store, not a locked `fetch_add`: a backup updates the AMAF pair of roughly
    /// half the children of every node on its path (hundreds per playout), and locked additions there
    /// cost more than the rest of the backup while the threads fight over the same cache lines. Two
    /// threads updating one pair at the same instant can lose one of the two updates; AMAF is an
    /// estimate from many thousands of playouts and one lost sample changes nothing a move choice
    /// depends on (visits and wins, which choose the move, stay exact).
    #[inline]
    pub fn add(&self, half: u32) {
        let a = self.0.load(Relaxed);
        self.0.store(a + (1 | (half as u64) << 32), Relaxed);
    }

    /// Adds a batch of samples packed like the pair (visits low, half-point wins high). A batch
    /// holds many samples and comes rarely (see `AmafBatch`), so it takes a locked addition and
    /// none is lost.
    #[inline]
    pub fn add_samples(&self, samples: u64) {
        self.0.fetch_add(samples, Relaxed);
    }
}

const STATE_BITS: u32 = 2;
const STATE_MASK: u32 = (1 << STATE_BITS) - 1;

impl Node {
    #[inline]
    pub fn mv(&self) -> MoveCode {
        MoveCode(self.mv.load(Relaxed) & 0x00ff_ffff)
    }

    #[inline]
    pub fn flags(&self) -> u32 {
        self.mv.load(Relaxed) & 0xff00_0000
    }

    /// Prior visits and half-point wins.
    #[inline]
    pub fn prior(&self) -> (u32, u32) {
        let p = self.prior.load(Relaxed);
        (p & 0xffff, p >> 16)
    }

    /// The expansion state: `LEAF`, `EXPANDING` or `EXPANDED`.
    #[inline]
    pub fn state(&self) -> u32 {
        self.kids.load(Acquire) & STATE_MASK
    }

    /// Claims a leaf for expansion (leaf -> expanding); false when another thread has it.
    #[inline]
    pub fn claim(&self) -> bool {
        self.kids.compare_exchange(LEAF, EXPANDING, Acquire, Relaxed).is_ok()
    }

    /// Gives a claimed node back as a leaf (the arena was full).
    #[inline]
    pub fn release_claim(&self) {
        self.kids.store(LEAF, Release);
    }

    /// Publishes `count` children starting at `first`: a thread that sees the node expanded sees
    /// them (and everything written to them before this call).
    #[inline]
    pub fn publish_children(&self, first: u32, count: u32) {
        self.first_child.store(first, Relaxed);
        self.kids.store(EXPANDED | count << STATE_BITS, Release);
    }

    /// The number of children of an expanded node (0 otherwise).
    #[inline]
    pub fn num_children(&self) -> u32 {
        let k = self.kids.load(Acquire);
        if k & STATE_MASK == EXPANDED {
            k >> STATE_BITS
        } else {
            0
        }
    }
}

/// The arena. Nodes are handed out by a bump counter; a full arena refuses further expansions (the
/// search then keeps running playouts from its leaves).
pub struct Tree {
    /// The nodes and, per node, the arrays kept apart from them: the counts (see `Counts`); the score
    /// sum, which only reports read; the AMAF pair (see `amaf_slice`).
    memory: NodeMemory,
    /// Words of each child slice's point set (`child_points`): enough for the cells of the boards
    /// this tree is searched on (`fit_board`).
    point_words: usize,
    /// The bump counter, on a cache line of its own: every expansion writes it, and the arena's
    /// pointers above are read by every step of every thread.
    alloc: CachePadded<Alloc>,
}

/// The arena's allocation state.
#[derive(Default)]
struct Alloc {
    len: AtomicU32,
    /// Child slices claimed, each with its point set's slots.
    slices: AtomicU32,
    full: AtomicBool,
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tree({} of {} nodes)", self.len(), self.capacity())
    }
}

/// Fewest nodes an arena holds: the root and a full set of children on the largest board.
pub const MIN_NODES: usize = 4096;

/// Words of a point set that holds every cell of the largest board.
pub const MAX_POINT_WORDS: usize = MAX_CELLS.div_ceil(64);

/// Where point `p` sits in a point set (`Tree::child_points`, and the backup's sets of first
/// plays): its word, and its bit in that word.
#[inline(always)]
pub fn point_bit(p: Point) -> (usize, u64) {
    (p.idx() / 64, 1 << (p.idx() % 64))
}

impl Tree {
    /// An arena of `capacity` nodes (at least `MIN_NODES`) holding only the root, with point sets
    /// for the largest board until `fit_board` fits them to a smaller one.
    pub fn new(capacity: usize) -> Tree {
        let capacity = capacity.clamp(MIN_NODES, u32::MAX as usize / 2);
        Tree {
            memory: NodeMemory::new(capacity),
            point_words: MAX_POINT_WORDS,
            alloc: CachePadded::new(Alloc {
                len: AtomicU32::new(1),
                slices: AtomicU32::new(0),
                full: AtomicBool::new(false),
            }),
        }
    }

    /// Fits the child slices' point sets to a board of `cells` cells, before a search: a tree that
    /// holds nothing but the root takes the fewest words that board needs; a grown tree keeps its
    /// point sets when they are wide enough, and is replaced by an empty one when they are not (a
    /// tree grown on a smaller board, which the engine never reuses on a larger one).
    pub fn fit_board(&mut self, cells: usize) {
        let words = cells.div_ceil(64);
        assert!(words <= MAX_POINT_WORDS, "a board larger than the largest");
        if self.len() > 1 && self.point_words < words {
            *self = Tree::new(self.capacity());
        }
        if self.len() == 1 {
            self.point_words = words;
        }
    }

    /// Words of each child slice's point set.
    #[inline]
    pub fn point_words(&self) -> usize {
        self.point_words
    }

    /// An arena that takes at most `mb` MiB.
    pub fn with_megabytes(mb: usize) -> Tree {
        Tree::new(Tree::nodes_for_mb(mb))
    }

    /// Bytes of memory one node takes (the node, its counts, score sum and AMAF pair).
    pub const BYTES_PER_NODE: usize = std::mem::size_of::<Node>()
        + std::mem::size_of::<Counts>()
        + std::mem::size_of::<AtomicI64>()
        + std::mem::size_of::<Amaf>();

    /// How many nodes fit in `mb` megabytes.
    pub fn nodes_for_mb(mb: usize) -> usize {
        mb.saturating_mul(1 << 20) / Tree::BYTES_PER_NODE
    }

    #[inline]
    pub fn node(&self, i: u32) -> &Node {
        &self.memory.nodes()[i as usize]
    }

    pub fn root(&self) -> &Node {
        self.node(ROOT)
    }

    /// The counts of node `i` (see `Counts`).
    #[inline]
    pub fn counts(&self, i: u32) -> &Counts {
        &self.memory.counts()[i as usize]
    }

    /// Node `i`'s visits, the ones in flight included, without the prior's.
    #[inline]
    pub fn visits(&self, i: u32) -> u32 {
        self.counts(i).experience().0.wrapping_sub(self.node(i).prior().0)
    }

    /// Node `i`'s half-point wins, without the prior's.
    #[inline]
    pub fn wins(&self, i: u32) -> u32 {
        self.counts(i).experience().1.wrapping_sub(self.node(i).prior().1)
    }

    /// Win rate for the player who made node `i`'s move, priors excluded (0.5 with no visits).
    pub fn winrate(&self, i: u32) -> f64 {
        let n = self.visits(i);
        if n == 0 {
            return 0.5;
        }
        (self.wins(i) as f64 / (2.0 * n as f64)).min(1.0)
    }

    /// One more visit to node `i`, on the way down (see `Counts`).
    #[inline]
    pub fn add_visit(&self, i: u32, writers: Writers) {
        writers.add_u64(&self.counts(i).0, 1);
    }

    /// Adds a visit's result in half points to node `i`, on the way up.
    #[inline]
    pub fn add_wins(&self, i: u32, half_points: u32, writers: Writers) {
        writers.add_u64(&self.counts(i).0, (half_points as u64) << 32);
    }

    /// Sets node `i`'s real visits and half-point wins (the prior stays).
    #[inline]
    pub fn set_stats(&self, i: u32, visits: u32, wins: u32) {
        let (pv, pw) = self.node(i).prior();
        let (seen, won) = (visits.wrapping_add(pv), wins.wrapping_add(pw));
        self.counts(i).0.store(seen as u64 | (won as u64) << 32, Relaxed);
    }

    /// Slots of the arena in use: nodes and point sets.
    pub fn len(&self) -> usize {
        (self.alloc.len.load(Relaxed) as usize).min(self.memory.capacity())
    }

    /// Nodes in the tree (the slots in use less the point sets').
    pub fn node_count(&self) -> usize {
        self.len() - self.alloc.slices.load(Relaxed) as usize * self.point_words
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn capacity(&self) -> usize {
        self.memory.capacity()
    }

    pub fn is_full(&self) -> bool {
        self.alloc.full.load(Relaxed)
    }

    /// Adds Black's final margin of one visit (half points) to node `i`'s score sum.
    #[inline]
    pub fn add_score(&self, i: u32, half_points: i64, writers: Writers) {
        writers.add_i64(&self.memory.scores()[i as usize], half_points);
    }

    /// Black's mean final margin over node `i`'s visits (0 with none).
    pub fn mean_black_margin(&self, i: u32) -> f64 {
        let n = self.visits(i);
        if n == 0 {
            return 0.0;
        }
        self.memory.scores()[i as usize].load(Relaxed) as f64 / (2.0 * n as f64)
    }

    /// Claims a slice of `n` fresh children and the slots of its point set before it; returns the
    /// first child, or `None` (and the arena marked full) when they do not fit.
    pub fn alloc_children(&self, n: u32) -> Option<u32> {
        let words = self.point_words as u32;
        let start = self.alloc(n + words)?;
        self.alloc.slices.fetch_add(1, Relaxed);
        Some(start + words)
    }

    /// Claims `n` consecutive fresh slots; `None` (and the arena marked full) when they do not fit.
    fn alloc(&self, n: u32) -> Option<u32> {
        let cap = self.memory.capacity() as u32;
        let a = &self.alloc;
        if a.full.load(Relaxed) || a.len.load(Relaxed) + n > cap {
            a.full.store(true, Relaxed);
            return None;
        }
        let start = a.len.fetch_add(n, Relaxed);
        if start + n > cap {
            a.full.store(true, Relaxed);
            return None;
        }
        Some(start)
    }

    /// The children of an expanded node (empty for a leaf).
    #[inline]
    pub fn children(&self, i: u32) -> std::ops::Range<u32> {
        let node = self.node(i);
        let n = node.num_children();
        if n == 0 {
            return 0..0;
        }
        let first = node.first_child.load(Relaxed);
        first..first + n
    }

    /// The first child of `i` and the children's counts as a slice (empty for a leaf): one bounds
    /// check for a loop over all of them.
    #[inline]
    pub fn child_counts(&self, i: u32) -> (u32, &[Counts]) {
        let r = self.children(i);
        (r.start, &self.memory.counts()[r.start as usize..r.end as usize])
    }

    /// The AMAF pair of node `i`.
    #[inline]
    pub fn amaf(&self, i: u32) -> &Amaf {
        &self.memory.amaf()[i as usize]
    }

    /// The AMAF pairs of the `n` nodes from `first`: of a child slice's children.
    ///
    /// They live apart from the nodes, eight to a cache line: a backup's AMAF update writes the pairs
    /// of about half the children of every node on its path, at random, so in the nodes it wrote
    /// nearly every line of the children (two nodes to a line), and every other thread selecting
    /// among those children had to fetch all of them again from this core. Packed densely, the same
    /// update writes a quarter of the lines, and the visits and wins that the selection also reads
    /// stay on lines only the children actually visited write.
    #[inline]
    pub fn amaf_slice(&self, first: u32, n: usize) -> &[Amaf] {
        &self.memory.amaf()[first as usize..][..n]
    }

    /// The point set of the child slice that starts at `first`: bit `c % 64` of word `c / 64` is
    /// set when a child is the placement on cell `c`. Children are made in the order of their
    /// points, placements first (`Worker::expand`), so a placement child's index in its slice is
    /// the number of bits below its own: the AMAF update of a backup finds every child it updates
    /// from the set and the playout's first plays, a few words, without looking at each child
    /// (`worker::for_each_match`).
    ///
    /// The set is kept in the AMAF pairs of the `point_words` slots that `alloc_children` claims
    /// before the slice: next to the pairs that update writes, and in an array that reaches every
    /// slot of the arena. (Those slots are no node's; their other arrays stay zero.)
    #[inline]
    pub fn child_points(&self, first: u32) -> &[AtomicU64] {
        let first = first as usize;
        packed_words(&self.memory.amaf()[first - self.point_words..first])
    }

    /// Sets the point set of the unpublished child slice at `first`: its placements' points.
    pub fn set_child_points(&self, first: u32, placements: impl Iterator<Item = Point>) {
        let mut words = [0u64; MAX_POINT_WORDS];
        for p in placements {
            let (word, bit) = point_bit(p);
            words[word] |= bit;
        }
        for (word, w) in self.child_points(first).iter().zip(words) {
            word.store(w, Relaxed);
        }
    }

    /// Sets the move (a `MoveCode` with its flags) of a node not yet published.
    #[inline]
    pub fn set_move(&self, i: u32, code: u32) {
        self.node(i).mv.store(code, Relaxed);
    }

    /// Gives node `i`, fresh from `alloc_children` (never visited, without AMAF samples, not yet
    /// published), its prior: as the node's equivalent experience and as its AMAF pair's starting
    /// point (see `Counts`). Visits and half-point wins saturate at 16 bits (the priors' weights add
    /// up to a few thousand at most). Before the node is published: a thread reading the counts
    /// meanwhile could see them with one prior and subtract the other.
    ///
    /// The counts are written without being read first. The arena's pages come from the system
    /// untouched, and a read of such a page maps the shared zero page, which the write that follows
    /// must replace, flushing the translation caches of every core the search runs on: an
    /// interrupt sent to the other worker's core for each new page of counts (in perf, 2.5% of a
    /// two-thread light 9x9 search in the kernel's page-fault path, under `expand`).
    #[inline]
    pub fn set_prior(&self, i: u32, visits: u32, wins: u32) {
        debug_assert_eq!(self.counts(i).experience(), (0, 0), "a prior for a node already counted");
        let (pv, pw) = (visits.min(0xffff), wins.min(0xffff));
        self.node(i).prior.store(pv | pw << 16, Relaxed);
        self.counts(i).0.store(pv as u64 | (pw as u64) << 32, Relaxed);
        self.amaf(i).set(pv, pw);
    }

    /// The child of `i` reached by `mv`, if `i` is expanded and has it.
    pub fn find_child(&self, i: u32, mv: Move) -> Option<u32> {
        let code = MoveCode::new(mv);
        self.children(i).find(|&c| self.node(c).mv() == code)
    }

    /// The most visited child of `i` (ties: the earlier child), if any child has a visit.
    pub fn best_child(&self, i: u32) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        for c in self.children(i) {
            let v = self.visits(c);
            if v > 0 && best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Copies the subtree under `old_root` of `old` into a fresh arena of the same capacity, with the
    /// copied node as the new root (tree reuse after a move). Breadth first, so children stay
    /// contiguous and the nodes near the root, which matter most, come first; what does not fit, or
    /// is not reached by `deadline`, is left as leaves.
    pub fn reroot(old: &Tree, old_root: u32, deadline: Option<Instant>) -> Tree {
        let mut tree = Tree::new(old.capacity());
        tree.point_words = old.point_words;
        copy_stats(old, old_root, &tree, ROOT);
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((old_root, ROOT));
        let mut copied = 0u32;
        while let Some((from, to)) = queue.pop_front() {
            copied += 1;
            // Reading the clock every node would cost more than the copy.
            if copied.is_multiple_of(1024) && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let kids = old.children(from);
            if kids.is_empty() {
                continue;
            }
            let count = kids.len() as u32;
            let Some(first) = tree.alloc_children(count) else { break };
            for (to, from) in tree.child_points(first).iter().zip(old.child_points(kids.start)) {
                to.store(from.load(Relaxed), Relaxed);
            }
            for (k, c) in kids.enumerate() {
                let dst = first + k as u32;
                copy_stats(old, c, &tree, dst);
                queue.push_back((c, dst));
            }
            tree.node(to).publish_children(first, count);
        }
        tree.alloc.full.store(false, Relaxed);
        tree
    }
}

fn copy_stats(old: &Tree, from: u32, new: &Tree, to: u32) {
    let (a, b) = (old.node(from), new.node(to));
    // The raw counts, priors included, with the prior they include.
    new.counts(to).0.store(old.counts(from).0.load(Relaxed), Relaxed);
    b.prior.store(a.prior.load(Relaxed), Relaxed);
    new.set_move(to, a.mv.load(Relaxed));
    let (visits, wins) = old.amaf(from).get();
    new.amaf(to).set(visits, wins);
    new.memory.scores()[to as usize].store(old.memory.scores()[from as usize].load(Relaxed), Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_and_unpack() {
        for mv in [Move::Place(Point(37)), Move::Pass, Move::Button, Move::Return, Move::Stake(Point(500))] {
            assert_eq!(MoveCode::new(mv).decode(), mv);
        }
        assert_eq!(MoveCode::new(Move::Place(Point(12))).placement(), Some(Point(12)));
        assert_eq!(MoveCode::new(Move::Stake(Point(12))).placement(), None);
        // Flags in the top byte do not change the move a node reports.
        let n = Node::default();
        n.mv.store(MoveCode::new(Move::Place(Point(40))).0 | FLAG_DRAW, Relaxed);
        assert_eq!(n.mv().decode(), Move::Place(Point(40)));
        assert_eq!(n.flags(), FLAG_DRAW);
    }

    #[test]
    fn nodes_take_16_bytes_and_pack_their_fields() {
        assert_eq!(std::mem::size_of::<Node>(), 16);
        let n = Node::default();
        assert_eq!((n.state(), n.num_children()), (LEAF, 0));
        assert!(n.claim());
        assert!(!n.claim(), "a claimed node cannot be claimed again");
        assert_eq!((n.state(), n.num_children()), (EXPANDING, 0));
        n.release_claim();
        assert!(n.claim());
        // The largest board's full set of children fits.
        n.publish_children(77, 626);
        assert_eq!((n.state(), n.num_children(), n.first_child.load(Relaxed)), (EXPANDED, 626, 77));
        let t = Tree::new(0);
        t.set_prior(ROOT, 1200, 70_000);
        assert_eq!(t.root().prior(), (1200, 0xffff));
    }

    #[test]
    fn the_counts_hold_the_prior_and_the_real_visits_leave_it_out() {
        let t = Tree::new(0);
        let first = t.alloc(1).unwrap();
        t.set_prior(first, 10, 14);
        let n = first;
        assert_eq!((t.visits(n), t.wins(n), t.winrate(n)), (0, 0, 0.5));
        assert_eq!(t.counts(n).experience(), (10, 14));
        assert_eq!(t.amaf(first).get(), (10, 14), "AMAF starts at the prior too");
        t.add_visit(n, Writers::Many);
        t.add_wins(n, 2, Writers::One);
        assert_eq!((t.visits(n), t.wins(n), t.winrate(n)), (1, 2, 1.0));
        assert_eq!(t.counts(n).experience(), (11, 16));
        // Real counts set afterwards keep the prior.
        t.set_stats(n, 7, 9);
        assert_eq!((t.visits(n), t.wins(n), t.counts(n).experience()), (7, 9, (17, 23)));
    }

    #[test]
    fn a_full_arena_refuses_without_panicking() {
        let t = Tree::new(0);
        assert_eq!(t.capacity(), MIN_NODES);
        assert_eq!(t.alloc(100), Some(1));
        assert_eq!(t.alloc(MIN_NODES as u32), None);
        assert!(t.is_full());
        assert_eq!(t.alloc(1), None);
    }

    #[test]
    fn reroot_keeps_the_subtree_and_its_statistics() {
        let t = Tree::new(0);
        // Root with two children; the second has two of its own, one a placement.
        let first = t.alloc_children(2).unwrap();
        for (k, p) in [(0, 10u16), (1, 11)] {
            t.set_move(first + k, MoveCode::new(Move::Place(Point(p))).0);
            t.set_stats(first + k, 5 + k, 0);
        }
        t.set_child_points(first, [Point(10), Point(11)].into_iter());
        t.root().publish_children(first, 2);
        let g = t.alloc_children(2).unwrap();
        t.set_move(g, MoveCode::new(Move::Place(Point(300))).0);
        t.set_child_points(g, std::iter::once(Point(300)));
        t.set_move(g + 1, MoveCode::new(Move::Pass).0);
        t.set_stats(g + 1, 2, 3);
        t.add_score(g + 1, -6, Writers::One);
        let second = first + 1;
        t.node(second).publish_children(g, 2);

        assert_eq!(t.best_child(ROOT), Some(second));
        let r = Tree::reroot(&t, second, None);
        assert_eq!(r.visits(ROOT), 6);
        assert_eq!((r.len(), r.node_count()), (1 + MAX_POINT_WORDS + 2, 3));
        let c = r.find_child(ROOT, Move::Pass).unwrap();
        assert_eq!(r.wins(c), 3);
        assert_eq!(r.mean_black_margin(c), -1.5);
        assert!(r.children(c).is_empty());
        let words: Vec<u64> =
            r.child_points(r.children(ROOT).start).iter().map(|w| w.load(Relaxed)).collect();
        let mut expected = vec![0; MAX_POINT_WORDS];
        expected[300 / 64] = 1 << (300 % 64);
        assert_eq!(words, expected, "the copied slice keeps its point set");
    }

    #[test]
    fn point_sets_fit_the_board_and_never_shrink_under_grown_children() {
        let mut t = Tree::new(0);
        assert_eq!(t.point_words(), MAX_POINT_WORDS);
        t.fit_board(111);
        assert_eq!(t.point_words(), 2);
        let first = t.alloc_children(3).unwrap();
        assert_eq!(first, 3, "the set's two words come before the slice");
        t.root().publish_children(first, 3);
        // Grown: a smaller board keeps the wider sets, a larger one gets a tree of its own.
        t.fit_board(50);
        assert_eq!((t.point_words(), t.children(ROOT)), (2, 3..6));
        t.fit_board(421);
        assert_eq!((t.point_words(), t.len()), (7, 1));
        assert!(t.children(ROOT).is_empty());
    }
}
